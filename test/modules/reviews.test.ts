/**
 * Reviews and learning through the API (issue 32, D271–D277): a review sets a job's values and is
 * kept; it teaches the account the sender's layout, and the account's next document of that
 * sender is read with it, never another account's. On PostgreSQL too (`npm run test:postgres`).
 */
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import type { LearnedLayout } from '../../src/modules/extraction/learning/layout'
import { ownKeys } from '../../src/modules/extraction/learning/words'
import { layoutCache } from '../../src/modules/reviews/layout-cache'
import { expectEnvelope, expectValidation, extractedJob, failingOnFail, ISO_MS, makeTestApp, type TestApp, type TestAppOptions } from '../helpers/app'
import { anotherHandle } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import { tempDir } from '../helpers/process'
import { startReceiver, verifyWebhook } from '../helpers/webhooks'

setDefaultTimeout(60_000)

const dir = tempDir('extractd-reviews-')
afterAll(() => dir.remove())

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

// --- Documents: plain-text receipts of made-up senders ------------------------------------------

interface Sender {
  head: string[]
}

const SANYU: Sender = {
  head: ['SANYU SUPPLY SDN BHD', '(CO REG 123456-X)', 'NO 12 JALAN PASAR BARU', '43000 KAJANG SELANGOR', 'TEL 03-8737 1234 GST ID 001234567890'],
}
/** Printed like SANYU's receipts, item for item, but another shop. */
const MAJU: Sender = {
  head: ['MAJU JAYA ENTERPRISE', '(CO REG 998877-K)', 'LOT 5 JALAN BUNGA RAYA', '81200 JOHOR BAHRU JOHOR', 'TEL 07-2231 9876 GST ID 009988776655'],
}

interface Receipt {
  no: string
  date: string
  items: [string, string][]
  /** Spaces before every line, and empty lines above the letterhead: the same layout moved. */
  indent?: number
  top?: number
}

function receipt(sender: Sender, { no, date, items, indent = 0, top = 0 }: Receipt): string {
  const total = items.reduce((sum, [, amount]) => sum + Number(amount), 0).toFixed(2)
  const lines = [
    ...Array<string>(top).fill(''),
    ...sender.head,
    '          TAX INVOICE',
    `Doc No: ${no}`,
    `Date: ${date}     Cashier: ALI`,
    'Item                 Qty     Amount',
    ...items.map(([name, amount]) => `${name.padEnd(20)}  1  ${amount.padStart(9)}`),
    `Total Qty: ${items.length}`,
    `Total Sales (Incl GST)    ${total.padStart(9)}`,
    `Cash                      ${(Number(total) + 10).toFixed(2).padStart(9)}`,
    `Change                    ${'10.00'.padStart(9)}`,
    'THANK YOU PLEASE COME AGAIN',
  ]
  return `${lines.map((line) => ' '.repeat(indent) + line).join('\n')}\n`
}

const FIRST: Receipt = {
  no: 'CS00012345',
  date: '12/03/2018',
  items: [
    ['PEN BLUE', '3.00'],
    ['FILE A4', '9.50'],
  ],
}
const SECOND: Receipt = {
  no: 'CS00012399',
  date: '15/04/2018',
  items: [
    ['PEN RED', '3.00'],
    ['GLUE', '2.20'],
    ['TAPE', '4.00'],
  ],
  indent: 6,
  top: 3,
}
const THIRD: Receipt = { no: 'CS00012480', date: '02/05/2018', items: [['STAPLER', '12.90']], indent: 2, top: 1 }

const FIELDS = { company_name: 'The seller', date: 'Date of the receipt', total: 'Total paid', doc_no: 'The document number' }
const ITEMS = {
  items: {
    type: 'table',
    description: 'The items bought',
    columns: [{ key: 'description' }, { key: 'qty', type: 'number' }, { key: 'amount', type: 'amount' }],
  },
}

// --- Requests -----------------------------------------------------------------------------------

const extract = (t: TestApp, text: string, key?: string, fields: Record<string, unknown> = FIELDS) =>
  extractedJob(t, new File([text], 'receipt.txt'), { document_type: 'invoice', fields }, key)

const review = (t: TestApp, id: string, fields: Record<string, unknown>, options: { key?: string; headers?: Record<string, string> } = {}) =>
  t.call('POST', `/api/v1/jobs/${id}/review`, { body: { fields }, ...options })

