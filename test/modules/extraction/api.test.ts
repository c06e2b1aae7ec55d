/**
 * POST /api/v1/extract, GET /api/v1/jobs and GET /api/v1/jobs/:id through the HTTP layer
 * (interface.md 4.8, D19–D23). Documents are built here; fake engines give control over results.
 */
import type { JobField } from '../../../src/lib/fields/model'
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { zipSync, strToU8 } from 'fflate'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { newId } from '../../../src/lib/ids'
import { loadCatalog } from '../../../src/modules/catalog/service'
import type { Engine, ExtractionInput } from '../../../src/modules/extraction/engines/types'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import { joined, type Meta, type Split } from '../../helpers/answers'
import { createOpenAiEngine } from '../../../src/modules/extraction/engines/openai'
import { imagePdf, renderPage, toJpeg, toPng } from '../../helpers/images'
import { tempDir } from '../../helpers/process'
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import { type CallOptions, ISO_MS, type TestApp, createSchema, expectEnvelope, expectValidation, field, makeTestApp } from '../../helpers/app'

/** Which of these jobs still have their document stored. */
async function storedFileIds(t: TestApp, ids: string[]): Promise<string[]> {
  const rows = await t.rows<{ job_id: string }>(`select job_id from job_files where job_id in (${ids.map(() => '?').join(', ')})`, ids)
  return rows.map((row) => row.job_id)
}

const JOB_ID = /^job_[0-9a-hjkmnp-tv-z]{30}$/
const SHA256_HEX = /^[0-9a-f]{64}$/

const ACCEPTED_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/html',
  'text/markdown',
  'text/plain',
  'image/jpeg',
  'image/png',
  'image/tiff',
  'image/webp',
  'image/heic',
]
const ALL_SLUGS = [
  'bank_statement',
  'contract',
  'invoice',
  'medical_consultation',
  'medical_lab_report',
  'medical_prescription',
  'passport',
  'payslip',
  'purchase_order',
]
const JOB_PROPERTIES = [
  'id',
  'status',
  'document_type',
  'schema_id',
  'schema_version',
  'fields',
  'file',
  'progress',
  'result',
  'fields_meta',
  'error',
  'engine',
  'review_threshold',
  'needs_review',
  'created_at',
  'updated_at',
  'completed_at',
  'reviewed_at',
]

const INVOICE_TEXT = 'ACME GmbH\nInvoice No.: INV-2024-001\nDate: 2024-03-05\nBill To: Globex Ltd\nTotal: 1,234.50 EUR\n'
const INLINE = { document_type: 'invoice', fields: { invoice_number: 'The invoice number as printed', total: 'Amount due' } }

// --- Documents -------------------------------------------------------------------------------

const utf8 = (text: string) => new TextEncoder().encode(text)

function sha256(bytes: Uint8Array): string {
  return new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
}

async function makePdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([595, 842])
  const font = await doc.embedFont(StandardFonts.Helvetica)
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font }))
  return doc.save()
}

function makeDocx(paragraphs: string[]): Uint8Array {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join('')
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    'word/document.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        `<w:body>${body}</w:body></w:document>`,
    ),
  })
}

/** A 1×1 GIF: an image format that is not read (D22). */
const GIF = new Uint8Array([
  0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00,
  0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
])

/** Deterministic bytes with NULs and every byte value: no text, no known magic number. */
function randomBinary(length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  let state = 0x2545f491
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0
    bytes[i] = (state >>> 16) & 0xff
  }
  bytes[0] = 0x00
  bytes[1] = 0xfe
  return bytes
}

// --- Requests --------------------------------------------------------------------------------

interface FilePart {
  content: string | Uint8Array
  name?: string
  /** The Content-Type the client claims for the part. */
  type?: string
}

/** The multipart form of /extract: a `file` part (unless null) and an `extract` part (unless undefined). */
function extractForm(extract: unknown, file: FilePart | null = { content: INVOICE_TEXT }, extra: Record<string, string | Blob> = {}): FormData {
  const form = new FormData()
  if (file) form.append('file', new Blob([file.content], file.type ? { type: file.type } : {}), file.name ?? 'invoice.txt')
  if (extract !== undefined) form.append('extract', typeof extract === 'string' ? extract : JSON.stringify(extract))
  for (const [name, value] of Object.entries(extra)) form.append(name, value)
  return form
}

function extract(t: TestApp, extractPart: unknown = INLINE, file?: FilePart | null, options: { key?: string | null; query?: string } = {}) {
  return t.call('POST', `/api/v1/extract${options.query ?? ''}`, { body: extractForm(extractPart, file), key: options.key })
}

async function extracted(t: TestApp, extractPart: unknown = INLINE, file?: FilePart | null, key?: string, query?: string) {
  const response = await extract(t, extractPart, file, { key, query })
  if (response.status !== 200 && response.status !== 202) throw new Error(`extract failed: ${response.status} ${response.text}`)
  return response.body.job
}

async function expectNoJobs(t: TestApp, key?: string) {
  const list = await t.call('GET', '/api/v1/jobs', { key })
  expect(list.status).toBe(200)
  expect(list.body).toEqual({ jobs: [], has_more: false })
}

async function waitForStatus(t: TestApp, id: string, statuses: string[], timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await t.call('GET', `/api/v1/jobs/${id}`)
    if (statuses.includes(response.body?.job?.status)) return response.body.job
    if (Date.now() > deadline) throw new Error(`job ${id} did not reach ${statuses.join('/')}: ${response.text}`)
    await Bun.sleep(5)
  }
}

// --- Engines ---------------------------------------------------------------------------------

interface FakeEngine extends Engine {
  calls: ExtractionInput[]
}

const metaOf = (key: string): Meta => ({ confidence: 0.9, page: 1, snippet: `${key}: value` })

/** Answers `value of <key>` for every requested key unless told otherwise; records each input. */
/** A value of the field's type, as an engine answers it: text fields say whose value they are. */
function typedValue(field: JobField): unknown {
  switch (field.type) {
    case 'amount':
      return '12.50'
    case 'date':
      return '2026-03-03'
    case 'number':
      return 3
    case 'currency':
      return 'EUR'
    case 'boolean':
      return true
    case 'enum':
      return field.values![0]
    case 'list':
      return [`value of ${field.key}`]
    case 'table':
      return [{ item: `value of ${field.key}` }]
    default:
      return `value of ${field.key}`
  }
}

function fakeEngine(answer?: (input: ExtractionInput) => Split | Promise<Split>, name = 'fake'): FakeEngine {
  const calls: ExtractionInput[] = []
  return {
    name,
    calls,
    async extract(input) {
      calls.push(input)
      if (answer) return joined(await answer(input))
      const values: Record<string, unknown> = {}
      const meta: Record<string, Meta> = {}
      for (const field of input.fields) {
        const { key } = field
        values[key] = typedValue(field)
        meta[key] = metaOf(key)
      }
      return joined({ values, meta })
    },
  }
}

function throwingEngine(error: unknown): FakeEngine {
  return fakeEngine(() => {
    throw error
  })
}

/** An engine that waits until `release()`; `started` resolves when it has been called. */
function gatedEngine() {
  let release!: () => void
  let markStarted!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  const engine = fakeEngine(async (input) => {
    markStarted()
    await gate
    return { values: Object.fromEntries(input.fields.map((field) => [field.key, field.type === 'amount' ? '9.99' : `late ${field.key}`])), meta: {} }
  })
  return { engine, release, started }
}

// --- Tests -----------------------------------------------------------------------------------

