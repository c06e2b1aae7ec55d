/**
 * Documents of an unknown type, and several in one file, through the API (issue 34, D250–D253):
 * POST /classify answers a file's type (the catalog's and an operator's own, null for none) and
 * refuses what /extract refuses; `"document_type": "auto"` extracts a document as the type it is
 * found to be, or fails `unknown_document_type`; `"split": true` makes one job per document found,
 * each an ordinary job of the account through its whole life.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { expectEnvelope, expectValidation, makeTestApp, type TestApp } from '../../helpers/app'
import { DELIVERY_NOTE_EN, type SampleDocument, SAMPLE_DOCUMENTS, sample, sampleText, samplesPdf } from '../../helpers/documents'
import { tempDir } from '../../helpers/process'
import { startReceiver } from '../../helpers/webhooks'
import { eventually } from '../../helpers/eventually'

// Whole PDFs of several documents, read and extracted: seconds each on a busy machine.
setDefaultTimeout(60_000)

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

function fileForm(content: Uint8Array | string, name: string, extract?: Record<string, unknown>): FormData {
  const form = new FormData()
  form.set('file', new File([content], name))
  if (extract) form.set('extract', JSON.stringify(extract))
  return form
}

const textOf = (document: SampleDocument) => fileForm(sampleText(document), `${document.name}.txt`)

async function classify(t: TestApp, form: FormData) {
  return t.call('POST', '/api/v1/classify', { body: form })
}

/** A classification answer: exactly its four members, the best candidate first and equal to the answer. */
function expectClassification(body: Record<string, any>, type: string | null, pages: number) {
  expect(Object.keys(body).sort()).toEqual(['candidates', 'confidence', 'document_type', 'pages'])
  expect(body.document_type).toBe(type)
  expect(body.pages).toBe(pages)
  expect(body.confidence).toBeGreaterThan(0)
  expect(body.confidence).toBeLessThanOrEqual(1)
  for (const candidate of body.candidates) expect(Object.keys(candidate).sort()).toEqual(['confidence', 'document_type'])
  if (type !== null) expect(body.candidates[0]).toEqual({ document_type: type, confidence: body.confidence })
}

describe('POST /api/v1/classify', () => {
  test('answers each catalog type of documents in three languages or more, as text and as PDF', async () => {
    const t = await makeTestApp()
    const typed = SAMPLE_DOCUMENTS.filter((document) => document.type !== null)
    const languages = new Map<string, Set<string>>()
    for (const document of typed) {
      const response = await classify(t, textOf(document))
      expect(response.status).toBe(200)
      expectClassification(response.body, document.type, document.pages.length)
      languages.set(document.type!, (languages.get(document.type!) ?? new Set()).add(document.language))
    }
    expect([...languages.keys()].sort()).toEqual(t.catalog.slugs())
    for (const seen of languages.values()) expect(seen.size).toBeGreaterThanOrEqual(3)
    const contract = sample('contract-en-three-pages')
    const pdf = await classify(t, fileForm(await samplesPdf([contract]), 'contract.pdf'))
    expect(pdf.status).toBe(200)
    expectClassification(pdf.body, 'contract', 3)
  }, 60_000)

  test('answers null for a document of no catalog type, none of the candidates likelier than none', async () => {
    const t = await makeTestApp()
    for (const name of ['letter-en', 'recipe-fr', 'minutes-de']) {
      const response = await classify(t, textOf(sample(name)))
      expect(response.status).toBe(200)
      expectClassification(response.body, null, 1)
      for (const candidate of response.body.candidates) expect(candidate.confidence).toBeLessThan(response.body.confidence)
    }
  })

  test("answers the operator's own type from --catalog-dir", async () => {
    const dir = tempDir('extractd-classify-api-')
    cleanups.push(() => dir.remove())
    mkdirSync(join(dir.path, 'types'))
    writeFileSync(join(dir.path, 'types', 'delivery_note.json'), JSON.stringify(DELIVERY_NOTE_TYPE))
    const t = await makeTestApp({ catalog: loadCatalog({ extraDir: join(dir.path, 'types') }) })
    const response = await classify(t, fileForm(DELIVERY_NOTE, 'note.txt'))
    expect(response.status).toBe(200)
    expectClassification(response.body, 'delivery_note', 1)
    // Without the operator's type, the same note is answered among the built-in types only (it is
    // nearest a purchase order): delivery_note is neither the answer nor a candidate.
    const builtIn = await makeTestApp()
    const without = await classify(builtIn, fileForm(DELIVERY_NOTE, 'note.txt'))
    expect(without.status).toBe(200)
    expectClassification(without.body, without.body.document_type, 1)
    expect([null, ...builtIn.catalog.slugs()]).toContain(without.body.document_type)
    const candidates = without.body.candidates.map((candidate: { document_type: string }) => candidate.document_type)
    expect(candidates.length).toBeGreaterThan(0)
    for (const candidate of candidates) expect(builtIn.catalog.slugs()).toContain(candidate)
    expect(builtIn.catalog.slugs()).not.toContain('delivery_note')
  })

  test('tells the page count of a long file while reading only its first pages', async () => {
    const t = await makeTestApp()
    const documents = ['invoice-en', 'contract-en-three-pages', 'payslip-de', 'lab-report-en', 'passport-fr'].map(sample)
    const response = await classify(t, fileForm(await samplesPdf(documents), 'stack.pdf'))
    expect(response.status).toBe(200)
    expectClassification(response.body, 'invoice', 7)
  })

  test('refuses what /extract refuses, in the same envelope, and makes no job', async () => {
    const t = await makeTestApp({ maxUploadBytes: 1000 })
    expectValidation(await t.call('POST', '/api/v1/classify', { body: new FormData() }), ['/file'])
    expectValidation(await classify(t, fileForm('', 'empty.txt')), ['/file'])
    const unknown = await classify(t, fileForm(new Uint8Array([0, 1, 2, 3, 0xff, 0xfe, 0, 9]), 'blob.bin'))
    expectEnvelope(unknown, 415, 'unsupported_media_type')
    expect(unknown.body.accepted_types).toContain('application/pdf')
    expectEnvelope(await classify(t, fileForm('x'.repeat(1001), 'big.txt')), 413, 'payload_too_large')
    expectEnvelope(await t.call('POST', '/api/v1/classify', { body: { file: 'x' } }), 415, 'unsupported_media_type')
    const extra = fileForm('Invoice', 'a.txt', { document_type: 'invoice' })
    expectValidation(await classify(t, extra), ['/extract'])
    const broken = await classify(t, fileForm('%PDF-1.7\n1 0 obj <<>>\n', 'broken.pdf'))
    expectEnvelope(broken, 422, 'unreadable_document')
    expect(broken.body.reason).toBe('corrupt_document')
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs).toEqual([])
  })
})

