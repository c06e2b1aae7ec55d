/**
 * A database that cannot answer in time gives 503 service_unavailable (D78), never a 500, and the
 * API recovers; one whose storage is full says so, to the client and to readiness (D196).
 */
import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { expectEnvelope, makeTestApp } from '../helpers/app'
import { closeAfterTest, TEST_DIALECT } from '../helpers/database'
import { freshPostgres, POSTGRES_URL } from '../helpers/postgres'
import { tempDir } from '../helpers/process'
import { tcpProxy } from '../helpers/tcp-proxy'

const dir = tempDir('extractd-unavailable-')
afterAll(() => dir.remove())

test.skipIf(TEST_DIALECT !== 'sqlite')(
  'SQLite: a write while another process holds the database past the busy timeout is 503 with Retry-After; reads go on; then it works again',
  async () => {
    const path = join(dir.path, 'busy.sqlite')
    const logged: string[] = []
    const log = {
      debug: () => {},
      info: () => {},
      warn: (message: string) => logged.push(`warn ${message}`),
      error: (message: string) => logged.push(`error ${message}`),
    }
    const t = await makeTestApp({ dbPath: path, log })
    if (t.database.kind !== 'sqlite') throw new Error('SQLite only')
    const { sqlite } = t.database
    sqlite.run('PRAGMA busy_timeout = 20')
    const holder = new Database(path)
    holder.run('BEGIN EXCLUSIVE')
    try {
      const refused = await t.call('POST', '/api/v1/schemas', { body: { name: 'waits' }, headers: { 'idempotency-key': 'during-outage' } })
      expectEnvelope(refused, 503, 'service_unavailable', 'The database is not available right now; retry shortly')
      expect(refused.headers.get('retry-after')).toBe('1')
      expect(logged).toEqual(['warn database unavailable'])
      expect((await t.call('GET', '/api/v1/schemas')).status).toBe(200) // WAL: readers are not blocked
    } finally {
      holder.run('ROLLBACK')
      holder.close()
    }
    const created = await t.call('POST', '/api/v1/schemas', { body: { name: 'waits' }, headers: { 'idempotency-key': 'during-outage' } })
    expect(created.status).toBe(201)
    expect(created.headers.get('idempotent-replayed')).toBeNull()
    expect((await t.call('GET', '/api/v1/schemas')).body.schemas).toHaveLength(1)
    sqlite.close()
  },
)

test.skipIf(!POSTGRES_URL)(
  'PostgreSQL gone: the API answers 503 and /readyz 503, never another 5xx; back: it recovers by itself',
  async () => {
    const { url, drop } = await freshPostgres()
    const direct = await openDatabase(url)
    const target = new URL(url)
    const proxy = await tcpProxy({ hostname: target.hostname, port: Number(target.port || 5432) })
    const proxied = new URL(url)
    proxied.hostname = '127.0.0.1'
    proxied.port = String(proxy.port)
    const database = closeAfterTest(await openDatabase(proxied.toString(), { poolSize: 2 }))
    try {
      const t = await makeTestApp({ database })
      const ready = await t.app.handle(new Request('http://localhost/readyz'))
      expect(ready.status).toBe(200)
      expect((await t.call('POST', '/api/v1/schemas', { body: { name: 'before' } })).status).toBe(201)

      proxy.cut()
      for (const [method, path, body] of [
        ['POST', '/api/v1/schemas', { name: 'during' }],
        ['GET', '/api/v1/schemas', undefined],
        ['GET', '/api/v1/jobs', undefined],
      ] as const) {
        const refused = await t.call(method, path, { body })
        expectEnvelope(refused, 503, 'service_unavailable', 'The database is not available right now; retry shortly')
      }
      const notReady = await t.app.handle(new Request('http://localhost/readyz'))
      expect(notReady.status).toBe(503)
      expect(await notReady.json()).toEqual({ status: 'unavailable' })
      expect((await t.app.handle(new Request('http://localhost/healthz'))).status).toBe(200)

      proxy.restore()
      expect((await t.call('POST', '/api/v1/schemas', { body: { name: 'after' } })).status).toBe(201)
      expect((await t.app.handle(new Request('http://localhost/readyz'))).status).toBe(200)
      expect((await t.call('GET', '/api/v1/schemas')).body.schemas.map((schema: { name: string }) => schema.name)).toEqual(['after', 'before'])
    } finally {
      proxy.close()
      await closeDatabase(direct)
      await closeDatabase(database)
      await drop()
    }
  },
  30_000,
)

