/**
 * Keys on PostgreSQL. The first key is issued under a transaction-level advisory lock, so
 * instances starting together issue one. Every request looks its key up: an instance keeps no
 * keys in memory, so a revocation on any instance counts from the next request everywhere (D64, D98).
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { PostgresDatabase } from '../../db/database'
import type { PgTx } from '../../db/postgres'
import { accounts, apiKeys } from '../../db/pg-tables'
import { nowIso } from '../../lib/time'
import type { KeysRepository, NewKey, StoredKey } from './repository'

/** Any number unique to extractd's first key: instances take turns on it. */
const FIRST_KEY_LOCK = 0x6b657973 // "keys"

async function store(tx: PgTx, accountName: string, key: NewKey): Promise<StoredKey> {
  await tx.insert(accounts).values({ name: accountName }).onConflictDoNothing({ target: accounts.name })
  const [account] = await tx.select().from(accounts).where(eq(accounts.name, accountName))
  const [row] = await tx.insert(apiKeys).values({ accountId: account!.id, keyHash: key.hash, keyPrefix: key.prefix }).returning()
  return { id: row!.id, accountId: account!.id, accountName: account!.name, createdAt: row!.createdAt }
}

export function postgresKeys({ db, transaction }: PostgresDatabase): KeysRepository {
  const lookup = db
    .select({ accountId: apiKeys.accountId, keyId: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare('active_key')
  const anyKey = async (tx: PgTx | PostgresDatabase['db']) => (await tx.select({ id: apiKeys.id }).from(apiKeys).limit(1)).length > 0

  return {
    issue: (accountName, key) => transaction((tx) => store(tx, accountName, key)),

    async issueFirst(accountName, key) {
      if (await anyKey(db)) return undefined
      return transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_KEY_LOCK})`)
        return (await anyKey(tx)) ? undefined : store(tx, accountName, key)
      })
    },

    list: () =>
      db
        .select({ id: apiKeys.id, accountName: accounts.name, prefix: apiKeys.keyPrefix, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)),

    revoke: (keyId) =>
      transaction(async (tx) => {
        const [row] = await tx.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)).for('update')
        if (!row) return 'not_found'
        if (row.revokedAt) return 'already_revoked'
        await tx.update(apiKeys).set({ revokedAt: nowIso() }).where(eq(apiKeys.id, keyId))
        return 'revoked'
      }),

    findActive: async (hash) => (await lookup.execute({ hash }))[0],
  }
}
