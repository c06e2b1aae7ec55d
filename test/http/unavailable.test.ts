/** A database that cannot answer in time gives 503 service_unavailable (D78), never a 500, and the API recovers. */
import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { expectEnvelope, makeTestApp } from '../helpers/app'
import { tempDir } from '../helpers/process'

const dir = tempDir('extractd-unavailable-')
afterAll(() => dir.remove())

test('a write while another process holds the database past the busy timeout is 503 with Retry-After; reads go on; then it works again', async () => {
  const path = join(dir.path, 'busy.sqlite')
  const logged: string[] = []
  const log = {
    debug: () => {},
    info: () => {},
    warn: (message: string) => logged.push(`warn ${message}`),
    error: (message: string) => logged.push(`error ${message}`),
  }
  const t = await makeTestApp({ dbPath: path, log })
  t.sqlite.run('PRAGMA busy_timeout = 20')
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
  t.sqlite.close()
})
