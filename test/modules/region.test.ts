/**
 * POST /api/v1/jobs/{id}/region (D340): the words under a box drawn on a job's page, read as one
 * of its fields and typed as an answer is, from what the job kept of its reading; its errors.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { expectEnvelope, expectValidation, extractedJob, failingOnFail, makeTestApp, type TestApp } from '../helpers/app'
import { boxAround, FIRST_ORDER as ORDER, makeOrder, PAGE } from '../helpers/order'

setDefaultTimeout(60_000)

const FIELDS = {
  total: { type: 'amount', description: 'Gesamtbetrag' },
  date: { type: 'date', description: 'Datum' },
  reference: { type: 'text', description: 'Beleg' },
  items: { type: 'table', description: 'Artikel', columns: [{ key: 'name' }, { key: 'amount', type: 'amount' }] },
  paid: { type: 'boolean', description: 'Bezahlt' },
}

const extract = (t: TestApp, file: File, fields: Record<string, unknown> = FIELDS) => extractedJob(t, file, { document_type: 'invoice', fields })

const region = (t: TestApp, id: string, body: unknown, key?: string) => t.call('POST', `/api/v1/jobs/${id}/region`, { body, key })

const pdf = async () => new File([await makeOrder(ORDER)], 'order.pdf', { type: 'application/pdf' })

test('reads the words under a box as the field: an amount, a dotted date, a text, a table cell; typed as an answer is', async () => {
  const t = await makeTestApp()
  const job = await extract(t, await pdf())
  expect(job.status).toBe('succeeded')

  const box = boxAround(ORDER, '1.234,50 €')
  const deposit = await region(t, job.id, { key: 'total', page: 1, box })
  expect(deposit.status).toBe(200)
  expect(Object.keys(deposit.body)).toEqual(['region'])
  expect(deposit.body.region.text).toBe('1.234,50 €')
  expect(deposit.body.region.value).toBe('1234.50')
  // The words found lie inside the box drawn.
  const found = deposit.body.region.bbox
  expect(found.left).toBeGreaterThanOrEqual(box.left)
  expect(found.top).toBeGreaterThanOrEqual(box.top)
  expect(found.left + found.width).toBeLessThanOrEqual(box.left + box.width)
  expect(found.top + found.height).toBeLessThanOrEqual(box.top + box.height)

  // A label and its date; the document's dates are dotted, day first.
  const date = await region(t, job.id, { key: 'date', page: 1, box: boxAround(ORDER, 'Datum', 150) })
  expect(date.body.region).toMatchObject({ text: 'Datum 03.04.2026', value: '2026-04-03' })
  // Two lines, read in order; a text's whitespace collapsed.
  const twoLines = { ...boxAround(ORDER, 'Kontor Lindqvist GmbH', 220), height: 42 / PAGE.height }
  const seller = await region(t, job.id, { key: 'reference', page: 1, box: twoLines })
  expect(seller.body.region).toMatchObject({
    text: 'Kontor Lindqvist GmbH\nHafenstrasse 7, 20457 Hamburg',
    value: 'Kontor Lindqvist GmbH Hafenstrasse 7, 20457 Hamburg',
  })
  // A table's cell, as its column's type.
  const cell = await region(t, job.id, { key: 'items', column: 'amount', page: 1, box: boxAround(ORDER, '4.980,00 €') })
  expect(cell.body.region).toMatchObject({ text: '4.980,00 €', value: '4980.00' })
  const name = await region(t, job.id, { key: 'items', column: 'name', page: 1, box: boxAround(ORDER, 'Regalsystem Eiche', 120) })
  expect(name.body.region).toMatchObject({ text: 'Regalsystem Eiche', value: 'Regalsystem Eiche' })

  // Words that are no value of the type: the text, and no value. A box over blank paper: nothing.
  const notAmount = await region(t, job.id, { key: 'total', page: 1, box: boxAround(ORDER, 'Artikel', 60) })
  expect(notAmount.body.region).toMatchObject({ text: 'Artikel', value: null })
  const notBoolean = await region(t, job.id, { key: 'paid', page: 1, box: boxAround(ORDER, 'Artikel', 60) })
  expect(notBoolean.body.region).toMatchObject({ text: 'Artikel', value: null })
  const blank = await region(t, job.id, { key: 'total', page: 1, box: { left: 0.1, top: 0.8, width: 0.5, height: 0.1 } })
  expect(blank.status).toBe(200)
  expect(blank.body).toEqual({ region: { text: '', value: null, bbox: null } })

  // Nothing is stored: the job is as it was, and no layout was learned.
  expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job).toEqual(job)
  expect((await t.call('GET', '/api/v1/layouts')).body.layouts).toEqual([])
})

test('an unknown key or column, a page the document lacks and a box off the page are 400, naming the path', async () => {
  const t = await makeTestApp()
  const job = await extract(t, await pdf())
  const box = boxAround(ORDER, '1.234,50 €')
  expectValidation(await region(t, job.id, { key: 'nope', page: 1, box }), ['/key'])
  expectValidation(await region(t, job.id, { key: 'items', page: 1, box }), ['/column'])
  expectValidation(await region(t, job.id, { key: 'items', column: 'price', page: 1, box }), ['/column'])
  expectValidation(await region(t, job.id, { key: 'total', column: 'amount', page: 1, box }), ['/column'])
  expectValidation(await region(t, job.id, { key: 'total', page: 2, box }), ['/page'])
  expectValidation(await region(t, job.id, { key: 'total', page: 1, box: { left: 0.9, top: 0.1, width: 0.2, height: 0.1 } }), ['/box'])
  expectValidation(await region(t, job.id, { key: 'total', page: 1, box: { left: 0.1, top: 0.95, width: 0.2, height: 0.1 } }), ['/box'])
  expectValidation(await region(t, job.id, { key: 'total', page: 1, box: { ...box, width: 0 } }), ['/box/width'])
  expectValidation(await region(t, job.id, { key: 'total', page: 0, box }), ['/page'])
  expectValidation(await region(t, job.id, { key: 'total', page: 1 }), ['/box'])
  expectValidation(await region(t, job.id, { key: 'total', page: 1, box, extra: true }), ['/extra'])
})

test("another account's job is 404; a job that did not succeed, or without word places, is 409", async () => {
  const t = await makeTestApp({ engine: failingOnFail })
  const job = await extract(t, await pdf())
  const body = { key: 'total', page: 1, box: boxAround(ORDER, '1.234,50 €') }
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
