/**
 * Accounts and API keys (D24): keys carry 256 random bits, are shown once, and only their
 * SHA-256 is stored, so authenticating is a hash lookup that leaks no timing about the key.
 * Active keys are cached per process and the cache is emptied whenever the database may have
 * changed under it (D64), so a revocation from any process counts from the next request.
 */
import type { Database } from 'bun:sqlite'
import { openSync, readSync } from 'node:fs'
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { preparedFor } from '../../db/prepared'
import { accounts, apiKeys } from '../../db/tables'
import { nowIso } from '../../lib/time'

const KEY_PREFIX = 'exd_'
const KEY_SHAPE = /^exd_[A-Za-z0-9_-]{43}$/
const SHOWN_PREFIX_LENGTH = 10

export interface Principal {
  accountId: string
  keyId: string
}

export interface IssuedKey {
  id: string
  accountId: string
  accountName: string
  key: string
  createdAt: string
}

export interface KeySummary {
  id: string
  accountName: string
  prefix: string
  createdAt: string
  revokedAt: string | null
}

function hashKey(key: string): string {
  return Bun.CryptoHasher.hash('sha256', key, 'hex')
}

function generateKey(): string {
  return KEY_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

function issueKey(tx: Tx, accountName: string): IssuedKey {
  const account =
    tx.select().from(accounts).where(eq(accounts.name, accountName)).get() ??
    tx.insert(accounts).values({ name: accountName }).returning().get()
  const key = generateKey()
  const row = tx
    .insert(apiKeys)
    .values({ accountId: account.id, keyHash: hashKey(key), keyPrefix: key.slice(0, SHOWN_PREFIX_LENGTH) })
    .returning()
    .get()
  return { id: row.id, accountId: account.id, accountName: account.name, key, createdAt: row.createdAt }
}

/** Issues a key for the named account, creating the account if it does not exist yet. */
export function createKey(db: Db, accountName: string): IssuedKey {
  return db.transaction((tx) => issueKey(tx, accountName), { behavior: 'immediate' })
}

/** D25: on a database without any key, issues one for a new account; otherwise nothing. */
export function createFirstKey(db: Db, accountName: string): IssuedKey | undefined {
  // The usual start finds keys with a plain read and takes no write lock.
  if (db.select({ id: apiKeys.id }).from(apiKeys).limit(1).get()) return undefined
  return db.transaction(
    (tx) => (tx.select({ id: apiKeys.id }).from(apiKeys).limit(1).get() ? undefined : issueKey(tx, accountName)),
    { behavior: 'immediate' },
  )
}

export function listKeys(db: Db): KeySummary[] {
  return db
    .select({
      id: apiKeys.id,
      accountName: accounts.name,
      prefix: apiKeys.keyPrefix,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
    .all()
}

export type RevokeOutcome = 'revoked' | 'already_revoked' | 'not_found'

export function revokeKey(db: Db, keyId: string): RevokeOutcome {
  const row = db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)).get()
  if (!row) return 'not_found'
  if (row.revokedAt) return 'already_revoked'
  db.update(apiKeys).set({ revokedAt: nowIso() }).where(eq(apiKeys.id, keyId)).run()
  // Commits of this connection do not move its data_version: forget the cached keys here.
  activeKeysOf(db).forget()
  return 'revoked'
}

/** Enough for every key of a busy server; past it the oldest entry makes room. */
const MAX_CACHED_KEYS = 10_000

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

/**
 * Active keys by hash, in front of the lookup. SQLite's `data_version` changes whenever another
 * connection (another process, `extractd keys revoke`) commits, so the cache is emptied then;
 * a revocation through this connection empties it directly (`revokeKey`). It is asked only after
 * some connection committed (`commitWatcher`), which reads are not. New keys need no signal: a
 * key the cache does not hold is looked up.
 */
function createActiveKeys(db: Db) {
  const lookup = db
    .select({ accountId: apiKeys.accountId, keyId: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare()
  const dataVersion = db.$client.prepare<{ data_version: number }, []>('PRAGMA data_version')
  const committed = commitWatcher(db.$client)
  const cached = new Map<string, Principal>()
  let seenVersion = dataVersion.get()!.data_version

  return {
    find(hash: string): Principal | undefined {
      if (committed()) {
        const version = dataVersion.get()!.data_version
        if (version !== seenVersion) {
          cached.clear()
          seenVersion = version
        }
      }
      const known = cached.get(hash)
      if (known) return known
      const principal = lookup.get({ hash })
      if (!principal) return undefined
      if (cached.size >= MAX_CACHED_KEYS) cached.delete(cached.keys().next().value!)
      cached.set(hash, principal)
      return principal
    },
    forget() {
      cached.clear()
    },
  }
}

const activeKeysOf = preparedFor(createActiveKeys)

/** The account behind an active key, or undefined for a malformed, unknown or revoked key. */
export function authenticateKey(db: Db, key: string): Principal | undefined {
  return KEY_SHAPE.test(key) ? activeKeysOf(db).find(hashKey(key)) : undefined
}