describe('POST /api/v1/extract: the job resource (D21)', () => {
  test('sync extraction answers 200 {job} succeeded with every D21 property, and stores exactly that job', async () => {
    const engine = fakeEngine(() => ({
      values: { invoice_number: 'INV-2024-001', total: 1234.5, not_requested: 'x' },
      meta: {
        invoice_number: { confidence: 0.95, page: 1, snippet: 'Invoice No.: INV-2024-001' },
        total: { confidence: 0.8, page: 1, snippet: 'Total: 1,234.50 EUR' },
      },
    }))
    const t = await makeTestApp({ engine })
    const bytes = utf8('Rechnung für Müller — Invoice No.: INV-2024-001\nTotal: 1,234.50 €\n')
    const response = await extract(t, INLINE, { content: bytes, name: 'rechnung.txt' })

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(Object.keys(response.body)).toEqual(['job'])
    const { job } = response.body
    expect(Object.keys(job).sort()).toEqual([...JOB_PROPERTIES].sort())
    expect(job).toEqual({
      id: expect.stringMatching(JOB_ID),
      status: 'succeeded',
      document_type: 'invoice',
      schema_id: null,
      schema_version: null,
      fields: [
        { key: 'invoice_number', label: 'invoice_number', description: 'The invoice number as printed', type: 'text' },
        { key: 'total', label: 'total', description: 'Amount due', type: 'amount' },
      ],
      file: { name: 'rechnung.txt', size: bytes.byteLength, media_type: 'text/plain', sha256: sha256(bytes) },
      progress: { pages_done: 1, pages_total: 1 },
      // The engine's 1234.5 for an amount field is typed by the shared layer (D90).
      result: { invoice_number: 'INV-2024-001', total: '1234.50' },
      fields_meta: {
        // D284: under the default threshold of 0.95, a value needs a person.
        invoice_number: { confidence: 0.95, page: 1, snippet: 'Invoice No.: INV-2024-001', bbox: null, needs_review: false },
        total: { confidence: 0.8, page: 1, snippet: 'Total: 1,234.50 EUR', bbox: null, needs_review: true },
      },
      error: null,
      engine: 'fake',
      review_threshold: 0.95,
      needs_review: true,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      completed_at: expect.stringMatching(ISO_MS),
      reviewed_at: null,
    })
    expect(job.file.sha256).toMatch(SHA256_HEX)
    expect(job.updated_at >= job.created_at).toBe(true)
    expect(job.completed_at >= job.created_at).toBe(true)
    expect(engine.calls).toHaveLength(1)
    expect(engine.calls[0]!.documentType).toBe('invoice')
    expect(engine.calls[0]!.issuedBySeller).toBe(true)
    expect(engine.calls[0]!.document.pages.join('\n')).toContain('Invoice No.: INV-2024-001')

    const stored = await t.call('GET', `/api/v1/jobs/${job.id}`)
    expect(stored.status).toBe(200)
    expect(stored.body).toEqual({ job })
    const list = await t.call('GET', '/api/v1/jobs')
    expect(list.body).toEqual({ jobs: [job], has_more: false })
  })

  test('the built-in engine answers a typed result: exactly the requested keys, fields_meta per key with confidence 0–1, page and snippet', async () => {
    const t = await makeTestApp()
    const fields = { invoice_number: 'Invoice number', total: 'Total due', po_reference: 'Purchase order reference' }
    const response = await extract(t, { document_type: 'invoice', fields })
    expect(response.status).toBe(200)
    const { job } = response.body
    expect(job.status).toBe('succeeded')
    expect(job.engine).toBe('builtin')
    expect(job.error).toBeNull()
    expect(job.completed_at).toMatch(ISO_MS)
    expect(Object.keys(job.result).sort()).toEqual(Object.keys(fields).sort())
    // D57: an amount is a decimal string with a dot; a field the document lacks is null.
    expect(job.result).toEqual({ invoice_number: 'INV-2024-001', total: '1234.50', po_reference: null })
    expect(job.fields_meta.po_reference).toEqual({ confidence: 0, page: null, snippet: null, bbox: null, needs_review: false })
    expect(Object.keys(job.fields_meta).sort()).toEqual(Object.keys(fields).sort())
    for (const key of Object.keys(fields)) {
      const meta = job.fields_meta[key]
      expect(Object.keys(meta).sort()).toEqual(['bbox', 'confidence', 'needs_review', 'page', 'snippet'])
      expect(typeof meta.confidence).toBe('number')
      expect(meta.confidence).toBeGreaterThanOrEqual(0)
      expect(meta.confidence).toBeLessThanOrEqual(1)
      expect(meta.page === null || (Number.isInteger(meta.page) && meta.page >= 1)).toBe(true)
      expect(meta.snippet === null || typeof meta.snippet === 'string').toBe(true)
      if (job.result[key] === null) expect(meta).toEqual({ confidence: 0, page: null, snippet: null, bbox: null, needs_review: false })
    }
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body).toEqual({ job })
  })

  test('a key the engine leaves out is null with meta {confidence 0, page null, snippet null}; the job still succeeds', async () => {
    const engine = fakeEngine(() => ({ values: { invoice_number: 'INV-1' }, meta: { invoice_number: metaOf('invoice_number') } }))
    const t = await makeTestApp({ engine })
    const job = await extracted(t, { document_type: 'invoice', fields: { invoice_number: 'Number', due_date: 'Due date' } })
    expect(job.status).toBe('succeeded')
    expect(job.result).toEqual({ invoice_number: 'INV-1', due_date: null })
    expect(job.fields_meta).toEqual({
      invoice_number: { ...metaOf('invoice_number'), bbox: null, needs_review: metaOf('invoice_number').confidence < 0.95 },
      due_date: { confidence: 0, page: null, snippet: null, bbox: null, needs_review: false },
    })
  })

  test('a field marked required in the schema that the engine does not find is null; the job still succeeds', async () => {
    const t = await makeTestApp({ engine: fakeEngine(() => ({ values: {}, meta: {} })) })
    const schema = await createSchema(t, { name: 'S', fields: [{ key: 'total', label: 'Total', required: true }] })
    const job = await extracted(t, { document_type: 'invoice', schema_id: schema.id })
    expect(job.status).toBe('succeeded')
    expect(job.error).toBeNull()
    expect(job.result).toEqual({ total: null })
    expect(job.fields_meta).toEqual({ total: { confidence: 0, page: null, snippet: null, bbox: null, needs_review: false } })
  })

  test('keys named like Object.prototype members (constructor, toString, hasOwnProperty) are null in result and fields_meta when the engine finds nothing', async () => {
    const t = await makeTestApp({ engine: fakeEngine(() => ({ values: {}, meta: {} })) })
    const keys = ['constructor', 'toString', 'hasOwnProperty', 'total']
    const job = await extracted(t, { document_type: 'invoice', fields: Object.fromEntries(keys.map((key) => [key, `the ${key}`])) })
    expect(job.status).toBe('succeeded')
    expect(job.fields.map((field: { key: string }) => field.key)).toEqual(keys)
    expect(Object.keys(job.result)).toEqual(keys)
    expect(job.result).toEqual({ constructor: null, toString: null, hasOwnProperty: null, total: null })
    expect(Object.keys(job.fields_meta)).toEqual(keys)
    for (const key of keys) expect(job.fields_meta[key]).toEqual({ confidence: 0, page: null, snippet: null, bbox: null, needs_review: false })
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body).toEqual({ job })
  })

  test('a key named __proto__ keeps the value the engine found for it', async () => {
    const engine = fakeEngine((input) => ({
      values: Object.fromEntries(input.fields.map(({ key }) => [key, `value of ${key}`])),
      meta: Object.fromEntries(input.fields.map(({ key }) => [key, metaOf(key)])),
    }))
    const t = await makeTestApp({ engine })
    const job = await extracted(t, '{"document_type":"invoice","fields":{"__proto__":"odd but valid","total":"Total"}}')
    expect(job.status).toBe('succeeded')
    expect(Object.keys(job.result)).toEqual(['__proto__', 'total'])
    expect(Object.getOwnPropertyDescriptor(job.result, '__proto__')?.value).toBe('value of __proto__')
  })

  test('a key named __proto__ with the built-in engine: sync answers a finished job (never "running") and the job does not stay running', async () => {
    const t = await makeTestApp()
    const response = await extract(t, '{"document_type":"invoice","fields":{"__proto__":"odd but valid","total":"Total due"}}')
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('succeeded')
    expect(response.body.job.completed_at).toMatch(ISO_MS)
    expect(Object.keys(response.body.job.result ?? {})).toEqual(['__proto__', 'total'])
    await Bun.sleep(20)
    const stored = await t.call('GET', `/api/v1/jobs/${response.body.job.id}`)
    expect(stored.body.job.status).toBe('succeeded')
    expect(await storedFileIds(t, [response.body.job.id])).toEqual([])
  })

  test('an engine value of no field type (a BigInt) is null with confidence 0 (D90)', async () => {
    const t = await makeTestApp({ engine: fakeEngine(() => ({ values: { total: 10n }, meta: { total: { confidence: 0.9, page: 1, snippet: 'x' } } })) })
    const response = await extract(t, { document_type: 'invoice', fields: { total: 'Total' } })
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('succeeded')
    expect(response.body.job.result).toEqual({ total: null })
    expect(response.body.job.fields_meta).toEqual({ total: { confidence: 0, page: null, snippet: null, bbox: null, needs_review: false } })
  })

  test('an engine answer that cannot be stored (a BigInt in its meta) ends the job as failed, never left running', async () => {
    const meta = { total: { confidence: 10n as unknown as number, page: null, snippet: null } }
    const t = await makeTestApp({ engine: fakeEngine(() => ({ values: { total: '10.00' }, meta })) })
    const response = await extract(t, { document_type: 'invoice', fields: { total: 'Total' } })
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('failed')
    expect(response.body.job.error).toEqual({ code: 'extraction_failed', message: expect.any(String) })
    expect((await t.call('GET', `/api/v1/jobs/${response.body.job.id}`)).body.job.status).toBe('failed')
  })

  test('12 concurrent sync extractions with 2 workers all answer 200 succeeded and are all listed', async () => {
    const engine = fakeEngine(async (input) => {
      await Bun.sleep(5)
      return { values: Object.fromEntries(input.fields.map(({ key }) => [key, key])), meta: {} }
    })
    const t = await makeTestApp({ engine, workers: 2 })
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => extract(t, INLINE, { content: `Invoice No.: INV-${i}\n`, name: `c-${i}.txt` })))
    for (const response of responses) {
      expect(response.status).toBe(200)
      expect(response.body.job.status).toBe('succeeded')
    }
    const ids = new Set(responses.map((response) => response.body.job.id))
    expect(ids.size).toBe(12)
    const list = await t.call('GET', '/api/v1/jobs?limit=100')
    expect(new Set(list.body.jobs.map((job: { id: string }) => job.id))).toEqual(ids)
    expect(engine.calls).toHaveLength(12)
  })

  test('a file name with spaces and non-ASCII characters is stored exactly as sent', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const job = await extracted(t, INLINE, { content: INVOICE_TEXT, name: 'Rechnung März 2024 (1).txt' })
    expect(job.file.name).toBe('Rechnung März 2024 (1).txt')
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job.file.name).toBe('Rechnung März 2024 (1).txt')
  })
})

