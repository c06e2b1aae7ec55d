/**
 * PostgreSQL for tests: `EXTRACTD_TEST_POSTGRES` names a server and a role that may create
 * databases (CI starts Debian's postgresql and sets it); each test gets a new empty database.
 * Without it, the tests that need PostgreSQL are skipped.
 */
import postgres from 'postgres'

export const POSTGRES_URL = process.env.EXTRACTD_TEST_POSTGRES

let counter = 0

/** A new empty database on the test server, and a function that drops it. */
export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!POSTGRES_URL) throw new Error('EXTRACTD_TEST_POSTGRES is not set')
  const name = `extractd_test_${process.pid}_${Date.now()}_${counter++}`
  const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}"`)
  await admin.end()
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const again = postgres(POSTGRES_URL!, { max: 1, onnotice: () => {} })
      await again.unsafe(`drop database if exists "${name}" with (force)`)
      await again.end()
    },
  }
}
