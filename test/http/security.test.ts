/**
 * Authentication and account isolation on every protected route (interface.md 5, D1, D24, D26, D28).
 *
 * One table of protected routes, each run through the same table of bad credentials: every bad
 * case is exactly 401 `{"error":"Invalid API key","code":"invalid_api_key"}` as application/json,
 * it changes nothing, and no response ever echoes a key.
 */
import { describe, expect, test } from 'bun:test'
import { createKey, revokeKey } from '../../src/modules/keys/service'
import { type ApiResponse, type TestApp, createSchema, expectEnvelope, field, makeTestApp } from '../helpers/app'

const INVALID_KEY_BODY = { error: 'Invalid API key', code: 'invalid_api_key' }

/** A key of the right shape (`exd_` + 43 base64url characters) that no account holds. */
const UNKNOWN_KEY = `exd_${'Zq3_-x9'.repeat(6)}A`

interface RouteCall {
  method: string
  path: string
  body?: unknown
}

interface ProtectedRoute {
  /** The app's route this case covers: method and path pattern, as Elysia lists it. */
  route: string
  name: string
  /** Builds the request against a fresh app in which account A owns the schema and the job. */
  call: (ids: FixtureIds) => RouteCall
  /** Status of the same request with a good key. */
  okStatus: number
}

interface FixtureIds {
  schema: string
  job: string
  webhook: string
  /** A second key of account A, for the routes that revoke one. */
  key: string
}

function classifyForm(): FormData {
  const form = new FormData()
  form.append('file', new Blob(['INVOICE\nInvoice No.: INV-7\nTotal: 10.00 EUR\n']), 'invoice.txt')
  return form
}

function extractForm(): FormData {
  const form = new FormData()
  form.append('file', new Blob(['Invoice No.: INV-7\nTotal: 10.00 EUR\n']), 'invoice.txt')
  form.append('extract', JSON.stringify({ document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }))
  return form
}

