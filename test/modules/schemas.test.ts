import { describe, expect, test } from 'bun:test'
import { ISO_MS, type TestApp, createSchema, expectEnvelope, expectValidation, field, makeTestApp } from '../helpers/app'

const SCHEMA_ID = /^sch_[0-9a-hjkmnp-tv-z]{30}$/

type SchemaBody = { name?: unknown; description?: unknown; fields?: Record<string, unknown>[]; [other: string]: unknown }

/** The Schema the API answers for a valid create body (D7, D8): every property, absent strings as "". */
function expectedSchema(body: SchemaBody) {
  return {
    id: expect.stringMatching(SCHEMA_ID),
    name: body.name,
    description: body.description ?? '',
    fields: (body.fields ?? []).map((sent) => ({ description: '', type: 'auto', ...sent })),
    version: 1,
    is_active: true,
    review_threshold: 0.95,
    created_at: expect.stringMatching(ISO_MS),
    updated_at: expect.stringMatching(ISO_MS),
  }
}

/** The active schemas of account A, as listed. */
async function listed(t: TestApp): Promise<any[]> {
  const response = await t.call('GET', '/api/v1/schemas')
  expect(response.status).toBe(200)
  return response.body.schemas
}

describe('POST /api/v1/schemas', () => {
  test('creates a schema and answers 201 with every property, absent strings as ""', async () => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/schemas', {
      body: { name: 'Invoices', fields: [{ key: 'total', label: 'Total', required: true }] },
    })
    expect(response.status).toBe(201)
    // A field sent without type is `auto` (D87).
    expect(response.headers.get('content-type')).toContain('application/json')
    const { schema } = response.body
    expect(Object.keys(response.body)).toEqual(['schema'])
    expect(schema).toEqual({
      id: expect.stringMatching(SCHEMA_ID),
      name: 'Invoices',
      description: '',
      fields: [{ key: 'total', label: 'Total', description: '', required: true, type: 'auto' }],
      version: 1,
      is_active: true,
      review_threshold: 0.95,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: schema.created_at,
    })
    const stored = await t.call('GET', `/api/v1/schemas/${schema.id}`)
    expect(stored.body).toEqual({ schema })
  })

  test('gives every new schema an updated_at equal to its created_at (D13)', async () => {
    const t = await makeTestApp()
    for (let i = 0; i < 50; i++) {
      const schema = await createSchema(t, { name: `s${i}`, fields: [field('a')] })
      expect(schema.updated_at).toBe(schema.created_at)
    }
  })

  test('defaults fields to an empty list (D8)', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'Empty' })
    expect(schema).toEqual(expectedSchema({ name: 'Empty', fields: [] }))
    expect(schema.fields).toEqual([])
  })

  test('stores strings exactly as sent, without trimming or normalising (D4)', async () => {
    const t = await makeTestApp()
    const name = '  Cafe\u0301 ✓  '
    const schema = await createSchema(t, { name, description: ' two  spaces ', fields: [field('a', { label: ' A ' })] })
    expect(schema.name).toBe(name)
    expect(schema.description).toBe(' two  spaces ')
    expect(schema.fields[0].label).toBe(' A ')
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body).toEqual({ schema })
  })

  test('D99: U+0000 in any string is 400 naming each path, on create and update, and nothing is stored', async () => {
    const t = await makeTestApp()
    const created = await t.call('POST', '/api/v1/schemas', {
      body: { name: 'a\u0000b', fields: [field('a', { label: 'x\u0000', description: 'fine' })] },
    })
    expectValidation(created, ['/name', '/fields/0/label'])
    expect(created.body.details[0].message).toBe('Must not contain the character U+0000')
    expect(await t.rows('SELECT id FROM schemas')).toEqual([])
    const schema = await createSchema(t, { name: 'ok' })
    expectValidation(await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { description: '\u0000' } }), ['/description'])
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body).toEqual({ schema })
  })

  test('strings that JSON must escape come back exactly as sent from create, list, read, update and restore (D65)', async () => {
    const t = await makeTestApp()
    const tricky = 'quote " backslash \\ slash / tab \t newline \n escaped nul \\u0000 del \u007f line sep \u2028 emoji 🧾 </script>'
    const body = { name: tricky, description: tricky, fields: [field('a', { label: tricky, description: tricky, required: true })] }
    const created = await t.call('POST', '/api/v1/schemas', { body })
    expect(created.status).toBe(201)
    const schema = created.body.schema
    expect(schema).toEqual(expectedSchema(body))
    expect((await t.call('GET', '/api/v1/schemas')).body).toEqual({ schemas: [schema] })
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body).toEqual({ schema })
    expect((await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: {} })).body).toEqual(schema)
    expect((await t.call('POST', `/api/v1/schemas/${schema.id}/restore`)).body).toEqual({ schema })
  })

  const fifty = Array.from({ length: 50 }, (_, i) => field(`f${i}`))

  /** Each limit of interface.md 8 and D4: the value at the limit is stored, one more is a 400 stating the limit. */
  const LIMITS: { name: string; accepted: SchemaBody; rejected: SchemaBody; path: string; limit: string }[] = [
    { name: 'a name of 100 characters and rejects 101', accepted: { name: 'n'.repeat(100) }, rejected: { name: 'n'.repeat(101) }, path: '/name', limit: '100' },
    {
      name: 'a name of 100 emoji (200 UTF-16 units) and rejects 101: lengths count code points (D4)',
      accepted: { name: '😀'.repeat(100) },
      rejected: { name: '😀'.repeat(101) },
      path: '/name',
      limit: '100',
    },
    {
      name: 'a schema description of 1000 characters and rejects 1001',
      accepted: { name: 'x', description: 'd'.repeat(1000) },
      rejected: { name: 'x', description: 'd'.repeat(1001) },
      path: '/description',
      limit: '1000',
    },
    {
      name: '50 fields and rejects 51',
      accepted: { name: 'x', fields: fifty },
      rejected: { name: 'x', fields: [...fifty, field('f50')] },
      path: '/fields',
      limit: '50',
    },
    {
      name: 'a field key of 64 characters and rejects 65',
      accepted: { name: 'x', fields: [field('k'.repeat(64))] },
      rejected: { name: 'x', fields: [field('k'.repeat(65))] },
      path: '/fields/0/key',
      limit: '64',
    },
    {
      name: 'a field label of 100 characters and rejects 101',
      accepted: { name: 'x', fields: [field('a', { label: 'é'.repeat(100) })] },
      rejected: { name: 'x', fields: [field('a', { label: 'l'.repeat(101) })] },
      path: '/fields/0/label',
      limit: '100',
    },
    {
      name: 'a field description of 300 characters (and an empty one) and rejects 301',
      accepted: { name: 'x', fields: [field('a', { description: '𝄞'.repeat(300) }), field('b', { description: '' })] },
      rejected: { name: 'x', fields: [field('a', { description: 'd'.repeat(301) })] },
      path: '/fields/0/description',
      limit: '300',
    },
  ]

  test.each(LIMITS)('accepts $name', async ({ accepted, rejected, path, limit }) => {
    const t = await makeTestApp()
    const ok = await t.call('POST', '/api/v1/schemas', { body: accepted })
    expect(ok.status).toBe(201)
    expect(ok.body).toEqual({ schema: expectedSchema(accepted) })
    const response = await t.call('POST', '/api/v1/schemas', { body: rejected })
    expectValidation(response, [path])
    expect(response.body.details[0].message).toContain(limit)
    expect(await listed(t)).toEqual([ok.body.schema])
  })

  const REJECTED: [string, SchemaBody, string[]][] = [
    ['a missing name', { fields: [] }, ['/name']],
    ['an empty name', { name: '' }, ['/name']],
    ['a whitespace-only name', { name: ' \t\n ' }, ['/name']],
    ['a blank field label', { name: 'x', fields: [field('a', { label: '   ' })] }, ['/fields/0/label']],
    ['a field without required (D3)', { name: 'x', fields: [{ key: 'a', label: 'A' }] }, ['/fields/0/required']],
    ['required given as the string "true" (D3)', { name: 'x', fields: [field('a', { required: 'true' })] }, ['/fields/0/required']],
    ['null where a string is expected (D3)', { name: 'x', description: null }, ['/description']],
    [
      'unknown properties at the top level and inside a field, naming them (D3)',
      { name: 'x', colour: 'red', fields: [field('a', { type: 'string' })] },
      ['/colour', '/fields/0/type'],
    ],
    [
      'a body with several problems, naming every invalid path at once',
      { name: '', fields: [field('ok'), field('bad key'), field('x', { label: '' })] },
      ['/name', '/fields/1/key', '/fields/2/label'],
    ],
  ]

  test.each(REJECTED)('rejects %s with 400 naming exactly %p, storing nothing', async (_, body, paths) => {
    const t = await makeTestApp()
    expectValidation(await t.call('POST', '/api/v1/schemas', { body }), paths)
    expect(await listed(t)).toEqual([])
  })

  test.each(['', 'has-dash', 'has space', 'ünïcode', 'dot.ted', '😀'])('rejects the field key %p', async (key) => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/schemas', { body: { name: 'x', fields: [field('ok'), field(key)] } })
    expectValidation(response, ['/fields/1/key'])
    expect(await listed(t)).toEqual([])
  })

  test('treats keys as case-sensitive: Total and total are two keys (D4)', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: [field('Total'), field('total'), field('_1')] })
    expect(schema.fields.map((f: { key: string }) => f.key)).toEqual(['Total', 'total', '_1'])
  })

  test('rejects duplicate field keys, naming both positions (D9)', async () => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/schemas', {
      body: { name: 'x', fields: [field('total'), field('date'), field('total')] },
    })
    expectValidation(response, ['/fields/2/key'])
    expect(response.body.details).toEqual([{ path: '/fields/2/key', message: expect.stringContaining('/fields/0/key') }])
    expect(await listed(t)).toEqual([])
  })

  test('allows two schemas with the same name (D15)', async () => {
    const t = await makeTestApp()
    const a = await createSchema(t, { name: 'Same' })
    const b = await createSchema(t, { name: 'Same' })
    expect(a.id).not.toBe(b.id)
    expect(await listed(t)).toEqual([b, a])
  })
})

