import type { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { migrate, migrations, openDb } from '../../src/db/sqlite'
import { silentLogger } from '../../src/lib/log'
import { loadCatalog } from '../../src/modules/catalog/service'
import { builtinEngine } from '../../src/modules/extraction/engines/builtin'
import { DEFAULT_READ_LIMITS } from '../../src/modules/extraction/readers/types'
import { inProcessExtractor } from '../../src/modules/extraction/extractor'
import { createJobRunner } from '../../src/modules/extraction/worker'
import { tempDir } from '../helpers/process'

const dir = tempDir('extractd-migrations-')
afterAll(() => dir.remove())

function tableNames(sqlite: Database): string[] {
  return sqlite
    .query<{ name: string }, []>("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
    .all()
    .map((row) => row.name)
}

test('migrates an empty database to the latest version, with drizzle bookkeeping', () => {
  const { db, sqlite } = openDb(join(dir.path, 'empty.sqlite'))
  migrate(db)
  expect(tableNames(sqlite)).toEqual(expect.arrayContaining(['__drizzle_migrations', 'accounts', 'api_keys', 'schemas']))
  expect(tableNames(sqlite)).toEqual([
    '__drizzle_migrations',
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
  const applied = sqlite.query<{ hash: string }, []>('select hash from __drizzle_migrations order by created_at').all()
  expect(applied.map((row) => row.hash)).toEqual(migrations.map((m) => m.hash))
  sqlite.close()
})

test('running the migrations again changes nothing', () => {
  const { db, sqlite } = openDb(join(dir.path, 'twice.sqlite'))
  migrate(db)
  migrate(db)
  expect(sqlite.query('select count(*) as n from __drizzle_migrations').get()).toEqual({ n: migrations.length })
  sqlite.close()
})

test('uses WAL, a busy timeout and foreign keys on a file database', () => {
  const { sqlite } = openDb(join(dir.path, 'pragmas.sqlite'))
  expect(sqlite.query('pragma journal_mode').get()).toEqual({ journal_mode: 'wal' })
  expect(sqlite.query('pragma busy_timeout').get()).toEqual({ timeout: 5000 })
  expect(sqlite.query('pragma foreign_keys').get()).toEqual({ foreign_keys: 1 })
  sqlite.close()
})

test('a database made by the first version keeps every row when the latest binary migrates it', async () => {
  const path = join(dir.path, 'old.sqlite')
  const old = openDb(path)
  migrate(old.db, migrations.slice(0, 1))
  // Rows written as the first version wrote them, with its SQL alone.
  const key = `exd_${'A'.repeat(43)}`
  const keyHash = new Bun.CryptoHasher('sha256').update(key).digest('hex')
  const now = '2026-01-02T03:04:05.678Z'
  old.sqlite.run("insert into accounts (id, name, created_at) values ('acc_old', 'old', ?)", [now])
  old.sqlite.run("insert into api_keys (id, account_id, key_hash, key_prefix, created_at) values ('key_old', 'acc_old', ?, 'exd_AAAAAA', ?)", [keyHash, now])
  const schemaId = `sch_${'0'.repeat(30)}`
  const fields = [{ key: 'total', label: 'Total', description: '', required: true }]
  old.sqlite.run(
    "insert into schemas (id, account_id, name, description, fields, is_active, created_at, updated_at) values (?, 'acc_old', 'Old', 'kept', ?, 1, ?, ?)",
    [schemaId, JSON.stringify(fields), now, now],
  )
  old.sqlite.close()

  const latest = await openDatabase(path)
  const catalog = loadCatalog()
  const app = createApp({
    database: latest,
    catalog,
    extraction: {
      runner: createJobRunner({
        database: latest,
        extract: inProcessExtractor(builtinEngine),
        catalog,
        concurrency: 1,
        keepFileMs: 0,
        readLimits: DEFAULT_READ_LIMITS,
        log: silentLogger,
      }),
      engineName: 'builtin',
      maxUploadBytes: 1024,
    },
  })
  const response = await app.handle(new Request(`http://localhost/api/v1/schemas/${schemaId}`, { headers: { authorization: `Bearer ${key}` } }))
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({
    // Stored before typed fields: answered as `auto` (D89).
    schema: {
      id: schemaId,
      name: 'Old',
      description: 'kept',
      fields: [{ ...fields[0], type: 'auto' }],
      version: 1,
      is_active: true,
      // A schema from before review thresholds checks as the default does (D284).
      review_threshold: 0.95,
      created_at: now,
      updated_at: now,
    },
  })
  // Its history starts with what it held when versions came in.
  const versions = await app.handle(new Request(`http://localhost/api/v1/schemas/${schemaId}/versions`, { headers: { authorization: `Bearer ${key}` } }))
  expect(await versions.json()).toEqual({
    versions: [{ schema_id: schemaId, version: 1, name: 'Old', description: 'kept', fields: [{ ...fields[0], type: 'auto' }], created_at: now }],
    has_more: false,
  })
  await closeDatabase(latest)
})

test('layouts learned before generations were counted are given one, so every instance still reads them (D301)', () => {
  const path = join(dir.path, 'layouts.sqlite')
  const old = openDb(path)
  const before = migrations.findIndex((migration) => migration.sql.some((statement) => statement.includes('layout_generations')))
  expect(before).toBeGreaterThan(0)
  migrate(old.db, migrations.slice(0, before))
  const now = '2026-11-27T10:00:00.000Z'
  old.sqlite.run("insert into accounts (id, name, created_at) values ('acc_taught', 'taught', ?), ('acc_none', 'none', ?)", [now, now])
  for (const id of ['lay_1', 'lay_2'])
    old.sqlite.run("insert into layouts (id, account_id, job_id, body, weight, created_at, updated_at) values (?, 'acc_taught', 'job_1', '{}', 1, ?, ?)", [
      id,
      now,
      now,
    ])
  migrate(old.db, migrations)
  expect(old.sqlite.query('select account_id, generation from layout_generations').all()).toEqual([{ account_id: 'acc_taught', generation: 1 }])
  old.sqlite.close()
})
