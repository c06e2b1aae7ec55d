/** The PostgreSQL tables as drizzle-kit reads them (drizzle.pg.config.ts): a named export each. */
import { accountTables } from './accounts'
import { idempotencyTables } from './idempotency'
import { jobTables } from './jobs'
import { reviewTables } from './reviews'
import { schemaTables } from './schemas'
import { webhookTables } from './webhooks'

export const { accounts, apiKeys } = accountTables.postgres
export const { schemas, schemaVersions } = schemaTables.postgres
export const { jobs, jobFiles, jobTurns, jobReadings } = jobTables.postgres
export const { idempotencyKeys } = idempotencyTables.postgres
export const { webhookEndpoints, webhookMessages, webhookAttempts } = webhookTables.postgres
export const { reviews, layouts, layoutMarks, layoutWords, layoutGenerations } = reviewTables.postgres