describe('what the engine is told of the document type (D220)', () => {
  test("the catalog's issued_by_seller reaches the engine: true for an invoice and an operator's type that says so, false for a purchase order", async () => {
    const dir = tempDir()
    const receipt = {
      slug: 'receipt',
      label: 'Receipt',
      description: '',
      issued_by_seller: true,
      fields: [{ key: 'shop', label: 'Shop', description: '', required: true }],
    }
    writeFileSync(join(dir.path, 'receipt.json'), JSON.stringify(receipt))
    const engine = fakeEngine()
    const t = await makeTestApp({ engine, catalog: loadCatalog({ extraDir: dir.path }) })
    dir.remove()
    for (const type of ['invoice', 'receipt', 'purchase_order']) await extracted(t, { document_type: type, fields: { company_name: 'Company' } })
    expect(engine.calls.map((call) => [call.documentType, call.issuedBySeller])).toEqual([
      ['invoice', true],
      ['receipt', true],
      ['purchase_order', false],
    ])
  })
})

describe('typed fields through the API: one pipeline for both engines (D90, D91)', () => {
  const GERMAN = 'ACME GmbH\nRechnung Nr. 2026-17\nDatum: 3. März 2026\nBezahlt: ja\nStatus: offen\nGesamt: 1.234,50 €\nAmount due: EUR 1,234.50\n'

  test('a stand-in OpenAI-compatible server answering raw strings gives the typed result of the built-in engine', async () => {
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () =>
        Response.json({
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: JSON.stringify({ total: '1.234,50 €', date: '3. März 2026', amount_due: 'EUR 1,234.50' }) },
            },
          ],
        }),
    })
    try {
      const engine = createOpenAiEngine({ baseUrl: `http://127.0.0.1:${server.port}/v1`, model: 'stand-in', timeoutMs: 5000 })
      const request = { document_type: 'invoice', fields: { total: 'Total', date: 'Invoice date', amount_due: 'Amount due' } }
      const file = { content: utf8(GERMAN), name: 'rechnung.txt' }
      const viaModel = await extracted(await makeTestApp({ engine }), request, file)
      expect(viaModel.status).toBe('succeeded')
      expect(viaModel.fields.map((field: { type: string }) => field.type)).toEqual(['amount', 'date', 'amount'])
      expect(viaModel.result).toEqual({ total: '1234.50', date: '2026-03-03', amount_due: '1234.50' })
      expect(viaModel.fields_meta.total).toEqual({ confidence: 0.8, page: 1, snippet: 'Gesamt: 1.234,50 €', bbox: null, needs_review: true })

      const builtin = await extracted(await makeTestApp(), request, file)
      expect(builtin.result).toEqual(viaModel.result)
    } finally {
      server.stop(true)
    }
  })

  test("the built-in engine reads declared booleans and enums in the document's language", async () => {
    const fields = {
      paid: { label: 'Bezahlt', type: 'boolean' },
      status: { label: 'Status', type: 'enum', values: ['bezahlt', 'offen'] },
      invoice_no: { label: 'Rechnung Nr.', type: 'text' },
    }
    const job = await extracted(await makeTestApp(), { document_type: 'invoice', fields }, { content: utf8(GERMAN), name: 'rechnung.txt' })
    expect(job.result).toEqual({ paid: true, status: 'offen', invoice_no: '2026-17' })
    expect(job.fields_meta.paid.snippet).toBe('Bezahlt: ja')
  })
})

describe('POST /api/v1/extract: field sets (D19)', () => {
  test('inline fields: label equals key, description as sent, order kept; each typed once: catalog type, else inferred (D91)', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const fields = { total: 'Amount due, with tax', po_reference: 'Our PO number', Total: '', delivery_date: 'When delivered' }
    const job = await extracted(t, { document_type: 'invoice', fields })
    expect(job.fields).toEqual([
      { key: 'total', label: 'total', description: 'Amount due, with tax', type: 'amount' },
      { key: 'po_reference', label: 'po_reference', description: 'Our PO number', type: 'text' },
      { key: 'Total', label: 'Total', description: '', type: 'amount' },
      { key: 'delivery_date', label: 'delivery_date', description: 'When delivered', type: 'date' },
    ])
    const catalogTotal = t.catalog.get('invoice')!.fields.find((field) => field.key === 'total')!
    expect(catalogTotal.aliases?.length).toBeGreaterThan(0)
    expect(engine.calls[0]!.fields).toEqual([
      { key: 'total', label: 'total', description: 'Amount due, with tax', type: 'amount', aliases: catalogTotal.aliases! },
      { key: 'po_reference', label: 'po_reference', description: 'Our PO number', type: 'text' },
      { key: 'Total', label: 'Total', description: '', type: 'amount' },
      { key: 'delivery_date', label: 'delivery_date', description: 'When delivered', type: 'date' },
    ])
    expect(job.result).toEqual({ total: '12.50', po_reference: 'value of po_reference', Total: '12.50', delivery_date: '2026-03-03' })
    const [stored] = await t.rows<{ fields: string }>('select fields from jobs where id = ?', [job.id])
    expect((JSON.parse(stored!.fields) as { type: string }[]).map((field) => field.type)).toEqual(['amount', 'text', 'amount', 'date'])
  })

  test('inline fields declared as objects: the declared type wins over the catalog, enums and tables keep values and columns', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const fields = {
      total: { description: 'As printed', type: 'text' },
      status: { label: 'Status', type: 'enum', values: ['open', 'paid'] },
      lines: { type: 'table', columns: [{ key: 'item' }, { key: 'price', label: 'Price', type: 'amount' }, { key: 'ship_date' }] },
      paid: { type: 'boolean' },
      note: 'Anything else',
    }
    const job = await extracted(t, { document_type: 'invoice', fields })
    expect(job.fields).toEqual([
      { key: 'total', label: 'total', description: 'As printed', type: 'text' },
      { key: 'status', label: 'Status', description: '', type: 'enum', values: ['open', 'paid'] },
      {
        key: 'lines',
        label: 'lines',
        description: '',
        type: 'table',
        columns: [
          { key: 'item', label: 'item', description: '', type: 'text' },
          { key: 'price', label: 'Price', description: '', type: 'amount' },
          { key: 'ship_date', label: 'ship_date', description: '', type: 'date' },
        ],
      },
      { key: 'paid', label: 'paid', description: '', type: 'boolean' },
      { key: 'note', label: 'note', description: 'Anything else', type: 'text' },
    ])
    expect(engine.calls[0]!.fields[0]).toMatchObject({ key: 'total', type: 'text' })
    expect(job.result).toEqual({
      total: 'value of total',
      status: 'open',
      lines: [{ item: 'value of lines', price: null, ship_date: null }],
      paid: true,
      note: 'value of note',
    })
  })

  test.each([
    [{ a: { type: 'colour' } }, ['/extract/fields/a']],
    [{ a: { type: 'text', values: ['x'] } }, ['/extract/fields/a/values']],
    [{ a: { type: 'enum' } }, ['/extract/fields/a/values']],
    [{ a: { type: 'enum', values: ['x', 'x'] } }, ['/extract/fields/a/values/1']],
    [{ a: { type: 'table', columns: [] } }, ['/extract/fields/a']],
    [{ a: { type: 'table', columns: [{ key: 'x' }, { key: 'x' }] } }, ['/extract/fields/a/columns/1/key']],
    [{ a: { type: 'list', columns: [{ key: 'x' }] } }, ['/extract/fields/a/columns']],
    [{ a: { kind: 'text' } }, ['/extract/fields/a']],
  ])('inline field %j breaks the type rules: 400 naming %j, nothing stored (D88)', async (fields, paths) => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await extract(t, { document_type: 'invoice', fields })
    expectValidation(response, paths)
    await expectNoJobs(t)
  })

  test('schema_id: labels, descriptions and declared types come from the schema; auto fields take the catalog type', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const schema = await createSchema(t, {
      name: 'My invoices',
      fields: [
        { key: 'total', label: 'Grand total', description: 'Total including VAT', required: true },
        { key: 'reference', label: 'Reference', required: false },
        { key: 'amount_due', label: 'Amount due', required: false, type: 'auto' },
        { key: 'date', label: 'Date', required: false, type: 'text' },
      ],
    })
    const response = await extract(t, { document_type: 'invoice', schema_id: schema.id })
    expect(response.status).toBe(200)
    const { job } = response.body
    expect(job.schema_id).toBe(schema.id)
    expect(job.fields).toEqual([
      { key: 'total', label: 'Grand total', description: 'Total including VAT', type: 'amount' },
      { key: 'reference', label: 'Reference', description: '', type: 'text' },
      { key: 'amount_due', label: 'Amount due', description: '', type: 'amount' },
      { key: 'date', label: 'Date', description: '', type: 'text' },
    ])
    const catalogTotal = t.catalog.get('invoice')!.fields.find((field) => field.key === 'total')!
    expect(engine.calls[0]!.fields[0]).toEqual({
      key: 'total',
      label: 'Grand total',
      description: 'Total including VAT',
      type: 'amount',
      aliases: catalogTotal.aliases!,
    })
    expect(engine.calls[0]!.fields[1]).toEqual({ key: 'reference', label: 'Reference', description: '', type: 'text' })
    expect(Object.keys(job.result)).toEqual(['total', 'reference', 'amount_due', 'date'])
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job.schema_id).toBe(schema.id)
  })

  test.each(['invoice', 'passport'])("neither fields nor schema_id: the %s type's suggested fields, in catalog order", async (slug) => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const suggested = (await t.call('GET', `/api/v1/fields?type=${slug}`)).body
    const expected = suggested.fields
      .filter((field: { key: string }) => suggested.suggested_keys.includes(field.key))
      .map(({ key, label, description, type, columns }: { key: string; label: string; description: string; type: string; columns?: unknown[] }) => ({
        key,
        label,
        description,
        type,
        ...(columns ? { columns } : {}),
      }))
    expect(expected.length).toBeGreaterThan(0)
    const job = await extracted(t, { document_type: slug })
    expect(job.schema_id).toBeNull()
    expect(job.document_type).toBe(slug)
    expect(job.fields).toEqual(expected)
    expect(job.fields.map((field: { key: string }) => field.key)).toEqual(suggested.suggested_keys)
    if (slug === 'invoice') expect(suggested.suggested_keys).toEqual(['company_name', 'invoice_number', 'date', 'client_name', 'line_items', 'total'])
    expect(Object.keys(job.result)).toEqual(suggested.suggested_keys)
    expect(engine.calls[0]!.fields.map((field) => field.key)).toEqual(suggested.suggested_keys)
  })

  test('a description of 300 characters counted as code points (300 emoji) is accepted', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const description = '😀'.repeat(300)
    const job = await extracted(t, { document_type: 'invoice', fields: { total: description } })
    expect(job.fields).toEqual([{ key: 'total', label: 'total', description, type: 'amount' }])
  })

  test('50 inline fields and a 64-character key are accepted', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const fields = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`field_${i}`, `Field ${i}`]))
    fields['k'.repeat(64)] = 'Long key'
    const job = await extracted(t, { document_type: 'invoice', fields })
    expect(job.fields).toHaveLength(50)
    expect(Object.keys(job.result)).toHaveLength(50)
    expect(job.fields).toEqual(Object.entries(fields).map(([key, description]) => ({ key, label: key, description, type: 'text' })))
    expect(Object.keys(job.result)).toEqual(Object.keys(fields))
  })

  const invalid: [string, unknown, string][] = [
    ['both fields and schema_id', { document_type: 'invoice', fields: { total: 'Total' }, schema_id: 'sch_x' }, '/extract/schema_id'],
    ['an empty fields object', { document_type: 'invoice', fields: {} }, '/extract/fields'],
    ['51 fields', { document_type: 'invoice', fields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'x'])) }, '/extract/fields'],
    ['a key with a dash', { document_type: 'invoice', fields: { 'bad-key': 'x' } }, '/extract/fields/bad-key'],
    ['a key of 65 characters', { document_type: 'invoice', fields: { ['k'.repeat(65)]: 'x' } }, `/extract/fields/${'k'.repeat(65)}`],
    ['a key with a non-ASCII letter', { document_type: 'invoice', fields: { montant_é: 'x' } }, '/extract/fields/montant_é'],
    ['a description of 301 characters', { document_type: 'invoice', fields: { total: 'x'.repeat(301) } }, '/extract/fields/total'],
    ['a description that is not a string', { document_type: 'invoice', fields: { total: 5 } }, '/extract/fields/total'],
    ['a null description', { document_type: 'invoice', fields: { total: null } }, '/extract/fields/total'],
    ['fields given as an array', { document_type: 'invoice', fields: ['total'] }, '/extract/fields'],
    ['an unknown property', { document_type: 'invoice', fields: { total: 'x' }, language: 'de' }, '/extract/language'],
    ['no document_type', { fields: { total: 'x' } }, '/extract/document_type'],
    ['a document_type that is not a string', { document_type: 7 }, '/extract/document_type'],
    ['a schema_id that is not a string', { document_type: 'invoice', schema_id: 12 }, '/extract/schema_id'],
    ['an array instead of an object', [{ document_type: 'invoice' }], '/extract'],
  ]
  test.each(invalid)('%s → 400 validation_failed naming the path, nothing stored', async (_, body, path) => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const response = await extract(t, body)
    expectValidation(response, [path])
    expect(engine.calls).toHaveLength(0)
    await expectNoJobs(t)
  })

  test.each([
    ['not JSON', '{"document_type": "invoice",'],
    ['empty', ''],
    ['plain words', 'invoice'],
  ])('an extract part that is %s → 400 invalid_json, nothing stored', async (_, text) => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await extract(t, text)
    expectEnvelope(response, 400, 'invalid_json')
    await expectNoJobs(t)
  })

  test('an unknown document_type → 404 unknown_document_type with the exact message and available_types', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await extract(t, { document_type: 'receipt', fields: { total: 'Total' } })
    expectEnvelope(response, 404, 'unknown_document_type', 'Unknown document type: "receipt"')
    expect(response.body.available_types).toEqual(ALL_SLUGS)
    const catalog = await t.call('GET', '/api/v1/document-types')
    expect(response.body.available_types).toEqual(catalog.body.document_types.map((type: { slug: string }) => type.slug))
    await expectNoJobs(t)
  })

  test('document_type is matched exactly: "Invoice" → 404 unknown_document_type', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await extract(t, { document_type: 'Invoice' })
    expectEnvelope(response, 404, 'unknown_document_type', 'Unknown document type: "Invoice"')
    await expectNoJobs(t)
  })

  test("a schema_id that is unknown, malformed, soft-deleted or another account's → 404 not_found, nothing stored", async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const deleted = await createSchema(t, { name: 'Gone', fields: [{ key: 'total', label: 'Total', required: true }] })
    expect((await t.call('DELETE', `/api/v1/schemas/${deleted.id}`)).status).toBe(200)
    const others = await createSchema(t, { name: 'B', fields: [{ key: 'total', label: 'Total', required: true }] }, t.keyB.key)
    for (const schemaId of [newId('sch'), 'sch_nope', newId('job'), deleted.id, others.id]) {
      const response = await extract(t, { document_type: 'invoice', schema_id: schemaId })
      expectEnvelope(response, 404, 'not_found')
      expect(response.body.available_types).toBeUndefined()
    }
    await expectNoJobs(t)
    await expectNoJobs(t, t.keyB.key)
  })

  test('a schema without fields → 400 naming /extract/schema_id, nothing stored', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const empty = await createSchema(t, { name: 'Empty' })
    const response = await extract(t, { document_type: 'invoice', schema_id: empty.id })
    expectValidation(response, ['/extract/schema_id'])
    await expectNoJobs(t)
  })
})

