/**
 * A client generated from /openapi.json (openapi-typescript + openapi-fetch) drives the whole
 * API. It is type-checked in CI, so a route that drifts from its document breaks the build.
 */
import { expect, test } from 'bun:test'
import createClient from 'openapi-fetch'
import type { paths } from '../../src/modules/console/ui/generated/api'
import { BASE, makeTestApp, type TestApp } from '../helpers/app'

function clientFor(t: TestApp, key: string) {
  return createClient<paths>({
    baseUrl: BASE,
    headers: { authorization: `Bearer ${key}` },
    fetch: (request) => t.app.handle(request),
  })
}

test('the generated client creates, lists, reads, updates, deletes and restores schemas, and reads the catalog', async () => {
  const t = await makeTestApp()
  const api = clientFor(t, t.keyA.key)

  const health = await api.GET('/healthz')
  expect(health.data?.status).toBe('ok')

  const types = await api.GET('/api/v1/document-types')
  expect(types.data?.document_types.map((type) => type.slug)).toContain('invoice')

  const suggested = await api.GET('/api/v1/fields', { params: { query: { type: 'invoice' } } })
  const invoice = suggested.data!
  expect(invoice.suggested_keys).toEqual(['company_name', 'invoice_number', 'date', 'client_name', 'line_items', 'total'])

  const created = await api.POST('/api/v1/schemas', {
    body: {
      name: 'From the catalog',
      fields: invoice.fields.filter((f) => invoice.suggested_keys.includes(f.key)),
    },
  })
  expect(created.response.status).toBe(201)
  const schema = created.data!.schema
  expect(schema.fields).toHaveLength(6)

  const listed = await api.GET('/api/v1/schemas')
  expect(listed.data?.schemas.map((s) => s.id)).toEqual([schema.id])

  const read = await api.GET('/api/v1/schemas/{id}', { params: { path: { id: schema.id } } })
  expect(read.data?.schema).toEqual(schema)

  const updated = await api.PATCH('/api/v1/schemas/{id}', { params: { path: { id: schema.id } }, body: { name: 'Renamed' } })
  expect(updated.data?.name).toBe('Renamed')

  const deleted = await api.DELETE('/api/v1/schemas/{id}', { params: { path: { id: schema.id } } })
  expect(deleted.data).toEqual({ ok: true })

  const restored = await api.POST('/api/v1/schemas/{id}/restore', { params: { path: { id: schema.id } } })
  expect(restored.data?.schema.is_active).toBe(true)
})

test('the generated client receives errors as the typed envelope', async () => {
  const t = await makeTestApp()
  const api = clientFor(t, t.keyA.key)
  const invalid = await api.POST('/api/v1/schemas', { body: { name: '' } })
  expect(invalid.response.status).toBe(400)
  expect(invalid.error?.code).toBe('validation_failed')
  expect(invalid.error?.details?.[0]?.path).toBe('/name')

  const unknown = await api.GET('/api/v1/fields', { params: { query: { type: 'nope' } } })
  expect(unknown.error?.available_types).toHaveLength(9)

  const unauthorised = await clientFor(t, 'wrong').GET('/api/v1/schemas')
  expect(unauthorised.error).toEqual({ error: 'Invalid API key', code: 'invalid_api_key' })
})