describe('GET /api/v1/schemas', () => {
  test('lists active schemas newest first, wrapped in {schemas} (D14)', async () => {
    const t = await makeTestApp()
    const created = []
    for (const name of ['first', 'second', 'third']) created.push(await createSchema(t, { name }))
    const response = await t.call('GET', '/api/v1/schemas')
    expect(response.status).toBe(200)
    expect(Object.keys(response.body)).toEqual(['schemas'])
    expect(response.body.schemas.map((s: { name: string }) => s.name)).toEqual(['third', 'second', 'first'])
    expect(response.body.schemas[0]).toEqual(created[2])
  })

  test('leaves soft-deleted schemas out', async () => {
    const t = await makeTestApp()
    const keep = await createSchema(t, { name: 'keep' })
    const gone = await createSchema(t, { name: 'gone' })
    await t.call('DELETE', `/api/v1/schemas/${gone.id}`)
    const response = await t.call('GET', '/api/v1/schemas')
    expect(response.body.schemas.map((s: { id: string }) => s.id)).toEqual([keep.id])
  })

  test("shows only the caller's account", async () => {
    const t = await makeTestApp()
    await createSchema(t, { name: 'of A' })
    const ofB = await createSchema(t, { name: 'of B' }, t.keyB.key)
    const response = await t.call('GET', '/api/v1/schemas', { key: t.keyB.key })
    expect(response.body.schemas.map((s: { id: string }) => s.id)).toEqual([ofB.id])
  })
})

