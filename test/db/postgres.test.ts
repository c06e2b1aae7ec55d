/** The PostgreSQL migrations on a real server (skipped without EXTRACTD_TEST_POSTGRES). */
import { afterEach, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { closeDatabase, databaseReadiness, openDatabase } from '../../src/db/database'
import { rows } from '../../src/db/dialect'
import { isMigrated, MIGRATION_LOCK, migratePostgres, openPostgres, pgMigrations } from '../../src/db/postgres'
import { POSTGRES_URL, freshPostgres } from '../helpers/postgres'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

test.skipIf(!POSTGRES_URL)('migrates an empty database to the latest version, with drizzle bookkeeping', async () => {
  const { url, drop } = await freshPostgres()
  const handle = openPostgres(url, { max: 2 })
  cleanups.push(drop, () => handle.pool.end())
  await migratePostgres(handle)
  const { rows: tables } = await handle.pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' order by table_name",
  )
  expect(tables.map((row) => row.name)).toEqual([
    'accounts',
    'api_keys',
    'idempotency_keys',
    'job_files',
    'job_readings',
    'job_turns',
    'jobs',
    'layout_generations',
    'layout_marks',
    'layout_words',
    'layouts',
    'reviews',
    'schema_versions',
    'schemas',
    'webhook_attempts',
    'webhook_endpoints',
    'webhook_messages',
  ])
  const { rows: applied } = await handle.pool.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations order by id')
  expect(applied.map((row) => row.hash)).toEqual(pgMigrations.map((migration) => migration.hash))
})

test.skipIf(!POSTGRES_URL)('eight instances migrating one new database at once apply each migration once', async () => {
  const { url, drop } = await freshPostgres()
  cleanups.push(drop)
  const handles = Array.from({ length: 8 }, () => openPostgres(url, { max: 2 }))
  cleanups.push(...handles.map((handle) => () => handle.pool.end()))
  await Promise.all(handles.map((handle) => migratePostgres(handle)))
  const { rows: applied } = await handles[0]!.pool.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')
  expect(applied[0]!.n).toBe(pgMigrations.length)
})

test.skipIf(!POSTGRES_URL)('a connection the server drops as it is handed out fails its transaction and goes back to the pool', async () => {
  const { url, drop } = await freshPostgres()
  const handle = openPostgres(url, { max: 1 })
  cleanups.push(drop)
  const connect = handle.pool.connect.bind(handle.pool)
  let drops = 1
  handle.pool.connect = (async () => {
    const connection = await connect()
    if (drops-- > 0) {
      // Dropped after the pool handed it out, before BEGIN is sent.
      const ended = new Promise((resolve) => connection.once('end', resolve))
      ;(connection as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy()
      await ended
    }
    return connection
  }) as typeof handle.pool.connect
  await expect(handle.transaction(() => rows(sql`select 1`))).rejects.toThrow()
  // The pool's one connection is not lost: the next transaction gets a new one, and the pool ends.
  expect(await handle.transaction(() => rows(sql`select 2 as n`))).toEqual([{ n: 2 }])
  await handle.pool.end()
  expect(handle.pool.totalCount).toBe(0)
})

test.skipIf(!POSTGRES_URL)('openDatabase migrates a new database, and opens an up-to-date one while another instance holds the migration lock', async () => {
  const { url, drop } = await freshPostgres()
  cleanups.push(drop)
  const first = await openDatabase(url, { poolSize: 1 })
  cleanups.push(() => closeDatabase(first))
  if (first.kind !== 'postgres') throw new Error('expected PostgreSQL')
  const { rows } = await first.pool.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')
  expect(rows[0]!.n).toBe(pgMigrations.length)
  expect(await isMigrated(first)).toBe(true)

  // Another instance migrating (or stuck while it does) holds the lock: nothing is left to apply, so this start does not wait for it (D153).
  const holder = openPostgres(url, { max: 1 })
  cleanups.push(() => holder.pool.end())
  const connection = await holder.pool.connect()
  await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
  try {
    const opened = await Promise.race([openDatabase(url, { poolSize: 1 }), Bun.sleep(5000).then(() => 'waited for the lock' as const)])
    if (opened === 'waited for the lock') throw new Error(opened)
    cleanups.push(() => closeDatabase(opened))
    expect(await databaseReadiness(opened)).toBe('ready')
  } finally {
    await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK])
    connection.release()
  }
})

test.skipIf(!POSTGRES_URL)('a server that cannot be reached fails the start with its own error', async () => {
  const unreachable = 'postgres://nobody:secret@127.0.0.1:1/nothing'
  await expect(openDatabase(unreachable)).rejects.toThrow(/ECONNREFUSED|connect/)
})
