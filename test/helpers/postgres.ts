/**
 * PostgreSQL for tests: `EXTRACTD_TEST_POSTGRES` names a server and a role that may create
 * databases (CI starts Debian's postgresql and sets it); each test gets a new empty database.
 * Without it, the tests that need PostgreSQL are skipped.
 */
import pg from 'pg'

export const POSTGRES_URL = process.env.EXTRACTD_TEST_POSTGRES

let counter = 0

let admin: pg.Pool | undefined

/** Runs statements on the test server's own database (creating and dropping databases); the rows of the last. */
export async function onServer<Row = Record<string, unknown>>(...statements: string[]): Promise<Row[]> {
  if (!POSTGRES_URL) throw new Error('EXTRACTD_TEST_POSTGRES is not set')
  if (!admin) {
    admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 1, allowExitOnIdle: true })
    // A connection the server dropped (a test restarts it) is replaced when next needed.
    admin.on('error', () => {})
  }
  let rows: Row[] = []
  for (const statement of statements) rows = (await admin.query(statement)).rows
  return rows
}

/** The URL of a database on the test server. */
export function urlOf(name: string): string {
  const url = new URL(POSTGRES_URL!)
  url.pathname = `/${name}`
  return url.toString()
}

/** A new empty database on the test server, and a function that drops it. */
export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `extractd_test_${process.pid}_${Date.now()}_${counter++}`
  await onServer(`create database "${name}"`)
  return { url: urlOf(name), drop: async () => void (await onServer(`drop database if exists "${name}" with (force)`)) }
}
