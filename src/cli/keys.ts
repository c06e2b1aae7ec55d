/** `extractd keys …`: issue, list and revoke API keys on the database the server uses (D24). */
import { closeDatabase, type Database, DatabaseError, openDatabase } from '../db/database'
import { createKey, listKeys, revokeKey } from '../modules/keys/service'

export interface Output {
  out: (line: string) => void
  err: (line: string) => void
}

/** Runs `run` on the server's database, which must exist already; what fails names the database (D230). */
async function withDatabase<T>(location: string, run: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(location, { poolSize: 1, create: false })
  try {
    return await run(database)
  } catch (error) {
    throw new DatabaseError(database.shown, error)
  } finally {
    await closeDatabase(database)
  }
}

export async function keysCreate(location: string, account: string, io: Output): Promise<number> {
  const issued = await withDatabase(location, (database) => createKey(database, account))
  io.out(`Created key ${issued.id} for account "${issued.accountName}" (${issued.accountId}).`)
  io.out('Store it now: it is shown only once.')
  io.out(issued.key)
  return 0
}

export async function keysList(location: string, json: boolean, io: Output): Promise<number> {
  const keys = await withDatabase(location, listKeys)
  if (json) {
    io.out(
      JSON.stringify(
        keys.map((key) => ({
          id: key.id,
          account: key.accountName,
          prefix: key.prefix,
          created_at: key.createdAt,
          revoked_at: key.revokedAt,
        })),
      ),
    )
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
  for (const row of rows)
    io.out(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
  return 0
}

export async function keysRevoke(location: string, keyId: string, io: Output): Promise<number> {
  const outcome = await withDatabase(location, (database) => revokeKey(database, keyId))
  if (outcome === 'not_found') {
    io.err(`extractd: no key with ID ${keyId}`)
    return 1
  }
  io.out(outcome === 'revoked' ? `Revoked key ${keyId}.` : `Key ${keyId} was already revoked.`)
  return 0
}
