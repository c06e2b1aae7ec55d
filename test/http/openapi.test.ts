import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { createSchema, field, makeTestApp, type ApiResponse } from '../helpers/app'
import { openDatabase } from '../../src/db/database'
import { JOB_ERROR_CODES } from '../../src/modules/extraction/errors'
import { GENERATED_TYPES, generateTypes, openApiDocument } from '../helpers/openapi'
import { boxAround, FIRST_ORDER as ORDER, makeOrder } from '../helpers/order'
import { tempDir } from '../helpers/process'
import { startReceiver } from '../helpers/webhooks'

const doc = await openApiDocument()

const operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, ops]) =>
  Object.entries<any>(ops).map(([method, op]) => ({ path, method, op })),
)

describe('/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
  })

  test('is served without a key, as JSON', async () => {
    const t = await makeTestApp()
    const response = await t.call('GET', '/openapi.json', { key: null })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(response.body).toEqual(doc)
  })

  test('describes exactly the operations the app serves', () => {
    expect(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual(
      [
        'DELETE /api/v1/schemas/{id}',
        'GET /api/v1/document-types',
        'GET /api/v1/jobs',
        'GET /api/v1/jobs/{id}',
        'DELETE /api/v1/jobs/{id}',
        'POST /api/v1/jobs/{id}/cancel',
        'GET /api/v1/jobs/{id}/file',
        'POST /api/v1/extract',
        'POST /api/v1/classify',
        'GET /api/v1/fields',
        'GET /api/v1/fields/json-schema',
        'GET /api/v1/schemas',
        'GET /api/v1/schemas/{id}',
        'GET /api/v1/schemas/{id}/json-schema',
        'GET /api/v1/schemas/{id}/versions',
        'GET /api/v1/schemas/{id}/versions/{version}',
        'GET /healthz',
        'GET /readyz',
        'PATCH /api/v1/schemas/{id}',
        'POST /api/v1/schemas',
        'POST /api/v1/schemas/{id}/restore',
        'POST /api/v1/webhooks',
        'GET /api/v1/webhooks',
        'GET /api/v1/webhooks/{id}',
        'DELETE /api/v1/webhooks/{id}',
        'GET /api/v1/webhooks/{id}/deliveries',
        'POST /api/v1/jobs/{id}/review',
        'POST /api/v1/jobs/{id}/region',
        'GET /api/v1/layouts',
        'DELETE /api/v1/layouts/{id}',
        'GET /api/v1/accuracy',
        'GET /api/v1/keys',
        'POST /api/v1/keys',
        'DELETE /api/v1/keys/{id}',
      ].sort(),
    )
  })

  test.each(operations)('$method $path has an operationId, summary, tag and described JSON responses', ({ path, op }) => {
    expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/)
    expect(op.summary.length).toBeGreaterThan(3)
    expect(op.tags?.length).toBe(1)
    expect(Object.keys(op.responses).length).toBeGreaterThan(0)
    for (const [status, response] of Object.entries<any>(op.responses)) {
      expect(response.description.length).toBeGreaterThan(0)
      // 204 (a forgotten layout, D275) has no content.
      if (status === '204') {
        expect(response.content).toBeUndefined()
        continue
      }
      const download = op.operationId === 'getJobFile' && status === '200'
      expect(Object.keys(response.content)).toEqual([download ? 'application/octet-stream' : 'application/json'])
      if (Number(status) >= 400 && path.startsWith('/api/')) expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    }
    if (op.requestBody)
      expect(Object.keys(op.requestBody.content)).toEqual([
        op.operationId === 'extract' || op.operationId === 'classify' ? 'multipart/form-data' : 'application/json',
      ])
  })

  test.each(operations.filter(({ path }) => path.startsWith('/api/')))('$method $path requires the bearer key and documents 401', ({ op }) => {
    expect(op.security).toEqual([{ bearerAuth: [] }])
    expect(op.responses['401']).toBeDefined()
  })

  test('declares the bearer security scheme and the shared schemas as components', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Error', 'Schema', 'SuggestedFields', 'DocumentType', 'Job', 'Webhook', 'CreatedWebhook', 'WebhookDelivery']),
    )
  })

  test('states the limits of the contract in the request schemas', () => {
    const create = doc.paths['/api/v1/schemas'].post.requestBody.content['application/json'].schema
    expect(create.additionalProperties).toBe(false)
    expect(create.required).toEqual(['name'])
    expect(create.properties.name.maxLength).toBe(100)
    expect(create.properties.fields.maxItems).toBe(50)
    const fieldSchema = create.properties.fields.items
    expect(fieldSchema.additionalProperties).toBe(false)
    expect(fieldSchema.properties.key).toMatchObject({ maxLength: 64, pattern: '^[A-Za-z0-9_]+$' })
    expect(fieldSchema.properties.label.maxLength).toBe(100)
    expect(fieldSchema.properties.description.maxLength).toBe(300)
  })

  test('lists every job error code as a closed enum (D58), with no default', () => {
    const job = doc.components.schemas.Job
    const error = job.properties.error.anyOf.find((schema: { type?: string }) => schema.type === 'object')
    expect(error.properties.code).toEqual({ type: 'string', description: 'Why the job failed (D58).', enum: [...JOB_ERROR_CODES] })
    expect(JOB_ERROR_CODES).toEqual(
      expect.arrayContaining(['corrupt_document', 'no_text_layer', 'too_many_pages', 'image_too_large', 'extraction_failed', 'file_missing']),
    )
  })

  test('src/modules/console/ui/generated/api.ts matches the document (run `bun run openapi:types` after changing routes)', async () => {
    expect(await Bun.file(GENERATED_TYPES).text()).toBe(await generateTypes())
  })
})

