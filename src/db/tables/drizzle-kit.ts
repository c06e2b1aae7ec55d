/**
 * The tables as drizzle-kit reads them, a named export each, in the dialect its config names
 * (drizzle.config.ts for SQLite, drizzle.pg.config.ts for PostgreSQL; D212).
 */
import { accountTables } from './accounts'
import { idempotencyTables } from './idempotency'
import { jobTables } from './jobs'
import type { Kind } from './kit'
import { reviewTables } from './reviews'
import { schemaTables } from './schemas'
import { webhookTables } from './webhooks'

// Set by the drizzle-kit config that loads this file; nothing else reads it.
const kind: Kind = process.env.EXTRACTD_DRIZZLE_DIALECT === 'postgres' ? 'postgres' : 'sqlite'

export const { accounts, apiKeys } = accountTables[kind]
export const { schemas, schemaVersions } = schemaTables[kind]
export const { jobs, jobFiles, jobTurns, jobReadings } = jobTables[kind]
export const { idempotencyKeys } = idempotencyTables[kind]
export const { webhookEndpoints, webhookMessages, webhookAttempts } = webhookTables[kind]
export const { reviews, layouts, layoutMarks, layoutWords, layoutGenerations } = reviewTables[kind]
