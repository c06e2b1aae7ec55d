/**
 * needs_review (D284): a value needs a person below its job's review threshold or when a sum it
 * is in breaks (D282); the job needs one when any value does. The threshold comes from the schema
 * (default 0.95, not versioned), or from the request where no schema is used; the job list filters
 * on the flag and the webhook payload carries it. An engine written here gives fixed confidences.
 */
import { describe, expect, test } from 'bun:test'
import type { Engine } from '../../../src/modules/extraction/engines/types'
import { joined } from '../../helpers/answers'
import { createSchema, expectValidation, makeTestApp, type TestApp } from '../../helpers/app'

/** Answers each field with the value and confidence named in the document's lines ("key=value@confidence"). */
const scripted: Engine = {
  name: 'scripted',
  async extract({ document, fields }) {
    const lines = document.pages.join('\n').split('\n')
    const given = new Map(
      lines.map((line) => /^(\w+)=([^@]*)@([\d.]+)$/.exec(line)).flatMap((m) => (m ? [[m[1]!, { value: m[2]!, confidence: Number(m[3]) }] as const] : [])),
    )
    const values: Record<string, unknown> = {}
    const meta: Record<string, { confidence: number; page: number; snippet: string }> = {}
    for (const { key } of fields) {
      const answer = given.get(key)
      values[key] = answer?.value ?? null
      if (answer) meta[key] = { confidence: answer.confidence, page: 1, snippet: `${key}=${answer.value}` }
    }
    return joined({ values, meta })
  },
}

function extract(t: TestApp, request: Record<string, unknown>, lines: string[], query = '') {
  const form = new FormData()
  form.append('file', new Blob([lines.join('\n')]), 'doc.txt')
  form.append('extract', JSON.stringify(request))
  return t.call('POST', `/api/v1/extract${query}`, { body: form })
}

async function job(t: TestApp, request: Record<string, unknown>, lines: string[]) {
  const response = await extract(t, request, lines)
  expect(response.status).toBe(200)
  return response.body.job
}

const AMOUNTS = { document_type: 'invoice', fields: { subtotal: 'Net', tax: 'VAT', total: 'Total' } }

describe('needs_review of each value and of the job', () => {
  test('a value under the default threshold of 0.95 needs a person; one at it does not; a missing one claims nothing', async () => {
    const t = await makeTestApp({ engine: scripted })
    const found = await job(t, { document_type: 'invoice', fields: { invoice_number: 'No', total: 'Total', due_date: 'Due' } }, [
      'invoice_number=A-1@0.95',
      'total=10.00@0.949',
    ])
    expect(found.review_threshold).toBe(0.95)
    expect(found.fields_meta.invoice_number.needs_review).toBe(false)
    expect(found.fields_meta.total.needs_review).toBe(true)
    expect(found.fields_meta.due_date).toEqual({ confidence: 0, page: null, snippet: null, bbox: null, needs_review: false })
    expect(found.needs_review).toBe(true)
  })

  test('a job whose every value is sure enough needs no person', async () => {
    const t = await makeTestApp({ engine: scripted })
    const found = await job(t, AMOUNTS, ['subtotal=100.00@0.99', 'tax=19.00@0.99', 'total=119.00@0.99'])
    expect(found.needs_review).toBe(false)
    expect(Object.values(found.fields_meta).map((meta: any) => meta.needs_review)).toEqual([false, false, false])
  })

  test('a broken sum needs a person whatever the confidence, and says which check broke', async () => {
    const t = await makeTestApp({ engine: scripted })
    const found = await job(t, AMOUNTS, ['subtotal=19.00@0.99', 'tax=19.00@0.99', 'total=119.00@0.99'])
    expect(found.needs_review).toBe(true)
    expect(found.fields_meta.total).toMatchObject({ needs_review: true, checks: [{ check: 'subtotal_plus_tax', expected: '38.00', found: '119.00' }] })
    // An engine without calibration loses confidence on a broken sum (D282).
    expect(found.fields_meta.total.confidence).toBeLessThan(0.99)
  })
})