describe('D20: a job keeps its own copy of its fields', () => {
  test("PATCH and DELETE of the schema after the job leave the job's fields and schema_id unchanged", async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const schema = await createSchema(t, {
      name: 'Invoices',
      fields: [
        { key: 'invoice_number', label: 'Number', description: 'As printed', required: true },
        { key: 'total', label: 'Total', description: 'With tax', required: true },
      ],
    })
    const job = await extracted(t, { document_type: 'invoice', schema_id: schema.id })
    const original = [
      { key: 'invoice_number', label: 'Number', description: 'As printed', type: 'text' },
      { key: 'total', label: 'Total', description: 'With tax', type: 'amount' },
    ]
    expect(job.fields).toEqual(original)

    const patched = await t.call('PATCH', `/api/v1/schemas/${schema.id}`, {
      body: { name: 'Renamed', fields: [{ key: 'due_date', label: 'Due', description: 'When to pay', required: false }] },
    })
    expect(patched.status).toBe(200)
    const afterPatch = await t.call('GET', `/api/v1/jobs/${job.id}`)
    expect(afterPatch.body).toEqual({ job })

    expect((await t.call('DELETE', `/api/v1/schemas/${schema.id}`)).body).toEqual({ ok: true })
    const afterDelete = await t.call('GET', `/api/v1/jobs/${job.id}`)
    expect(afterDelete.status).toBe(200)
    expect(afterDelete.body).toEqual({ job })
    expect(afterDelete.body.job.fields).toEqual(original)
    expect(afterDelete.body.job.schema_id).toBe(schema.id)
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs).toEqual([job])
  })

  test("a job created after a PATCH uses the schema's new fields; the earlier job keeps the old ones", async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const schema = await createSchema(t, { name: 'S', fields: [{ key: 'a', label: 'A', required: true }] })
    const first = await extracted(t, { document_type: 'invoice', schema_id: schema.id })
    await t.call('PATCH', `/api/v1/schemas/${schema.id}`, { body: { fields: [{ key: 'b', label: 'B', required: true }] } })
    const second = await extracted(t, { document_type: 'invoice', schema_id: schema.id })
    expect(second.fields).toEqual([{ key: 'b', label: 'B', description: '', type: 'text' }])
    expect((await t.call('GET', `/api/v1/jobs/${first.id}`)).body.job.fields).toEqual([{ key: 'a', label: 'A', description: '', type: 'text' }])
  })
})

