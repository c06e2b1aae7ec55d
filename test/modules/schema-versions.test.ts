/** Schema versions (D74): the history of a schema, and jobs that record or pin the version they used. */
import { describe, expect, test } from 'bun:test'
import { newId } from '../../src/lib/ids'
import { ISO_MS, type TestApp, createSchema, expectEnvelope, expectValidation, field, makeTestApp } from '../helpers/app'

const INVOICE_TEXT = 'ACME GmbH\nInvoice No.: INV-2024-001\nDate: 2024-03-05\nTotal: 1,234.50 EUR\n'

function extract(t: TestApp, request: unknown, key?: string) {
  const form = new FormData()
  form.append('file', new File([INVOICE_TEXT], 'invoice.txt', { type: 'text/plain' }))
  form.append('extract', JSON.stringify(request))
  return t.call('POST', '/api/v1/extract', { body: form, key })
}

async function patch(t: TestApp, id: string, body: Record<string, unknown>) {
  const response = await t.call('PATCH', `/api/v1/schemas/${id}`, { body })
  expect(response.status).toBe(200)
  return response.body
}

async function versionsOf(t: TestApp, id: string, query = '') {
  const response = await t.call('GET', `/api/v1/schemas/${id}/versions${query}`)
  expect(response.status).toBe(200)
  return response.body as { versions: any[]; has_more: boolean }
}

describe('schema versions', () => {
  test('a new schema is version 1, and its history holds that version', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'Invoices', description: 'd', fields: [field('total')] })
    expect(schema.version).toBe(1)
    expect(await versionsOf(t, schema.id)).toEqual({
      versions: [{ schema_id: schema.id, version: 1, name: 'Invoices', description: 'd', fields: schema.fields, created_at: schema.created_at }],
      has_more: false,
    })
    const one = await t.call('GET', `/api/v1/schemas/${schema.id}/versions/1`)
    expect(one.status).toBe(200)
    expect(one.body).toEqual({ version: (await versionsOf(t, schema.id)).versions[0] })
  })

  test('each effective change adds one version, newest first; a change to nothing adds none (D13, D36)', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'v1', fields: [field('a')] })
    const second = await patch(t, schema.id, { name: 'v2' })
    expect(second.version).toBe(2)
    const third = await patch(t, schema.id, { fields: [field('b')] })
    expect(third.version).toBe(3)
    expect(third.updated_at >= second.updated_at).toBe(true)
    // The same values again, an empty body, a field sent without its default description: no change.
    expect((await patch(t, schema.id, { name: 'v2', fields: [field('b')] })).version).toBe(3)
    const bare = await createSchema(t, { name: 'bare', fields: [{ key: 'c', label: 'C', description: '', required: true }] })
    expect((await patch(t, bare.id, { fields: [{ key: 'c', label: 'C', required: true }] })).version).toBe(1)
    expect((await patch(t, schema.id, {})).version).toBe(3)

    const { versions, has_more } = await versionsOf(t, schema.id)
    expect(has_more).toBe(false)
    expect(versions.map((v) => [v.version, v.name, v.fields.map((f: { key: string }) => f.key)])).toEqual([
      [3, 'v2', ['b']],
      [2, 'v2', ['a']],
      [1, 'v1', ['a']],
    ])
    expect(versions[0].created_at).toBe(third.updated_at)
    expect(versions[1].created_at).toBe(second.updated_at)
    for (const version of versions) expect(version.created_at).toMatch(ISO_MS)
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema.version).toBe(3)
  })

  test('delete and restore change no version, and a deleted schema keeps its history readable', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'v1', fields: [field('a')] })
    await patch(t, schema.id, { name: 'v2' })
    expect((await t.call('DELETE', `/api/v1/schemas/${schema.id}`)).status).toBe(200)
    const deleted = await t.call('GET', `/api/v1/schemas/${schema.id}`)
    expect(deleted.body.schema).toMatchObject({ is_active: false, version: 2 })
    expect((await versionsOf(t, schema.id)).versions.map((v) => v.version)).toEqual([2, 1])
    const first = await t.call('GET', `/api/v1/schemas/${schema.id}/versions/1`)
    expect(first.status).toBe(200)
    expect(first.body.version.name).toBe('v1')
    const restored = await t.call('POST', `/api/v1/schemas/${schema.id}/restore`)
    expect(restored.body.schema).toMatchObject({ is_active: true, version: 2 })
  })

  test('pages with limit and starting_after, newest first', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'n0' })
    for (let i = 1; i <= 4; i++) await patch(t, schema.id, { name: `n${i}` })
    const first = await versionsOf(t, schema.id, '?limit=2')
    expect(first.versions.map((v) => v.version)).toEqual([5, 4])
    expect(first.has_more).toBe(true)
    const second = await versionsOf(t, schema.id, '?limit=2&starting_after=4')
    expect(second.versions.map((v) => v.version)).toEqual([3, 2])
    expect(second.has_more).toBe(true)
    const last = await versionsOf(t, schema.id, '?limit=2&starting_after=2')
    expect(last).toEqual({ versions: [expect.objectContaining({ version: 1, name: 'n0' })], has_more: false })
  })

  test.each([
    ['?limit=0', 'query:/limit'],
    ['?limit=101', 'query:/limit'],
    ['?limit=x', 'query:/limit'],
    ['?starting_after=0', 'query:/starting_after'],
    ['?starting_after=x', 'query:/starting_after'],
  ])('%s is 400 naming %s', async (query, path) => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    expectValidation(await t.call('GET', `/api/v1/schemas/${schema.id}/versions${query}`), [path])
  })

  test("an unknown version, a version that is not a number, and another account's schema are 404", async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t)
    for (const version of ['2', '0', '-1', 'x', '1.0', '99999999999']) {
      expectEnvelope(await t.call('GET', `/api/v1/schemas/${schema.id}/versions/${version}`), 404, 'not_found', 'Schema version not found')
    }
    for (const id of [newId('sch'), 'sch_nope']) {
      expectEnvelope(await t.call('GET', `/api/v1/schemas/${id}/versions/1`), 404, 'not_found', 'Schema not found')
      expectEnvelope(await t.call('GET', `/api/v1/schemas/${id}/versions/x`), 404, 'not_found', 'Schema not found')
      expectEnvelope(await t.call('GET', `/api/v1/schemas/${id}/versions`), 404, 'not_found', 'Schema not found')
    }
    const key = t.keyB.key
    expectEnvelope(await t.call('GET', `/api/v1/schemas/${schema.id}/versions`, { key }), 404, 'not_found', 'Schema not found')
    expectEnvelope(await t.call('GET', `/api/v1/schemas/${schema.id}/versions/1`, { key }), 404, 'not_found', 'Schema not found')
  })
})