const PROTECTED_ROUTES: ProtectedRoute[] = [
  { route: 'GET /api/v1/schemas', name: 'GET /api/v1/schemas', call: () => ({ method: 'GET', path: '/api/v1/schemas' }), okStatus: 200 },
  {
    route: 'POST /api/v1/schemas',
    name: 'POST /api/v1/schemas',
    call: () => ({ method: 'POST', path: '/api/v1/schemas', body: { name: 'Second', fields: [field('total')] } }),
    okStatus: 201,
  },
  {
    route: 'GET /api/v1/schemas/:id',
    name: 'GET /api/v1/schemas/:id',
    call: (ids) => ({ method: 'GET', path: `/api/v1/schemas/${ids.schema}` }),
    okStatus: 200,
  },
  {
    route: 'PATCH /api/v1/schemas/:id',
    name: 'PATCH /api/v1/schemas/:id',
    call: (ids) => ({ method: 'PATCH', path: `/api/v1/schemas/${ids.schema}`, body: { name: 'Renamed' } }),
    okStatus: 200,
  },
  {
    route: 'DELETE /api/v1/schemas/:id',
    name: 'DELETE /api/v1/schemas/:id',
    call: (ids) => ({ method: 'DELETE', path: `/api/v1/schemas/${ids.schema}` }),
    okStatus: 200,
  },
  {
    route: 'POST /api/v1/schemas/:id/restore',
    name: 'POST /api/v1/schemas/:id/restore',
    call: (ids) => ({ method: 'POST', path: `/api/v1/schemas/${ids.schema}/restore` }),
    okStatus: 200,
  },
  {
    route: 'GET /api/v1/schemas/:id/versions',
    name: 'GET /api/v1/schemas/:id/versions',
    call: (ids) => ({ method: 'GET', path: `/api/v1/schemas/${ids.schema}/versions` }),
    okStatus: 200,
  },
  {
    route: 'GET /api/v1/schemas/:id/versions/:version',
    name: 'GET /api/v1/schemas/:id/versions/:version',
    call: (ids) => ({ method: 'GET', path: `/api/v1/schemas/${ids.schema}/versions/1` }),
    okStatus: 200,
  },
  {
    route: 'GET /api/v1/schemas/:id/json-schema',
    name: 'GET /api/v1/schemas/:id/json-schema',
    call: (ids) => ({ method: 'GET', path: `/api/v1/schemas/${ids.schema}/json-schema` }),
    okStatus: 200,
  },
  {
    route: 'POST /api/v1/classify',
    name: 'POST /api/v1/classify',
    call: () => ({ method: 'POST', path: '/api/v1/classify', body: classifyForm() }),
    okStatus: 200,
  },
  {
    route: 'GET /api/v1/fields/json-schema',
    name: 'GET /api/v1/fields/json-schema?type=invoice',
    call: () => ({ method: 'GET', path: '/api/v1/fields/json-schema?type=invoice' }),
    okStatus: 200,
  },
  { route: 'GET /api/v1/document-types', name: 'GET /api/v1/document-types', call: () => ({ method: 'GET', path: '/api/v1/document-types' }), okStatus: 200 },
  { route: 'GET /api/v1/fields', name: 'GET /api/v1/fields?type=invoice', call: () => ({ method: 'GET', path: '/api/v1/fields?type=invoice' }), okStatus: 200 },
  {
    route: 'POST /api/v1/extract',
    name: 'POST /api/v1/extract',
    call: () => ({ method: 'POST', path: '/api/v1/extract', body: extractForm() }),
    okStatus: 200,
  },
  { route: 'GET /api/v1/jobs', name: 'GET /api/v1/jobs', call: () => ({ method: 'GET', path: '/api/v1/jobs' }), okStatus: 200 },
  { route: 'GET /api/v1/jobs/:id', name: 'GET /api/v1/jobs/:id', call: (ids) => ({ method: 'GET', path: `/api/v1/jobs/${ids.job}` }), okStatus: 200 },
  {
    route: 'GET /api/v1/jobs/:id/file',
    name: 'GET /api/v1/jobs/:id/file (not kept: 404)',
    call: (ids) => ({ method: 'GET', path: `/api/v1/jobs/${ids.job}/file` }),
    okStatus: 404,
  },
  {
    route: 'DELETE /api/v1/jobs/:id',
    name: 'DELETE /api/v1/jobs/:id',
    call: (ids) => ({ method: 'DELETE', path: `/api/v1/jobs/${ids.job}` }),
    okStatus: 200,
  },
  {
    route: 'POST /api/v1/jobs/:id/cancel',
    name: 'POST /api/v1/jobs/:id/cancel (an ended job: 409)',
    call: (ids) => ({ method: 'POST', path: `/api/v1/jobs/${ids.job}/cancel` }),
    okStatus: 409,
  },
  {
    route: 'POST /api/v1/jobs/:id/review',
    name: 'POST /api/v1/jobs/:id/review',
    call: (ids) => ({ method: 'POST', path: `/api/v1/jobs/${ids.job}/review`, body: { fields: {} } }),
    okStatus: 200,
  },
  {
    route: 'POST /api/v1/jobs/:id/region',
    name: 'POST /api/v1/jobs/:id/region (a text job, no word places: 409)',
    call: (ids) => ({
      method: 'POST',
      path: `/api/v1/jobs/${ids.job}/region`,
      body: { key: 'invoice_number', page: 1, box: { left: 0, top: 0, width: 1, height: 1 } },
    }),
    okStatus: 409,
  },
  { route: 'GET /api/v1/layouts', name: 'GET /api/v1/layouts', call: () => ({ method: 'GET', path: '/api/v1/layouts' }), okStatus: 200 },
  { route: 'GET /api/v1/accuracy', name: 'GET /api/v1/accuracy', call: () => ({ method: 'GET', path: '/api/v1/accuracy' }), okStatus: 200 },
  {
    route: 'DELETE /api/v1/layouts/:id',
    name: 'DELETE /api/v1/layouts/:id (none: 404)',
    call: () => ({ method: 'DELETE', path: '/api/v1/layouts/lay_01m8ekr4s3vg5n3t8j2rd3maq8n9xc' }),
    okStatus: 404,
  },
  {
    route: 'POST /api/v1/webhooks',
    name: 'POST /api/v1/webhooks',
    call: () => ({ method: 'POST', path: '/api/v1/webhooks', body: { url: 'https://example.com/second', events: ['job.failed'] } }),
    okStatus: 201,
  },
  { route: 'GET /api/v1/webhooks', name: 'GET /api/v1/webhooks', call: () => ({ method: 'GET', path: '/api/v1/webhooks' }), okStatus: 200 },
  {
    route: 'GET /api/v1/webhooks/:id',
    name: 'GET /api/v1/webhooks/:id',
    call: (ids) => ({ method: 'GET', path: `/api/v1/webhooks/${ids.webhook}` }),
    okStatus: 200,
  },
  {
    route: 'DELETE /api/v1/webhooks/:id',
    name: 'DELETE /api/v1/webhooks/:id',
    call: (ids) => ({ method: 'DELETE', path: `/api/v1/webhooks/${ids.webhook}` }),
    okStatus: 200,
  },
  {
    route: 'GET /api/v1/webhooks/:id/deliveries',
    name: 'GET /api/v1/webhooks/:id/deliveries',
    call: (ids) => ({ method: 'GET', path: `/api/v1/webhooks/${ids.webhook}/deliveries` }),
    okStatus: 200,
  },
  { route: 'GET /api/v1/keys', name: 'GET /api/v1/keys', call: () => ({ method: 'GET', path: '/api/v1/keys' }), okStatus: 200 },
  { route: 'POST /api/v1/keys', name: 'POST /api/v1/keys', call: () => ({ method: 'POST', path: '/api/v1/keys' }), okStatus: 201 },
  {
    route: 'DELETE /api/v1/keys/:id',
    name: 'DELETE /api/v1/keys/:id',
    call: (ids) => ({ method: 'DELETE', path: `/api/v1/keys/${ids.key}` }),
    okStatus: 200,
  },
]