describe('POST /api/v1/extract: multipart problems (all in the D1 envelope, nothing stored)', () => {
  /** A multipart body written out by hand, for what FormData cannot express. */
  function rawMultipart(body: string, boundary: string): CallOptions {
    return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
  }

  const PROBLEMS: { name: string; request: () => CallOptions; paths: string[] }[] = [
    { name: 'a missing file part', request: () => ({ body: extractForm(INLINE, null) }), paths: ['/file'] },
    { name: 'a missing extract part', request: () => ({ body: extractForm(undefined) }), paths: ['/extract'] },
    { name: 'an unknown extra part', request: () => ({ body: extractForm(INLINE, undefined, { comment: 'hello' }) }), paths: ['/comment'] },
    {
      name: 'a file part sent as a plain string',
      request: () => {
        const form = new FormData()
        form.append('file', INVOICE_TEXT)
        form.append('extract', JSON.stringify(INLINE))
        return { body: form }
      },
      paths: ['/file'],
    },
    {
      name: 'two file parts',
      request: () => {
        const form = extractForm(INLINE)
        form.append('file', new Blob(['second']), 'second.txt')
        return { body: form }
      },
      paths: ['/file'],
    },
    {
      name: 'two extract parts',
      request: () => {
        const form = extractForm(INLINE)
        form.append('extract', JSON.stringify(INLINE))
        return { body: form }
      },
      paths: ['/extract'],
    },
    {
      name: 'a file part with an empty file name',
      request: () =>
        rawMultipart(
          `--xXxBoundaryxXx\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: text/plain\r\n\r\n${INVOICE_TEXT}\r\n` +
            `--xXxBoundaryxXx\r\nContent-Disposition: form-data; name="extract"\r\n\r\n${JSON.stringify(INLINE)}\r\n--xXxBoundaryxXx--\r\n`,
          'xXxBoundaryxXx',
        ),
      paths: ['/file'],
    },
    { name: 'a malformed multipart body', request: () => rawMultipart('this is not multipart at all', 'nothing-here'), paths: [''] },
    { name: 'no body at all', request: () => ({}), paths: [''] },
  ]

  test.each(PROBLEMS)('$name → 400 validation_failed naming $paths', async ({ request, paths }) => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    expectValidation(await t.call('POST', '/api/v1/extract', request()), paths)
    expect(engine.calls).toHaveLength(0)
    await expectNoJobs(t)
  })

  test.each([
    ['a JSON body', JSON.stringify({ ...INLINE, file: 'SW52b2ljZQ==' }), 'application/json'],
    ['a form-urlencoded body', `extract=${encodeURIComponent(JSON.stringify(INLINE))}&file=Invoice`, 'application/x-www-form-urlencoded'],
    ['a text/plain body', INVOICE_TEXT, 'text/plain'],
  ])('%s → 415 unsupported_media_type', async (_, body, type) => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await t.call('POST', '/api/v1/extract', { body, headers: { 'content-type': type } })
    expectEnvelope(response, 415, 'unsupported_media_type')
    expect(Object.keys(response.body).sort()).toEqual(['code', 'error'])
    await expectNoJobs(t)
  })

  test('GET /api/v1/extract → 405 method_not_allowed with an Allow header naming POST', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await t.call('GET', '/api/v1/extract')
    expectEnvelope(response, 405, 'method_not_allowed')
    expect(response.headers.get('allow')).toContain('POST')
    expect(response.headers.get('allow')).toBe('POST')
  })
})

describe('POST /api/v1/extract: files (D22)', () => {
  test('an empty file → 400 naming /file, nothing stored', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const response = await extract(t, INLINE, { content: new Uint8Array(0), name: 'empty.txt' })
    expectValidation(response, ['/file'])
    expect(engine.calls).toHaveLength(0)
    await expectNoJobs(t)
  })

  test('a file of exactly maxUploadBytes is accepted', async () => {
    const t = await makeTestApp({ engine: fakeEngine(), maxUploadBytes: 1000 })
    const job = await extracted(t, INLINE, { content: 'a'.repeat(1000), name: 'limit.txt' })
    expect(job.status).toBe('succeeded')
    expect(job.file.size).toBe(1000)
  })

  test('a file one byte over maxUploadBytes → 413 payload_too_large, no job stored', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine, maxUploadBytes: 1000 })
    const response = await extract(t, INLINE, { content: 'a'.repeat(1001), name: 'big.txt' })
    expectEnvelope(response, 413, 'payload_too_large')
    expect(engine.calls).toHaveLength(0)
    await expectNoJobs(t)
  })

  test('a body far over the limit (400 KB against 1000 bytes) → 413 payload_too_large, no job stored', async () => {
    const t = await makeTestApp({ engine: fakeEngine(), maxUploadBytes: 1000 })
    const response = await extract(t, INLINE, { content: 'a'.repeat(400_000), name: 'huge.txt' })
    expectEnvelope(response, 413, 'payload_too_large')
    await expectNoJobs(t)
  })

  test.each([
    ['a GIF image', GIF, 'image.gif'],
    ['a ZIP archive that is not a DOCX', zipSync({ 'readme.txt': strToU8('hello') }), 'archive.docx'],
    ['random binary', randomBinary(2048), 'data.pdf'],
    ['UTF-16 text', new Uint8Array([0xff, 0xfe, 0x48, 0x00, 0x69, 0x00, 0x21, 0x00]), 'utf16.txt'],
  ])('%s → 415 unsupported_media_type with accepted_types, nothing stored', async (_, content, name) => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const response = await extract(t, INLINE, { content, name })
    expectEnvelope(response, 415, 'unsupported_media_type')
    expect(response.body.accepted_types).toEqual(ACCEPTED_TYPES)
    expect(engine.calls).toHaveLength(0)
    await expectNoJobs(t)
  })

  test('media_type is detected from content: a PDF named notes.txt is application/pdf and its text layer reaches the engine', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const pdf = await makePdf(['Invoice No.: INV-77', 'Total: 99.00 EUR'])
    const job = await extracted(t, INLINE, { content: pdf, name: 'notes.txt' })
    expect(job.status).toBe('succeeded')
    expect(job.file).toEqual({ name: 'notes.txt', size: pdf.byteLength, media_type: 'application/pdf', sha256: sha256(pdf) })
    const text = engine.calls[0]!.document.pages.join('\n')
    expect(text).toContain('INV-77')
    expect(text).toContain('99.00')
  })

  test('media_type is detected from content: plain text named x.pdf and claimed as application/pdf is text/plain', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const job = await extracted(t, INLINE, { content: INVOICE_TEXT, name: 'x.pdf', type: 'application/pdf' })
    expect(job.status).toBe('succeeded')
    expect(job.file.name).toBe('x.pdf')
    expect(job.file.media_type).toBe('text/plain')
  })

  test.each([
    ['HTML', '<!DOCTYPE html><html><body><h1>Invoice</h1><p>Invoice No.: INV-9</p><p>Total: 10.00 EUR</p></body></html>', 'text/html'],
    ['Markdown', '# Invoice\n\n- Invoice No.: INV-9\n- Total: 10.00 EUR\n', 'text/markdown'],
    ['plain text', 'Invoice No.: INV-9\nTotal: 10.00 EUR\n', 'text/plain'],
  ])('%s is accepted, detected and read as text', async (_, content, mediaType) => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const job = await extracted(t, INLINE, { content, name: 'upload.bin' })
    expect(job.status).toBe('succeeded')
    expect(job.file.media_type).toBe(mediaType)
    expect(job.file.sha256).toBe(sha256(utf8(content)))
    const text = engine.calls[0]!.document.pages.join('\n')
    expect(text).toContain('INV-9')
    expect(text).not.toContain('<p>')
  })

  test('a DOCX is accepted as the DOCX media type and its paragraphs reach the engine', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const docx = makeDocx(['Invoice No.: INV-5', 'Total: 5.00 EUR'])
    const job = await extracted(t, INLINE, { content: docx, name: 'invoice.docx' })
    expect(job.status).toBe('succeeded')
    expect(job.file.media_type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
    expect(engine.calls[0]!.document.pages.join('\n')).toContain('INV-5')
  })
})

describe('POST /api/v1/extract: failed extractions are 200 with status "failed"', () => {
  test('a corrupt PDF ends as 200 failed with error {code: corrupt_document, message}, not a 5xx', async () => {
    const t = await makeTestApp()
    const bytes = utf8('%PDF-1.4\n' + 'garbage \u0001 not a pdf at all '.repeat(20))
    const response = await extract(t, INLINE, { content: bytes, name: 'broken.pdf' })
    expect(response.status).toBe(200)
    const { job } = response.body
    expect(job).toEqual({
      id: expect.stringMatching(JOB_ID),
      status: 'failed',
      document_type: 'invoice',
      schema_id: null,
      schema_version: null,
      fields: [
        { key: 'invoice_number', label: 'invoice_number', description: 'The invoice number as printed', type: 'text' },
        { key: 'total', label: 'total', description: 'Amount due', type: 'amount' },
      ],
      file: { name: 'broken.pdf', size: bytes.byteLength, media_type: 'application/pdf', sha256: sha256(bytes) },
      progress: null,
      result: null,
      fields_meta: null,
      error: { code: 'corrupt_document', message: expect.any(String) },
      engine: 'builtin',
      review_threshold: 0.95,
      needs_review: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      completed_at: expect.stringMatching(ISO_MS),
      reviewed_at: null,
    })
    expect(job.error.message.length).toBeGreaterThan(0)
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body).toEqual({ job })
  })

  test('a PDF without a text layer ends as failed with no_text_layer (D58), not as a 5xx', async () => {
    const t = await makeTestApp()
    const doc = await PDFDocument.create()
    doc.addPage([200, 200])
    const pdf = await doc.save()
    const response = await extract(t, INLINE, { content: pdf, name: 'scan.pdf' })
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('failed')
    expect(response.body.job.error).toEqual({ code: expect.any(String), message: expect.any(String) })
    expect(response.body.job.error.code).toBe('no_text_layer')
    expect(response.body.job.result).toBeNull()
    expect(response.body.job.fields_meta).toBeNull()
    expect((await t.call('GET', `/api/v1/jobs/${response.body.job.id}`)).body).toEqual(response.body)
  })

  test('an engine throwing ExtractionError → failed with that code and message', async () => {
    const t = await makeTestApp({ engine: throwingEngine(new ExtractionError('engine_timeout', 'The engine did not answer in 60 s')) })
    const response = await extract(t)
    expect(response.status).toBe(200)
    const { job } = response.body
    expect(job.status).toBe('failed')
    expect(job.error).toEqual({ code: 'engine_timeout', message: 'The engine did not answer in 60 s' })
    expect(job.result).toBeNull()
    expect(job.fields_meta).toBeNull()
    expect(job.completed_at).toMatch(ISO_MS)
    expect(job.engine).toBe('fake')
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body).toEqual({ job })
    expect((await t.call('GET', '/api/v1/jobs')).body).toEqual({ jobs: [job], has_more: false })
  })

  test('an engine throwing a plain Error → failed with extraction_failed and a message that leaks nothing of the original', async () => {
    const secret = 'SQLITE_CORRUPT at /var/lib/secret-path password=hunter2'
    const t = await makeTestApp({ engine: throwingEngine(new Error(secret)) })
    const response = await extract(t)
    expect(response.status).toBe(200)
    const { job } = response.body
    expect(job.status).toBe('failed')
    expect(job.error.code).toBe('extraction_failed')
    expect(typeof job.error.message).toBe('string')
    expect(job.error.message.length).toBeGreaterThan(0)
    expect(job.error.message).not.toContain('hunter2')
    expect(job.error.message).not.toContain('SQLITE')
    expect(job.error.message).not.toContain('secret-path')
    expect(response.text).not.toContain('hunter2')
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).text).not.toContain('hunter2')
  })

  test('an engine throwing a non-Error value → failed with extraction_failed', async () => {
    const t = await makeTestApp({ engine: throwingEngine('boom-string') })
    const response = await extract(t)
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('failed')
    expect(response.body.job.error.code).toBe('extraction_failed')
    expect(response.text).not.toContain('boom-string')
  })
})

