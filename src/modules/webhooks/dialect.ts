/** The webhooks repository of a database: its SQLite or its PostgreSQL implementation. */
import { perDatabase } from '../../db/database'
import { postgresWebhooks } from './postgres'
import type { WebhooksRepository } from './repository'
import { sqliteWebhooks } from './sqlite'

export const webhooksRepository = perDatabase<WebhooksRepository>({ sqlite: sqliteWebhooks, postgres: postgresWebhooks })
