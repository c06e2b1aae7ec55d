/** Accounts and their API keys: only the keys module reads or writes these tables. */

import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'

export const accounts = sqliteTable('accounts', {
  id: text('id')
    .primaryKey()
    .$defaultFn(() => newId('acc')),
  name: text('name').notNull().unique(),
  createdAt: text('created_at').notNull().$defaultFn(nowIso),
})

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('key')),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    /** SHA-256 of the key, hex; the key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** The first characters of the key, so an operator can tell keys apart in `keys list`. */
    keyPrefix: text('key_prefix').notNull(),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
    revokedAt: text('revoked_at'),
  },
  (table) => [index('api_keys_account_idx').on(table.accountId)],
)