describe('GET /api/v1/schemas/:id', () => {
  test('returns the schema wrapped in {schema}', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', description: 'y', fields: [field('a')] })
    const response = await t.call('GET', `/api/v1/schemas/${schema.id}`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ schema })
  })

  test("returns 404 for another account's schema and for an unknown ID", async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    expectEnvelope(await t.call('GET', `/api/v1/schemas/${schema.id}`, { key: t.keyB.key }), 404, 'not_found')
    const unknown = `sch_${'0'.repeat(30)}`
    expectEnvelope(await t.call('GET', `/api/v1/schemas/${unknown}`), 404, 'not_found')
  })

  test('keeps a soft-deleted schema readable with is_active false (D11)', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    const response = await t.call('GET', `/api/v1/schemas/${schema.id}`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ schema: { ...schema, is_active: false, updated_at: expect.stringMatching(ISO_MS) } })
    expect(response.body.schema.is_active).toBe(false)
    expect(response.body.schema.fields).toEqual(schema.fields)
  })
})

describe('PATCH /api/v1/schemas/:id', () => {
  test('changes only the properties sent and answers the schema unwrapped', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'old', description: 'keep me', fields: [field('a')] })
    await Bun.sleep(2)
    const response = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { name: 'new' } })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      ...schema,
      name: 'new',
      version: 2,
      updated_at: expect.stringMatching(ISO_MS),
    })
    expect(response.body.updated_at > schema.updated_at).toBe(true)
    expect(response.body.created_at).toBe(schema.created_at)
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema).toEqual(response.body)
  })

  test('replaces the whole field list', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: [field('a'), field('b')] })
    const response = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, {
      body: { fields: [{ key: 'c', label: 'C', required: true }] },
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      ...schema,
      fields: [{ key: 'c', label: 'C', description: '', required: true, type: 'auto' }],
      version: 2,
      updated_at: expect.stringMatching(ISO_MS),
    })
    expect(response.body.fields).toEqual([{ key: 'c', label: 'C', description: '', required: true, type: 'auto' }])
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body).toEqual({ schema: response.body })
  })

  test('answers an empty body {} with the schema unchanged, updated_at included (D13)', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: [field('a')] })
    await Bun.sleep(2)
    const response = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: {} })
    expect(response.status).toBe(200)
    expect(response.body).toEqual(schema)
  })

  test('does not move updated_at when the values sent equal the stored ones (D13)', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', description: 'd', fields: [field('a')] })
    await Bun.sleep(2)
    const response = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, {
      body: { name: 'x', description: 'd', fields: schema.fields },
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual(schema)
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body).toEqual({ schema })
  })

  test.each([
    ['an empty name', { name: '' }, ['/name']],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, ['/name']],
    ['duplicate field keys', { fields: [field('a'), field('a')] }, ['/fields/1/key']],
    ['a field key of 65 characters', { fields: [field('k'.repeat(65))] }, ['/fields/0/key']],
    ['is_active, which is not writable', { is_active: false }, ['/is_active']],
    ['id, which is not writable', { id: 'sch_other' }, ['/id']],
  ])('validates like create: %s → 400 naming %p, nothing changes', async (_, body, paths) => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: [field('a')] })
    expectValidation(await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body }), paths)
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema).toEqual(schema)
  })

  test("returns 404 for another account's schema, an unknown ID, and a soft-deleted schema (D11)", async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    expectEnvelope(await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { key: t.keyB.key, body: { name: 'y' } }), 404, 'not_found')
    expectEnvelope(await t.call('PATCH', '/api/v1/schemas/sch_nope', { body: { name: 'y' } }), 404, 'not_found')
    await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    expectEnvelope(await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { name: 'y' } }), 404, 'not_found')
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema.name).toBe(schema.name)
  })
})

