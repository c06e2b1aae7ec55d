/**
 * `db copy`: a SQLite database into an empty PostgreSQL one, row for row, and the API on the copy
 * answers as on the original (skipped without EXTRACTD_TEST_POSTGRES).
 */
import { afterEach, expect, test } from 'bun:test'
import { CopyError, copySqliteToPostgres } from '../../src/db/copy'
import { openDatabase, type SqliteDatabase } from '../../src/db/database'
import { migratePostgres, openPostgres } from '../../src/db/postgres'
import { createSchema, field, makeTestApp, type TestApp } from '../helpers/app'
import { closeAfterTest } from '../helpers/database'
import { POSTGRES_URL, freshPostgres } from '../helpers/postgres'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function targetDatabase() {
  const { url, drop } = await freshPostgres()
  const handle = openPostgres(url, { max: 2 })
  cleanups.push(drop, () => handle.pool.end())
  await migratePostgres(handle)
  return handle
}

/** A SQLite database with a bit of everything: accounts, keys, schemas and their versions, jobs with kept files, idempotency keys. */
async function populated() {
  // The source is SQLite whichever dialect the other tests run on.
  const t = await makeTestApp({ keepFileMs: 60_000, database: await openDatabase(':memory:') })
  const schema = await createSchema(t, { name: 'Invoices "quoted" ü', fields: [field('total'), field('date')] })
  await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { name: 'Invoices v2' } })
  const gone = await createSchema(t, { name: 'Gone' })
  await t.call('DELETE', `/api/v1/schemas/${gone.id}`)
  await createSchema(t, { name: 'B' }, t.keyB.key)
  const form = new FormData()
  form.append('file', new File(['Invoice No.: INV-7\nTotal: 12.50 EUR\n'], 'rechnung.txt'))
  form.append('extract', JSON.stringify({ document_type: 'invoice', schema_id: schema.id }))
  const job = await t.call('POST', '/api/v1/extract', { body: form, headers: { 'idempotency-key': 'copy-me' } })
  expect(job.status).toBe(200)
  return t
}

function sqliteOf(t: TestApp) {
  return (t.database as SqliteDatabase).sqlite
}

function rowsOfSqlite(t: TestApp, table: string): unknown[] {
  return sqliteOf(t).query(`select * from "${table}" order by 1, 2`).all()
}

test.skipIf(!POSTGRES_URL)('copies every row of every table unchanged, and reports the counts', async () => {
  const t = await populated()
  const target = await targetDatabase()
  const heard: string[] = []
  const copied = await copySqliteToPostgres(sqliteOf(t), target.pool, ({ table }) => heard.push(table))
  expect(heard).toEqual(copied.map((entry) => entry.table))
  // Parents before children.
  expect(heard.indexOf('accounts')).toBeLessThan(heard.indexOf('api_keys'))
  expect(heard.indexOf('schemas')).toBeLessThan(heard.indexOf('schema_versions'))
  expect(heard.indexOf('jobs')).toBeLessThan(heard.indexOf('job_files'))
  const counts = Object.fromEntries(copied.map(({ table, rows }) => [table, rows]))
  expect(counts).toMatchObject({ accounts: 2, api_keys: 2, schemas: 3, schema_versions: 1, jobs: 1, job_files: 1, idempotency_keys: 1 })

  for (const { table } of copied) {
    const booleans = new Set(
      (
        await target.pool.query<{ name: string }>(
          "select column_name as name from information_schema.columns where table_name = $1 and data_type = 'boolean'",
          [table],
        )
      ).rows.map((row) => row.name),
    )
    const { rows } = await target.pool.query(`select * from "${table}" order by 1, 2`)
    const asSqlite = rows.map((row: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(row).map(([column, value]) => [
          column,
          booleans.has(column) && value !== null ? (value ? 1 : 0) : value instanceof Uint8Array ? new Uint8Array(value) : value,
        ]),
      ),
    )
    const original = rowsOfSqlite(t, table).map((row) =>
      Object.fromEntries(
        Object.entries(row as Record<string, unknown>).map(([column, value]) => [column, value instanceof Uint8Array ? new Uint8Array(value) : value]),
      ),
    )
    expect({ table, rows: asSqlite }).toEqual({ table, rows: original })
  }
})

test.skipIf(!POSTGRES_URL)('refuses a target that holds any row, and writes nothing', async () => {
  const t = await populated()
  const target = await targetDatabase()
  await target.pool.query("insert into accounts (id, name, created_at) values ('acc_x', 'already here', '2026-01-01T00:00:00.000Z')")
  await expect(copySqliteToPostgres(sqliteOf(t), target.pool)).rejects.toThrow(new CopyError('the target database is not empty: accounts has 1 row'))
  const [row] = (await target.pool.query<{ n: number }>('select count(*)::int as n from schemas')).rows
  expect(row!.n).toBe(0)
})

test.skipIf(!POSTGRES_URL)('the API on the copy answers every read exactly as on the original', async () => {
  const original = await populated()
  const { url, drop } = await freshPostgres()
  cleanups.push(drop)
  const target = closeAfterTest(await openDatabase(url))
  if (target.kind !== 'postgres') throw new Error('PostgreSQL')
  await copySqliteToPostgres(sqliteOf(original), target.pool)
  const copy = await makeTestApp({ database: target, keepFileMs: 60_000 })

  const read = async (t: TestApp, path: string, key = original.keyA.key) => {
    const response = await t.call('GET', path, { key })
    return { path, status: response.status, type: response.headers.get('content-type'), text: response.text }
  }
  const schemas = JSON.parse((await read(original, '/api/v1/schemas')).text).schemas as { id: string }[]
  const jobs = JSON.parse((await read(original, '/api/v1/jobs')).text).jobs as { id: string }[]
  const paths = [
    '/api/v1/schemas',
    ...schemas.flatMap(({ id }) => [`/api/v1/schemas/${id}`, `/api/v1/schemas/${id}/versions`, `/api/v1/schemas/${id}/versions/1`]),
    '/api/v1/jobs',
    ...jobs.flatMap(({ id }) => [`/api/v1/jobs/${id}`, `/api/v1/jobs/${id}/file`]),
  ]
  for (const path of paths) expect(await read(copy, path)).toEqual(await read(original, path))
  // Account B's key, copied too, still sees only B's schema.
  expect(await read(copy, '/api/v1/schemas', original.keyB.key)).toEqual(await read(original, '/api/v1/schemas', original.keyB.key))
  // The idempotency key came along: the same retry is replayed on the copy.
  const form = new FormData()
  form.append('file', new File(['Invoice No.: INV-7\nTotal: 12.50 EUR\n'], 'rechnung.txt'))
  form.append('extract', JSON.stringify({ document_type: 'invoice', schema_id: schemas.at(-1)!.id }))
  const replay = await copy.call('POST', '/api/v1/extract', { body: form, headers: { 'idempotency-key': 'copy-me' } })
  expect(replay.headers.get('idempotent-replayed')).toBe('true')
})
