/** Responses kept for retries under an Idempotency-Key: only src/http/idempotency.ts reads or writes this table. */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { accounts } from './accounts'

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    /** SHA-256 of the request's method, path, query and body, hex. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still being processed. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: text('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.key] }), index('idempotency_keys_created_idx').on(table.createdAt)],
)