describe('DELETE /api/v1/schemas/:id', () => {
  test('soft-deletes: answers {ok: true}, sets is_active false and moves updated_at', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    await Bun.sleep(2)
    const response = await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ ok: true })
    const stored = (await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema
    expect(stored.is_active).toBe(false)
    expect(stored.updated_at > schema.updated_at).toBe(true)
    expect(stored.created_at).toBe(schema.created_at)
  })

  test('deleting again is 200 {ok: true} and changes nothing (D11)', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    const before = (await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema
    await Bun.sleep(2)
    const again = await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ ok: true })
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema).toEqual(before)
  })

  test("returns 404 for another account's schema and leaves it active", async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    expectEnvelope(await t.call('DELETE', `/api/v1/schemas/${schema.id}`, { key: t.keyB.key }), 404, 'not_found')
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema.is_active).toBe(true)
  })
})

describe('POST /api/v1/schemas/:id/restore', () => {
  test('reactivates a soft-deleted schema and lists it again (D12)', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: [field('a')] })
    await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    const deleted = (await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema
    await Bun.sleep(2)
    const response = await t.call('POST', `/api/v1/schemas/${schema.id}/restore`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      schema: { ...schema, is_active: true, updated_at: expect.stringMatching(ISO_MS) },
    })
    expect(response.body.schema.updated_at > deleted.updated_at).toBe(true)
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body).toEqual(response.body)
    expect((await t.call('GET', '/api/v1/schemas')).body.schemas.map((s: { id: string }) => s.id)).toEqual([schema.id])
  })

  test('answers an active schema unchanged', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    const response = await t.call('POST', `/api/v1/schemas/${schema.id}/restore`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ schema })
  })

  test("returns 404 for another account's schema and an unknown ID", async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    expectEnvelope(await t.call('POST', `/api/v1/schemas/${schema.id}/restore`, { key: t.keyB.key }), 404, 'not_found')
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema.is_active).toBe(false)
    expectEnvelope(await t.call('POST', `/api/v1/schemas/sch_${'1'.repeat(30)}/restore`), 404, 'not_found')
  })
})

