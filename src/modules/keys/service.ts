/**
 * Accounts and API keys (D24): keys carry 256 random bits, are shown once, and only their
 * SHA-256 is stored, so authenticating is a hash lookup that leaks no timing about the key.
 */
import type { Database } from '../../db/database'
import { errors } from '../../http/errors'
import type { ApiKey, CreatedApiKey } from './model'
import { type KeySummary, keysRepository, type Principal, type RevokeOutcome } from './repository'

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

function wireKey(key: KeySummary, principal: Principal): ApiKey {
  return { id: key.id, prefix: key.prefix, created_at: key.createdAt, revoked_at: key.revokedAt, current: key.id === principal.keyId }
}

export async function listAccountKeys(database: Database, principal: Principal): Promise<ApiKey[]> {
  return (await keysRepository(database).listOf(principal.accountId)).map((key) => wireKey(key, principal))
}

/** A new key for the principal's account, shown once. */
export async function createAccountKey(database: Database, principal: Principal): Promise<CreatedApiKey> {
  const { key, stored } = generateKey()
  const issued = await keysRepository(database).issueFor(principal.accountId, stored)
  return { id: issued.id, prefix: stored.prefix, created_at: issued.createdAt, revoked_at: null, current: false, key }
}

/** Revokes one of the account's keys (the principal's own too); another account's or an unknown one is 404. */
export async function revokeAccountKey(database: Database, principal: Principal, keyId: string): Promise<ApiKey> {
  const repository = keysRepository(database)
  const own = async () => (await repository.listOf(principal.accountId)).find((key) => key.id === keyId)
  if (!(await own())) throw errors.notFound('API key')
  await repository.revoke(keyId)
  const revoked = await own()
  if (!revoked) throw errors.notFound('API key')
  return wireKey(revoked, principal)
}
