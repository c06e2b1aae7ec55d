/**
 * The database of a test app: in-memory SQLite, or with `EXTRACTD_TEST_DATABASE=postgres` a new
 * PostgreSQL database per app on the server `EXTRACTD_TEST_POSTGRES` names, cloned from a
 * migrated template and dropped after the test. `bun run test:postgres` runs the API tests so.
 */
import { afterEach } from 'bun:test'
import { closeDatabase, type Database, openDatabase } from '../../src/db/database'
import { openPostgres } from '../../src/db/postgres'
import { onServer, POSTGRES_URL, urlOf } from './postgres'

export const TEST_DIALECT: Database['kind'] = process.env.EXTRACTD_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
if (TEST_DIALECT === 'postgres' && !POSTGRES_URL) throw new Error('EXTRACTD_TEST_DATABASE=postgres needs EXTRACTD_TEST_POSTGRES')

const open: { database: Database; name: string }[] = []
const urls = new WeakMap<Database, string>()
let template: Promise<string> | undefined
let counter = 0

/** A database with every migration applied, to copy: copying is much faster than migrating. */
async function migratedTemplate(): Promise<string> {
  const name = `extractd_template_${process.pid}`
  await onServer(`drop database if exists "${name}" with (force)`, `create database "${name}"`)
  await closeDatabase(await openDatabase(urlOf(name), { poolSize: 1 }))
  return name
}

/** A new database for one test app; PostgreSQL ones are dropped after the test. */
export async function openTestDatabase(sqlitePath = ':memory:'): Promise<Database> {
  if (TEST_DIALECT === 'sqlite') {
    const database = await openDatabase(sqlitePath)
    urls.set(database, sqlitePath)
    return database
  }
  const source = await (template ??= migratedTemplate())
  const name = `extractd_test_${process.pid}_${counter++}`
  await onServer(`create database "${name}" template "${source}"`)
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

afterEach(async () => {
  for (const other of others.splice(0)) await closeDatabase(other).catch(() => {})
  for (const { database, name } of open.splice(0)) {
    await closeDatabase(database).catch(() => {})
    await onServer(`drop database if exists "${name}" with (force)`)
  }
})

/**
 * Runs SQL written with `?` placeholders on either database, for tests that look at what is
 * stored. Write SQL both dialects read; booleans come back as 0/1 from SQLite and true/false from PostgreSQL.
 */
export async function query<T = Record<string, unknown>>(database: Database, text: string, params: unknown[] = []): Promise<T[]> {
  if (database.kind === 'sqlite') return database.sqlite.query(text).all(...(params as never[])) as T[]
  let n = 0
  return (await database.pool.query(text.replace(/\?/g, () => `$${++n}`), params)).rows as T[]
}