describe('POST /api/v1/extract?async=true (D21)', () => {
  test('answers 202 {job} queued at once; with the runner paused the job stays queued and its file stays stored', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine, paused: true })
    const response = await extract(t, INLINE, undefined, { query: '?async=true' })
    expect(response.status).toBe(202)
    expect(Object.keys(response.body)).toEqual(['job'])
    const { job } = response.body
    expect(job).toEqual({
      id: expect.stringMatching(JOB_ID),
      status: 'queued',
      document_type: 'invoice',
      schema_id: null,
      schema_version: null,
      fields: [
        { key: 'invoice_number', label: 'invoice_number', description: 'The invoice number as printed', type: 'text' },
        { key: 'total', label: 'total', description: 'Amount due', type: 'amount' },
      ],
      file: { name: 'invoice.txt', size: utf8(INVOICE_TEXT).byteLength, media_type: 'text/plain', sha256: sha256(utf8(INVOICE_TEXT)) },
      progress: null,
      result: null,
      fields_meta: null,
      error: null,
      engine: 'fake',
      review_threshold: 0.95,
      needs_review: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: job.created_at,
      completed_at: null,
      reviewed_at: null,
    })
    await Bun.sleep(30)
    const stored = await t.call('GET', `/api/v1/jobs/${job.id}`)
    expect(stored.body).toEqual({ job })
    expect((await t.call('GET', '/api/v1/jobs')).body).toEqual({ jobs: [job], has_more: false })
    expect(await storedFileIds(t, [job.id])).toEqual([job.id])
    expect(engine.calls).toHaveLength(0)
  })

  test('answers 202 before a slow engine finishes; a later GET shows succeeded with the result', async () => {
    const { engine, release, started } = gatedEngine()
    const t = await makeTestApp({ engine })
    const response = await extract(t, INLINE, undefined, { query: '?async=true' })
    expect(response.status).toBe(202)
    expect(response.body.job.status).toBe('queued')
    expect(response.body.job.result).toBeNull()
    const id = response.body.job.id
    await started
    const during = await t.call('GET', `/api/v1/jobs/${id}`)
    expect(['queued', 'running']).toContain(during.body.job.status)
    // The engine has been called, so the job was claimed before: it is running.
    expect(during.body.job.status).toBe('running')
    expect(during.body.job.completed_at).toBeNull()
    expect(during.body.job.result).toBeNull()
    release()
    const done = await waitForStatus(t, id, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')
    expect(done.result).toEqual({ invoice_number: 'late invoice_number', total: '9.99' })
    expect(done.completed_at).toMatch(ISO_MS)
    expect(done.created_at).toBe(response.body.job.created_at)
    expect(done.updated_at >= done.created_at).toBe(true)
  })

  test('without async the request waits for a slow engine and answers 200 succeeded', async () => {
    const { engine, release, started } = gatedEngine()
    const t = await makeTestApp({ engine })
    let settled = false
    const pending = extract(t).then((response) => {
      settled = true
      return response
    })
    await started
    await Bun.sleep(50)
    expect(settled).toBe(false)
    release()
    const response = await pending
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('succeeded')
    expect(response.body.job.result).toEqual({ invoice_number: 'late invoice_number', total: '9.99' })
  })

  test('an async job whose engine throws ExtractionError → 202 queued, later GET shows failed with that code', async () => {
    const t = await makeTestApp({ engine: throwingEngine(new ExtractionError('engine_unavailable', 'The model server is down')) })
    const response = await extract(t, INLINE, undefined, { query: '?async=true' })
    expect(response.status).toBe(202)
    expect(response.body.job.status).toBe('queued')
    const done = await waitForStatus(t, response.body.job.id, ['succeeded', 'failed'])
    expect(done.status).toBe('failed')
    expect(done.error).toEqual({ code: 'engine_unavailable', message: 'The model server is down' })
    expect(done.result).toBeNull()
    expect(done.completed_at).toMatch(ISO_MS)
  })

  test('?async=false behaves as sync: 200 succeeded', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await extract(t, INLINE, undefined, { query: '?async=false' })
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('succeeded')
  })

  test('?async=yes → 400 validation_failed naming the async parameter, nothing stored', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await extract(t, INLINE, undefined, { query: '?async=yes' })
    expectValidation(response, ['query:/async'])
    await expectNoJobs(t)
  })
})

describe('GET /api/v1/jobs and GET /api/v1/jobs/:id', () => {
  async function makeJobs(t: TestApp, count: number, key?: string): Promise<string[]> {
    const ids: string[] = []
    for (let i = 0; i < count; i++) {
      const job = await extracted(t, INLINE, { content: `Invoice No.: INV-${i}\n`, name: `doc-${i}.txt` }, key)
      ids.push(job.id)
    }
    return ids
  }

  test('lists newest first with has_more false when everything fits', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const ids = await makeJobs(t, 3)
    const list = await t.call('GET', '/api/v1/jobs')
    expect(list.status).toBe(200)
    expect(Object.keys(list.body).sort()).toEqual(['has_more', 'jobs'])
    expect(list.body.has_more).toBe(false)
    expect(list.body.jobs.map((job: { id: string }) => job.id)).toEqual([...ids].reverse())
    expect(list.body.jobs.map((job: { file: { name: string } }) => job.file.name)).toEqual(['doc-2.txt', 'doc-1.txt', 'doc-0.txt'])
    for (const job of list.body.jobs) expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body).toEqual({ job })
  })

  test('limit defaults to 20 with has_more true when there are 21 jobs; limit=100 returns all 21; limit=1 returns the newest', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const ids = (await makeJobs(t, 21)).reverse()
    const first = await t.call('GET', '/api/v1/jobs')
    expect(first.status).toBe(200)
    expect(first.body.jobs.map((job: { id: string }) => job.id)).toEqual(ids.slice(0, 20))
    expect(first.body.has_more).toBe(true)
    const all = await t.call('GET', '/api/v1/jobs?limit=100')
    expect(all.body.jobs.map((job: { id: string }) => job.id)).toEqual(ids)
    expect(all.body.has_more).toBe(false)
    const exact = await t.call('GET', '/api/v1/jobs?limit=21')
    expect(exact.body.jobs).toHaveLength(21)
    expect(exact.body.has_more).toBe(false)
    const one = await t.call('GET', '/api/v1/jobs?limit=1')
    expect(one.body.jobs.map((job: { id: string }) => job.id)).toEqual([ids[0]])
    expect(one.body.has_more).toBe(true)
  })

  test('status and schema_id filter the list, each alone, together and with paging (D70)', async () => {
    const engine = fakeEngine((input) => {
      if (input.document.pages[0]!.includes('FAIL')) throw new ExtractionError('corrupt_document', 'broken')
      return { values: {}, meta: {} }
    })
    const t = await makeTestApp({ engine })
    const schema = await createSchema(t, { name: 'S', fields: [field('total')] })
    const ok1 = await extracted(t, { document_type: 'invoice', schema_id: schema.id }, { content: 'fine one' })
    const failed1 = await extracted(t, { document_type: 'invoice', schema_id: schema.id }, { content: 'FAIL one' })
    const ok2 = await extracted(t, INLINE, { content: 'fine two' })
    const failed2 = await extracted(t, INLINE, { content: 'FAIL two' })
    const ids = async (query: string, key?: string) => {
      const response = await t.call('GET', `/api/v1/jobs${query}`, { key })
      expect(response.status).toBe(200)
      return { ids: response.body.jobs.map((job: { id: string }) => job.id), has_more: response.body.has_more }
    }
    expect(await ids('?status=failed')).toEqual({ ids: [failed2.id, failed1.id], has_more: false })
    expect(await ids('?status=succeeded')).toEqual({ ids: [ok2.id, ok1.id], has_more: false })
    expect(await ids('?status=queued')).toEqual({ ids: [], has_more: false })
    expect(await ids(`?schema_id=${schema.id}`)).toEqual({ ids: [failed1.id, ok1.id], has_more: false })
    expect(await ids(`?schema_id=${schema.id}&status=succeeded`)).toEqual({ ids: [ok1.id], has_more: false })
    expect(await ids('?status=failed&limit=1')).toEqual({ ids: [failed2.id], has_more: true })
    expect(await ids(`?status=failed&limit=1&starting_after=${failed2.id}`)).toEqual({ ids: [failed1.id], has_more: false })
    // Another account's schema ID, or one that does not exist, matches none of the caller's jobs.
    expect(await ids(`?schema_id=${schema.id}`, t.keyB.key)).toEqual({ ids: [], has_more: false })
    expect(await ids('?schema_id=sch_nope')).toEqual({ ids: [], has_more: false })
  })

  test.each(['done', 'FAILED', '', 'queued,failed'])('status=%p → 400 validation_failed naming status', async (status) => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await t.call('GET', `/api/v1/jobs?status=${encodeURIComponent(status)}`)
    expectValidation(response, ['query:/status'])
  })

  test.each(['0', '101', 'abc', '1.5', '-1', '', '1e1', ' 5'])('limit=%p → 400 validation_failed naming limit', async (limit) => {
    const t = await makeTestApp({ engine: fakeEngine() })
    await makeJobs(t, 1)
    const response = await t.call('GET', `/api/v1/jobs?limit=${encodeURIComponent(limit)}`)
    expectValidation(response, ['query:/limit'])
  })

  test('starting_after pages through 5 jobs with limit 2 without gaps or repeats', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const ids = (await makeJobs(t, 5)).reverse()
    const seen: string[] = []
    const hasMore: boolean[] = []
    let cursor: string | undefined
    for (let page = 0; page < 5; page++) {
      const query = cursor ? `?limit=2&starting_after=${cursor}` : '?limit=2'
      const response = await t.call('GET', `/api/v1/jobs${query}`)
      expect(response.status).toBe(200)
      const pageIds = response.body.jobs.map((job: { id: string }) => job.id)
      seen.push(...pageIds)
      hasMore.push(response.body.has_more)
      if (!response.body.has_more) break
      cursor = pageIds.at(-1)
    }
    expect(seen).toEqual(ids)
    expect(hasMore).toEqual([true, true, false])
    const afterLast = await t.call('GET', `/api/v1/jobs?limit=2&starting_after=${ids[4]}`)
    expect(afterLast.body).toEqual({ jobs: [], has_more: false })
  })

  test("starting_after of an unknown job ID, another account's job, a schema ID or garbage → 400 naming starting_after", async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    await makeJobs(t, 2)
    const [bJob] = await makeJobs(t, 1, t.keyB.key)
    const schema = await createSchema(t)
    for (const cursor of [newId('job'), bJob!, schema.id, 'garbage', 'job_']) {
      const response = await t.call('GET', `/api/v1/jobs?starting_after=${encodeURIComponent(cursor)}`)
      expectValidation(response, ['query:/starting_after'])
    }
  })

  test("account isolation: B gets 404 for A's job, B's list is empty, A still sees it", async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const [id] = await makeJobs(t, 1)
    const asB = await t.call('GET', `/api/v1/jobs/${id}`, { key: t.keyB.key })
    expectEnvelope(asB, 404, 'not_found')
    expect(asB.text).not.toContain('invoice.txt')
    await expectNoJobs(t, t.keyB.key)
    const asA = await t.call('GET', `/api/v1/jobs/${id}`)
    expect(asA.status).toBe(200)
    expect(asA.body.job.id).toBe(id)
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs).toHaveLength(1)
  })

  test.each([
    ['an unknown job ID', () => newId('job')],
    ['a schema ID', () => newId('sch')],
    ['garbage', () => 'not-an-id'],
    ['an over-long ID', () => `job_${'a'.repeat(500)}`],
  ])('GET /api/v1/jobs/:id with %s → 404 not_found', async (_, id) => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const response = await t.call('GET', `/api/v1/jobs/${encodeURIComponent(id())}`)
    expectEnvelope(response, 404, 'not_found')
  })
})