/** The routes anyone may call without a key. */
const PUBLIC_ROUTES = [
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/swagger-ui-bundle.js',
  'GET /docs/swagger-ui.css',
  'GET /docs/swagger-init.js',
  'GET /healthz',
  'GET /readyz',
  // The console's page and assets (D140); it calls the API with the key like any client.
  'GET /',
  'GET /console',
  'GET /console/assets/:version/:name',
]

interface Fixture {
  t: TestApp
  /** Account A's schema, as created. */
  schema: any
  /** Account A's finished job, as created. */
  job: any
  /** Account A's webhook endpoint, as listed (no secret). */
  webhook: any
  ids: FixtureIds
}

async function fixture(): Promise<Fixture> {
  const t = await makeTestApp()
  const schema = await createSchema(t, { name: 'Invoices', description: 'Of A', fields: [field('total'), field('date')] })
  const extracted = await t.call('POST', '/api/v1/extract', { body: extractForm() })
  if (extracted.status !== 200) throw new Error(`extract failed: ${extracted.status} ${extracted.text}`)
  const job = extracted.body.job
  const registered = await t.call('POST', '/api/v1/webhooks', { body: { url: 'https://example.com/hook', events: ['job.succeeded'] } })
  if (registered.status !== 201) throw new Error(`webhook failed: ${registered.status} ${registered.text}`)
  const { secret: _secret, ...webhook } = registered.body.webhook
  const spare = await createKey(t.database, 'account-a')
  return { t, schema, job, webhook, ids: { schema: schema.id, job: job.id, webhook: webhook.id, key: spare.id } }
}

/** Every key this app knows; none of them may appear in any response body. */
function knownKeys(t: TestApp, extra: string[] = []): string[] {
  return [t.keyA.key, t.keyB.key, ...extra]
}

function expectNoKeyIn(response: ApiResponse, keys: string[]) {
  for (const key of keys) expect(response.text).not.toContain(key)
}

function expectInvalidApiKey(response: ApiResponse) {
  expect(response.status).toBe(401)
  expect(response.headers.get('content-type')).toStartWith('application/json')
  expect(JSON.parse(response.text)).toStrictEqual(INVALID_KEY_BODY)
}