async function reviewed(t: TestApp, id: string, fields: Record<string, unknown>, key?: string) {
  const response = await review(t, id, fields, { key })
  if (response.status !== 200) throw new Error(`review failed: ${response.status} ${response.text}`)
  return response.body.job
}

const count = async (t: TestApp, table: string, where = '', params: unknown[] = []) =>
  Number((await t.rows<{ n: number }>(`select count(*) as n from ${table} ${where}`, params))[0]!.n)

// --- The review ---------------------------------------------------------------------------------

describe('POST /api/v1/jobs/{id}/review', () => {
  test('sets the listed values, confirms the rest, keeps what the engine read, and marks the job reviewed', async () => {
    const t = await makeTestApp()
    const job = await extract(t, receipt(SANYU, FIRST))
    expect(job.reviewed_at).toBeNull()
    expect(job.result.company_name).toBe('SANYU SUPPLY SDN BHD')
    const answer = await review(t, job.id, { company_name: 'SANYU STATIONERY SHOP', total: 12.5 })
    expect(answer.status).toBe(200)
    const after = answer.body.job
    expect(after.result).toEqual({ ...job.result, company_name: 'SANYU STATIONERY SHOP', total: '12.50' })
    expect(after.reviewed_at).toMatch(ISO_MS)
    expect(after.updated_at).toBe(after.reviewed_at)
    expect(after.needs_review).toBe(false)
    expect(after.completed_at).toBe(job.completed_at)
    for (const key of Object.keys(FIELDS)) {
      const { corrected, read_value, needs_review, ...engine } = after.fields_meta[key]
      expect(engine).toEqual({ ...job.fields_meta[key], needs_review: undefined })
      // A person has checked every value now (D284).
      expect(needs_review).toBe(false)
      expect(read_value).toEqual(job.result[key])
      expect(corrected).toBe(key === 'company_name')
    }
    // The job reads the same afterwards, and the review is kept.
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job).toEqual(after)
    expect(await count(t, 'reviews', 'where job_id = ?', [job.id])).toBe(1)
  })

  test('a second review replaces the first in the job, and both are kept', async () => {
    const t = await makeTestApp()
    const job = await extract(t, receipt(SANYU, FIRST))
    await reviewed(t, job.id, { company_name: 'SANYU STATIONERY SHOP', doc_no: null })
    const second = await reviewed(t, job.id, { total: 13 })
    // What the first review said is gone from the job: the second confirms the engine's reading of the rest.
    expect(second.result).toEqual({ ...job.result, total: '13.00' })
    // A person has checked it, whatever its confidence said (D284).
    expect(second.fields_meta.company_name).toEqual({
      ...job.fields_meta.company_name,
      needs_review: false,
      corrected: false,
      read_value: 'SANYU SUPPLY SDN BHD',
    })
    expect(second.fields_meta.total).toEqual({ ...job.fields_meta.total, needs_review: false, corrected: true, read_value: job.result.total })
    const kept = await t.rows<{ values: string; corrected: string }>('select "values", corrected from reviews where job_id = ? order by created_at, id', [
      job.id,
    ])
    expect(kept.map((row) => JSON.parse(row.corrected))).toEqual([['company_name', 'doc_no'], ['total']])
    expect(JSON.parse(kept[0]!.values)).toEqual({ ...job.result, company_name: 'SANYU STATIONERY SHOP', doc_no: null })
  })

  test('values are typed by their fields: each one of the wrong type is named by its path, and nothing is written', async () => {
    const t = await makeTestApp()
    const fields = {
      ...FIELDS,
      ...ITEMS,
      paid: { type: 'boolean', description: 'Whether it was paid' },
      kind: { type: 'enum', values: ['cash', 'card'], description: 'How it was paid' },
      currency: { type: 'currency', description: 'The currency' },
      tags: { type: 'list', description: 'Tags' },
      qty: { type: 'number', description: 'How many items' },
    }
    const job = await extract(t, receipt(SANYU, FIRST), undefined, fields)
    const bad = {
      date: '12/03/2018',
      total: 'twelve',
      company_name: 5,
      paid: 'yes',
      kind: 'cheque',
      currency: 'euro',
      tags: [],
      qty: '3',
      items: [{ description: 'PEN', amount: 'x', colour: 'blue' }, 'row'],
      nope: 1,
      'a/b~c': 1,
    }
    expectValidation(await review(t, job.id, bad), [
      '/fields/date',
      '/fields/total',
      '/fields/company_name',
      '/fields/paid',
      '/fields/kind',
      '/fields/currency',
      '/fields/tags',
      '/fields/qty',
      '/fields/items/0/amount',
      '/fields/items/0/colour',
      '/fields/items/1',
      '/fields/nope',
      '/fields/a~1b~0c',
    ])
    expectValidation(await review(t, job.id, { date: '2018-02-30' }), ['/fields/date'])
    // A real day outside the years an answer's date may have is refused, not stored as null.
    expectValidation(await review(t, job.id, { date: '1850-01-01' }), ['/fields/date'])
    expectValidation(await review(t, job.id, { date: '2150-01-01' }), ['/fields/date'])
    expectValidation(await t.call('POST', `/api/v1/jobs/${job.id}/review`, { body: { fields: {}, more: 1 } }), ['/more'])
    expectValidation(await t.call('POST', `/api/v1/jobs/${job.id}/review`, { body: {} }), ['/fields'])
    expectEnvelope(
      await t.call('POST', `/api/v1/jobs/${job.id}/review`, { body: '{"fields":', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    )
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job).toEqual(job)
    expect(await count(t, 'reviews')).toBe(0)
    expect(await count(t, 'layouts')).toBe(0)
    // Every type's right form is taken, and stored as `result` answers it.
    const good = await reviewed(t, job.id, {
      date: '2018-03-12',
      total: '12.5',
      paid: true,
      kind: 'cash',
      currency: 'MYR',
      tags: ['office'],
      qty: 2,
      items: [{ description: 'PEN BLUE', qty: 1, amount: 3 }, { description: 'FILE A4' }],
    })
    expect(good.result).toMatchObject({
      date: '2018-03-12',
      total: '12.50',
      paid: true,
      kind: 'cash',
      currency: 'MYR',
      tags: ['office'],
      qty: 2,
      items: [
        { description: 'PEN BLUE', qty: 1, amount: '3.00' },
        { description: 'FILE A4', qty: null, amount: null },
      ],
    })
  })

  test("another account's job and an unknown job are 404; a job that did not succeed is 409", async () => {
    const t = await makeTestApp({ engine: failingOnFail })
    const job = await extract(t, receipt(SANYU, FIRST))
    expectEnvelope(await review(t, job.id, { total: 1 }, { key: t.keyB.key }), 404, 'not_found', 'Job not found')
    expectEnvelope(await review(t, 'job_01m8ekr4kb56vmk289pdzsr5fpx2p7', { total: 1 }), 404, 'not_found')
    expectEnvelope(await review(t, 'nope', { total: 1 }), 404, 'not_found')
    const failed = await extract(t, 'FAIL\n')
    expect(failed.status).toBe('failed')
    expectEnvelope(await review(t, failed.id, {}), 409, 'job_not_succeeded', "The job is failed; only a succeeded job's values can be reviewed")
    expect((await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job.reviewed_at).toBeNull()
    expect(await count(t, 'reviews')).toBe(0)
  })

  test('Idempotency-Key: a retry gets the first answer and adds no review; the key with another body is 409', async () => {
    const t = await makeTestApp()
    const job = await extract(t, receipt(SANYU, FIRST))
    const headers = { 'idempotency-key': 'review-1' }
    const first = await review(t, job.id, { total: 12.5 }, { headers })
    const again = await review(t, job.id, { total: 12.5 }, { headers })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.text).toBe(first.text)
    expect(await count(t, 'reviews')).toBe(1)
    expectEnvelope(await review(t, job.id, { total: 13 }, { headers }), 409, 'idempotency_key_reused')
    expect(await count(t, 'reviews')).toBe(1)
  })

  test('webhooks get job.reviewed, signed like the other events, with the job as reviewed', async () => {
    const receiver = startReceiver()
    cleanups.push(receiver.stop)
    const options: TestAppOptions = { webhooks: { allowPrivate: true, retryDelayMs: 20, timeoutMs: 2000 } }
    const t = await makeTestApp(options)
    cleanups.push(() => t.deliveries?.stop(0))
    const created = await t.call('POST', '/api/v1/webhooks', { body: { url: receiver.url, events: ['job.reviewed'] } })
    expect(created.status).toBe(201)
    const job = await extract(t, receipt(SANYU, FIRST))
    const after = await reviewed(t, job.id, { total: 12.5 })
    await eventually(() => receiver.received.length === 1)
    const [request] = receiver.received
    expect(verifyWebhook(created.body.webhook.secret, request!.headers, request!.body)).toBe(true)
    const body = JSON.parse(request!.body)
    expect(body).toEqual({ type: 'job.reviewed', timestamp: after.reviewed_at, data: { job: after } })
    // Only the review: the endpoint did not ask for job.succeeded.
    await Bun.sleep(100)
    expect(receiver.received).toHaveLength(1)
  })
})

