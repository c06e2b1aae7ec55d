/** The SQLite tables as drizzle-kit reads them (drizzle.config.ts): a named export each. */
import { accountTables } from './accounts'
import { idempotencyTables } from './idempotency'
import { jobTables } from './jobs'
import { reviewTables } from './reviews'
import { schemaTables } from './schemas'
import { webhookTables } from './webhooks'

export const { accounts, apiKeys } = accountTables.sqlite
export const { schemas, schemaVersions } = schemaTables.sqlite
export const { jobs, jobFiles, jobTurns, jobReadings } = jobTables.sqlite
export const { idempotencyKeys } = idempotencyTables.sqlite
export const { webhookEndpoints, webhookMessages, webhookAttempts } = webhookTables.sqlite
export const { reviews, layouts, layoutMarks, layoutWords, layoutGenerations } = reviewTables.sqlite