/** Account A's data is exactly as the fixture left it: the schema unchanged, the lists holding only the schema, the job and the webhook. */
async function expectUntouched({ t, schema, job, webhook }: Fixture) {
  const read = await t.call('GET', `/api/v1/schemas/${schema.id}`)
  expect(read.status).toBe(200)
  expect(read.body.schema).toStrictEqual(schema)
  const list = await t.call('GET', '/api/v1/schemas')
  expect(list.status).toBe(200)
  expect(list.body.schemas).toStrictEqual([schema])
  const jobs = await t.call('GET', '/api/v1/jobs')
  expect(jobs.body).toStrictEqual({ jobs: [job], has_more: false })
  const webhooks = await t.call('GET', '/api/v1/webhooks')
  expect(webhooks.body).toStrictEqual({ webhooks: [webhook] })
}

interface BadCredential {
  name: string
  /** Authorization header to send; `null` sends none. */
  header: (f: Fixture) => string | null
}

const BAD_CREDENTIALS: BadCredential[] = [
  { name: 'no Authorization header', header: () => null },
  { name: 'an empty Authorization header', header: () => '' },
  { name: 'a blank Authorization header', header: () => '   ' },
  { name: 'the Basic scheme with user:password', header: () => `Basic ${btoa('account-a:secret')}` },
  { name: 'the Basic scheme carrying a valid key', header: (f) => `Basic ${f.t.keyA.key}` },
  { name: 'the Token scheme carrying a valid key', header: (f) => `Token ${f.t.keyA.key}` },
  { name: 'a valid key with no scheme', header: (f) => f.t.keyA.key },
  { name: '`Bearer` with no key', header: () => 'Bearer' },
  { name: '`Bearer ` with only whitespace after it', header: () => 'Bearer    ' },
  { name: 'a malformed key', header: () => 'Bearer not-a-key' },
  { name: 'a key without its exd_ prefix', header: (f) => `Bearer ${f.t.keyA.key.slice(4)}` },
  { name: 'a valid key cut short by one character', header: (f) => `Bearer ${f.t.keyA.key.slice(0, -1)}` },
  { name: 'a valid key with an extra character', header: (f) => `Bearer ${f.t.keyA.key}x` },
  { name: 'a valid key in upper case', header: (f) => `Bearer ${f.t.keyA.key.toUpperCase()}` },
  { name: 'a valid key followed by a second token', header: (f) => `Bearer ${f.t.keyA.key} ${f.t.keyB.key}` },
  { name: 'two comma-separated keys', header: (f) => `Bearer ${f.t.keyA.key},${f.t.keyB.key}` },
  { name: 'a well-formed but unknown key', header: () => `Bearer ${UNKNOWN_KEY}` },
  { name: 'a SQL-injection attempt as key', header: () => `Bearer exd_' OR '1'='1` },
]

function headersFor(value: string | null): { key: null; headers: Record<string, string> } {
  return { key: null, headers: value === null ? {} : { authorization: value } }
}

test('every route of the app is either public or has its case in the table below', async () => {
  const served = (await makeTestApp()).app.routes.map((route) => `${route.method} ${route.path}`)
  const covered = [...PUBLIC_ROUTES, ...PROTECTED_ROUTES.map((route) => route.route)]
  expect(served.filter((route) => !covered.includes(route))).toEqual([])
  expect(covered.filter((route) => !served.includes(route))).toEqual([])
})

test('the unknown key used below has the shape of a real key', async () => {
  expect(UNKNOWN_KEY).toMatch(/^exd_[A-Za-z0-9_-]{43}$/)
  const t = await makeTestApp()
  expect(t.keyA.key).toMatch(/^exd_[A-Za-z0-9_-]{43}$/)
  expect(UNKNOWN_KEY).not.toBe(t.keyA.key)
})

