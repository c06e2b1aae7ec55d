/** What the keys service needs from a database; each dialect (sqlite.ts, postgres.ts) implements it. */

export interface Principal {
  accountId: string
  keyId: string
}

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

export interface KeysRepository {
  /** Stores a key for the named account, creating the account if it does not exist yet. */
  issue(accountName: string, key: NewKey): Promise<StoredKey>
  /** Stores the key only if the database holds none yet, decided once however many processes ask at once. */
  issueFirst(accountName: string, key: NewKey): Promise<StoredKey | undefined>
  list(): Promise<KeySummary[]>
  revoke(keyId: string): Promise<RevokeOutcome>
  /**
   * The active key with this hash. A key revoked by any process is refused from the next call on
   * (D64); where the database allows, the answer is at once.
   */
  findActive(hash: string): Principal | undefined | Promise<Principal | undefined>
}