describe('real responses conform to the document', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ ...doc, $id: 'openapi' }, 'openapi')
  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
  const seen = new Set<string>()

  function conforms(method: string, path: string, response: ApiResponse) {
    const op = doc.paths[path]?.[method]
    expect(op).toBeDefined()
    const status = String(response.status)
    if (!op.responses[status]) throw new Error(`${method} ${path} answered ${status}, which the document does not list`)
    if (!op.responses[status].content) {
      // No content (204): none sent.
      expect(response.text).toBe('')
      seen.add(`${method} ${path} ${status}`)
      return
    }
    const ref = `openapi#/${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}`
    const validate = ajv.compile({ $ref: ref })
    if (!validate(response.body)) throw new Error(`${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`)
    seen.add(`${method} ${path} ${status}`)
  }

  test('for every operation and every status it can give', async () => {
    const t = await makeTestApp()
    conforms('get', '/healthz', await t.call('GET', '/healthz', { key: null }))
    conforms('get', '/readyz', await t.call('GET', '/readyz', { key: null }))

    conforms('get', '/api/v1/document-types', await t.call('GET', '/api/v1/document-types'))
    conforms('get', '/api/v1/document-types', await t.call('GET', '/api/v1/document-types', { key: null }))
    conforms('get', '/api/v1/fields', await t.call('GET', '/api/v1/fields?type=invoice'))
    conforms('get', '/api/v1/fields', await t.call('GET', '/api/v1/fields'))
    conforms('get', '/api/v1/fields', await t.call('GET', '/api/v1/fields?type=nope'))
    conforms('get', '/api/v1/fields', await t.call('GET', '/api/v1/fields?type=invoice', { key: 'bad' }))
    conforms('get', '/api/v1/fields/json-schema', await t.call('GET', '/api/v1/fields/json-schema?type=invoice'))
    conforms('get', '/api/v1/fields/json-schema', await t.call('GET', '/api/v1/fields/json-schema'))
    conforms('get', '/api/v1/fields/json-schema', await t.call('GET', '/api/v1/fields/json-schema?type=nope'))
    conforms('get', '/api/v1/fields/json-schema', await t.call('GET', '/api/v1/fields/json-schema?type=invoice', { key: null }))

    const schema = await createSchema(t, { name: 'x', fields: [field('a'), field('b', { description: undefined })] })
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: { name: 'y' } }))
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: { name: '' } }))
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: '{', headers: { 'content-type': 'application/json' } }))
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: 'x', headers: { 'content-type': 'text/plain' } }))
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: { name: 'x'.repeat(2 * 1024 * 1024) } }))
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: { name: 'y' }, key: null }))
    conforms('get', '/api/v1/schemas', await t.call('GET', '/api/v1/schemas'))
    conforms('get', '/api/v1/schemas', await t.call('GET', '/api/v1/schemas', { key: null }))
    conforms('get', '/api/v1/schemas/{id}', await t.call('GET', `/api/v1/schemas/${schema.id}`))
    conforms('get', '/api/v1/schemas/{id}', await t.call('GET', '/api/v1/schemas/sch_nope'))
    conforms('get', '/api/v1/schemas/{id}', await t.call('GET', `/api/v1/schemas/${schema.id}`, { key: null }))
    conforms('get', '/api/v1/schemas/{id}/json-schema', await t.call('GET', `/api/v1/schemas/${schema.id}/json-schema?document_type=invoice`))
    conforms('get', '/api/v1/schemas/{id}/json-schema', await t.call('GET', '/api/v1/schemas/sch_nope/json-schema'))
    conforms('get', '/api/v1/schemas/{id}/json-schema', await t.call('GET', `/api/v1/schemas/${schema.id}/json-schema`, { key: null }))
    const typed = { name: 't', fields: [field('s', { type: 'enum', values: ['a'] }), field('l', { type: 'table', columns: [{ key: 'c', type: 'date' }] })] }
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: typed }))
    conforms(
      'post',
      '/api/v1/schemas',
      await t.call('POST', '/api/v1/schemas', { body: { name: 'j', json_schema: { type: 'object', properties: { a: { type: 'integer' } } } } }),
    )
    conforms('patch', '/api/v1/schemas/{id}', await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { name: 'z' } }))
    conforms('patch', '/api/v1/schemas/{id}', await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { name: 1 } }))
    conforms('patch', '/api/v1/schemas/{id}', await t.call('PATCH', '/api/v1/schemas/sch_nope', { body: {} }))
    conforms('patch', '/api/v1/schemas/{id}', await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: 'x', headers: { 'content-type': 'text/plain' } }))
    conforms('patch', '/api/v1/schemas/{id}', await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: {}, key: null }))
    conforms('patch', '/api/v1/schemas/{id}', await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { description: 'd'.repeat(2 * 1024 * 1024) } }))
    conforms('delete', '/api/v1/schemas/{id}', await t.call('DELETE', `/api/v1/schemas/${schema.id}`))
    conforms('delete', '/api/v1/schemas/{id}', await t.call('DELETE', '/api/v1/schemas/sch_nope'))
    conforms('delete', '/api/v1/schemas/{id}', await t.call('DELETE', `/api/v1/schemas/${schema.id}`, { key: null }))
    conforms('post', '/api/v1/schemas/{id}/restore', await t.call('POST', `/api/v1/schemas/${schema.id}/restore`))
    conforms('post', '/api/v1/schemas/{id}/restore', await t.call('POST', '/api/v1/schemas/sch_nope/restore'))
    conforms('post', '/api/v1/schemas/{id}/restore', await t.call('POST', `/api/v1/schemas/${schema.id}/restore`, { key: null }))
    const again = { 'idempotency-key': 'conformance' }
    conforms('post', '/api/v1/schemas/{id}/restore', await t.call('POST', `/api/v1/schemas/${schema.id}/restore`, { headers: again }))
    conforms('post', '/api/v1/schemas/{id}/restore', await t.call('POST', `/api/v1/schemas/${schema.id}/restore`, { headers: again }))
    conforms('post', '/api/v1/schemas/{id}/restore', await t.call('POST', `/api/v1/schemas/${schema.id}/restore`, { headers: { 'idempotency-key': '' } }))
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: { name: 'replayed' }, headers: again }))
    conforms('get', '/api/v1/schemas/{id}/versions', await t.call('GET', `/api/v1/schemas/${schema.id}/versions`))
    conforms('get', '/api/v1/schemas/{id}/versions', await t.call('GET', `/api/v1/schemas/${schema.id}/versions?limit=0`))
    conforms('get', '/api/v1/schemas/{id}/versions', await t.call('GET', '/api/v1/schemas/sch_nope/versions'))
    conforms('get', '/api/v1/schemas/{id}/versions', await t.call('GET', `/api/v1/schemas/${schema.id}/versions`, { key: null }))
    conforms('get', '/api/v1/schemas/{id}/versions/{version}', await t.call('GET', `/api/v1/schemas/${schema.id}/versions/1`))
    conforms('get', '/api/v1/schemas/{id}/versions/{version}', await t.call('GET', `/api/v1/schemas/${schema.id}/versions/9`))
    conforms('get', '/api/v1/schemas/{id}/versions/{version}', await t.call('GET', `/api/v1/schemas/${schema.id}/versions/1`, { key: null }))

    for (let i = 0; i < 45; i++) await createSchema(t, { name: `s${i}` })
    const extra = await createSchema(t, { name: 'last' })
    await t.call('DELETE', `/api/v1/schemas/${extra.id}`)
    await createSchema(t, { name: 'fills it' })
    conforms('post', '/api/v1/schemas', await t.call('POST', '/api/v1/schemas', { body: { name: 'too many' } }))
    conforms('post', '/api/v1/schemas/{id}/restore', await t.call('POST', `/api/v1/schemas/${extra.id}/restore`))

    const upload = (extract: unknown, content: string | Uint8Array = 'Invoice No.: INV-1\nTotal: 12.00 EUR\n', name = 'invoice.txt') => {
      const form = new FormData()
      form.set('file', new File([content], name))
      form.set('extract', typeof extract === 'string' ? extract : JSON.stringify(extract))
      return form
    }
    const extracted = await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }) })
    conforms('post', '/api/v1/extract', extracted)
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract?async=true', { body: upload({ document_type: 'invoice' }) }))
    const keyed = { 'idempotency-key': 'conformance-extract' }
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }), headers: keyed }))
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }), headers: keyed }))
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'receipt' }), headers: keyed }))
    conforms('post', '/api/v1/schemas/{id}/restore', await t.call('POST', `/api/v1/schemas/${schema.id}/restore`, { headers: keyed }))
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract', { body: upload('{') }))
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'nope' }) }))
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }), key: null }))
    conforms(
      'post',
      '/api/v1/extract',
      await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1])) }),
    )
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract', { body: { document_type: 'invoice' } }))
    const small = await makeTestApp({ maxUploadBytes: 10 })
    const tooBig = await small.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }, 'x'.repeat(100)) })
    expect(tooBig.status).toBe(413)
    conforms('post', '/api/v1/extract', tooBig)
    const capped = await makeTestApp({ paused: true, queueCaps: { maxQueuedJobs: 1, maxQueuedBytes: 1024 } })
    expect((await capped.call('POST', '/api/v1/extract?async=true', { body: upload({ document_type: 'invoice' }) })).status).toBe(202)
    const overCap = await capped.call('POST', '/api/v1/extract?async=true', { body: upload({ document_type: 'invoice' }) })
    expect(overCap.status).toBe(429)
    conforms('post', '/api/v1/extract', overCap)
    // Issue 34: a job found with auto, a split job and its documents' jobs, and POST /classify's every status.
    conforms('post', '/api/v1/extract', await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'auto' }) }))
    const split = await t.call('POST', '/api/v1/extract', { body: upload({ document_type: 'auto', split: true }) })
    conforms('post', '/api/v1/extract', split)
    conforms('get', '/api/v1/jobs/{id}', await t.call('GET', `/api/v1/jobs/${split.body.job.documents[0].job_id}`))
    const classifyForm = (content: string | Uint8Array, name = 'invoice.txt') => {
      const form = new FormData()
      form.set('file', new File([content], name))
      return form
    }
    conforms('post', '/api/v1/classify', await t.call('POST', '/api/v1/classify', { body: classifyForm('INVOICE\nInvoice No.: INV-1\nTotal: 12.00 EUR\n') }))
    conforms('post', '/api/v1/classify', await t.call('POST', '/api/v1/classify', { body: classifyForm('') }))
    conforms('post', '/api/v1/classify', await t.call('POST', '/api/v1/classify', { body: classifyForm('x'), key: null }))
    conforms('post', '/api/v1/classify', await small.call('POST', '/api/v1/classify', { body: classifyForm('x'.repeat(100)) }))
    conforms('post', '/api/v1/classify', await t.call('POST', '/api/v1/classify', { body: classifyForm(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1])) }))
    conforms('post', '/api/v1/classify', await t.call('POST', '/api/v1/classify', { body: classifyForm('%PDF-1.7\n1 0 obj <<>>\n', 'broken.pdf') }))
    conforms('get', '/api/v1/jobs', await t.call('GET', '/api/v1/jobs'))
    conforms('get', '/api/v1/jobs', await t.call('GET', '/api/v1/jobs?limit=0'))
    conforms('get', '/api/v1/jobs', await t.call('GET', '/api/v1/jobs', { key: null }))
    conforms('get', '/api/v1/jobs/{id}', await t.call('GET', `/api/v1/jobs/${extracted.body.job.id}`))
    conforms('get', '/api/v1/jobs/{id}', await t.call('GET', '/api/v1/jobs/job_nope'))
    conforms('get', '/api/v1/jobs/{id}', await t.call('GET', `/api/v1/jobs/${extracted.body.job.id}`, { key: null }))
    const paused = await makeTestApp({ paused: true })
    const held = await paused.call('POST', '/api/v1/extract?async=true', { body: upload({ document_type: 'invoice' }, 'Invoice No.: 6') })
    const download = await paused.call('GET', `/api/v1/jobs/${held.body.job.id}/file`)
    expect(download.status).toBe(200)
    expect(download.text).toBe('Invoice No.: 6')
    seen.add('get /api/v1/jobs/{id}/file 200')
    conforms('get', '/api/v1/jobs/{id}/file', await paused.call('GET', `/api/v1/jobs/${extracted.body.job.id}/file`))
    conforms('get', '/api/v1/jobs/{id}/file', await paused.call('GET', `/api/v1/jobs/${held.body.job.id}/file`, { key: null }))
    const queued = await paused.call('POST', '/api/v1/extract?async=true', { body: upload({ document_type: 'invoice' }, 'Invoice No.: 7') })
    conforms('post', '/api/v1/jobs/{id}/cancel', await paused.call('POST', `/api/v1/jobs/${queued.body.job.id}/cancel`))
    conforms('post', '/api/v1/jobs/{id}/cancel', await paused.call('POST', `/api/v1/jobs/${queued.body.job.id}/cancel`))
    conforms('post', '/api/v1/jobs/{id}/cancel', await paused.call('POST', '/api/v1/jobs/job_nope/cancel'))
    conforms('post', '/api/v1/jobs/{id}/cancel', await paused.call('POST', '/api/v1/jobs/job_nope/cancel', { key: null }))
    const queuedAgain = await paused.call('POST', '/api/v1/extract?async=true', { body: upload({ document_type: 'invoice' }, 'Invoice No.: 8') })
    conforms('delete', '/api/v1/jobs/{id}', await paused.call('DELETE', `/api/v1/jobs/${queuedAgain.body.job.id}`))
    conforms('delete', '/api/v1/jobs/{id}', await paused.call('DELETE', `/api/v1/jobs/${queued.body.job.id}`))
    conforms('delete', '/api/v1/jobs/{id}', await paused.call('DELETE', `/api/v1/jobs/${queued.body.job.id}`))
    conforms('delete', '/api/v1/jobs/{id}', await paused.call('DELETE', `/api/v1/jobs/${queued.body.job.id}`, { key: null }))

    // A database that is not available: a write waits out the busy timeout, then 503.
    const dir = tempDir('extractd-openapi-')
    try {
      const locked = await makeTestApp({ database: await openDatabase(join(dir.path, 'locked.sqlite')) })
      if (locked.database.kind !== 'sqlite') throw new Error('a SQLite file')
      locked.database.sqlite.run('PRAGMA busy_timeout = 10')
      const holder = new Database(join(dir.path, 'locked.sqlite'))
      holder.run('BEGIN EXCLUSIVE')
      conforms('post', '/api/v1/schemas', await locked.call('POST', '/api/v1/schemas', { body: { name: 'waits' } }))
      holder.run('ROLLBACK')
      holder.close()
      locked.database.sqlite.close()
    } finally {
      dir.remove()
    }
    expect(seen.has('post /api/v1/schemas 503')).toBe(true)

    // Every documented status of every operation was produced and checked, except 503 of /readyz and the
    // 503 every API operation may give (one of them is checked above).
    // Webhooks, with real deliveries to a local receiver (one refused, then one accepted).
    const receiver = startReceiver((n) => new Response(null, { status: n === 1 ? 500 : 200 }))
    const hooks = await makeTestApp({ webhooks: { allowPrivate: true, retryDelayMs: 10 } })
    try {
      const created = await hooks.call('POST', '/api/v1/webhooks', { body: { url: receiver.url, events: ['job.succeeded', 'job.failed'] } })
      conforms('post', '/api/v1/webhooks', created)
      const webhookId = created.body.webhook.id
      conforms('post', '/api/v1/webhooks', await hooks.call('POST', '/api/v1/webhooks', { body: { url: 'ftp://x', events: [] } }))
      conforms('post', '/api/v1/webhooks', await hooks.call('POST', '/api/v1/webhooks', { body: '{', headers: { 'content-type': 'application/json' } }))
      conforms('post', '/api/v1/webhooks', await hooks.call('POST', '/api/v1/webhooks', { body: 'x', headers: { 'content-type': 'text/plain' } }))
      conforms('post', '/api/v1/webhooks', await hooks.call('POST', '/api/v1/webhooks', { body: { url: 'x'.repeat(2 * 1024 * 1024) } }))
      conforms('post', '/api/v1/webhooks', await hooks.call('POST', '/api/v1/webhooks', { body: {}, key: null }))
      for (let i = 1; i < 20; i++) await hooks.call('POST', '/api/v1/webhooks', { body: { url: `https://example.com/${i}`, events: ['job.failed'] } })
      conforms('post', '/api/v1/webhooks', await hooks.call('POST', '/api/v1/webhooks', { body: { url: 'https://example.com/21', events: ['job.failed'] } }))
      conforms('get', '/api/v1/webhooks', await hooks.call('GET', '/api/v1/webhooks'))
      conforms('get', '/api/v1/webhooks', await hooks.call('GET', '/api/v1/webhooks', { key: null }))
      conforms('get', '/api/v1/webhooks/{id}', await hooks.call('GET', `/api/v1/webhooks/${webhookId}`))
      conforms('get', '/api/v1/webhooks/{id}', await hooks.call('GET', '/api/v1/webhooks/whk_nope'))
      conforms('get', '/api/v1/webhooks/{id}', await hooks.call('GET', `/api/v1/webhooks/${webhookId}`, { key: null }))
      expect((await hooks.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }) })).status).toBe(200)
      const deadline = Date.now() + 5000
      let deliveries = await hooks.call('GET', `/api/v1/webhooks/${webhookId}/deliveries`)
      while (deliveries.body.deliveries.length < 2 && Date.now() < deadline) {
        await Bun.sleep(10)
        deliveries = await hooks.call('GET', `/api/v1/webhooks/${webhookId}/deliveries`)
      }
      expect(deliveries.body.deliveries.map((d: { status_code: number }) => d.status_code)).toEqual([200, 500])
      conforms('get', '/api/v1/webhooks/{id}/deliveries', deliveries)
      conforms('get', '/api/v1/webhooks/{id}/deliveries', await hooks.call('GET', `/api/v1/webhooks/${webhookId}/deliveries?limit=0`))
      conforms('get', '/api/v1/webhooks/{id}/deliveries', await hooks.call('GET', '/api/v1/webhooks/whk_nope/deliveries'))
      conforms('get', '/api/v1/webhooks/{id}/deliveries', await hooks.call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { key: null }))
      conforms('delete', '/api/v1/webhooks/{id}', await hooks.call('DELETE', `/api/v1/webhooks/${webhookId}`))
      conforms('delete', '/api/v1/webhooks/{id}', await hooks.call('DELETE', `/api/v1/webhooks/${webhookId}`))
      conforms('delete', '/api/v1/webhooks/{id}', await hooks.call('DELETE', `/api/v1/webhooks/${webhookId}`, { key: null }))
    } finally {
      await hooks.deliveries?.stop(0)
      receiver.stop()
    }

    // Reviews and learned layouts (issue 32).
    const reviewing = await makeTestApp()
    const toReview = (
      await reviewing.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }, 'ACME GmbH\nInvoice No.: INV-1\nTotal: 10.00 EUR\n') })
    ).body.job
    const review = (body: unknown, options: { key?: string | null; headers?: Record<string, string>; id?: string } = {}) =>
      reviewing.call('POST', `/api/v1/jobs/${options.id ?? toReview.id}/review`, { body, key: options.key, headers: options.headers })
    conforms('post', '/api/v1/jobs/{id}/review', await review({ fields: { invoice_number: 'INV-1' } }))
    conforms('post', '/api/v1/jobs/{id}/review', await review({ fields: { nope: 1 } }))
    conforms('post', '/api/v1/jobs/{id}/review', await review({ fields: {} }, { key: null }))
    conforms('post', '/api/v1/jobs/{id}/review', await review({ fields: {} }, { id: 'job_nope' }))
    conforms('post', '/api/v1/jobs/{id}/review', await review({ fields: {} }, { headers: { 'idempotency-key': 'k' } }))
    conforms('post', '/api/v1/jobs/{id}/review', await review({ fields: { invoice_number: 'X' } }, { headers: { 'idempotency-key': 'k' } }))
    conforms('post', '/api/v1/jobs/{id}/review', await review({ fields: { invoice_number: 'x'.repeat(2 * 1024 * 1024) } }))
    conforms('post', '/api/v1/jobs/{id}/review', await review('x', { headers: { 'content-type': 'text/plain' } }))
    // A box read on a page (D340): of a PDF's job, of a text's (no word places: 409), and refused.
    const ordered = (await reviewing.call('POST', '/api/v1/extract', { body: upload({ document_type: 'invoice' }, await makeOrder(ORDER), 'order.pdf') })).body
      .job
    const region = (body: unknown, options: { key?: string | null; headers?: Record<string, string>; id?: string } = {}) =>
      reviewing.call('POST', `/api/v1/jobs/${options.id ?? ordered.id}/region`, { body, key: options.key, headers: options.headers })
    const box = { key: 'total', page: 1, box: boxAround(ORDER, ORDER.total) }
    conforms('post', '/api/v1/jobs/{id}/region', await region(box))
    conforms('post', '/api/v1/jobs/{id}/region', await region({ ...box, page: 2 }))
    conforms('post', '/api/v1/jobs/{id}/region', await region(box, { key: null }))
    conforms('post', '/api/v1/jobs/{id}/region', await region(box, { id: 'job_nope' }))
    conforms('post', '/api/v1/jobs/{id}/region', await region({ ...box, key: 'invoice_number' }, { id: toReview.id }))
    conforms('post', '/api/v1/jobs/{id}/region', await region({ ...box, key: 'x'.repeat(2 * 1024 * 1024) }))
    conforms('post', '/api/v1/jobs/{id}/region', await region('x', { headers: { 'content-type': 'text/plain' } }))
    conforms('get', '/api/v1/layouts', await reviewing.call('GET', '/api/v1/layouts'))
    conforms('get', '/api/v1/layouts', await reviewing.call('GET', '/api/v1/layouts?limit=0'))
    conforms('get', '/api/v1/layouts', await reviewing.call('GET', '/api/v1/layouts', { key: null }))
    const layoutId = (await reviewing.call('GET', '/api/v1/layouts')).body.layouts[0]?.id ?? 'lay_nope'
    conforms('delete', '/api/v1/layouts/{id}', await reviewing.call('DELETE', `/api/v1/layouts/${layoutId}`, { key: null }))
    conforms('delete', '/api/v1/layouts/{id}', await reviewing.call('DELETE', `/api/v1/layouts/${layoutId}`))
    conforms('delete', '/api/v1/layouts/{id}', await reviewing.call('DELETE', `/api/v1/layouts/${layoutId}`))
    // The account's accuracy, from the review above (issue 33).
    const reviewedAccuracy = await reviewing.call('GET', '/api/v1/accuracy?document_type=invoice&since=2020-01-01&threshold=0.9')
    expect(reviewedAccuracy.body.jobs).toBe(1)
    conforms('get', '/api/v1/accuracy', reviewedAccuracy)
    conforms('get', '/api/v1/accuracy', await reviewing.call('GET', '/api/v1/accuracy', { key: reviewing.keyB.key }))
    conforms('get', '/api/v1/accuracy', await reviewing.call('GET', '/api/v1/accuracy?since=soon'))
    conforms('get', '/api/v1/accuracy', await reviewing.call('GET', '/api/v1/accuracy?schema_id=sch_nope'))
    conforms('get', '/api/v1/accuracy', await reviewing.call('GET', '/api/v1/accuracy?document_type=nope'))
    conforms('get', '/api/v1/accuracy', await reviewing.call('GET', '/api/v1/accuracy', { key: null }))
    // The account's own keys (D337).
    conforms('get', '/api/v1/keys', await t.call('GET', '/api/v1/keys'))
    conforms('get', '/api/v1/keys', await t.call('GET', '/api/v1/keys', { key: null }))
    const made = await t.call('POST', '/api/v1/keys')
    conforms('post', '/api/v1/keys', made)
    conforms('post', '/api/v1/keys', await t.call('POST', '/api/v1/keys', { key: null }))
    conforms('delete', '/api/v1/keys/{id}', await t.call('DELETE', `/api/v1/keys/${made.body.key.id}`))
    conforms('delete', '/api/v1/keys/{id}', await t.call('DELETE', '/api/v1/keys/key_nope'))
    conforms('delete', '/api/v1/keys/{id}', await t.call('DELETE', `/api/v1/keys/${made.body.key.id}`, { key: null }))

    // Every documented status of every operation was produced and checked, except 503 of /readyz.
    const documented = operations.flatMap(({ path, method, op }) => Object.keys(op.responses).map((s) => `${method} ${path} ${s}`))
    expect(documented.filter((entry) => !seen.has(entry) && !/^\w+ \/api\/.* 503$/.test(entry))).toEqual(['get /readyz 503'])
    const apiOperations = operations.filter(({ path }) => path.startsWith('/api/'))
    expect(apiOperations.filter(({ op }) => !op.responses['503'])).toEqual([])
  }, 60_000)
})