describe.each(PROTECTED_ROUTES)('$name', (route) => {
  test.each(BAD_CREDENTIALS)('with $name → 401 invalid_api_key, nothing changes', async (credential) => {
    const f = await fixture()
    const { method, path, body } = route.call(f.ids)
    const response = await f.t.call(method, path, { body, ...headersFor(credential.header(f)) })
    expectInvalidApiKey(response)
    expectNoKeyIn(response, knownKeys(f.t))
    await expectUntouched(f)
  })

  test('with a revoked key → 401 at once, although the same key worked just before', async () => {
    const f = await fixture()
    const extra = await createKey(f.t.database, 'account-a')
    const { method, path, body } = route.call(f.ids)
    const before = await f.t.call(method, path, { body, key: extra.key })
    expect(before.status).toBe(route.okStatus)
    expectNoKeyIn(before, knownKeys(f.t, [extra.key]))

    expect(await revokeKey(f.t.database, extra.id)).toBe('revoked')
    const after = await f.t.call(method, path, { body, key: extra.key })
    expectInvalidApiKey(after)
    expectNoKeyIn(after, knownKeys(f.t, [extra.key]))
  })

  test('with `bearer` in lower case and a valid key → succeeds', async () => {
    const f = await fixture()
    const { method, path, body } = route.call(f.ids)
    const response = await f.t.call(method, path, { body, key: null, headers: { authorization: `bearer ${f.t.keyA.key}` } })
    expect(response.status).toBe(route.okStatus)
    expectNoKeyIn(response, knownKeys(f.t))
  })

  test('with `BEARER` in upper case and a valid key → succeeds', async () => {
    const f = await fixture()
    const { method, path, body } = route.call(f.ids)
    const response = await f.t.call(method, path, { body, key: null, headers: { authorization: `BEARER ${f.t.keyA.key}` } })
    expect(response.status).toBe(route.okStatus)
    expectNoKeyIn(response, knownKeys(f.t))
  })

  test('with a valid key → succeeds and the body does not contain the key', async () => {
    const f = await fixture()
    const { method, path, body } = route.call(f.ids)
    const response = await f.t.call(method, path, { body })
    expect(response.status).toBe(route.okStatus)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expectNoKeyIn(response, knownKeys(f.t))
  })
})

describe('revocation', () => {
  test('revoking one key of an account leaves its other keys working', async () => {
    const f = await fixture()
    const extra = await createKey(f.t.database, 'account-a')
    expect(await revokeKey(f.t.database, extra.id)).toBe('revoked')
    expectInvalidApiKey(await f.t.call('GET', '/api/v1/schemas', { key: extra.key }))
    const response = await f.t.call('GET', '/api/v1/schemas')
    expect(response.status).toBe(200)
    expect(response.body.schemas).toStrictEqual([f.schema])
  })

  test("a revoked key of account A cannot delete A's schema → 401 and the schema stays active", async () => {
    const f = await fixture()
    const extra = await createKey(f.t.database, 'account-a')
    expect(await revokeKey(f.t.database, extra.id)).toBe('revoked')
    expectInvalidApiKey(await f.t.call('DELETE', `/api/v1/schemas/${f.schema.id}`, { key: extra.key }))
    await expectUntouched(f)
  })
})

