/**
 * POST /api/v1/jobs/{id}/region (D340): the words under a box drawn on a job's page, read as one
 * of its fields and typed as an answer is, from what the job kept of its reading; its errors.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import type { Engine } from '../../src/modules/extraction/engines/types'
import { builtinEngine } from '../../src/modules/extraction/engines/builtin'
import { ExtractionError } from '../../src/modules/extraction/errors'
import { expectEnvelope, expectValidation, makeTestApp, type TestApp } from '../helpers/app'

setDefaultTimeout(60_000)

const WIDTH = 595
const HEIGHT = 842
const SIZE = 11

/** Lines printed at (x, y from the top, in points): a made-up sender's order with German amounts and a dotted date. */
const LINES: [string, number, number][] = [
  ['Kontor Lindqvist GmbH', 50, 60],
  ['Beleg Nr. KL-55120', 50, 110],
  ['Datum 03.04.2026', 50, 130],
  ['Artikel', 50, 180],
  ['Menge', 300, 180],
  ['Betrag', 450, 180],
  ['Schreibpapier', 50, 200],
  ['4', 300, 200],
  ['1.234,50 €', 450, 200],
  ['Gesamtbetrag', 300, 260],
  ['1.234,50 €', 450, 260],
]

async function makeOrder(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([WIDTH, HEIGHT])
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const [text, x, top] of LINES) page.drawText(text, { x, y: HEIGHT - top, size: SIZE, font })
  return doc.save()
}

/** A box around what is printed at (x, top), `width` points wide, as fractions of the page. */
function around(x: number, top: number, width: number) {
  return { left: (x - 4) / WIDTH, top: (top - SIZE - 4) / HEIGHT, width: (width + 8) / WIDTH, height: (SIZE + 10) / HEIGHT }
}

const FIELDS = {
  total: { type: 'amount', description: 'Gesamtbetrag' },
  date: { type: 'date', description: 'Datum' },
  reference: { type: 'text', description: 'Beleg' },
  items: { type: 'table', description: 'Artikel', columns: [{ key: 'name' }, { key: 'qty', type: 'number' }, { key: 'amount', type: 'amount' }] },
  paid: { type: 'boolean', description: 'Bezahlt' },
}

async function extract(t: TestApp, file: File, fields: Record<string, unknown> = FIELDS) {
  const form = new FormData()
  form.set('file', file)
  form.set('extract', JSON.stringify({ document_type: 'invoice', fields }))
  const response = await t.call('POST', '/api/v1/extract', { body: form })
  if (response.status !== 200) throw new Error(`extract failed: ${response.status} ${response.text}`)
  return response.body.job
}

const region = (t: TestApp, id: string, body: unknown, key?: string) => t.call('POST', `/api/v1/jobs/${id}/region`, { body, key })

const pdf = async () => new File([await makeOrder()], 'order.pdf', { type: 'application/pdf' })

