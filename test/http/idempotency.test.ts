/** Idempotency-Key on schema creation, restore and extraction (D75). */
import { Database as SqliteClient } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { builtinEngine } from '../../src/modules/extraction/engines/builtin'
import type { Engine } from '../../src/modules/extraction/engines/types'
import { type TestApp, createSchema, expectEnvelope, expectValidation, field, makeTestApp } from '../helpers/app'
import { joined } from '../helpers/answers'
import { TEST_DIALECT } from '../helpers/database'
import { tempDir } from '../helpers/process'

const KEY = 'retry-4711'
const SCHEMA = { name: 'Invoices', fields: [field('total')] }

function createWithKey(t: TestApp, body: unknown, key = KEY, apiKey?: string) {
  return t.call('POST', '/api/v1/schemas', { body, headers: { 'idempotency-key': key }, key: apiKey })
}

function extractForm(request: unknown, text = 'Invoice No.: INV-1\nTotal: 10.00 EUR\n', name = 'a.txt'): FormData {
  const form = new FormData()
  form.append('file', new File([text], name, { type: 'text/plain' }))
  form.append('extract', JSON.stringify(request))
  return form
}

function extractWithKey(t: TestApp, form: FormData, query = '', key = KEY) {
  return t.call('POST', `/api/v1/extract${query}`, { body: form, headers: { 'idempotency-key': key } })
}

async function schemaCount(t: TestApp, apiKey?: string): Promise<number> {
  return (await t.call('GET', '/api/v1/schemas', { key: apiKey })).body.schemas.length
}

async function jobCount(t: TestApp): Promise<number> {
  return (await t.call('GET', '/api/v1/jobs')).body.jobs.length
}

/** An engine that waits until `release()`. */
function gatedEngine(): { engine: Engine; release: () => void; started: Promise<void> } {
  let release!: () => void
  let markStarted!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  return {
    engine: {
      name: 'gated',
      async extract(input) {
        markStarted()
        await gate
        return joined({ values: Object.fromEntries(input.fields.map(({ key }) => [key, 'x'])), meta: {} })
      },
    },
    release,
    started,
  }
}

