/**
 * The database of a test app: in-memory SQLite, or with `EXTRACTD_TEST_DATABASE=postgres` a new
 * PostgreSQL database per app on the server `EXTRACTD_TEST_POSTGRES` names, cloned from a
 * migrated template and dropped after the test. `bun run test:postgres` runs the API tests so.
 */
import { afterEach } from 'bun:test'
import postgres from 'postgres'
import { closeDatabase, type Database, openDatabase } from '../../src/db/database'
import { POSTGRES_URL } from './postgres'

export const TEST_DIALECT: Database['kind'] = process.env.EXTRACTD_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
if (TEST_DIALECT === 'postgres' && !POSTGRES_URL) throw new Error('EXTRACTD_TEST_DATABASE=postgres needs EXTRACTD_TEST_POSTGRES')

const open: { database: Database; name: string }[] = []
let admin: postgres.Sql | undefined
let template: Promise<string> | undefined
let counter = 0

function urlOf(name: string): string {
  const url = new URL(POSTGRES_URL!)
  url.pathname = `/${name}`
  return url.toString()
}

/** A database with every migration applied, to copy: copying is much faster than migrating. */
async function migratedTemplate(sql: postgres.Sql): Promise<string> {
  const name = `extractd_template_${process.pid}`
  await sql.unsafe(`drop database if exists "${name}" with (force)`)
  await sql.unsafe(`create database "${name}"`)
  await closeDatabase(await openDatabase(urlOf(name), { poolSize: 1 }))
  return name
}

/** A new database for one test app; PostgreSQL ones are dropped after the test. */
export async function openTestDatabase(sqlitePath = ':memory:'): Promise<Database> {
  if (TEST_DIALECT === 'sqlite') return openDatabase(sqlitePath)
  admin ??= postgres(POSTGRES_URL!, { max: 1, onnotice: () => {} })
  const source = await (template ??= migratedTemplate(admin))
  const name = `extractd_test_${process.pid}_${counter++}`
  await admin.unsafe(`create database "${name}" template "${source}"`)
  const database = await openDatabase(urlOf(name), { poolSize: 4 })
  open.push({ database, name })
  return database
}

afterEach(async () => {
  for (const { database, name } of open.splice(0)) {
    await closeDatabase(database).catch(() => {})
    await admin!.unsafe(`drop database if exists "${name}" with (force)`)
  }
})

/**
 * Runs SQL written with `?` placeholders on either database, for tests that look at what is
 * stored. Write SQL both dialects read; booleans come back as 0/1 from SQLite and true/false from PostgreSQL.
 */
export async function query<T = Record<string, unknown>>(database: Database, text: string, params: unknown[] = []): Promise<T[]> {
  if (database.kind === 'sqlite') return database.sqlite.query(text).all(...(params as never[])) as T[]
  let n = 0
  return (await database.client.unsafe(text.replace(/\?/g, () => `$${++n}`), params as never[])) as unknown as T[]
}
