/** `extractd keys …`: issue, list and revoke API keys on the database the server uses (D24). */
import { type Db, openDb } from '../db/client'
import { migrate } from '../db/migrate'
import { createKey, listKeys, revokeKey } from '../modules/keys/service'

export interface Output {
  out: (line: string) => void
  err: (line: string) => void
}

function withDb<T>(dbPath: string, run: (db: Db) => T): T {
  const { db, sqlite } = openDb(dbPath)
  try {
    migrate(db)
    return run(db)
  } finally {
    sqlite.close()
  }
}

export function keysCreate(dbPath: string, account: string, io: Output): number {
  const issued = withDb(dbPath, (db) => createKey(db, account))
  io.out(`Created key ${issued.id} for account "${issued.accountName}" (${issued.accountId}).`)
  io.out('Store it now: it is shown only once.')
  io.out(issued.key)
  return 0
}

export function keysList(dbPath: string, json: boolean, io: Output): number {
  const keys = withDb(dbPath, listKeys)
  if (json) {
    io.out(JSON.stringify(keys.map((key) => ({
      id: key.id,
      account: key.accountName,
      prefix: key.prefix,
      created_at: key.createdAt,
      revoked_at: key.revokedAt,
    }))))
    return 0
  }
  if (keys.length === 0) {
    io.out('No keys. Create one with: extractd keys create --account NAME')
    return 0
  }
  const rows = [
    ['ID', 'ACCOUNT', 'PREFIX', 'CREATED', 'STATUS'],
    ...keys.map((key) => [key.id, key.accountName, `${key.prefix}…`, key.createdAt, key.revokedAt ? `revoked ${key.revokedAt}` : 'active']),
  ]
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  for (const row of rows) io.out(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd())
  return 0
}

export function keysRevoke(dbPath: string, keyId: string, io: Output): number {
  const outcome = withDb(dbPath, (db) => revokeKey(db, keyId))
  if (outcome === 'not_found') {
    io.err(`extractd: no key with ID ${keyId}`)
    return 1
  }
  io.out(outcome === 'revoked' ? `Revoked key ${keyId}.` : `Key ${keyId} was already revoked.`)
  return 0
}