describe('POST /api/v1/schemas with Idempotency-Key', () => {
  test('a retry gets the first answer again, marked as replayed, and no second schema', async () => {
    const t = await makeTestApp()
    const first = await createWithKey(t, SCHEMA)
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const retry = await createWithKey(t, SCHEMA)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.headers.get('content-type')).toContain('application/json')
    expect(retry.text).toBe(first.text)
    expect(await schemaCount(t)).toBe(1)
  })

  test('the same key with another body, or on another route, is 409 idempotency_key_reused and creates nothing', async () => {
    const t = await makeTestApp()
    const first = await createWithKey(t, SCHEMA)
    const other = await createWithKey(t, { ...SCHEMA, name: 'Other' })
    expectEnvelope(other, 409, 'idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request')
    expect(await schemaCount(t)).toBe(1)
    const restore = await t.call('POST', `/api/v1/schemas/${first.body.schema.id}/restore`, { headers: { 'idempotency-key': KEY } })
    expectEnvelope(restore, 409, 'idempotency_key_reused')
    const extract = await extractWithKey(t, extractForm({ document_type: 'invoice' }))
    expectEnvelope(extract, 409, 'idempotency_key_reused')
    expect(await jobCount(t)).toBe(0)
  })

  test('keys of different accounts never meet', async () => {
    const t = await makeTestApp()
    const a = await createWithKey(t, SCHEMA)
    const b = await createWithKey(t, SCHEMA, KEY, t.keyB.key)
    expect(b.status).toBe(201)
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    expect(b.body.schema.id).not.toBe(a.body.schema.id)
    expect(await schemaCount(t)).toBe(1)
    expect(await schemaCount(t, t.keyB.key)).toBe(1)
    // And B's differing request does not collide with A's key either.
    expect((await createWithKey(t, { name: 'B2' }, 'b-only', t.keyB.key)).status).toBe(201)
    expect((await createWithKey(t, { name: 'A2' }, 'b-only')).status).toBe(201)
  })

  test.each([
    ['an empty key', ''],
    ['a key of 256 characters', 'k'.repeat(256)],
    ['a key with a tab', 'a\tb'],
  ])('%s is 400 naming headers:/idempotency-key, and nothing is created', async (_name, key) => {
    const t = await makeTestApp()
    expectValidation(await createWithKey(t, SCHEMA, key), ['headers:/idempotency-key'])
    expect(await schemaCount(t)).toBe(0)
  })

  test('a key of 255 printable characters is accepted', async () => {
    const t = await makeTestApp()
    const key = `${' !~'.repeat(85)}`
    expect((await createWithKey(t, SCHEMA, key)).status).toBe(201)
    expect((await createWithKey(t, SCHEMA, key)).headers.get('idempotent-replayed')).toBe('true')
  })

  test('a refused request is not remembered: after the schema limit is lifted, the same key creates the schema', async () => {
    const t = await makeTestApp()
    const made = []
    for (let i = 0; i < 50; i++) made.push(await createSchema(t, { name: `s${i}` }))
    expectEnvelope(await createWithKey(t, SCHEMA), 429, 'schema_limit_reached')
    await t.call('DELETE', `/api/v1/schemas/${made[0]!.id}`)
    const retry = await createWithKey(t, SCHEMA)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBeNull()
  })

  test('an invalid body with a key is 400 and leaves the key free for the corrected request', async () => {
    const t = await makeTestApp()
    expectValidation(await createWithKey(t, { name: '' }), ['/name'])
    expect((await createWithKey(t, SCHEMA)).status).toBe(201)
  })

  test('a stored answer lasts 24 hours; after that the key is free again', async () => {
    const t = await makeTestApp()
    await createWithKey(t, SCHEMA)
    await t.rows('update idempotency_keys set created_at = ?', [new Date(Date.now() - 24 * 3600_000 - 1000).toISOString()])
    const later = await createWithKey(t, SCHEMA)
    expect(later.status).toBe(201)
    expect(later.headers.get('idempotent-replayed')).toBeNull()
    expect(await schemaCount(t)).toBe(2)
  })

  test('a first request that never answered (its process died) frees its key after five minutes (D136)', async () => {
    const t = await makeTestApp()
    const hash = 'x'.repeat(64)
    const accountId = t.keyA.accountId
    const insert = 'insert into idempotency_keys (account_id, key, request_hash, created_at) values (?, ?, ?, ?)'
    await t.rows(insert, [accountId, 'lost', hash, new Date(Date.now() - 5 * 60_000 - 1000).toISOString()])
    await t.rows(insert, [accountId, 'busy', hash, new Date(Date.now() - 60_000).toISOString()])
    expect((await createWithKey(t, SCHEMA, 'lost')).status).toBe(201)
    expectEnvelope(await createWithKey(t, SCHEMA, 'busy'), 409, 'idempotency_key_reused')
  })

  test('two concurrent creates with one key make exactly one schema', async () => {
    const t = await makeTestApp()
    const answers = await Promise.all([createWithKey(t, SCHEMA), createWithKey(t, SCHEMA), createWithKey(t, SCHEMA)])
    for (const answer of answers) expect([201, 409]).toContain(answer.status)
    const created = answers.filter((answer) => answer.status === 201)
    expect(new Set(created.map((answer) => answer.body.schema.id)).size).toBe(1)
    expect(await schemaCount(t)).toBe(1)
  })
})

describe('POST /api/v1/schemas/:id/restore with Idempotency-Key', () => {
  test('a retry is replayed with the first answer', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, SCHEMA)
    await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    const headers = { 'idempotency-key': KEY }
    const first = await t.call('POST', `/api/v1/schemas/${schema.id}/restore`, { headers })
    expect(first.status).toBe(200)
    expect(first.body.schema.is_active).toBe(true)
    const retry = await t.call('POST', `/api/v1/schemas/${schema.id}/restore`, { headers })
    expect(retry.status).toBe(200)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.text).toBe(first.text)
  })

  test('a 404 is not remembered', async () => {
    const t = await makeTestApp()
    const headers = { 'idempotency-key': KEY }
    expectEnvelope(await t.call('POST', '/api/v1/schemas/sch_nope/restore', { headers }), 404, 'not_found')
    expectEnvelope(await t.call('POST', '/api/v1/schemas/sch_nope/restore', { headers }), 404, 'not_found')
  })
})