test('reads the words under a box as the field: an amount, a dotted date, a text, a table cell; typed as an answer is', async () => {
  const t = await makeTestApp()
  const job = await extract(t, await pdf())
  expect(job.status).toBe('succeeded')

  const total = await region(t, job.id, { key: 'total', page: 1, box: around(440, 260, 90) })
  expect(total.status).toBe(200)
  expect(Object.keys(total.body)).toEqual(['region'])
  expect(total.body.region.text).toBe('1.234,50 €')
  expect(total.body.region.value).toBe('1234.50')
  // The words found lie inside the box drawn.
  const box = around(440, 260, 90)
  const found = total.body.region.bbox
  expect(found.left).toBeGreaterThanOrEqual(box.left)
  expect(found.top).toBeGreaterThanOrEqual(box.top)
  expect(found.left + found.width).toBeLessThanOrEqual(box.left + box.width)
  expect(found.top + found.height).toBeLessThanOrEqual(box.top + box.height)

  const date = await region(t, job.id, { key: 'date', page: 1, box: around(45, 130, 120) })
  expect(date.body.region).toMatchObject({ text: 'Datum 03.04.2026', value: '2026-04-03' })
  // Two lines, read in order.
  const two = await region(t, job.id, { key: 'reference', page: 1, box: { ...around(45, 60, 200), height: 75 / HEIGHT } })
  expect(two.body.region).toMatchObject({ text: 'Kontor Lindqvist GmbH\nBeleg Nr. KL-55120', value: 'Kontor Lindqvist GmbH Beleg Nr. KL-55120' })
  const cell = await region(t, job.id, { key: 'items', column: 'amount', page: 1, box: around(440, 200, 90) })
  expect(cell.body.region).toMatchObject({ text: '1.234,50 €', value: '1234.50' })
  const qty = await region(t, job.id, { key: 'items', column: 'qty', page: 1, box: around(295, 200, 20) })
  expect(qty.body.region).toMatchObject({ text: '4', value: 4 })

  // Words that are no value of the type: the text, and no value. A box over blank paper: nothing.
  const notAmount = await region(t, job.id, { key: 'total', page: 1, box: around(45, 180, 60) })
  expect(notAmount.body.region).toMatchObject({ text: 'Artikel', value: null })
  const blank = await region(t, job.id, { key: 'total', page: 1, box: { left: 0.1, top: 0.8, width: 0.5, height: 0.1 } })
  expect(blank.status).toBe(200)
  expect(blank.body).toEqual({ region: { text: '', value: null, bbox: null } })

  // Nothing is stored: the job is as it was.
  const after = (await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job
  expect(after.reviewed_at).toBeNull()
  expect(after.result).toEqual(job.result)
})

test('an unknown key or column, a page the document lacks and a box off the page are 400, naming the path', async () => {
  const t = await makeTestApp()
  const job = await extract(t, await pdf())
  const box = around(440, 260, 90)
  expectValidation(await region(t, job.id, { key: 'nope', page: 1, box }), ['/key'])
  expectValidation(await region(t, job.id, { key: 'items', page: 1, box }), ['/column'])
  expectValidation(await region(t, job.id, { key: 'items', column: 'price', page: 1, box }), ['/column'])
  expectValidation(await region(t, job.id, { key: 'total', column: 'amount', page: 1, box }), ['/column'])
  expectValidation(await region(t, job.id, { key: 'total', page: 2, box }), ['/page'])
  expectValidation(await region(t, job.id, { key: 'total', page: 1, box: { left: 0.9, top: 0.1, width: 0.2, height: 0.1 } }), ['/box'])
  expectValidation(await region(t, job.id, { key: 'total', page: 1, box: { left: 0.1, top: 0.95, width: 0.2, height: 0.1 } }), ['/box'])
  expectEnvelope(await region(t, job.id, { key: 'total', page: 1, box: { ...box, width: 0 } }), 400, 'validation_failed')
  expectEnvelope(await region(t, job.id, { key: 'total', page: 0, box }), 400, 'validation_failed')
  expectEnvelope(await region(t, job.id, { key: 'total', page: 1 }), 400, 'validation_failed')
  expectEnvelope(await region(t, job.id, { key: 'total', page: 1, box, extra: true }), 400, 'validation_failed')
})

test("another account's job is 404; a job that did not succeed, or without word places, is 409", async () => {
  const failing: Engine = {
    name: 'builtin',
    async extract(input) {
      if (input.document.pages.some((page) => page.includes('FAIL'))) throw new ExtractionError('corrupt_document', 'broken')
      return builtinEngine.extract(input)
    },
  }
  const t = await makeTestApp({ engine: failing })
  const job = await extract(t, await pdf())
  const body = { key: 'total', page: 1, box: around(440, 260, 90) }
  expectEnvelope(await region(t, job.id, body, t.keyB.key), 404, 'not_found', 'Job not found')
  expectEnvelope(await region(t, 'job_01m8ekr4kb56vmk289pdzsr5fpx2p7', body), 404, 'not_found')
  const failed = await extract(t, new File(['FAIL\n'], 'broken.txt'))
  expect(failed.status).toBe('failed')
  expectEnvelope(await region(t, failed.id, body), 409, 'job_not_succeeded')
  const text = await extract(t, new File(['Gesamtbetrag 12,00 EUR\n'], 'order.txt'))
  expect(text.status).toBe('succeeded')
  expectEnvelope(
    await region(t, text.id, body),
    409,
    'words_not_kept',
    "The places of this job's words are not kept (a text, Markdown, HTML or DOCX document has none; a document read as more than 2 MiB is not kept): type the value instead",
  )
})
