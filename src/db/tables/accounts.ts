/** Accounts and their API keys: only the keys module reads or writes these tables. */
import { nowIso } from '../../lib/time'
import { defineTables } from './kit'

export const accountTables = defineTables((k) => {
  const accounts = k.table('accounts', {
    id: k.id('acc'),
    name: k.text('name').notNull().unique(),
    createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
  })

  const apiKeys = k.table(
    'api_keys',
    {
      id: k.id('key'),
      accountId: k
        .text('account_id')
        .notNull()
        .references(() => accounts.id),
      /** SHA-256 of the key, hex; the key itself is never stored. */
      keyHash: k.text('key_hash').notNull().unique(),
      /** The first characters of the key, so an operator can tell keys apart in `keys list`. */
      keyPrefix: k.text('key_prefix').notNull(),
      createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
      revokedAt: k.text('revoked_at'),
    },
    (table) => [k.index('api_keys_account_idx').on(table.accountId)],
  )

  return { accounts, apiKeys }
})
