/**
 * The database of a test app: in-memory SQLite, or with `EXTRACTD_TEST_DATABASE=postgres` an
 * empty PostgreSQL database of its own on the server `EXTRACTD_TEST_POSTGRES` names (`bun run
 * test:postgres` runs the API tests so). Creating and dropping a database costs a few hundred
 * milliseconds, so each is made once, cloned from a migrated template, and emptied after each
 * test for the next one (its connections ended, every row deleted).
 */
import pg from 'pg'
import { closeDatabase, type Database, openDatabase } from '../../src/db/database'
import { openPostgres } from '../../src/db/postgres'
import { onServer, POSTGRES_URL, urlOf } from './postgres'

export const TEST_DIALECT: Database['kind'] = process.env.EXTRACTD_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
if (TEST_DIALECT === 'postgres' && !POSTGRES_URL) throw new Error('EXTRACTD_TEST_DATABASE=postgres needs EXTRACTD_TEST_POSTGRES')

const open: { database: Database; name: string }[] = []
const urls = new WeakMap<Database, string>()
let template: Promise<{ name: string; tables: string[] }> | undefined
let counter = 0
/** Emptied databases, ready for the next test. */
const free: string[] = []
/** One connection to each test database, to empty it. */
const cleaners = new Map<string, pg.Pool>()

/**
 * A database with every migration applied, to copy (copying is much faster than migrating), and
 * the names of its tables. Test databases of processes that no longer run are dropped first.
 */
async function migratedTemplate(): Promise<{ name: string; tables: string[] }> {
  const stale = await onServer<{ name: string }>("select datname as name from pg_database where datname ~ '^extractd_(test|template)_[0-9]+'")
  for (const { name } of stale) {
    const pid = Number(/_(\d+)/.exec(name)![1])
    if (!isRunning(pid)) await onServer(`drop database if exists "${name}" with (force)`)
  }
  const name = `extractd_template_${process.pid}`
  await onServer(`drop database if exists "${name}" with (force)`, `create database "${name}"`)
  const database = await openDatabase(urlOf(name), { poolSize: 1 })
  if (database.kind !== 'postgres') throw new Error('PostgreSQL')
  // Every table before the tables its foreign keys name, so deleting in this order breaks no key.
  const { rows: edges } = await database.pool.query<{ child: string; parent: string }>(
    "select conrelid::regclass::text as child, confrelid::regclass::text as parent from pg_constraint where contype = 'f'",
  )
  const { rows } = await database.pool.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public'")
  await closeDatabase(database)
  const left = new Set(rows.map((row) => row.name))
  const tables: string[] = []
  while (left.size > 0) {
    const ready = [...left].filter((table) => !edges.some((edge) => edge.parent === table && edge.child !== table && left.has(edge.child)))
    if (ready.length === 0) throw new Error('the tables refer to each other in a cycle')
    for (const table of ready) {
      tables.push(table)
      left.delete(table)
    }
  }
  return { name, tables }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** An empty migrated database: one a finished test emptied, or a new clone of the template. */
async function emptyDatabase(): Promise<string> {
  const reused = free.pop()
  if (reused) return reused
  const { name: source } = await (template ??= migratedTemplate())
  const name = `extractd_test_${process.pid}_${counter++}`
  await onServer(`create database "${name}" template "${source}"`)
  return name
}

/** Ends every connection to a test database (its app's, and any a test left) and deletes every row. */
async function empty(name: string): Promise<void> {
  const { tables } = await template!
  let cleaner = cleaners.get(name)
  if (!cleaner) {
    cleaner = new pg.Pool({ connectionString: urlOf(name), max: 1, allowExitOnIdle: true })
    cleaner.on('error', () => {})
    cleaners.set(name, cleaner)
  }
  await cleaner.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
  // Deleting the few rows of a test is much faster than TRUNCATE, which writes new files for every table.
  await cleaner.query(`begin; ${tables.map((table) => `delete from "${table}";`).join(' ')} commit`)
}

/** A new database for one test app; PostgreSQL ones are emptied after the test. */
export async function openTestDatabase(sqlitePath = ':memory:'): Promise<Database> {
  if (TEST_DIALECT === 'sqlite') {
    const database = await openDatabase(sqlitePath)
    urls.set(database, sqlitePath)
    return database
  }
  const name = await emptyDatabase()
  // The template is migrated already: the pool is opened as openDatabase would, without the migrator's check.
  const database: Database = { kind: 'postgres', ...openPostgres(urlOf(name), { max: 4 }), shown: name }
  open.push({ database, name })
  urls.set(database, urlOf(name))
  return database
}

/** Where a database opened by openTestDatabase is: a SQLite path or a PostgreSQL URL. */
export function locationOf(database: Database): string {
  const location = urls.get(database)
  if (location === undefined) throw new Error('not a database opened by openTestDatabase')
  return location
}

/**
 * Another handle on the same database, as another process or instance would have (a SQLite
 * file's, not an in-memory one's); closed after the test.
 */
export async function anotherHandle(database: Database): Promise<Database> {
  const location = locationOf(database)
  if (location === ':memory:') throw new Error('anotherHandle needs a database opened by openTestDatabase on a file or PostgreSQL')
  const other = await openDatabase(location, { poolSize: 2 })
  others.push(other)
  return other
}

const others: Database[] = []

/** Closes a handle of a test after it, as those of anotherHandle are. */
export function closeAfterTest(database: Database): Database {
  others.push(database)
  return database
}

/** Closes the databases a test opened, and empties them for the next; test/setup.ts runs it after every test of every file. */
export async function closeTestDatabases(): Promise<void> {
  for (const other of others.splice(0)) await closeDatabase(other).catch(() => {})
  for (const { database, name } of open.splice(0)) {
    // A pool ends once its connections are idle; a job still running there would hold one, so its connection is ended too.
    const closing = closeDatabase(database).catch(() => {})
    await empty(name)
    await closing
    free.push(name)
  }
}

/**
 * Runs SQL written with `?` placeholders on either database, for tests that look at what is
 * stored. Write SQL both dialects read; booleans come back as 0/1 from SQLite and true/false from PostgreSQL.
 */
export async function query<T = Record<string, unknown>>(database: Database, text: string, params: unknown[] = []): Promise<T[]> {
  if (database.kind === 'sqlite') return database.sqlite.query(text).all(...(params as never[])) as T[]
  let n = 0
  return (
    await database.pool.query(
      text.replace(/\?/g, () => `$${++n}`),
      params,
    )
  ).rows as T[]
}
