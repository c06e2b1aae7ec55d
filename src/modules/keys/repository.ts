/**
 * Accounts and their API keys in the database, written once for both dialects (D210). Active keys
 * are remembered per process in front of the lookup, and forgotten whenever another process may
 * have committed (the database's data version, D64); PostgreSQL cannot tell, so there every
 * request looks its key up (D101). A revocation through this process forgets directly; new keys
 * need no signal, since a key not remembered is looked up.
 */
import type { Principal } from '../../http/auth'
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { perDatabase } from '../../db/database'
import { forUpdate, lock, type Part, type Queries, run } from '../../db/dialect'
import { accountTables } from '../../db/tables/accounts'
import { nowIso } from '../../lib/time'

export type { Principal }

export interface KeySummary {
  id: string
  accountName: string
  prefix: string
  createdAt: string
  revokedAt: string | null
}

/** A key to store: its hash and its shown prefix, never the key itself. */
export interface NewKey {
  hash: string
  prefix: string
}

export interface StoredKey {
  id: string
  accountId: string
  accountName: string
  createdAt: string
}

export type RevokeOutcome = 'revoked' | 'already_revoked' | 'not_found'

/** Enough for every key of a busy server; past it the oldest entry makes room. */
const MAX_REMEMBERED_KEYS = 10_000

/** Any number unique to extractd's first key: instances take turns on it. */
const FIRST_KEY_LOCK = 0x6b657973 // "keys"

export const keysRepository = perDatabase((database) => {
  const { db } = database
  const { accounts, apiKeys } = accountTables[database.kind]
  const lookup = database.prepare('active_key', (q) =>
    q
      .select({ accountId: apiKeys.accountId, keyId: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt))),
  )
  const remembered = new Map<string, Principal>()
  let seenVersion: number | undefined

  function* store(tx: Queries, accountName: string, key: NewKey): Part<StoredKey> {
    yield* run(tx.insert(accounts).values({ name: accountName }).onConflictDoNothing({ target: accounts.name }))
    const [account] = yield* run(tx.select().from(accounts).where(eq(accounts.name, accountName)))
    const [row] = yield* run(tx.insert(apiKeys).values({ accountId: account!.id, keyHash: key.hash, keyPrefix: key.prefix }).returning())
    return { id: row!.id, accountId: account!.id, accountName: account!.name, createdAt: row!.createdAt }
  }

  const anyKey = async () => (await db.select({ id: apiKeys.id }).from(apiKeys).limit(1)).length > 0

  return {
    /** Stores a key for the named account, creating the account if it does not exist yet. */
    issue: (accountName: string, key: NewKey): Promise<StoredKey> => database.transaction((tx) => store(tx, accountName, key)),

    /** Stores the key only if the database holds none yet, decided once however many processes ask at once. */
    async issueFirst(accountName: string, key: NewKey): Promise<StoredKey | undefined> {
      // The usual start finds keys with a plain read and takes no lock.
      if (await anyKey()) return undefined
      return database.transaction(function* (tx) {
        yield* lock(FIRST_KEY_LOCK)
        const [held] = yield* run(tx.select({ id: apiKeys.id }).from(apiKeys).limit(1))
        return held ? undefined : yield* store(tx, accountName, key)
      })
    },

    list: (): Promise<KeySummary[]> =>
      db
        .select({ id: apiKeys.id, accountName: accounts.name, prefix: apiKeys.keyPrefix, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)),

    /** One account's keys, oldest first, revoked ones included (D337). */
    listOf: (accountId: string): Promise<KeySummary[]> =>
      db
        .select({ id: apiKeys.id, accountName: accounts.name, prefix: apiKeys.keyPrefix, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .where(eq(apiKeys.accountId, accountId))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)),

    /** Stores a key for an account that exists (D337: the caller's own). */
    async issueFor(accountId: string, key: NewKey): Promise<Omit<StoredKey, 'accountName'>> {
      const [row] = await db.insert(apiKeys).values({ accountId, keyHash: key.hash, keyPrefix: key.prefix }).returning()
      return { id: row!.id, accountId, createdAt: row!.createdAt }
    },

    async revoke(keyId: string): Promise<RevokeOutcome> {
      const outcome = await database.transaction(function* (tx) {
        const [row] = yield* forUpdate(tx.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)))
        if (!row) return 'not_found'
        if (row.revokedAt) return 'already_revoked'
        yield* run(tx.update(apiKeys).set({ revokedAt: nowIso() }).where(eq(apiKeys.id, keyId)))
        return 'revoked'
      })
      // Commits of this process do not move its data version.
      if (outcome === 'revoked') remembered.clear()
      return outcome
    },

    /**
     * The active key with this hash. A key revoked by any process is refused from the next call on
     * (D64); a remembered key is answered at once, without a promise.
     */
    findActive(hash: string): Principal | undefined | Promise<Principal | undefined> {
      const version = database.dataVersion()
      if (version !== seenVersion) {
        remembered.clear()
        seenVersion = version
      }
      const known = remembered.get(hash)
      if (known) return known
      return lookup.execute({ hash }).then(([principal]) => {
        if (principal && version !== undefined) {
          if (remembered.size >= MAX_REMEMBERED_KEYS) remembered.delete(remembered.keys().next().value!)
          remembered.set(hash, principal)
        }
        return principal
      })
    },
  }
})
