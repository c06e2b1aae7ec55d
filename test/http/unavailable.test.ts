/** A database that cannot answer in time gives 503 service_unavailable (D78), never a 500, and the API recovers. */
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