describe('POST /api/v1/extract with Idempotency-Key', () => {
  test('a retry with the same extract part and file gets the same job, and no second job is made', async () => {
    const t = await makeTestApp()
    const request = { document_type: 'invoice', fields: { total: 'Total' } }
    const first = await extractWithKey(t, extractForm(request))
    expect(first.status).toBe(200)
    expect(first.body.job.status).toBe('succeeded')
    // A new form: another multipart boundary, and the file under another name, same bytes.
    const retry = await extractWithKey(t, extractForm(request, undefined, 'renamed.txt'))
    expect(retry.status).toBe(200)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.body).toEqual(first.body)
    expect(await jobCount(t)).toBe(1)
  })

  test('another file or another extract part with the same key is 409 idempotency_key_reused', async () => {
    const t = await makeTestApp()
    const request = { document_type: 'invoice', fields: { total: 'Total' } }
    await extractWithKey(t, extractForm(request))
    expectEnvelope(await extractWithKey(t, extractForm(request, 'Total: 99.00 EUR\n')), 409, 'idempotency_key_reused')
    expectEnvelope(await extractWithKey(t, extractForm({ ...request, document_type: 'receipt' })), 409, 'idempotency_key_reused')
    expectEnvelope(await extractWithKey(t, extractForm(request), '?async=true'), 409, 'idempotency_key_reused')
    expect(await jobCount(t)).toBe(1)
  })

  test('an async extraction replays its 202 answer, the job as it was then', async () => {
    const t = await makeTestApp({ paused: true })
    const form = () => extractForm({ document_type: 'invoice' })
    const first = await extractWithKey(t, form(), '?async=true')
    expect(first.status).toBe(202)
    const retry = await extractWithKey(t, form(), '?async=true')
    expect(retry.status).toBe(202)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.body).toEqual(first.body)
    expect(await jobCount(t)).toBe(1)
  })

  test('a retry while the first request still runs is 409 idempotency_key_in_use; after it ends, the retry is replayed', async () => {
    const { engine, release, started } = gatedEngine()
    const t = await makeTestApp({ engine })
    const request = { document_type: 'invoice', fields: { total: 'Total' } }
    const first = extractWithKey(t, extractForm(request))
    await started
    const during = await extractWithKey(t, extractForm(request))
    expectEnvelope(during, 409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry after it ends')
    expect(during.headers.get('retry-after')).toBe('1')
    release()
    const answered = await first
    expect(answered.status).toBe(200)
    const after = await extractWithKey(t, extractForm(request))
    expect(after.headers.get('idempotent-replayed')).toBe('true')
    expect(after.body).toEqual(answered.body)
    expect(await jobCount(t)).toBe(1)
  })

  test('an unsupported document is 415 and leaves the key free', async () => {
    const t = await makeTestApp()
    const form = new FormData()
    form.append('file', new File([new Uint8Array([0, 1, 2, 3, 0, 255])], 'x.bin'))
    form.append('extract', JSON.stringify({ document_type: 'invoice' }))
    expectEnvelope(await extractWithKey(t, form), 415, 'unsupported_media_type')
    expect((await extractWithKey(t, extractForm({ document_type: 'invoice' }))).status).toBe(200)
  })
})

describe.skipIf(TEST_DIALECT !== 'sqlite')('a database that cannot answer as the request ends (D135, D136)', () => {
  test('a synchronous extraction whose job exists answers with it, and its key is completed once the database answers again', async () => {
    const dir = tempDir('extractd-idempotency-')
    try {
      const path = join(dir.path, 'locked.sqlite')
      let unlocked!: Promise<void>
      // The engine locks the database from another connection as it ends, for 1.5 s: the job's end and the key cannot be written meanwhile.
      const locking: Engine = {
        name: 'builtin',
        async extract(input) {
          const holder = new SqliteClient(path)
          holder.run('BEGIN EXCLUSIVE')
          unlocked = Bun.sleep(1500).then(() => {
            holder.run('ROLLBACK')
            holder.close()
          })
          return builtinEngine.extract(input)
        },
      }
      const t = await makeTestApp({ dbPath: path, engine: locking })
      if (t.database.kind !== 'sqlite') throw new Error('SQLite only')
      t.database.sqlite.run('PRAGMA busy_timeout = 5')
      const first = await extractWithKey(t, extractForm({ document_type: 'invoice' }))
      expect(first.status).toBe(202)
      const id = first.body.job.id
      expect(id).toMatch(/^job_/)
      await unlocked
      await Bun.sleep(1500) // the key's answer is written again every second
      const retry = await extractWithKey(t, extractForm({ document_type: 'invoice' }))
      expect([retry.status, retry.body.job.id, retry.headers.get('idempotent-replayed')]).toEqual([202, id, 'true'])
      expect(await jobCount(t)).toBe(1)
    } finally {
      dir.remove()
    }
  })
})
