/**
 * Accounts and API keys (D24): keys carry 256 random bits, are shown once, and only their
 * SHA-256 is stored, so authenticating is a hash lookup that leaks no timing about the key.
 */
import { type Database, perDatabase } from '../../db/database'
import { errors } from '../../http/errors'
import type { ApiKey, CreatedApiKey } from './model'
import { postgresKeys } from './postgres'
import type { KeySummary, KeysRepository, Principal, RevokeOutcome } from './repository'
import { sqliteKeys } from './sqlite'

/** The keys store of the database in use. */
const keysRepository = perDatabase<KeysRepository>({ sqlite: sqliteKeys, postgres: postgresKeys })

export type { KeySummary, Principal, RevokeOutcome }

const KEY_PREFIX = 'exd_'
const KEY_SHAPE = /^exd_[A-Za-z0-9_-]{43}$/
const SHOWN_PREFIX_LENGTH = 10

export interface IssuedKey {
  id: string
  accountId: string
  accountName: string
  key: string
  createdAt: string
}

function hashKey(key: string): string {
  return Bun.CryptoHasher.hash('sha256', key, 'hex')
}

function generateKey() {
  const key = KEY_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  return { key, stored: { hash: hashKey(key), prefix: key.slice(0, SHOWN_PREFIX_LENGTH) } }
}

/** Issues a key for the named account, creating the account if it does not exist yet. */
export async function createKey(database: Database, accountName: string): Promise<IssuedKey> {
  const { key, stored } = generateKey()
  return { ...(await keysRepository(database).issue(accountName, stored)), key }
}

/** D25: on a database without any key, issues one for a new account; otherwise nothing. */
export async function createFirstKey(database: Database, accountName: string): Promise<IssuedKey | undefined> {
  const { key, stored } = generateKey()
  const issued = await keysRepository(database).issueFirst(accountName, stored)
  return issued && { ...issued, key }
}

export function listKeys(database: Database): Promise<KeySummary[]> {
  return keysRepository(database).list()
}

export function revokeKey(database: Database, keyId: string): Promise<RevokeOutcome> {
  return keysRepository(database).revoke(keyId)
}

/** The account behind an active key, or undefined for a malformed, unknown or revoked key. */
export function authenticateKey(database: Database, key: string): Principal | undefined | Promise<Principal | undefined> {
  return KEY_SHAPE.test(key) ? keysRepository(database).findActive(hashKey(key)) : undefined
}

// ── The signed-in account's own keys (D337) ─────────────────────────────────────────────────

/** The account's keys, the principal's key among them; keys are few, so the account's are picked from the list. */
async function accountKeys(database: Database, principal: Principal): Promise<KeySummary[]> {
  const all = await keysRepository(database).list()
  const own = all.find((key) => key.id === principal.keyId)
  return own ? all.filter((key) => key.accountName === own.accountName) : []
}

function wireKey(key: KeySummary, principal: Principal): ApiKey {
  return { id: key.id, prefix: key.prefix, created_at: key.createdAt, revoked_at: key.revokedAt, current: key.id === principal.keyId }
}

export async function listAccountKeys(database: Database, principal: Principal): Promise<ApiKey[]> {
  return (await accountKeys(database, principal)).map((key) => wireKey(key, principal))
}

/** A new key for the principal's account, shown once. */
export async function createAccountKey(database: Database, principal: Principal): Promise<CreatedApiKey> {
  const own = (await accountKeys(database, principal)).find((key) => key.id === principal.keyId)
  // The principal's key was found when the request was authenticated; gone since, it is as if revoked.
  if (!own) throw errors.invalidApiKey()
  const issued = await createKey(database, own.accountName)
  return { id: issued.id, prefix: issued.key.slice(0, SHOWN_PREFIX_LENGTH), created_at: issued.createdAt, revoked_at: null, current: false, key: issued.key }
}

/** Revokes one of the account's keys (the principal's own too); another account's or an unknown one is 404. */
export async function revokeAccountKey(database: Database, principal: Principal, keyId: string): Promise<ApiKey> {
  const target = (await accountKeys(database, principal)).find((key) => key.id === keyId)
  if (!target) throw errors.notFound('API key')
  if ((await revokeKey(database, keyId)) === 'not_found') throw errors.notFound('API key')
  const revoked = (await accountKeys(database, principal)).find((key) => key.id === keyId) ?? target
  return wireKey(revoked, principal)
}
