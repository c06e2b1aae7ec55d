/**
 * Keys on SQLite. Active keys are remembered per process in front of the lookup, and forgotten
 * whenever the database may have changed under them (D64): SQLite's `data_version` changes when
 * another connection (another process, `extractd keys revoke`) commits, and it is asked only after
 * some connection committed (`commitWatcher`), which reads are not. A revocation through this
 * connection forgets directly. New keys need no signal: a key not remembered is looked up.
 */
import type { Database } from 'bun:sqlite'
import { openSync, readSync } from 'node:fs'
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import type { SqliteDatabase } from '../../db/database'
import { accounts, apiKeys } from '../../db/tables'
import { nowIso } from '../../lib/time'
import type { KeysRepository, NewKey, Principal, StoredKey } from './repository'

/** Enough for every key of a busy server; past it the oldest entry makes room. */
const MAX_REMEMBERED_KEYS = 10_000

function store(tx: Tx, accountName: string, key: NewKey): StoredKey {
  const account = tx.select().from(accounts).where(eq(accounts.name, accountName)).get() ?? tx.insert(accounts).values({ name: accountName }).returning().get()
  const row = tx.insert(apiKeys).values({ accountId: account.id, keyHash: key.hash, keyPrefix: key.prefix }).returning().get()
  return { id: row.id, accountId: account.id, accountName: account.name, createdAt: row.createdAt }
}

/**
 * Whether any connection may have committed since it was last asked. SQLite counts every
 * commit in the header of its WAL index, the `-shm` file all connections share ("iChange", bytes
 * 8–11, native byte order: https://www.sqlite.org/walformat.html); reading it is one pread of 12
 * bytes (about 1 µs), where a statement such as `PRAGMA data_version` costs about 4 µs, a sixth
 * of a cached request. A database without a WAL index (in memory) always answers true.
 */
function commitWatcher(sqlite: Database): () => boolean {
  let fd: number
  try {
    fd = openSync(`${sqlite.filename}-shm`, 'r')
  } catch {
    return () => true
  }
  const header = new Uint8Array(12)
  const view = new DataView(header.buffer)
  let seen = -1
  return () => {
    if (readSync(fd, header, 0, 12, 0) < 12) return true
    const count = view.getUint32(8, true)
    if (count === seen) return false
    seen = count
    return true
  }
}

export function sqliteKeys({ db, sqlite }: SqliteDatabase): KeysRepository {
  const lookup = db
    .select({ accountId: apiKeys.accountId, keyId: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare()
  const dataVersion = sqlite.prepare<{ data_version: number }, []>('PRAGMA data_version')
  const committed = commitWatcher(sqlite)
  let seenVersion = dataVersion.get()!.data_version
  const remembered = new Map<string, Principal>()

  return {
    async issue(accountName, key) {
      return db.transaction((tx) => store(tx, accountName, key), { behavior: 'immediate' })
    },

    async issueFirst(accountName, key) {
      // The usual start finds keys with a plain read and takes no write lock.
      if (db.select({ id: apiKeys.id }).from(apiKeys).limit(1).get()) return undefined
      return db.transaction((tx) => (tx.select({ id: apiKeys.id }).from(apiKeys).limit(1).get() ? undefined : store(tx, accountName, key)), {
        behavior: 'immediate',
      })
    },

    async list() {
      return db
        .select({ id: apiKeys.id, accountName: accounts.name, prefix: apiKeys.keyPrefix, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
        .all()
    },

    async revoke(keyId) {
      const row = db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)).get()
      if (!row) return 'not_found'
      if (row.revokedAt) return 'already_revoked'
      db.update(apiKeys).set({ revokedAt: nowIso() }).where(eq(apiKeys.id, keyId)).run()
      // Commits of this connection do not move its data_version.
      remembered.clear()
      return 'revoked'
    },

    findActive(hash) {
      if (committed()) {
        const version = dataVersion.get()!.data_version
        if (version !== seenVersion) {
          remembered.clear()
          seenVersion = version
        }
      }
      const known = remembered.get(hash)
      if (known) return known
      const principal = lookup.get({ hash })
      if (!principal) return undefined
      if (remembered.size >= MAX_REMEMBERED_KEYS) remembered.delete(remembered.keys().next().value!)
      remembered.set(hash, principal)
      return principal
    },
  }
}
