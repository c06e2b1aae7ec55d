/**
 * The tables as drizzle-kit reads them, a named export each, in the dialect its config names
 * (drizzle.config.ts for SQLite, drizzle.pg.config.ts for PostgreSQL; D212).
 */
import { accountTables } from '../src/db/tables/accounts'
import { idempotencyTables } from '../src/db/tables/idempotency'
import { jobTables } from '../src/db/tables/jobs'
import type { Kind } from '../src/db/tables/kit'
import { reviewTables } from '../src/db/tables/reviews'
import { schemaTables } from '../src/db/tables/schemas'
import { webhookTables } from '../src/db/tables/webhooks'

// Set by the drizzle-kit config that loads this file. A tool's input, kept out of src, where only
// config.ts reads the environment (D27).
const kind: Kind = process.env.EXTRACTD_DRIZZLE_DIALECT === 'postgres' ? 'postgres' : 'sqlite'

export const { accounts, apiKeys } = accountTables[kind]
export const { schemas, schemaVersions } = schemaTables[kind]
export const { jobs, jobFiles, jobTurns, jobReadings } = jobTables[kind]
export const { idempotencyKeys } = idempotencyTables[kind]
export const { webhookEndpoints, webhookMessages, webhookAttempts } = webhookTables[kind]
export const { reviews, layouts, layoutMarks, layoutWords, layoutGenerations } = reviewTables[kind]
