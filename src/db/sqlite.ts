/**
 * SQLite: one file, one connection per process, opened with the settings every process sharing
 * the file needs; the embedded migrations; and what only SQLite does for the interface of
 * dialect.ts: transaction bodies run to their end synchronously inside BEGIN IMMEDIATE (D211),
 * notifications reach this process's listeners, and other processes' commits are seen in the
 * WAL index (D64).
 */
import { Database as Connection } from 'bun:sqlite'
import { openSync, readSync } from 'node:fs'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import type { MigrationConfig, MigrationMeta } from 'drizzle-orm/migrator'
import { type Body, type Dialect, OutsideTransactionError, type Part, type Queries, type Statement, type Step, sessionOf, statement } from './dialect'
import { embeddedMigrations } from './embed-migrations' with { type: 'macro' }

export const migrations: MigrationMeta[] = embeddedMigrations()

/** Drizzle's record of the migrations applied: a SQLite file without it was not made by extractd. */
export const MIGRATIONS_TABLE = '__drizzle_migrations'

/**
 * Switching a new file to WAL needs it exclusively for a moment, and SQLite answers "database is
 * locked" at once (no busy wait) when two processes try together: take turns for up to ~2 s.
 */
function enableWal(sqlite: Connection): void {
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

/** The connection, with Drizzle over it for migrations and for the copy to PostgreSQL. */
export function openDb(path: string) {
  const sqlite = new Connection(path, { create: true, strict: true })
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

export type Db = ReturnType<typeof openDb>['db']

/** What drizzle's own bun-sqlite `migrate()` calls, fed with migrations that are already in memory. */
interface DrizzleInternals {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: Partial<MigrationConfig>): void }
  session: unknown
}

/** Applies the migrations compiled into the binary, with drizzle's own bookkeeping. */
export function migrate(db: Db, list: MigrationMeta[] = migrations): void {
  // Two processes starting on a new file may race; the loser's transaction fails, and
  // running again then finds the winner's migrations recorded and has nothing left to do.
  for (let attempt = 1; ; attempt++) {
    try {
      const { dialect, session } = db as unknown as DrizzleInternals
      dialect.migrate(list, session, {})
      return
    } catch (error) {
      if (attempt >= 3) throw error
      Bun.sleepSync(50 * attempt)
    }
  }
}

/**
 * Whether any connection may have committed since it was last asked. SQLite counts every
 * commit in the header of its WAL index, the `-shm` file all connections share ("iChange", bytes
 * 8–11, native byte order: https://www.sqlite.org/walformat.html); reading it is one pread of 12
 * bytes (about 1 µs), where a statement such as `PRAGMA data_version` costs about 4 µs, a sixth
 * of a cached request. A database without a WAL index (in memory) always answers true.
 */
function commitWatcher(sqlite: Connection): () => boolean {
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

/** A body's steps one after the other, each result (or error) handed back to it, with no await between them. */
function drive<T>(body: Part<T>, perform: (step: Step) => unknown): T {
  let next = body.next()
  while (!next.done) {
    let result: unknown
    try {
      result = perform(next.value)
    } catch (error) {
      next = body.throw(error)
      continue
    }
    next = body.next(result)
  }
  return next.value
}

/** A result computed now, as a settled promise. */
function settled<T>(compute: () => T): Promise<T> {
  try {
    return Promise.resolve(compute())
  } catch (error) {
    return Promise.reject(error)
  }
}

type Synchronous = { all(values?: Record<string, unknown>): unknown }

/** Opens the file and gives it the interface of dialect.ts. */
export function openSqlite(path: string) {
  const { db: drizzleDb, sqlite } = openDb(path)
  // Drizzle's SQLite builders take the same calls as PostgreSQL's, and run synchronously as they are awaited (D210).
  const db = drizzleDb as unknown as Queries
  // The builders of transaction bodies: a session of their own, so a query built from `db` in a body is refused
  // here as on PostgreSQL (where it would run outside the transaction), by the tests that run on SQLite.
  const bodies = drizzle({ client: sqlite })
  const bodySession = (bodies as unknown as { session: unknown }).session
  const prepared = new WeakMap<Statement<unknown>, Synchronous>()
  const listeners = new Map<string, Set<() => void>>()

  function perform(step: Step, notified: Set<string>): unknown {
    switch (step.kind) {
      // For update or not: the immediate transaction holds the whole database already.
      case 'query':
        if (sessionOf(step.query) !== bodySession) throw new OutsideTransactionError()
        return (step.query as unknown as Synchronous).all()
      case 'statement':
        // Prepared on the same connection: it runs inside the transaction.
        return prepared.get(step.statement)!.all(step.values)
      case 'rows':
        return bodies.all(step.query)
      case 'lock':
        return undefined
      case 'notify':
        notified.add(step.channel)
        return undefined
    }
  }

  const immediate = sqlite.transaction((body: Body<unknown>, notified: Set<string>) =>
    drive(body(bodies as unknown as Queries), (step) => perform(step, notified)),
  ).immediate

  // Made with the first request that reads a key (D150).
  let changed: (() => boolean) | undefined
  let pragma: ReturnType<typeof sqlite.prepare<{ data_version: number }, []>> | undefined
  let version: number | undefined

  const dialect: Dialect = {
    db,

    transaction<T>(body: Body<T>): Promise<T> {
      if (sqlite.inTransaction) return Promise.reject(new Error('Transactions do not nest: yield* the part into the body instead'))
      const notified = new Set<string>()
      try {
        // BEGIN IMMEDIATE takes the file's write lock first (waiting up to the busy timeout): a deferred
        // transaction that reads, then writes, fails with SQLITE_BUSY when another process wrote meanwhile.
        const result = immediate(body as Body<unknown>, notified) as T
        // Committed: this process's listeners hear of it as soon as this call returns.
        for (const channel of notified) for (const wake of listeners.get(channel) ?? []) queueMicrotask(wake)
        return Promise.resolve(result)
      } catch (error) {
        return Promise.reject(error)
      }
    },

    prepare(_name, build) {
      const query = (build(db) as unknown as { prepare(): Synchronous }).prepare()
      const made = statement((values) => settled(() => query.all(values) as never))
      prepared.set(made, query)
      return made
    },

    // Other processes' work is found by the listeners' own polls.
    listen(channel, wake) {
      const set = listeners.get(channel) ?? new Set()
      listeners.set(channel, set.add(wake))
      return () => void set.delete(wake)
    },

    dataVersion() {
      // Commits of this connection do not move it; the pragma is asked only after some connection committed.
      changed ??= commitWatcher(sqlite)
      if (changed() || version === undefined) version = (pragma ??= sqlite.prepare('PRAGMA data_version')).get()!.data_version
      return version
    },

    reclaimSpace: async () => void sqlite.run('PRAGMA incremental_vacuum'),

    answers: async () => {
      try {
        sqlite.query('select 1').get()
        return true
      } catch {
        return false
      }
    },

    close: async () => sqlite.close(),
  }

  return { ...dialect, sqlite, migrate: () => migrate(drizzleDb) }
}