describe('jobs and schema versions', () => {
  test("a job from schema_id records the schema's current version; other jobs record null", async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'S', fields: [field('total')] })
    await patch(t, schema.id, { fields: [field('total'), field('date')] })
    const fromSchema = await extract(t, { document_type: 'invoice', schema_id: schema.id })
    expect(fromSchema.status).toBe(200)
    expect(fromSchema.body.job).toMatchObject({ schema_id: schema.id, schema_version: 2 })
    expect(fromSchema.body.job.fields.map((f: { key: string }) => f.key)).toEqual(['total', 'date'])
    const stored = await t.call('GET', `/api/v1/jobs/${fromSchema.body.job.id}`)
    expect(stored.body.job.schema_version).toBe(2)

    const inline = await extract(t, { document_type: 'invoice', fields: { total: 'Total' } })
    expect(inline.body.job).toMatchObject({ schema_id: null, schema_version: null })
  })

  test("schema_version pins an earlier version: the job gets that version's fields", async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'S', fields: [field('total', { label: 'Old total', type: 'text' })] })
    await patch(t, schema.id, { fields: [field('invoice_number')] })
    const first = await t.call('GET', `/api/v1/schemas/${schema.id}/versions/1`)
    expect(first.body.version.fields).toEqual([{ key: 'total', label: 'Old total', description: 'What total is', required: false, type: 'text' }])
    const pinned = await extract(t, { document_type: 'invoice', schema_id: schema.id, schema_version: 1 })
    expect(pinned.status).toBe(200)
    expect(pinned.body.job).toMatchObject({ schema_id: schema.id, schema_version: 1 })
    // The version's own fields, its declared type included (a total read as text, not as an amount).
    expect(pinned.body.job.fields).toEqual([{ key: 'total', label: 'Old total', description: 'What total is', type: 'text' }])
    expect(pinned.body.job.result).toEqual({ total: expect.anything() })
    const current = await extract(t, { document_type: 'invoice', schema_id: schema.id, schema_version: 2 })
    expect(current.body.job.fields.map((f: { key: string }) => f.key)).toEqual(['invoice_number'])
  })

  test('an unknown schema_version is 404 and stores no job', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'S', fields: [field('total')] })
    expectEnvelope(await extract(t, { document_type: 'invoice', schema_id: schema.id, schema_version: 2 }), 404, 'not_found', 'Schema version not found')
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs).toEqual([])
  })

  test.each([
    ['schema_version without schema_id', { document_type: 'invoice', schema_version: 1 }],
    ['schema_version with inline fields', { document_type: 'invoice', fields: { total: 'Total' }, schema_version: 1 }],
    ['schema_version 0', { document_type: 'invoice', schema_id: 'sch_x', schema_version: 0 }],
    ['schema_version 1.5', { document_type: 'invoice', schema_id: 'sch_x', schema_version: 1.5 }],
    ['schema_version "1"', { document_type: 'invoice', schema_id: 'sch_x', schema_version: '1' }],
  ])('%s is 400 naming /extract/schema_version', async (_name, request) => {
    const t = await makeTestApp()
    expectValidation(await extract(t, request), ['/extract/schema_version'])
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs).toEqual([])
  })
})
