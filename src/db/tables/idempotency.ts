/** Responses kept for retries under an Idempotency-Key: only src/http/idempotency-store.ts reads or writes this table. */
import { accountTables } from './accounts'
import { defineTables } from './kit'

export const idempotencyTables = defineTables((k) => {
  const { accounts } = k.of(accountTables)
  const idempotencyKeys = k.table(
    'idempotency_keys',
    {
      accountId: k
        .text('account_id')
        .notNull()
        .references(() => accounts.id),
      key: k.text('key').notNull(),
      /** SHA-256 of the request's method, path, query and body, hex. */
      requestHash: k.text('request_hash').notNull(),
      /** Null while the first request is still being processed. */
      responseStatus: k.integer('response_status'),
      responseBody: k.text('response_body'),
      createdAt: k.text('created_at').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.accountId, table.key] }), k.index('idempotency_keys_created_idx').on(table.createdAt)],
  )
  return { idempotencyKeys }
})
