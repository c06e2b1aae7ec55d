/** Opens the SQLite database with the settings every process sharing the file needs. */
import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import * as tables from './tables'

export type Db = ReturnType<typeof openDb>['db']

export function openDb(path: string) {
  const sqlite = new Database(path, { create: true, strict: true })
  // busy_timeout first: a second process opening the file while the first switches to WAL
  // would otherwise fail at once with "database is locked".
  sqlite.run('PRAGMA busy_timeout = 5000')
  if (path !== ':memory:') sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('PRAGMA synchronous = NORMAL')
  sqlite.run('PRAGMA foreign_keys = ON')
  const db = drizzle({ client: sqlite, schema: tables })
  return { db, sqlite }
}