describe('uploaded files are deleted when the job ends', () => {
  test('keepFileMs 0: the file of a succeeded job and of a failed job is no longer stored', async () => {
    const ok = await makeTestApp({ engine: fakeEngine(), keepFileMs: 0 })
    const done = await extracted(ok)
    expect(done.status).toBe('succeeded')
    expect(await storedFileIds(ok, [done.id])).toEqual([])

    const failing = await makeTestApp({ engine: throwingEngine(new ExtractionError('engine_timeout', 'slow')), keepFileMs: 0 })
    const failed = await extracted(failing)
    expect(failed.status).toBe('failed')
    expect(await storedFileIds(failing, [failed.id])).toEqual([])
  })

  test('keepFileMs 0 with async: the file is stored while the job runs and deleted once it succeeds', async () => {
    const { engine, release, started } = gatedEngine()
    const t = await makeTestApp({ engine, keepFileMs: 0 })
    const response = await extract(t, INLINE, undefined, { query: '?async=true' })
    const id = response.body.job.id
    await started
    expect(await storedFileIds(t, [id])).toEqual([id])
    release()
    await waitForStatus(t, id, ['succeeded', 'failed'])
    expect(await storedFileIds(t, [id])).toEqual([])
  })

  test('keepFileMs > 0: the file is kept after the job ends', async () => {
    const t = await makeTestApp({ engine: fakeEngine(), keepFileMs: 60_000 })
    const job = await extracted(t)
    expect(job.status).toBe('succeeded')
    expect(await storedFileIds(t, [job.id])).toEqual([job.id])
  })
})

describe('authentication (D26)', () => {
  test('no key → 401 Invalid API key on POST /extract, GET /jobs and GET /jobs/:id; nothing stored', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine })
    const job = await extracted(t)
    const post = await extract(t, INLINE, undefined, { key: null })
    expectEnvelope(post, 401, 'invalid_api_key', 'Invalid API key')
    expectEnvelope(await t.call('GET', '/api/v1/jobs', { key: null }), 401, 'invalid_api_key', 'Invalid API key')
    expectEnvelope(await t.call('GET', `/api/v1/jobs/${job.id}`, { key: null }), 401, 'invalid_api_key', 'Invalid API key')
    expect(engine.calls).toHaveLength(1)
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs.map((j: { id: string }) => j.id)).toEqual([job.id])
  })

  test('a bad key → 401 on POST /extract, GET /jobs and GET /jobs/:id', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const job = await extracted(t)
    const bad = 'xk_definitely_not_a_key'
    expectEnvelope(await extract(t, INLINE, undefined, { key: bad }), 401, 'invalid_api_key', 'Invalid API key')
    expectEnvelope(await t.call('GET', '/api/v1/jobs', { key: bad }), 401, 'invalid_api_key', 'Invalid API key')
    expectEnvelope(await t.call('GET', `/api/v1/jobs/${job.id}`, { key: bad }), 401, 'invalid_api_key', 'Invalid API key')
  })

  test('a bad key with a malformed multipart body is still 401, and so is a bad key with a JSON body', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const malformed = await t.call('POST', '/api/v1/extract', {
      key: 'bad-key',
      body: '--nope\r\nContent-Disposition: form-data; name="file"\r\n\r\nunterminated',
      headers: { 'content-type': 'multipart/form-data; boundary=elsewhere' },
    })
    expectEnvelope(malformed, 401, 'invalid_api_key', 'Invalid API key')
    const json = await t.call('POST', '/api/v1/extract', { key: 'bad-key', body: INLINE })
    expectEnvelope(json, 401, 'invalid_api_key', 'Invalid API key')
    const tooBig = await makeTestApp({ engine: fakeEngine(), maxUploadBytes: 10 })
    expectEnvelope(await extract(tooBig, INLINE, { content: 'x'.repeat(500_000) }, { key: null }), 401, 'invalid_api_key')
    await expectNoJobs(t)
  })
})