describe('"document_type": "auto"', () => {
  test("extracts the document as the type it is found to be, with that type's suggested fields, and records how sure", async () => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/extract', { body: fileForm(sampleText(sample('invoice-de')), 'r.txt', { document_type: 'auto' }) })
    expect(response.status).toBe(200)
    const { job } = response.body
    expect(job.status).toBe('succeeded')
    expect(job.document_type).toBe('invoice')
    const suggested = (await t.call('GET', '/api/v1/fields?type=invoice')).body.suggested_keys
    expect(job.fields.map((field: { key: string }) => field.key)).toEqual(suggested)
    expect(Object.keys(job.result)).toEqual(suggested)
    expect(job.classification.candidates[0]).toEqual({ document_type: 'invoice', confidence: job.classification.confidence })
    expect(Object.keys(job.classification).sort()).toEqual(['candidates', 'confidence'])
    expect(job).not.toContainKey('documents')
    expect(job).not.toContainKey('split_from')
    // The same document sent with its type answers the same values.
    const named = await t.call('POST', '/api/v1/extract', { body: fileForm(sampleText(sample('invoice-de')), 'r.txt', { document_type: 'invoice' }) })
    expect(named.body.job.result).toEqual(job.result)
  })

  test('reads the fields given inline as the type found', async () => {
    const t = await makeTestApp()
    const extract = { document_type: 'auto', fields: { employee: 'The employee paid', net_pay: { description: 'Net pay', type: 'amount' } } }
    const { job } = (await t.call('POST', '/api/v1/extract', { body: fileForm(sampleText(sample('payslip-en')), 'p.txt', extract) })).body
    expect(job.status).toBe('succeeded')
    expect(job.document_type).toBe('payslip')
    expect(job.fields.map((field: { key: string; type: string }) => [field.key, field.type])).toEqual([
      ['employee', expect.any(String)],
      ['net_pay', 'amount'],
    ])
    expect(Object.keys(job.result)).toEqual(['employee', 'net_pay'])
  })

  test('fails unknown_document_type for a document of no catalog type, not a guess', async () => {
    const t = await makeTestApp()
    const { job } = (await t.call('POST', '/api/v1/extract', { body: fileForm(sampleText(sample('letter-en')), 'l.txt', { document_type: 'auto' }) })).body
    expect(job.status).toBe('failed')
    expect(job.error.code).toBe('unknown_document_type')
    expect(job.error.message).toStartWith("The document is of none of the catalog's types")
    expect(job.document_type).toBe('auto')
    expect(job.result).toBeNull()
    expect(job.classification.confidence).toBeGreaterThan(0)
  })

  test('a request as before answers as before: no classification, documents or split_from', async () => {
    const t = await makeTestApp()
    const { job } = (await t.call('POST', '/api/v1/extract', { body: fileForm(sampleText(sample('invoice-en')), 'i.txt', { document_type: 'invoice' }) })).body
    expect(job.status).toBe('succeeded')
    for (const key of ['classification', 'documents', 'split_from']) expect(job).not.toContainKey(key)
    const { job: split } = (
      await t.call('POST', '/api/v1/extract', { body: fileForm(sampleText(sample('invoice-en')), 'i.txt', { document_type: 'invoice', split: false }) })
    ).body
    expect(Object.keys(split)).toEqual(Object.keys(job))
  })
})

