/** Accounts and their API keys, on PostgreSQL: the same columns as tables/accounts.ts. */
import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'

export const accounts = pgTable('accounts', {
  id: text('id')
    .primaryKey()
    .$defaultFn(() => newId('acc')),
  name: text('name').notNull().unique(),
  createdAt: text('created_at').notNull().$defaultFn(nowIso),
})

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('key')),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    keyHash: text('key_hash').notNull().unique(),
    keyPrefix: text('key_prefix').notNull(),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
    revokedAt: text('revoked_at'),
  },
  (table) => [index('api_keys_account_idx').on(table.accountId)],
)
