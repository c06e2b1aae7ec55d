/** Responses kept for retries under an Idempotency-Key, on PostgreSQL: as tables/idempotency.ts. */
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { accounts } from './accounts'

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: text('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.key] }), index('idempotency_keys_created_idx').on(table.createdAt)],
)