describe('the limit of 50 active schemas (D10)', () => {
  const limitMessage = 'Schema limit reached: an account can hold at most 50 active schemas'

  async function fill(t: TestApp, count = 50, key?: string) {
    const ids: string[] = []
    for (let i = 0; i < count; i++) ids.push((await createSchema(t, { name: `s${i}` }, key)).id)
    return ids
  }

  test('refuses the 51st schema with 429 and stores nothing', async () => {
    const t = await makeTestApp()
    await fill(t)
    const response = await t.call('POST', '/api/v1/schemas', { body: { name: 'one too many' } })
    expectEnvelope(response, 429, 'schema_limit_reached', limitMessage)
    const list = (await t.call('GET', '/api/v1/schemas')).body.schemas
    expect(list).toHaveLength(50)
    expect(list.some((s: { name: string }) => s.name === 'one too many')).toBe(false)
  })

  test('answers 400, not 429, for an invalid body at the limit (D2)', async () => {
    const t = await makeTestApp()
    await fill(t)
    expectValidation(await t.call('POST', '/api/v1/schemas', { body: { name: '' } }), ['/name'])
    expectValidation(await t.call('POST', '/api/v1/schemas', { body: { name: 'x', fields: [field('a'), field('a')] } }), ['/fields/1/key'])
    expect(await listed(t)).toHaveLength(50)
  })

  test('counts only active schemas: deleting one frees a place', async () => {
    const t = await makeTestApp()
    const ids = await fill(t)
    await t.call('DELETE', `/api/v1/schemas/${ids[0]}`)
    expect((await t.call('POST', '/api/v1/schemas', { body: { name: 'fits' } })).status).toBe(201)
    expectEnvelope(await t.call('POST', '/api/v1/schemas', { body: { name: 'no' } }), 429, 'schema_limit_reached', limitMessage)
    const names = (await listed(t)).map((s: { name: string }) => s.name)
    expect(names).toHaveLength(50)
    expect(names[0]).toBe('fits')
    expect(names).not.toContain('no')
  })

  test('refuses to restore a schema into a full account with 429 (D12)', async () => {
    const t = await makeTestApp()
    const ids = await fill(t)
    await t.call('DELETE', `/api/v1/schemas/${ids[0]}`)
    await createSchema(t, { name: 'took the place' })
    const response = await t.call('POST', `/api/v1/schemas/${ids[0]}/restore`)
    expectEnvelope(response, 429, 'schema_limit_reached', limitMessage)
    expect((await t.call('GET', `/api/v1/schemas/${ids[0]}`)).body.schema.is_active).toBe(false)
  })

  test('is counted per account', async () => {
    const t = await makeTestApp()
    await fill(t)
    expect((await t.call('POST', '/api/v1/schemas', { body: { name: 'B' }, key: t.keyB.key })).status).toBe(201)
    expect((await t.call('GET', '/api/v1/schemas', { key: t.keyB.key })).body.schemas.map((s: { name: string }) => s.name)).toEqual(['B'])
    expect(await listed(t)).toHaveLength(50)
  })

  test('100 concurrent creates on an empty account give exactly 50 × 201 and 50 × 429', async () => {
    const t = await makeTestApp()
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => t.call('POST', '/api/v1/schemas', { body: { name: `race ${i}` } })))
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(50)
    expect(statuses.filter((s) => s === 429)).toHaveLength(50)
    for (const refused of responses.filter((r) => r.status === 429)) expectEnvelope(refused, 429, 'schema_limit_reached', limitMessage)
    const created = responses.filter((r) => r.status === 201).map((r) => r.body.schema)
    const list = await listed(t)
    expect(list).toHaveLength(50)
    expect(new Set(list.map((s: { id: string }) => s.id))).toEqual(new Set(created.map((s: { id: string }) => s.id)))
  })
})