// --- Learning -----------------------------------------------------------------------------------

describe('a review teaches the account the sender’s layout', () => {
  test('the next receipt of the sender, moved on the page, is read with it: a constant name and its own number', async () => {
    const t = await makeTestApp()
    const first = await extract(t, receipt(SANYU, FIRST))
    await reviewed(t, first.id, { company_name: 'SANYU STATIONERY SHOP', total: 12.5, date: '2018-03-12', doc_no: 'CS00012345' })
    const layouts = (await t.call('GET', '/api/v1/layouts')).body
    expect(layouts).toEqual({
      layouts: [
        {
          id: expect.stringMatching(/^lay_[0-9a-hjkmnp-tv-z]{30}$/),
          job_id: first.id,
          sender: expect.stringContaining('sanyu'),
          fields: expect.objectContaining({ company_name: { how: 'constant', job_id: first.id } }),
          created_at: expect.stringMatching(ISO_MS),
          updated_at: expect.stringMatching(ISO_MS),
        },
      ],
      has_more: false,
    })
    const layout = layouts.layouts[0].id
    const second = await extract(t, receipt(SANYU, SECOND))
    expect(second.result).toEqual({ company_name: 'SANYU STATIONERY SHOP', date: '2018-04-15', total: '9.20', doc_no: 'CS00012399' })
    expect(second.fields_meta.company_name.learned).toEqual({ layout, job: first.id, how: 'constant' })
    // The same receipt on another account: nothing learned there.
    const elsewhere = await extract(t, receipt(SANYU, SECOND), t.keyB.key)
    expect(elsewhere.result.company_name).toBe('SANYU SUPPLY SDN BHD')
    for (const meta of Object.values<Record<string, unknown>>(elsewhere.fields_meta)) expect(meta.learned).toBeUndefined()
    expect((await t.call('GET', '/api/v1/layouts', { key: t.keyB.key })).body).toEqual({ layouts: [], has_more: false })
  })

  test('values the engine missed are read where the review placed them on the next receipt', async () => {
    const t = await makeTestApp()
    const fields = {
      ...FIELDS,
      tendered: { type: 'amount', description: 'Amount tendered by the customer' },
      quantity: { type: 'number', description: 'Number of items' },
    }
    const first = await extract(t, receipt(SANYU, FIRST), undefined, fields)
    // The general reading finds neither (account B below reads the next receipt without learning).
    expect([first.result.tendered, first.result.quantity]).toEqual([null, null])
    const done = await reviewed(t, first.id, { tendered: 22.5, quantity: 2 })
    expect(done.fields_meta.tendered).toMatchObject({ corrected: true, read_value: null })
    const second = await extract(t, receipt(SANYU, SECOND), undefined, fields)
    expect([second.result.tendered, second.result.quantity]).toEqual(['19.20', 3])
    for (const key of ['tendered', 'quantity']) expect(second.fields_meta[key].learned).toMatchObject({ job: first.id, how: 'printed' })
    const other = await extract(t, receipt(SANYU, SECOND), t.keyB.key, fields)
    expect([other.result.tendered, other.result.quantity]).toEqual([null, null])
  })

  test('a longer table is read whole under the learned heading', async () => {
    const t = await makeTestApp()
    const fields = { ...FIELDS, ...ITEMS }
    const first = await extract(t, receipt(SANYU, FIRST), undefined, fields)
    await reviewed(t, first.id, {
      items: [
        { description: 'PEN BLUE', qty: 1, amount: 3 },
        { description: 'FILE A4', qty: 1, amount: 9.5 },
      ],
    })
    const longer = await extract(
      t,
      receipt(SANYU, {
        ...SECOND,
        items: [
          ['PEN RED', '3.00'],
          ['GLUE', '2.20'],
          ['TAPE', '4.00'],
          ['RULER 30CM', '1.80'],
          ['ERASER', '0.90'],
        ],
      }),
      undefined,
      fields,
    )
    expect(longer.result.items).toEqual([
      { description: 'PEN RED', qty: 1, amount: '3.00' },
      { description: 'GLUE', qty: 1, amount: '2.20' },
      { description: 'TAPE', qty: 1, amount: '4.00' },
      { description: 'RULER 30CM', qty: 1, amount: '1.80' },
      { description: 'ERASER', qty: 1, amount: '0.90' },
    ])
    expect(longer.fields_meta.items.learned).toMatchObject({ job: first.id, how: 'table' })
  })

  test('two senders alike in layout are told apart: what one taught does not answer for the other', async () => {
    const t = await makeTestApp()
    const first = await extract(t, receipt(SANYU, FIRST))
    await reviewed(t, first.id, { company_name: 'SANYU STATIONERY SHOP' })
    const other = await extract(t, receipt(MAJU, SECOND))
    expect(other.result.company_name).toBe('MAJU JAYA ENTERPRISE')
    for (const meta of Object.values<Record<string, unknown>>(other.fields_meta)) expect(meta.learned).toBeUndefined()
    // And the sender that taught is still read with what it taught.
    expect((await extract(t, receipt(SANYU, THIRD))).result.company_name).toBe('SANYU STATIONERY SHOP')
  })

  test('a review that contradicts an earlier one updates the layout: the later one holds', async () => {
    const t = await makeTestApp()
    const first = await extract(t, receipt(SANYU, FIRST))
    await reviewed(t, first.id, { company_name: 'SANYU STATIONERY SHOP' })
    const second = await extract(t, receipt(SANYU, SECOND))
    expect(second.result.company_name).toBe('SANYU STATIONERY SHOP')
    await reviewed(t, second.id, { company_name: 'SANYU STATIONERS' })
    const { layouts } = (await t.call('GET', '/api/v1/layouts')).body
    expect(layouts).toHaveLength(1)
    expect(layouts[0].job_id).toBe(second.id)
    expect(layouts[0].fields.company_name).toEqual({ how: 'constant', job_id: second.id })
    const third = await extract(t, receipt(SANYU, THIRD))
    expect(third.result.company_name).toBe('SANYU STATIONERS')
    expect(third.fields_meta.company_name.learned).toEqual({ layout: layouts[0].id, job: second.id, how: 'constant' })
  })

  test('a forgotten layout reads nothing more; another account cannot forget it', async () => {
    const t = await makeTestApp()
    const first = await extract(t, receipt(SANYU, FIRST))
    await reviewed(t, first.id, { company_name: 'SANYU STATIONERY SHOP' })
    const [layout] = (await t.call('GET', '/api/v1/layouts')).body.layouts
    expectEnvelope(await t.call('DELETE', `/api/v1/layouts/${layout.id}`, { key: t.keyB.key }), 404, 'not_found', 'Layout not found')
    expectEnvelope(await t.call('DELETE', '/api/v1/layouts/lay_nope'), 404, 'not_found')
    expect((await extract(t, receipt(SANYU, SECOND))).result.company_name).toBe('SANYU STATIONERY SHOP')
    const deleted = await t.call('DELETE', `/api/v1/layouts/${layout.id}`)
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe('')
    expectEnvelope(await t.call('DELETE', `/api/v1/layouts/${layout.id}`), 404, 'not_found')
    expect((await t.call('GET', '/api/v1/layouts')).body).toEqual({ layouts: [], has_more: false })
    const after = await extract(t, receipt(SANYU, THIRD))
    expect(after.result.company_name).toBe('SANYU SUPPLY SDN BHD')
    expect(after.fields_meta.company_name.learned).toBeUndefined()
    // Its index went with it; the review that taught it is kept.
    expect(await count(t, 'layout_marks')).toBe(0)
    expect(await count(t, 'layout_words')).toBe(0)
    expect(await count(t, 'reviews')).toBe(1)
  })

  test('a review on one instance is used by the next extraction on another: the database is the truth', async () => {
    const one = await makeTestApp({ dbPath: join(dir.path, 'instances.sqlite') })
    const other = await makeTestApp({ database: await anotherHandle(one.database) })
    const first = await extract(one, receipt(SANYU, FIRST))
    await reviewed(one, first.id, { company_name: 'SANYU STATIONERY SHOP' })
    const second = await extract(other, receipt(SANYU, SECOND), one.keyA.key)
    expect(second.result.company_name).toBe('SANYU STATIONERY SHOP')
    expect(second.fields_meta.company_name.learned).toMatchObject({ job: first.id })
  })

  test('two reviews at once of one sender’s documents, on two instances, keep both changes to its layout (D360)', async () => {
    const one = await makeTestApp({ dbPath: join(dir.path, 'concurrent.sqlite') })
    const other = await makeTestApp({ database: await anotherHandle(one.database) })
    const key = one.keyA.key
    const fields = {
      ...FIELDS,
      tendered: { type: 'amount', description: 'Amount tendered by the customer' },
      quantity: { type: 'number', description: 'Number of items' },
    }
    const first = await extract(one, receipt(SANYU, FIRST), key, fields)
    await reviewed(one, first.id, { company_name: 'SANYU STATIONERY SHOP' }, key)
    // Both later receipts are read with the layout the first taught; each review then teaches it another field.
    const second = await extract(one, receipt(SANYU, SECOND), key, fields)
    const third = await extract(other, receipt(SANYU, THIRD), key, fields)
    const [layout] = (await one.call('GET', '/api/v1/layouts')).body.layouts
    for (const job of [second, third]) expect(job.fields_meta.company_name.learned).toMatchObject({ layout: layout.id })
    await Promise.all([reviewed(one, second.id, { tendered: 19.2 }, key), reviewed(other, third.id, { quantity: 1 }, key)])
    const { layouts } = (await one.call('GET', '/api/v1/layouts')).body
    expect(layouts).toHaveLength(1)
    expect(layouts[0].fields).toMatchObject({
      company_name: { how: 'constant' },
      tendered: { how: 'printed', job_id: second.id },
      quantity: { how: 'printed', job_id: third.id },
    })
    const next = await extract(other, receipt(SANYU, { ...FIRST, indent: 4 }), key, fields)
    expect([next.result.company_name, next.result.tendered, next.result.quantity]).toEqual(['SANYU STATIONERY SHOP', '22.50', 2])
    expect(next.fields_meta.tendered.learned).toMatchObject({ job: second.id, how: 'printed' })
    expect(next.fields_meta.quantity.learned).toMatchObject({ job: third.id, how: 'printed' })
  })

  test('an instance holding the account’s layouts in memory reads what a review or a forget on another changed (D300, D301)', async () => {
    const one = await makeTestApp({ dbPath: join(dir.path, 'held.sqlite') })
    const other = await makeTestApp({ database: await anotherHandle(one.database) })
    const key = one.keyA.key
    const company = async (app: TestApp, sender: Sender, which: Receipt) => {
      const job = await extract(app, receipt(sender, which), key)
      return { name: job.result.company_name, learned: job.fields_meta.company_name.learned }
    }
    // MAJU taught on one; the other instance reads a receipt of it, and so holds the account's layouts.
    await reviewed(one, (await extract(one, receipt(MAJU, FIRST))).id, { company_name: 'MAJU JAYA SHOP' })
    expect((await company(other, MAJU, SECOND)).name).toBe('MAJU JAYA SHOP')
    await other.layouts.settled()
    expect(other.layouts.held()).toEqual({ layouts: 1, accounts: 1 })
    expect(await company(other, SANYU, FIRST)).toEqual({ name: 'SANYU SUPPLY SDN BHD', learned: undefined })
    // A review on one: the next extraction on the other reads with it (the database answers while its index catches up).
    const sanyu = await extract(one, receipt(SANYU, FIRST))
    await reviewed(one, sanyu.id, { company_name: 'SANYU STATIONERY SHOP' })
    const second = await extract(other, receipt(SANYU, SECOND), key)
    expect(second.result.company_name).toBe('SANYU STATIONERY SHOP')
    expect(second.fields_meta.company_name.learned).toMatchObject({ job: sanyu.id, how: 'constant' })
    await other.layouts.settled()
    expect(other.layouts.held()).toEqual({ layouts: 2, accounts: 1 })
    // A review on one that contradicts it: the other reads the later one.
    await reviewed(one, second.id, { company_name: 'SANYU STATIONERS' })
    expect(await company(other, SANYU, THIRD)).toMatchObject({ name: 'SANYU STATIONERS', learned: { job: second.id } })
    await other.layouts.settled()
    expect(await company(other, SANYU, THIRD)).toMatchObject({ name: 'SANYU STATIONERS', learned: { job: second.id } })
    // Forgotten on one: the other no longer uses it, and still uses the account's other layout.
    const layouts: { id: string; sender: string }[] = (await one.call('GET', '/api/v1/layouts')).body.layouts
    const sanyuLayout = layouts.find((layout) => layout.sender.startsWith('sanyu'))!
    expect((await one.call('DELETE', `/api/v1/layouts/${sanyuLayout.id}`)).status).toBe(204)
    expect(await company(other, SANYU, THIRD)).toEqual({ name: 'SANYU SUPPLY SDN BHD', learned: undefined })
    await other.layouts.settled()
    expect(other.layouts.held()).toEqual({ layouts: 1, accounts: 1 })
    expect(await company(other, SANYU, THIRD)).toEqual({ name: 'SANYU SUPPLY SDN BHD', learned: undefined })
    expect((await company(other, MAJU, THIRD)).name).toBe('MAJU JAYA SHOP')
    // Every layout forgotten, then one taught again: the other reads the new one, not the old.
    const majuLayout = layouts.find((layout) => layout.sender.startsWith('maju'))!
    expect((await one.call('DELETE', `/api/v1/layouts/${majuLayout.id}`)).status).toBe(204)
    expect(await company(other, MAJU, THIRD)).toEqual({ name: 'MAJU JAYA ENTERPRISE', learned: undefined })
    const again = await extract(one, receipt(MAJU, FIRST))
    await reviewed(one, again.id, { company_name: 'MAJU JAYA TRADING' })
    expect(await company(other, MAJU, SECOND)).toMatchObject({ name: 'MAJU JAYA TRADING', learned: { job: again.id } })
    await other.layouts.settled()
    expect(await company(other, MAJU, THIRD)).toMatchObject({ name: 'MAJU JAYA TRADING', learned: { job: again.id } })
  })

  test('an account without layouts is not looked up; one with more than an instance holds is looked up in the database alike (D300, D302)', async () => {
    const t = await makeTestApp()
    for (const sender of [SANYU, MAJU]) await reviewed(t, (await extract(t, receipt(sender, FIRST))).id, { company_name: `${sender.head[0]} SHOP` })
    const accountA = t.keyA.accountId
    const words = () => ownKeys({ pages: [receipt(SANYU, SECOND)] })
    const senderOf = (layouts: readonly LearnedLayout[]) => layouts.map((layout) => layout.fingerprint.marks.find((mark) => mark.name)?.key)
    // Account B has none: the document's words are never asked for.
    const asked: string[] = []
    const cache = layoutCache(t.database)
    expect(
      await cache.of(t.keyB.accountId)(() => {
        asked.push('words')
        return words()
      }),
    ).toEqual([])
    expect(asked).toEqual([])
    // The first lookup is answered by the database while the index is built; the next by the index, alike.
    expect(senderOf(await cache.of(accountA)(words))).toEqual(['sanyu'])
    await cache.settled()
    expect(cache.held()).toEqual({ layouts: 2, accounts: 1 })
    expect(senderOf(await cache.of(accountA)(words))).toEqual(['sanyu'])
    // An instance that holds one layout holds none of A's two, and finds the same one in the database.
    const small = layoutCache(t.database, 1)
    expect(senderOf(await small.of(accountA)(words))).toEqual(['sanyu'])
    await small.settled()
    expect(small.held()).toEqual({ layouts: 0, accounts: 1 })
    expect(senderOf(await small.of(accountA)(words))).toEqual(['sanyu'])
  })

  test('layouts are listed newest first, a page at a time', async () => {
    const t = await makeTestApp()
    for (const sender of [SANYU, MAJU]) await reviewed(t, (await extract(t, receipt(sender, FIRST))).id, { company_name: `${sender.head[0]} SHOP` })
    const all = (await t.call('GET', '/api/v1/layouts')).body.layouts
    expect(all.map((layout: { sender: string }) => layout.sender.split(' ')[0])).toEqual(['maju', 'sanyu'])
    const page = (await t.call('GET', '/api/v1/layouts?limit=1')).body
    expect(page).toEqual({ layouts: [all[0]], has_more: true })
    expect((await t.call('GET', `/api/v1/layouts?limit=1&starting_after=${all[0].id}`)).body).toEqual({ layouts: [all[1]], has_more: false })
    expectValidation(await t.call('GET', '/api/v1/layouts?limit=0'), ['query:/limit'])
    expectValidation(await t.call('GET', `/api/v1/layouts?starting_after=${all[0].id}`, { key: t.keyB.key }), ['query:/starting_after'])
  })
})
