/**
 * The `webhooks` section of /openapi.json (D321): one entry per event the server can send, and
 * what a real receiver gets (headers and body, for a job that succeeds and one that fails)
 * conforms to it.
 */
import { expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { WEBHOOK_EVENTS } from '../../src/db/tables/webhooks'
import { builtinEngine } from '../../src/modules/extraction/engines/builtin'
import type { Engine } from '../../src/modules/extraction/engines/types'
import { ExtractionError } from '../../src/modules/extraction/errors'
import { makeTestApp } from '../helpers/app'
import { openApiDocument } from '../helpers/openapi'
import { startReceiver, verifyWebhook } from '../helpers/webhooks'

const doc = await openApiDocument()

test('lists every webhook event as a POST with the Standard Webhooks headers and the body of the event', () => {
  expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENTS])
  for (const event of WEBHOOK_EVENTS) {
    const operation = doc.webhooks[event].post
    expect(operation.tags).toEqual(['Webhooks'])
    expect(operation.security).toEqual([])
    const headers = operation.parameters.filter((parameter: { in: string; required: boolean }) => parameter.in === 'header' && parameter.required)
    expect(headers.map((header: { name: string }) => header.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'user-agent'])
    const body = operation.requestBody.content['application/json'].schema
    expect(body.$ref).toMatch(/^#\/components\/schemas\/Job\w+Event$/)
    const schema = doc.components.schemas[body.$ref.split('/').pop()]
    expect(schema.properties.type).toEqual({ const: event, type: 'string' })
    expect(schema.properties.data.properties.job).toEqual({ $ref: '#/components/schemas/Job' })
    expect(Object.keys(operation.responses)).toEqual(['2XX', '4XX', '5XX'])
  }
})

/** Fails the job when the document says FAIL; otherwise the built-in engine. */
const failingOnDemand: Engine = {
  name: 'builtin',
  async extract(input) {
    if (input.document.pages.some((page) => page.includes('FAIL'))) throw new ExtractionError('corrupt_document', 'broken')
    return builtinEngine.extract(input)
  },
}

test('what a receiver gets for a job that succeeds and one that fails conforms to the document', async () => {
  const receiver = startReceiver()
  const t = await makeTestApp({ engine: failingOnDemand, webhooks: { allowPrivate: true, retryDelayMs: 20 } })
  try {
    const created = await t.call('POST', '/api/v1/webhooks', { body: { url: receiver.url, events: [...WEBHOOK_EVENTS] } })
    expect(created.status).toBe(201)
    for (const content of ['Invoice No.: INV-9\nTotal: 10.00 EUR\n', 'FAIL']) {
      const form = new FormData()
      form.set('file', new File([content], 'invoice.txt'))
      form.set('extract', JSON.stringify({ document_type: 'invoice' }))
      expect((await t.call('POST', '/api/v1/extract', { body: form })).status).toBe(200)
    }
    const deadline = Date.now() + 20_000
    while (receiver.received.length < 2 && Date.now() < deadline) await Bun.sleep(20)
    expect(receiver.received).toHaveLength(2)

    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ ...doc, $id: 'openapi' }, 'openapi')
    const seen: string[] = []
    for (const { method, headers, body } of receiver.received) {
      expect(method).toBe('POST')
      expect(verifyWebhook(created.body.webhook.secret, headers, body)).toBe(true)
      const payload: { type: string; data: { job: { status: string } } } = JSON.parse(body)
      const event = payload.type
      const operation = doc.webhooks[event]?.post
      expect(operation).toBeDefined()
      for (const parameter of operation.parameters) {
        const value = headers.get(parameter.name)
        if (parameter.required) expect(value).not.toBeNull()
        expect({ header: parameter.name, valid: ajv.validate(parameter.schema, value) }).toEqual({ header: parameter.name, valid: true })
      }
      const validate = ajv.compile({ $ref: `openapi#/webhooks/${event}/post/requestBody/content/application~1json/schema` })
      if (!validate(payload)) throw new Error(`${event}: ${ajv.errorsText(validate.errors)}`)
      seen.push(`${event} ${payload.data.job.status}`)
    }
    expect(seen.sort()).toEqual(['job.failed failed', 'job.succeeded succeeded'])
  } finally {
    await t.deliveries?.stop(0)
    receiver.stop()
  }
}, 60_000)