describe('typed fields in schemas (D87–D89)', () => {
  const typed = [
    { key: 'total', label: 'Total', required: true, type: 'amount' },
    { key: 'status', label: 'Status', required: false, type: 'enum', values: ['open', 'paid'] },
    { key: 'lines', label: 'Lines', required: false, type: 'table', columns: [{ key: 'item' }, { key: 'price', label: 'Price', type: 'amount' }] },
    { key: 'note', label: 'Note', required: false, type: 'auto' },
  ]

  test('stores and answers type, values and columns; a column answers every property', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'Typed', fields: typed })
    const expected = [
      { key: 'total', label: 'Total', description: '', required: true, type: 'amount' },
      { key: 'status', label: 'Status', description: '', required: false, type: 'enum', values: ['open', 'paid'] },
      {
        key: 'lines',
        label: 'Lines',
        description: '',
        required: false,
        type: 'table',
        columns: [
          { key: 'item', label: 'item', description: '', type: 'auto' },
          { key: 'price', label: 'Price', description: '', type: 'amount' },
        ],
      },
      { key: 'note', label: 'Note', description: '', required: false, type: 'auto' },
    ]
    expect(schema.fields).toEqual(expected)
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema.fields).toEqual(expected)
    expect((await listed(t))[0].fields).toEqual(expected)
  })

  test.each([
    [{ type: 'colour' }, ['/fields/0/type']],
    [{ type: 'text', values: ['a'] }, ['/fields/0/values']],
    [{ values: ['a'] }, ['/fields/0/values']],
    [{ type: 'enum' }, ['/fields/0/values']],
    [{ type: 'enum', values: [] }, ['/fields/0/values']],
    [{ type: 'enum', values: ['a', 'b', 'a'] }, ['/fields/0/values/2']],
    [{ type: 'table', columns: [] }, ['/fields/0/columns']],
    [{ type: 'table', columns: [{ key: 'a' }, { key: 'a' }] }, ['/fields/0/columns/1/key']],
    [{ type: 'table', columns: [{ key: 'a', type: 'table' }] }, ['/fields/0/columns/0/type']],
    [{ type: 'table', columns: [{ key: 'a', kind: 'text' }] }, ['/fields/0/columns/0/kind']],
    [{ type: 'table', columns: [{ key: 'a', type: 'text', values: ['x'] }] }, ['/fields/0/columns/0/values']],
    [{ type: 'list', columns: [{ key: 'a' }] }, ['/fields/0/columns']],
    [{ type: null }, ['/fields/0/type']],
  ])('a field with %j is 400 naming %j, and nothing is stored (D3, D88)', async (extra, paths) => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/schemas', { body: { name: 'x', fields: [field('a', extra)] } })
    expectValidation(response, paths)
    expect(await listed(t)).toEqual([])
  })

  test('PATCH with a bad type rule is 400 and leaves the schema as it was', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: typed })
    const response = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { fields: [field('a', { type: 'number', values: ['1'] })] } })
    expectValidation(response, ['/fields/0/values'])
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body).toEqual({ schema })
  })

  test('D36: resending the fields without type (auto) is no change; changing only a type is one', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: [field('a'), field('b', { type: 'auto' })] })
    await Bun.sleep(3)
    const same = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { fields: [field('a', { type: 'auto' }), field('b')] } })
    expect(same.status).toBe(200)
    expect(same.body).toEqual(schema)
    const retyped = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { fields: [field('a', { type: 'date' }), field('b')] } })
    expect(retyped.body.fields[0].type).toBe('date')
    expect(retyped.body.updated_at > schema.updated_at).toBe(true)
  })

  test('D89: a schema stored before typed fields answers type auto, and resending its fields is still no change', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'old', fields: [field('a'), field('b', { required: true })] })
    const untyped = [
      { key: 'a', label: 'Label of a', description: 'What a is', required: false },
      { key: 'b', label: 'Label of b', description: 'What b is', required: true },
    ]
    await t.rows('UPDATE schemas SET fields = ? WHERE id = ?', [JSON.stringify(untyped), schema.id])
    const read = await t.call('GET', `/api/v1/schemas/${schema.id}`)
    expect(read.body).toEqual({ schema })
    expect((await listed(t))[0]).toEqual(schema)

    const resent = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { fields: [field('a'), field('b', { required: true })] } })
    expect(resent.body).toEqual(schema)
    const [stored] = await t.rows<{ fields: string }>('SELECT fields FROM schemas WHERE id = ?', [schema.id])
    expect(JSON.parse(stored!.fields)).toEqual(untyped)
  })
})