describe('review_threshold', () => {
  test('per request, where no schema is used', async () => {
    const t = await makeTestApp({ engine: scripted })
    const strict = await job(t, { ...AMOUNTS, review_threshold: 0.995 }, ['subtotal=100.00@0.99', 'tax=19.00@0.99', 'total=119.00@0.99'])
    expect(strict.review_threshold).toBe(0.995)
    expect(strict.needs_review).toBe(true)
    const lenient = await job(t, { ...AMOUNTS, review_threshold: 0.5 }, ['subtotal=100.00@0.6', 'tax=19.00@0.6', 'total=119.00@0.6'])
    expect(lenient.needs_review).toBe(false)
  })

  test('a threshold outside 0–1, or one beside schema_id, is refused and queues nothing', async () => {
    const t = await makeTestApp({ engine: scripted })
    expectValidation(await extract(t, { ...AMOUNTS, review_threshold: 1.5 }, ['total=1.00@1']), ['/extract/review_threshold'])
    expectValidation(await extract(t, { ...AMOUNTS, review_threshold: 'high' }, ['total=1.00@1']), ['/extract/review_threshold'])
    const schema = await createSchema(t, { name: 'S', fields: [{ key: 'total', label: 'Total', required: false }] })
    expectValidation(await extract(t, { document_type: 'invoice', schema_id: schema.id, review_threshold: 0.9 }, ['total=1.00@1']), [
      '/extract/review_threshold',
    ])
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs).toEqual([])
  })

  test("per schema: set at creation, changed without a new version, used by the schema's jobs", async () => {
    const t = await makeTestApp({ engine: scripted })
    const schema = await createSchema(t, { name: 'S', fields: [{ key: 'total', label: 'Total', required: false }], review_threshold: 0.8 })
    expect(schema.review_threshold).toBe(0.8)
    const relaxed = await job(t, { document_type: 'invoice', schema_id: schema.id }, ['total=10.00@0.85'])
    expect(relaxed).toMatchObject({ review_threshold: 0.8, needs_review: false })

    const patched = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { review_threshold: 0.9 } })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ review_threshold: 0.9, version: 1 })
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}`)).body.schema.review_threshold).toBe(0.9)
    const stricter = await job(t, { document_type: 'invoice', schema_id: schema.id }, ['total=10.00@0.85'])
    expect(stricter).toMatchObject({ review_threshold: 0.9, needs_review: true })
    // The job keeps the threshold it was read with.
    expect((await t.call('GET', `/api/v1/jobs/${relaxed.id}`)).body.job.review_threshold).toBe(0.8)

    expectValidation(await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { review_threshold: -0.1 } }), ['/review_threshold'])
  })
})

describe('the job list filters on needs_review', () => {
  test('true, false, and anything else refused', async () => {
    const t = await makeTestApp({ engine: scripted })
    const unsure = await job(t, AMOUNTS, ['total=10.00@0.5'])
    const sure = await job(t, AMOUNTS, ['total=10.00@0.99'])
    const ids = async (query: string) => (await t.call('GET', `/api/v1/jobs${query}`)).body.jobs.map((j: { id: string }) => j.id)
    expect(await ids('?needs_review=true')).toEqual([unsure.id])
    expect(await ids('?needs_review=false')).toEqual([sure.id])
    expect(await ids('')).toEqual([sure.id, unsure.id])
    expectValidation(await t.call('GET', '/api/v1/jobs?needs_review=yes'), ['query:/needs_review'])
  })
})

describe('the webhook payload carries needs_review', () => {
  test("the job.succeeded message holds the job's flag and each value's", async () => {
    const t = await makeTestApp({ engine: scripted })
    const created = await t.call('POST', '/api/v1/webhooks', { body: { url: 'https://example.com/hook', events: ['job.succeeded'] } })
    expect(created.status).toBe(201)
    const found = await job(t, AMOUNTS, ['total=10.00@0.5'])
    const [message] = await t.rows<{ payload: string }>('select payload from webhook_messages where job_id = ?', [found.id])
    const payload = JSON.parse(message!.payload)
    expect(payload.data.job.needs_review).toBe(true)
    expect(payload.data.job.fields_meta.total.needs_review).toBe(true)
  })
})