describe('scans and photos (D22, D67)', () => {
  const RECEIPT = ['HARBOUR BOOKS LTD', 'Receipt No: HB-5521', 'Date: 21/06/2024', 'TOTAL            18.50']
  const FIELDS = { document_type: 'invoice', fields: { invoice_number: 'Receipt number', date: 'Date', total: 'Total paid' } }

  test("a PNG photo is extracted: its media type, values, and each value's box on the page", async () => {
    const t = await makeTestApp()
    const png = toPng(await renderPage({ lines: RECEIPT }))
    const job = await extracted(t, FIELDS, { content: png, name: 'receipt.png' })
    expect(job.status).toBe('succeeded')
    expect(job.file).toMatchObject({ name: 'receipt.png', media_type: 'image/png' })
    expect(job.progress).toEqual({ pages_done: 1, pages_total: 1 })
    expect(job.result).toEqual({ invoice_number: 'HB-5521', date: '2024-06-21', total: '18.50' })
    const { total, invoice_number } = job.fields_meta
    expect(total).toMatchObject({ page: 1, snippet: 'TOTAL 18.50' })
    // The total is printed right of and below the receipt number.
    expect(total.bbox.left).toBeGreaterThan(invoice_number.bbox.left)
    expect(total.bbox.top).toBeGreaterThan(invoice_number.bbox.top)
    for (const box of [total.bbox, invoice_number.bbox]) for (const value of Object.values(box) as number[]) expect(value >= 0 && value <= 1).toBe(true)
    expect(total.confidence).toBeGreaterThan(0.5)
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body).toEqual({ job })
  })

  test('progress shows the pages read while the job runs, then stays with the finished job', async () => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const engine = fakeEngine(async (input) => {
      await released
      return { values: Object.fromEntries(input.fields.map(({ key }) => [key, null])), meta: {} }
    })
    const t = await makeTestApp({ engine })
    const pdf = await imagePdf([{ text: { lines: ['Page one of three'] } }, { text: { lines: ['Page two'] } }, { text: { lines: ['Page three'] } }])
    const queued = await extracted(t, INLINE, { content: pdf, name: 'three.pdf' }, undefined, '?async=true')
    expect(queued.progress).toBeNull()
    const deadline = Date.now() + 20_000
    let running = await waitForStatus(t, queued.id, ['running'])
    while (running.progress?.pages_done !== 3 && Date.now() < deadline) {
      await Bun.sleep(10)
      running = (await t.call('GET', `/api/v1/jobs/${queued.id}`)).body.job
    }
    expect(running).toMatchObject({ status: 'running', progress: { pages_done: 3, pages_total: 3 } })
    release()
    const done = await waitForStatus(t, queued.id, ['succeeded'])
    expect(done.progress).toEqual({ pages_done: 3, pages_total: 3 })
  }, 30_000) // OCR of three pages: the 20 s of its own deadline, not bun's 5 s, on a busy machine

  test('a document over --max-pages ends failed with too_many_pages, and its file is not kept', async () => {
    const t = await makeTestApp({ readLimits: { ...DEFAULT_READ_LIMITS, maxPages: 2 } })
    const pdf = await imagePdf([{ text: { lines: ['one'] } }, { text: { lines: ['two'] } }, { text: { lines: ['three'] } }])
    const job = await extracted(t, INLINE, { content: pdf, name: 'long.pdf' })
    expect(job).toMatchObject({
      status: 'failed',
      result: null,
      fields_meta: null,
      error: { code: 'too_many_pages', message: 'The document has 3 pages; at most 2 are read (--max-pages).' },
    })
    expect(await storedFileIds(t, [job.id])).toEqual([])
  })

  test('a page image over the pixel limit ends failed with image_too_large', async () => {
    const t = await makeTestApp({ readLimits: { ...DEFAULT_READ_LIMITS, maxPagePixels: 50_000 } })
    const jpeg = toJpeg(await renderPage({ lines: RECEIPT }))
    const job = await extracted(t, INLINE, { content: jpeg, name: 'photo.jpg' })
    expect(job.status).toBe('failed')
    expect(job.error.code).toBe('image_too_large')
    expect(job.error.message).toMatch(
      /^A page of the document is \d+ × \d+ pixels \(\d+(\.\d)? MP\); at most 0\.1 MP are read per page \(--max-page-megapixels\)\.$/,
    )
  })
})

describe('job lifecycle: cancel and delete (D71)', () => {
  /** An engine that holds every extraction until released, and says when one has started. */
  function heldEngine() {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let started!: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    const engine = fakeEngine(async (input) => {
      started()
      await Promise.race([released, new Promise((_, reject) => input.signal?.addEventListener('abort', () => reject(input.signal!.reason)))])
      return { values: Object.fromEntries(input.fields.map(({ key }) => [key, 'late'])), meta: {} }
    })
    return { engine, release, running }
  }

  test('a queued job is canceled at once: 200 {job} canceled, never run, its file deleted', async () => {
    const engine = fakeEngine()
    const t = await makeTestApp({ engine, paused: true })
    const queued = await extracted(t, INLINE, undefined, undefined, '?async=true')
    const response = await t.call('POST', `/api/v1/jobs/${queued.id}/cancel`)
    expect(response.status).toBe(200)
    expect(response.body.job).toMatchObject({ id: queued.id, status: 'canceled', result: null, fields_meta: null, error: null })
    expect(response.body.job.completed_at).toMatch(ISO_MS)
    expect((await t.call('GET', `/api/v1/jobs/${queued.id}`)).body).toEqual(response.body)
    expect(await storedFileIds(t, [queued.id])).toEqual([])
    expect(engine.calls).toHaveLength(0)
  })

  test("a running job is stopped: it ends canceled and the engine's late answer is never stored", async () => {
    const { engine, release, running } = heldEngine()
    const t = await makeTestApp({ engine })
    const job = await extracted(t, INLINE, undefined, undefined, '?async=true')
    await running
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job.status).toBe('running')
    const response = await t.call('POST', `/api/v1/jobs/${job.id}/cancel`)
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('canceled')
    release()
    await Bun.sleep(20)
    const stored = (await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job
    expect(stored).toMatchObject({ status: 'canceled', result: null, error: null })
    expect((await t.call('GET', '/api/v1/jobs?status=canceled')).body.jobs.map((j: { id: string }) => j.id)).toEqual([job.id])
  })

  test('canceling an ended job → 409 job_finished, and the job is unchanged', async () => {
    const t = await makeTestApp({ engine: fakeEngine() })
    const job = await extracted(t)
    const response = await t.call('POST', `/api/v1/jobs/${job.id}/cancel`)
    expectEnvelope(response, 409, 'job_finished')
    expect(response.body.error).toBe('The job has already ended (succeeded); only queued or running jobs can be canceled')
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job).toEqual(job)
  })

  test('deleting an ended job → 200 {ok: true}; then it is 404 and gone from the list, with its kept file', async () => {
    const t = await makeTestApp({ engine: fakeEngine(), keepFileMs: 60_000 })
    const job = await extracted(t)
    const other = await extracted(t)
    expect(await storedFileIds(t, [job.id])).toEqual([job.id])
    const response = await t.call('DELETE', `/api/v1/jobs/${job.id}`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ ok: true })
    expectEnvelope(await t.call('GET', `/api/v1/jobs/${job.id}`), 404, 'not_found')
    expectEnvelope(await t.call('DELETE', `/api/v1/jobs/${job.id}`), 404, 'not_found')
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs.map((j: { id: string }) => j.id)).toEqual([other.id])
    expect(await storedFileIds(t, [job.id])).toEqual([])
  })

  test('deleting a queued job → 409 job_not_finished; after cancel it can be deleted', async () => {
    const t = await makeTestApp({ engine: fakeEngine(), paused: true })
    const queued = await extracted(t, INLINE, undefined, undefined, '?async=true')
    const refused = await t.call('DELETE', `/api/v1/jobs/${queued.id}`)
    expectEnvelope(refused, 409, 'job_not_finished')
    expect(refused.body.error).toBe('The job is queued; cancel it first, or wait until it ends, to delete it')
    expect(await storedFileIds(t, [queued.id])).toEqual([queued.id])
    expect((await t.call('POST', `/api/v1/jobs/${queued.id}/cancel`)).status).toBe(200)
    expect((await t.call('DELETE', `/api/v1/jobs/${queued.id}`)).status).toBe(200)
  })

  test("another account's job cannot be canceled or deleted: 404 each, and it is unchanged", async () => {
    const t = await makeTestApp({ engine: fakeEngine(), paused: true })
    const queued = await extracted(t, INLINE, undefined, undefined, '?async=true')
    expectEnvelope(await t.call('POST', `/api/v1/jobs/${queued.id}/cancel`, { key: t.keyB.key }), 404, 'not_found')
    expectEnvelope(await t.call('DELETE', `/api/v1/jobs/${queued.id}`, { key: t.keyB.key }), 404, 'not_found')
    expectEnvelope(await t.call('POST', '/api/v1/jobs/job_nope/cancel'), 404, 'not_found')
    expect((await t.call('GET', `/api/v1/jobs/${queued.id}`)).body.job.status).toBe('queued')
  })
})

describe('GET /api/v1/jobs/:id/file (D72)', () => {
  test('a kept document downloads as uploaded, with its detected media type and original name', async () => {
    const t = await makeTestApp({ engine: fakeEngine(), keepFileMs: 60_000 })
    const pdf = await makePdf(['Invoice No.: INV-9'])
    const job = await extracted(t, INLINE, { content: pdf, name: 'Rechnung März (final).pdf' })
    const response = await t.call('GET', `/api/v1/jobs/${job.id}/file`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Rechnung M_rz (final).pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz%20%28final%29.pdf`,
    )
    const bytes = new Uint8Array(
      await (
        await t.app.handle(new Request(`http://localhost/api/v1/jobs/${job.id}/file`, { headers: { authorization: `Bearer ${t.keyA.key}` } }))
      ).arrayBuffer(),
    )
    expect(sha256(bytes)).toBe(job.file.sha256)
  })

  test('a document is there while its job waits, and gone (404) once the job ended without retention', async () => {
    const t = await makeTestApp({ engine: fakeEngine(), paused: true })
    const queued = await extracted(t, INLINE, undefined, undefined, '?async=true')
    const waiting = await t.call('GET', `/api/v1/jobs/${queued.id}/file`)
    expect(waiting.status).toBe(200)
    expect(waiting.text).toBe(INVOICE_TEXT)
    expect(waiting.headers.get('content-type')).toBe('text/plain')
    const done = await makeTestApp({ engine: fakeEngine() })
    const finished = await extracted(done)
    const gone = await done.call('GET', `/api/v1/jobs/${finished.id}/file`)
    expectEnvelope(gone, 404, 'not_found')
    expect(gone.body.error).toBe('Stored document of the job not found')
  })

  test("another account's job, or an unknown one → 404 Job not found", async () => {
    const t = await makeTestApp({ engine: fakeEngine(), paused: true })
    const queued = await extracted(t, INLINE, undefined, undefined, '?async=true')
    const other = await t.call('GET', `/api/v1/jobs/${queued.id}/file`, { key: t.keyB.key })
    expectEnvelope(other, 404, 'not_found')
    expect(other.body.error).toBe('Job not found')
    expect(other.text).not.toContain('Invoice')
    expectEnvelope(await t.call('GET', '/api/v1/jobs/job_nope/file'), 404, 'not_found')
  })
})