const FULL_MESSAGE = "The server's storage is full: nothing new can be stored until its operator frees space; retry later"

async function readiness(t: Awaited<ReturnType<typeof makeTestApp>>) {
  const response = await t.app.handle(new Request('http://localhost/readyz'))
  return { status: response.status, body: await response.json() }
}

test.skipIf(TEST_DIALECT !== 'sqlite')(
  'SQLite full: an upload answers 503 storage_full saying so and stores nothing, /readyz reports it, reads go on; with room again both recover',
  async () => {
    const logged: string[] = []
    const log = { debug: () => {}, info: () => {}, warn: () => {}, error: (message: string) => logged.push(message) }
    const t = await makeTestApp({ dbPath: join(dir.path, 'full.sqlite'), paused: true, log })
    if (t.database.kind !== 'sqlite') throw new Error('SQLite only')
    const { sqlite } = t.database
    const pages = (sqlite.query('PRAGMA page_count').get() as { page_count: number }).page_count
    // The file may not grow: what a full disk does to it.
    sqlite.run(`PRAGMA max_page_count = ${pages}`)
    const form = new FormData()
    form.set('extract', JSON.stringify({ document_type: 'invoice' }))
    form.set('file', new File(['Total: 1.00\n'.repeat(100_000)], 'big.txt'))
    const refused = await t.call('POST', '/api/v1/extract?async=true', { body: form })
    expectEnvelope(refused, 503, 'storage_full', FULL_MESSAGE)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(logged).toEqual(['database storage full'])
    expect(await readiness(t)).toEqual({ status: 503, body: { status: 'unavailable', reason: 'storage_full' } })
    expect((await t.call('GET', '/api/v1/jobs')).body).toEqual({ jobs: [], has_more: false })
    expect((await t.app.handle(new Request('http://localhost/healthz'))).status).toBe(200)

    sqlite.run('PRAGMA max_page_count = 1073741823')
    expect((await t.call('POST', '/api/v1/extract?async=true', { body: form })).status).toBe(202)
    expect(await readiness(t)).toEqual({ status: 200, body: { status: 'ok' } })
  },
)

test.skipIf(TEST_DIALECT !== 'sqlite')('SQLite: a file that cannot grow and has no free page is not ready, before any write fails', async () => {
  const t = await makeTestApp({ dbPath: join(dir.path, 'at-its-limit.sqlite'), paused: true })
  if (t.database.kind !== 'sqlite') throw new Error('SQLite only')
  const { sqlite } = t.database
  expect(await readiness(t)).toEqual({ status: 200, body: { status: 'ok' } })
  sqlite.run('PRAGMA incremental_vacuum') // its free pages given back, as the purge does
  sqlite.run(`PRAGMA max_page_count = ${(sqlite.query('PRAGMA page_count').get() as { page_count: number }).page_count}`)
  expect(await readiness(t)).toEqual({ status: 503, body: { status: 'unavailable', reason: 'storage_full' } })
})

test.skipIf(TEST_DIALECT !== 'postgres')(
  'PostgreSQL disk full (SQLSTATE 53100): a write answers 503 storage_full saying so, /readyz reports it, reads go on; once writes succeed both recover',
  async () => {
    const t = await makeTestApp({ paused: true })
    // What PostgreSQL answers when it cannot extend a file, raised where a new schema is written.
    await t.rows(
      "create or replace function extractd_disk_full() returns trigger language plpgsql as $$ begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$",
    )
    await t.rows('create trigger disk_full before insert on schemas for each row execute function extractd_disk_full()')
    try {
      const refused = await t.call('POST', '/api/v1/schemas', { body: { name: 'no room' } })
      expectEnvelope(refused, 503, 'storage_full', FULL_MESSAGE)
      expect(await readiness(t)).toEqual({ status: 503, body: { status: 'unavailable', reason: 'storage_full' } })
      expect((await t.call('GET', '/api/v1/schemas')).body.schemas).toEqual([])

      await t.rows('drop trigger disk_full on schemas')
      expect((await t.call('POST', '/api/v1/schemas', { body: { name: 'room again' } })).status).toBe(201)
      expect(await readiness(t)).toEqual({ status: 200, body: { status: 'ok' } })
    } finally {
      // The test databases are emptied and reused: a trigger left behind would refuse every later test's schemas.
      await t.rows('drop trigger if exists disk_full on schemas')
      await t.rows('drop function if exists extractd_disk_full()')
    }
  },
  // Long enough that a busy machine does not end the test before its finally has run.
  30_000,
)