describe('authentication runs before validation (D26)', () => {
  const badKeys: BadCredential[] = [
    { name: 'no key', header: () => null },
    { name: 'an unknown key', header: () => `Bearer ${UNKNOWN_KEY}` },
    { name: 'a malformed key', header: () => 'Bearer nope' },
  ]

  interface BadRequest {
    name: string
    build: (f: Fixture) => { method: string; path: string; body?: unknown; headers?: Record<string, string> }
  }

  const badRequests: BadRequest[] = [
    {
      name: 'POST /api/v1/schemas with malformed JSON',
      build: () => ({ method: 'POST', path: '/api/v1/schemas', body: '{"name": ', headers: { 'content-type': 'application/json' } }),
    },
    {
      name: 'POST /api/v1/schemas with an invalid body',
      build: () => ({ method: 'POST', path: '/api/v1/schemas', body: { name: 42, fields: [{ key: 'bad key!' }], extra: true } }),
    },
    {
      name: 'POST /api/v1/schemas with a text/plain body',
      build: () => ({ method: 'POST', path: '/api/v1/schemas', body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } }),
    },
    {
      name: 'POST /api/v1/schemas with a multipart body',
      build: () => {
        const form = new FormData()
        form.set('name', 'x')
        return { method: 'POST', path: '/api/v1/schemas', body: form }
      },
    },
    {
      name: 'POST /api/v1/schemas with a body over the size limit',
      build: () => ({ method: 'POST', path: '/api/v1/schemas', body: { name: 'x'.repeat(2 * 1024 * 1024) } }),
    },
    {
      name: 'PATCH /api/v1/schemas/:id with malformed JSON',
      build: (f) => ({
        method: 'PATCH',
        path: `/api/v1/schemas/${f.schema.id}`,
        body: '[',
        headers: { 'content-type': 'application/json' },
      }),
    },
    {
      name: 'PATCH /api/v1/schemas/:id with an invalid body',
      build: (f) => ({ method: 'PATCH', path: `/api/v1/schemas/${f.schema.id}`, body: { name: null, fields: 'x' } }),
    },
    {
      name: 'PATCH /api/v1/schemas/:id with a form-urlencoded body',
      build: (f) => ({
        method: 'PATCH',
        path: `/api/v1/schemas/${f.schema.id}`,
        body: 'name=Renamed',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    },
    {
      name: 'GET /api/v1/schemas/:id with an ID of the wrong shape',
      build: () => ({ method: 'GET', path: "/api/v1/schemas/'%3B%20drop%20table%20schemas%3B%20--" }),
    },
    {
      name: 'POST /api/v1/webhooks with an invalid body and a private URL',
      build: () => ({ method: 'POST', path: '/api/v1/webhooks', body: { url: 'http://169.254.169.254/', events: ['job.deleted'], extra: 1 } }),
    },
    {
      name: 'GET /api/v1/webhooks/:id/deliveries with a bad limit',
      build: (f) => ({ method: 'GET', path: `/api/v1/webhooks/${f.webhook.id}/deliveries?limit=0` }),
    },
    {
      name: 'GET /api/v1/fields without the type parameter',
      build: () => ({ method: 'GET', path: '/api/v1/fields' }),
    },
    {
      name: 'GET /api/v1/fields with an unknown type',
      build: () => ({ method: 'GET', path: '/api/v1/fields?type=no_such_type' }),
    },
  ]

  describe.each(badKeys)('with $name', (credential) => {
    test.each(badRequests)('$name → 401, not 400/404/413/415', async (request) => {
      const f = await fixture()
      const { method, path, body, headers } = request.build(f)
      const response = await f.t.call(method, path, {
        body,
        key: null,
        headers: { ...headers, ...headersFor(credential.header(f)).headers },
      })
      expectInvalidApiKey(response)
      await expectUntouched(f)
    })
  })
})

describe('account isolation', () => {
  async function twoAccounts() {
    const f = await fixture()
    return { ...f, keyB: f.t.keyB.key }
  }

  test("account B reading A's job → 404 not_found, identical to an unknown job's, and B's job list is empty", async () => {
    const f = await twoAccounts()
    const response = await f.t.call('GET', `/api/v1/jobs/${f.job.id}`, { key: f.keyB })
    expectEnvelope(response, 404, 'not_found')
    expect(response.text).not.toContain('INV-7')
    const unknown = await f.t.call('GET', `/api/v1/jobs/${f.job.id.slice(0, -1)}${f.job.id.endsWith('a') ? 'b' : 'a'}`, { key: f.keyB })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toStrictEqual(response.body)
    expect((await f.t.call('GET', '/api/v1/jobs', { key: f.keyB })).body).toStrictEqual({ jobs: [], has_more: false })
    expect((await f.t.call('GET', `/api/v1/jobs?starting_after=${f.job.id}`, { key: f.keyB })).status).toBe(400)
  })

  test("account B reading A's schema → 404 not_found", async () => {
    const f = await twoAccounts()
    const response = await f.t.call('GET', `/api/v1/schemas/${f.schema.id}`, { key: f.keyB })
    expectEnvelope(response, 404, 'not_found')
    expect(response.text).not.toContain(f.schema.name)
    expect(response.text).not.toContain('Of A')
    await expectUntouched(f)
  })

  test("account B patching A's schema → 404 not_found and A's schema is unchanged", async () => {
    const f = await twoAccounts()
    const response = await f.t.call('PATCH', `/api/v1/schemas/${f.schema.id}`, {
      key: f.keyB,
      body: { name: 'Taken over', description: 'by B', fields: [field('hijacked')] },
    })
    expectEnvelope(response, 404, 'not_found')
    await expectUntouched(f)
  })

  test("account B patching A's schema with an empty body → 404 not_found", async () => {
    const f = await twoAccounts()
    const response = await f.t.call('PATCH', `/api/v1/schemas/${f.schema.id}`, { key: f.keyB, body: {} })
    expectEnvelope(response, 404, 'not_found')
    await expectUntouched(f)
  })

  test("account B deleting A's schema → 404 not_found and A's schema stays active", async () => {
    const f = await twoAccounts()
    const response = await f.t.call('DELETE', `/api/v1/schemas/${f.schema.id}`, { key: f.keyB })
    expectEnvelope(response, 404, 'not_found')
    await expectUntouched(f)
  })

  test("account B restoring A's active schema → 404 not_found and A's schema is unchanged", async () => {
    const f = await twoAccounts()
    const response = await f.t.call('POST', `/api/v1/schemas/${f.schema.id}/restore`, { key: f.keyB })
    expectEnvelope(response, 404, 'not_found')
    await expectUntouched(f)
  })

  test("account B restoring A's soft-deleted schema → 404 not_found and it stays deleted", async () => {
    const f = await twoAccounts()
    expect((await f.t.call('DELETE', `/api/v1/schemas/${f.schema.id}`)).status).toBe(200)
    const deleted = (await f.t.call('GET', `/api/v1/schemas/${f.schema.id}`)).body.schema
    expect(deleted.is_active).toBe(false)

    const response = await f.t.call('POST', `/api/v1/schemas/${f.schema.id}/restore`, { key: f.keyB })
    expectEnvelope(response, 404, 'not_found')

    const after = await f.t.call('GET', `/api/v1/schemas/${f.schema.id}`)
    expect(after.status).toBe(200)
    expect(after.body.schema).toStrictEqual(deleted)
    expect((await f.t.call('GET', '/api/v1/schemas')).body.schemas).toStrictEqual([])
  })

  test("account B reading A's soft-deleted schema → 404 not_found", async () => {
    const f = await twoAccounts()
    expect((await f.t.call('DELETE', `/api/v1/schemas/${f.schema.id}`)).status).toBe(200)
    expectEnvelope(await f.t.call('GET', `/api/v1/schemas/${f.schema.id}`, { key: f.keyB }), 404, 'not_found')
  })

  test("the 404 for another account's schema is identical to the 404 for an ID that does not exist", async () => {
    const f = await twoAccounts()
    const foreign = await f.t.call('GET', `/api/v1/schemas/${f.schema.id}`, { key: f.keyB })
    // Same shape, another account never held it: flip the last character to another valid one.
    const last = f.schema.id.at(-1)
    const missingId = f.schema.id.slice(0, -1) + (last === '0' ? '1' : '0')
    const missing = await f.t.call('GET', `/api/v1/schemas/${missingId}`, { key: f.keyB })
    expect(foreign.status).toBe(404)
    expect(missing.status).toBe(404)
    expect(foreign.text).toBe(missing.text)
  })

  test("account B's list does not contain A's schemas", async () => {
    const f = await twoAccounts()
    const alsoA = await createSchema(f.t, { name: 'Also A' })
    const empty = await f.t.call('GET', '/api/v1/schemas', { key: f.keyB })
    expect(empty.status).toBe(200)
    expect(empty.body.schemas).toStrictEqual([])

    const ofB = await createSchema(f.t, { name: 'Of B' }, f.keyB)
    const listB = await f.t.call('GET', '/api/v1/schemas', { key: f.keyB })
    expect(listB.body.schemas).toStrictEqual([ofB])

    const listA = await f.t.call('GET', '/api/v1/schemas')
    const idsA = listA.body.schemas.map((schema: any) => schema.id)
    expect(idsA).toHaveLength(2)
    expect(idsA).toContain(f.schema.id)
    expect(idsA).not.toContain(ofB.id)
    expect(listA.body.schemas).toStrictEqual([alsoA, f.schema])
  })

  test("account A cannot read, patch, delete or restore B's schema either → 404 each", async () => {
    const f = await twoAccounts()
    const ofB = await createSchema(f.t, { name: 'Of B', fields: [field('x')] }, f.keyB)
    expectEnvelope(await f.t.call('GET', `/api/v1/schemas/${ofB.id}`), 404, 'not_found')
    expectEnvelope(await f.t.call('PATCH', `/api/v1/schemas/${ofB.id}`, { body: { name: 'A was here' } }), 404, 'not_found')
    expectEnvelope(await f.t.call('DELETE', `/api/v1/schemas/${ofB.id}`), 404, 'not_found')
    expectEnvelope(await f.t.call('POST', `/api/v1/schemas/${ofB.id}/restore`), 404, 'not_found')
    const read = await f.t.call('GET', `/api/v1/schemas/${ofB.id}`, { key: f.keyB })
    expect(read.body.schema).toStrictEqual(ofB)
  })
})

describe('keys never appear in responses', () => {
  test('no response body of a whole session of calls contains either API key', async () => {
    const t = await makeTestApp()
    const keys = knownKeys(t)
    const responses: ApiResponse[] = []
    const a = await createSchema(t, { name: t.keyA.key.slice(0, 8), fields: [field('total')] })
    responses.push(await t.call('GET', '/api/v1/schemas'))
    responses.push(await t.call('GET', `/api/v1/schemas/${a.id}`))
    responses.push(await t.call('PATCH', `/api/v1/schemas/${a.id}`, { body: { description: 'changed' } }))
    responses.push(await t.call('PATCH', `/api/v1/schemas/${a.id}`, { body: { name: 5 } }))
    responses.push(await t.call('POST', '/api/v1/schemas', { body: '{', headers: { 'content-type': 'application/json' } }))
    responses.push(await t.call('POST', '/api/v1/schemas', { body: 'x', headers: { 'content-type': 'text/plain' } }))
    responses.push(await t.call('DELETE', `/api/v1/schemas/${a.id}`))
    responses.push(await t.call('POST', `/api/v1/schemas/${a.id}/restore`))
    responses.push(await t.call('GET', `/api/v1/schemas/${a.id}`, { key: t.keyB.key }))
    responses.push(await t.call('GET', '/api/v1/document-types'))
    responses.push(await t.call('GET', '/api/v1/fields?type=invoice'))
    responses.push(await t.call('GET', '/api/v1/fields?type=nope'))
    responses.push(await t.call('GET', '/api/v1/fields'))
    responses.push(await t.call('GET', '/api/v1/nope'))
    responses.push(await t.call('PUT', '/api/v1/schemas'))
    responses.push(await t.call('GET', '/api/v1/schemas', { key: `${t.keyA.key}x` }))
    responses.push(await t.call('GET', '/api/v1/schemas', { key: null, headers: { authorization: `Basic ${t.keyA.key}` } }))
    responses.push(await t.call('GET', '/healthz'))
    responses.push(await t.call('GET', '/readyz'))
    responses.push(await t.call('GET', '/openapi.json'))
    for (const response of responses) {
      expect(response.status).toBeLessThan(500)
      expectNoKeyIn(response, keys)
      for (const [, value] of response.headers) for (const key of keys) expect(value).not.toContain(key)
    }
  })
})

describe('operational endpoints need no key (D28)', () => {
  const open = [
    { path: '/healthz', check: (body: any) => expect(body).toEqual({ status: 'ok' }) },
    { path: '/readyz', check: (body: any) => expect(body).toEqual({ status: 'ok' }) },
    { path: '/openapi.json', check: (body: any) => expect(typeof body.openapi).toBe('string') },
  ]

  test.each(open)('GET $path without a key → 200', async ({ path, check }) => {
    const t = await makeTestApp()
    const response = await t.call('GET', path, { key: null })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    check(response.body)
  })

  test.each(open)('GET $path with a bad key → still 200', async ({ path, check }) => {
    const t = await makeTestApp()
    const response = await t.call('GET', path, { key: null, headers: { authorization: `Bearer ${UNKNOWN_KEY}` } })
    expect(response.status).toBe(200)
    check(response.body)
  })

  test('GET /openapi.json declares bearer authentication on the protected routes', async () => {
    const t = await makeTestApp()
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.paths['/api/v1/schemas'].get.security).toEqual([{ bearerAuth: [] }])
    expect(doc.paths['/api/v1/fields'].get.security).toEqual([{ bearerAuth: [] }])
    // Stated as needing no key (D146).
    expect(doc.paths['/healthz'].get.security).toEqual([])
  })
})
