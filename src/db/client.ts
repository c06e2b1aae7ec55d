/** Opens the SQLite database with the settings every process sharing the file needs. */
import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'

export type Db = ReturnType<typeof openDb>['db']
/** What `db.transaction` hands its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/**
 * Switching a new file to WAL needs it exclusively for a moment, and SQLite answers "database is
 * locked" at once (no busy wait) when two processes try together: take turns for up to ~2 s.
 */
function enableWal(sqlite: Database): void {
  for (let attempt = 1; ; attempt++) {
    try {
      sqlite.run('PRAGMA journal_mode = WAL')
      return
    } catch (error) {
      if (attempt >= 100 || !/locked|busy/i.test(String(error))) throw error
      Bun.sleepSync(5 + Math.random() * 15)
    }
  }
}

export function openDb(path: string) {
  const sqlite = new Database(path, { create: true, strict: true })
  // busy_timeout first: a second process opening the file while the first switches to WAL
  // would otherwise fail at once with "database is locked".
  sqlite.run('PRAGMA busy_timeout = 5000')
  // Space freed by deleted documents can then be given back to the file system by the job
  // runner's purge (D133); it takes effect on a new file only (an older one needs one VACUUM).
  sqlite.run('PRAGMA auto_vacuum = INCREMENTAL')
  if (path !== ':memory:') enableWal(sqlite)
  sqlite.run('PRAGMA synchronous = NORMAL')
  sqlite.run('PRAGMA foreign_keys = ON')
  // Without Drizzle's relational query API (db.query), which nothing uses: building it for every table costs each start (D150).
  const db = drizzle({ client: sqlite })
  return { db, sqlite }
}
