/**
 * Every table set, the tables of one module each (D212): accounts and keys (keys module), schemas,
 * jobs (extraction), idempotency keys (src/http/idempotency-store.ts), webhooks, reviews and learned layouts. For what works on
 * all tables at once (db copy, tests); a module imports its own set's file.
 */
import { accountTables } from './accounts'
import { idempotencyTables } from './idempotency'
import { jobTables } from './jobs'
import { reviewTables } from './reviews'
import { schemaTables } from './schemas'
import { webhookTables } from './webhooks'

export const tableSets = [accountTables, schemaTables, jobTables, idempotencyTables, webhookTables, reviewTables]