/** The pages each document of a bundle covers, in order. */
function ranges(documents: readonly SampleDocument[]) {
  let page = 1
  return documents.map((document) => {
    const range = [page, page + document.pages.length - 1]
    page += document.pages.length
    return range
  })
}

describe('"split": true', () => {
  test('lists two documents in page order, each an ordinary job of the account with its own pages and type', async () => {
    const t = await makeTestApp()
    const documents = [sample('invoice-en'), sample('contract-en-three-pages')]
    const response = await t.call('POST', '/api/v1/extract', {
      body: fileForm(await samplesPdf(documents), 'stack.pdf', { document_type: 'auto', split: true }),
    })
    expect(response.status).toBe(200)
    const { job } = response.body
    expect(job.status).toBe('succeeded')
    expect(job.result).toBeNull()
    expect(job.documents.map((found: any) => [found.first_page, found.last_page, found.document_type])).toEqual([
      [1, 1, 'invoice'],
      [2, 4, 'contract'],
    ])
    const [invoice, contract] = await Promise.all(job.documents.map(async (found: any) => (await t.call('GET', `/api/v1/jobs/${found.job_id}`)).body.job))
    expect(invoice.status).toBe('succeeded')
    expect(invoice.document_type).toBe('invoice')
    expect(invoice.split_from).toEqual({ job_id: job.id, first_page: 1, last_page: 1 })
    expect(invoice.result.invoice_number).toBeTruthy()
    expect(invoice.file).toEqual(job.file)
    expect(contract.split_from).toEqual({ job_id: job.id, first_page: 2, last_page: 4 })
    // Pages count within the document: the contract's are 1 to 3.
    const pages = Object.values(contract.fields_meta)
      .map((meta: any) => meta.page)
      .filter((page) => page !== null)
    expect(pages.length).toBeGreaterThan(0)
    for (const page of pages) expect(page).toBeLessThanOrEqual(3)
    expect(contract.progress).toEqual({ pages_done: 3, pages_total: 3 })
    // Both are the account's jobs, listed with the one that split them; another account sees none of them.
    const listed = (await t.call('GET', '/api/v1/jobs')).body.jobs.map((listedJob: { id: string }) => listedJob.id)
    expect(listed.sort()).toEqual([job.id, invoice.id, contract.id].sort())
    expect((await t.call('GET', `/api/v1/jobs/${invoice.id}`, { key: t.keyB.key })).status).toBe(404)
  })

  test('reads many documents of a named type with the fields given inline, each in its own job as if sent alone', async () => {
    const t = await makeTestApp()
    const documents = ['invoice-en', 'invoice-de', 'invoice-nl-two-pages', 'invoice-fr', 'invoice-pl'].map(sample)
    const extract = { document_type: 'invoice', split: true, fields: { invoice_number: 'Invoice number', total: 'Total due' } }
    const { job } = (await t.call('POST', '/api/v1/extract', { body: fileForm(await samplesPdf(documents), 'invoices.pdf', extract) })).body
    expect(job.status).toBe('succeeded')
    expect(job.documents.map((found: any) => [found.first_page, found.last_page])).toEqual(ranges(documents))
    for (const [index, found] of job.documents.entries()) {
      expect(found.document_type).toBe('invoice')
      const { job: one } = (await t.call('GET', `/api/v1/jobs/${found.job_id}`)).body
      expect(one.status).toBe('succeeded')
      expect(Object.keys(one.result)).toEqual(['invoice_number', 'total'])
      expect(one).not.toContainKey('classification')
      const alone = { document_type: 'invoice', fields: extract.fields }
      const { job: single } = (await t.call('POST', '/api/v1/extract', { body: fileForm(await samplesPdf([documents[index]!]), 'one.pdf', alone) })).body
      expect(one.result).toEqual(single.result)
      expect(one.fields_meta).toEqual(single.fields_meta)
    }
  })

  test("a found document's job says whether it needs a person, and its review teaches the sender's layout (D255)", async () => {
    const t = await makeTestApp()
    const documents = [sample('invoice-en'), sample('contract-en-three-pages')]
    const extract = { document_type: 'auto', split: true }
    const { job } = (await t.call('POST', '/api/v1/extract', { body: fileForm(await samplesPdf(documents), 'stack.pdf', extract) })).body
    expect(job.status).toBe('succeeded')
    // The job that split holds no values: its documents' jobs each say whether they need a person.
    expect(job.needs_review).toBe(false)
    const invoice = (await t.call('GET', `/api/v1/jobs/${job.documents[0].job_id}`)).body.job
    expect(typeof invoice.needs_review).toBe('boolean')
    expect(invoice.needs_review).toBe(Object.values<{ needs_review: boolean }>(invoice.fields_meta).some((meta) => meta.needs_review))
    // A person writes the seller as their books do; the invoice sent alone is then read with what they taught.
    const review = await t.call('POST', `/api/v1/jobs/${invoice.id}/review`, { body: { fields: { company_name: 'HPD STATIONERS' } } })
    expect(review.status).toBe(200)
    const { layouts } = (await t.call('GET', '/api/v1/layouts')).body
    expect(layouts).toHaveLength(1)
    expect(layouts[0].job_id).toBe(invoice.id)
    const alone = { document_type: 'invoice' }
    const { job: again } = (await t.call('POST', '/api/v1/extract', { body: fileForm(await samplesPdf([documents[0]!]), 'one.pdf', alone) })).body
    expect(again.result.company_name).toBe('HPD STATIONERS')
    expect(again.fields_meta.company_name.learned).toEqual({ layout: layouts[0].id, job: invoice.id, how: 'constant' })
  })

  test("each found document's job is told by webhook, and is deleted on its own", async () => {
    const receiver = startReceiver()
    cleanups.push(() => receiver.stop())
    const t = await makeTestApp({ webhooks: { allowPrivate: true, retryDelayMs: 20, timeoutMs: 2000 } })
    cleanups.push(() => t.deliveries?.stop(0))
    const created = await t.call('POST', '/api/v1/webhooks', { body: { url: `${receiver.url}/hooks`, events: ['job.succeeded', 'job.failed'] } })
    expect(created.status).toBe(201)
    const documents = [sample('payslip-de'), sample('letter-en'), sample('passport-en')]
    const { job } = (
      await t.call('POST', '/api/v1/extract', { body: fileForm(await samplesPdf(documents), 'post.pdf', { document_type: 'auto', split: true }) })
    ).body
    expect(job.documents.map((found: any) => found.document_type)).toEqual(['payslip', null, 'passport'])
    const ids = job.documents.map((found: any) => found.job_id)
    const letter = (await t.call('GET', `/api/v1/jobs/${ids[1]}`)).body.job
    expect(letter.status).toBe('failed')
    expect(letter.error.code).toBe('unknown_document_type')

    await eventually(() => receiver.received.length === 4)
    const told = receiver.received.map((request) => JSON.parse(request.body))
    expect(told.map((event) => `${event.data.job.id} ${event.type}`).sort()).toEqual(
      [`${ids[0]} job.succeeded`, `${ids[1]} job.failed`, `${ids[2]} job.succeeded`, `${job.id} job.succeeded`].sort(),
    )
    const payslip = told.find((event) => event.data.job.id === ids[0])
    expect(payslip.data.job).toEqual((await t.call('GET', `/api/v1/jobs/${ids[0]}`)).body.job)
    expect(payslip.data.job.split_from).toEqual({ job_id: job.id, first_page: 1, last_page: 1 })

    expect((await t.call('DELETE', `/api/v1/jobs/${ids[0]}`)).body).toEqual({ ok: true })
    expectEnvelope(await t.call('GET', `/api/v1/jobs/${ids[0]}`), 404, 'not_found')
    expect((await t.call('GET', `/api/v1/jobs/${ids[2]}`)).status).toBe(200)
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job.documents).toEqual(job.documents)
  })
})

const DELIVERY_NOTE_TYPE = {
  slug: 'delivery_note',
  label: 'Delivery Note',
  description: 'Delivery notes and packing slips sent with goods, listing what was delivered.',
  fields: [
    { key: 'delivery_note_number', label: 'Delivery Note Number', description: 'The number of the delivery note.', required: true },
    { key: 'order_number', label: 'Order Number', description: 'The order it delivers.', required: false },
    { key: 'delivery_date', label: 'Delivery Date', description: 'When the goods were delivered.', required: true },
  ],
}

const DELIVERY_NOTE = DELIVERY_NOTE_EN.join('\n')
