/**
 * An account's own accuracy through the API (issue 33, D290–D296): documents extracted and
 * reviewed in the test, some values corrected and some confirmed, then counted per field, per
 * confidence band and at the review threshold; filtered, and never across accounts. The engine
 * here reads each value and its confidence from the document itself, so the counts are known
 * exactly; one test reads real receipts with the built-in engine. On PostgreSQL too.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Answers } from '../../src/modules/extraction/answers'
import type { Engine } from '../../src/modules/extraction/engines/types'
import { reviewedValues } from '../../src/modules/extraction/service'
import { detailPaths, expectEnvelope, extractedJob, field, makeTestApp, type TestApp } from '../helpers/app'

setDefaultTimeout(60_000)

/** Reads a document whose last line is JSON, `{"<key>": [value, confidence]}`, as the answers it states. */
const stated: Engine = {
  name: 'stated',
  async extract({ document, fields }) {
    const said = JSON.parse(document.pages.join('\n').trim().split('\n').at(-1)!) as Record<string, [unknown, number]>
    return Object.fromEntries(
      fields.map((field) => {
        const [value, confidence] = said[field.key] ?? [null, 0]
        return [field.key, { value, confidence, page: value === null ? null : 1, snippet: value === null ? null : String(value) }]
      }),
    ) as Answers
  },
}

const FIELDS = { ref: { type: 'text' }, name: { type: 'text' }, note: { type: 'text' } }

async function extract(
  t: TestApp,
  said: Record<string, [unknown, number]>,
  options: { key?: string; documentType?: string; extract?: Record<string, unknown> } = {},
) {
  // A letterhead of its own: no document is another's sender, so none is read with a layout a review taught (D264).
  const head = Array.from({ length: 3 }, () => `Sender ${crypto.randomUUID()}`).join('\n')
  const file = new File([`${head}\n${JSON.stringify(said)}\n`], 'stated.txt')
  const job = await extractedJob(t, file, { document_type: options.documentType ?? 'invoice', ...(options.extract ?? { fields: FIELDS }) }, options.key)
  expect(job.status).toBe('succeeded')
  // Read as stated: with no learned layout, and at the stated confidence unless a broken sum marked it down (D282).
  for (const [key, [, confidence]] of Object.entries(said)) {
    const meta = job.fields_meta[key]
    if (!meta || job.result[key] === null) continue
    expect(meta.learned).toBeUndefined()
    if (!meta.checks) expect(meta.confidence).toBe(confidence)
  }
  return job
}

async function review(t: TestApp, id: string, fields: Record<string, unknown>, key?: string) {
  const response = await t.call('POST', `/api/v1/jobs/${id}/review`, { body: { fields }, key })
  if (response.status !== 200) throw new Error(`review failed: ${response.status} ${response.text}`)
  return response.body.job
}

const accuracy = (t: TestApp, query = '', key?: string) => t.call('GET', `/api/v1/accuracy${query}`, { key })

const EDGES = [0, 0.5, 0.8, 0.9, 0.95, 0.99, 1]

/** What a threshold lets through of values none of which it lets through. */
const NOTHING_UNCHECKED = { values: 0, right: 0, share: 0, precision: null }

/** The bands of a tally, given each band's [values, right] from the lowest up. */
function bands(...counts: [number, number][]) {
  return counts.map(([values, right], index) => ({
    from: EDGES[index],
    to: EDGES[index + 1],
    values,
    right,
    precision: values ? Math.round((right / values) * 10_000) / 10_000 : null,
  }))
}

/**
 * Five jobs of account A: four reviewed (one of them twice), one not.
 *   ref:  0.99 ✓, 0.96 ✓, 0.92 ✗ (corrected), 0.999 ✓ (corrected, then reviewed again as read)
 *   name: 0.97 ✓, 0.85 ✗, 0.6 ✓, 0.97 ✓
 *   note: none, left none ✓; none, filled ✗ (missed); 0.55 read, emptied ✗; none, left none ✓
 */
async function reviewedSet(t: TestApp) {
  const one = await extract(t, { ref: ['A-1', 0.99], name: ['Acme', 0.97] })
  await review(t, one.id, {})
  const two = await extract(t, { ref: ['A-2', 0.96], name: ['Acme', 0.85] })
  await review(t, two.id, { name: 'Acme GmbH', note: 'urgent' })
  const three = await extract(t, { ref: ['A-3', 0.92], name: ['Bolt', 0.6], note: ['x', 0.55] })
  await review(t, three.id, { ref: 'A-33', note: null })
  const four = await extract(t, { ref: ['A-4', 0.999], name: ['Bolt', 0.97] })
  await review(t, four.id, { ref: 'A-44' })
  await review(t, four.id, {})
  await extract(t, { ref: ['A-5', 0.2], name: ['Cole', 0.2] })
  return { one, two, three, four }
}

describe('GET /api/v1/accuracy', () => {
  test('counts each field of the reviewed jobs as their latest review left them: right, corrected, missed, bands and what went unchecked', async () => {
    const t = await makeTestApp({ engine: stated })
    await reviewedSet(t)
    const answer = await accuracy(t)
    expect(answer.status).toBe(200)
    expect(answer.body.threshold).toBe(0.95)
    expect(answer.body.jobs).toBe(4)
    expect(answer.body.fields).toEqual([
      {
        key: 'ref',
        reviewed: 4,
        right: 3,
        corrected: 1,
        answered: 4,
        precision: 0.75,
        missed: 0,
        bands: bands([0, 0], [0, 0], [0, 0], [1, 0], [1, 1], [2, 2]),
        unchecked: { values: 3, right: 3, share: 0.75, precision: 1 },
      },
      {
        key: 'name',
        reviewed: 4,
        right: 3,
        corrected: 1,
        answered: 4,
        precision: 0.75,
        missed: 0,
        bands: bands([0, 0], [1, 1], [1, 0], [0, 0], [2, 2], [0, 0]),
        unchecked: { values: 2, right: 2, share: 0.5, precision: 1 },
      },
      {
        key: 'note',
        reviewed: 4,
        right: 2,
        corrected: 2,
        answered: 1,
        precision: 0,
        missed: 1,
        bands: bands([0, 0], [1, 0], [0, 0], [0, 0], [0, 0], [0, 0]),
        unchecked: NOTHING_UNCHECKED,
      },
    ])
    expect(answer.body.total).toEqual({
      reviewed: 12,
      right: 8,
      corrected: 4,
      answered: 9,
      precision: 0.6667,
      missed: 1,
      bands: bands([0, 0], [2, 1], [1, 0], [1, 0], [3, 3], [2, 2]),
      unchecked: { values: 5, right: 5, share: 0.4167, precision: 1 },
    })
  })

  test('`threshold` asks what another threshold would have let through; a value that breaks a sum is never let through', async () => {
    const t = await makeTestApp({ engine: stated })
    await reviewedSet(t)
    const lower = await accuracy(t, '?threshold=0.6')
    expect(lower.status).toBe(200)
    expect(lower.body.threshold).toBe(0.6)
    expect(lower.body.total.unchecked).toEqual({ values: 8, right: 6, share: 0.6667, precision: 0.75 })
    expect(lower.body.total.bands).toEqual((await accuracy(t)).body.total.bands)
    expect((await accuracy(t, '?threshold=1')).body.total.unchecked).toEqual(NOTHING_UNCHECKED)
    expect((await accuracy(t, '?threshold=0')).body.total.unchecked).toEqual({ values: 9, right: 6, share: 0.75, precision: 0.6667 })

    // 10 + 2 ≠ 13: every amount of the broken sum carries `checks` (D282), at whatever confidence.
    const sums = await extract(
      t,
      { subtotal: ['10.00', 1], tax: ['2.00', 1], total: ['13.00', 1] },
      { extract: { fields: { subtotal: { type: 'amount' }, tax: { type: 'amount' }, total: { type: 'amount' } } } },
    )
    for (const key of ['subtotal', 'tax', 'total']) expect(sums.fields_meta[key].checks?.length).toBeGreaterThan(0)
    await review(t, sums.id, { total: 12 })
    const broken = (await accuracy(t, '?threshold=0')).body.fields.filter((field: { key: string }) => ['subtotal', 'tax', 'total'].includes(field.key))
    expect(
      broken.map((field: { key: string; answered: number; right: number; unchecked: unknown }) => [field.key, field.answered, field.right, field.unchecked]),
    ).toEqual([
      ['subtotal', 1, 1, NOTHING_UNCHECKED],
      ['tax', 1, 1, NOTHING_UNCHECKED],
      ['total', 1, 0, NOTHING_UNCHECKED],
    ])
  })

  test('an account with no reviewed job gets zeros, nulls for shares, and the default threshold', async () => {
    const t = await makeTestApp({ engine: stated })
    await extract(t, { ref: ['A-1', 0.99] })
    const answer = await accuracy(t)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      threshold: 0.95,
      jobs: 0,
      fields: [],
      total: {
        reviewed: 0,
        right: 0,
        corrected: 0,
        answered: 0,
        precision: null,
        missed: 0,
        bands: bands([0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]),
        unchecked: { values: 0, right: 0, share: null, precision: null },
      },
    })
  })

  test("counts only the caller's reviews: another account's are neither counted nor reachable by its schema", async () => {
    const t = await makeTestApp({ engine: stated })
    await reviewedSet(t)
    const schema = (await t.call('POST', '/api/v1/schemas', { body: { name: 'B', fields: [field('ref', { type: 'text' })] }, key: t.keyB.key })).body.schema
    const theirs = await extract(t, { ref: ['B-1', 0.99] }, { key: t.keyB.key, extract: { schema_id: schema.id } })
    await review(t, theirs.id, { ref: 'B-2' }, t.keyB.key)

    const mine = await accuracy(t)
    expect(mine.body.jobs).toBe(4)
    expect(mine.body.total.reviewed).toBe(12)
    const theirsAnswer = await accuracy(t, '', t.keyB.key)
    expect(theirsAnswer.body.jobs).toBe(1)
    expect(theirsAnswer.body.fields.map((field: { key: string; corrected: number }) => [field.key, field.corrected])).toEqual([['ref', 1]])
    expectEnvelope(await accuracy(t, `?schema_id=${schema.id}`), 404, 'not_found', 'Schema not found')
    expect((await accuracy(t, `?schema_id=${schema.id}`, t.keyB.key)).body.jobs).toBe(1)
  })

  test("filters by schema (at the schema's threshold), document type and time of creation", async () => {
    const t = await makeTestApp({ engine: stated })
    const { one } = await reviewedSet(t)
    const schema = (await t.call('POST', '/api/v1/schemas', { body: { name: 'Refs', review_threshold: 0.9, fields: [field('ref', { type: 'text' })] } })).body
      .schema
    const fromSchema = await extract(t, { ref: ['S-1', 0.92] }, { extract: { schema_id: schema.id } })
    await review(t, fromSchema.id, {})
    const order = await extract(t, { ref: ['R-1', 0.97] }, { documentType: 'purchase_order' })
    await review(t, order.id, { ref: 'R-2' })

    const bySchema = await accuracy(t, `?schema_id=${schema.id}`)
    expect(bySchema.status).toBe(200)
    expect(bySchema.body.threshold).toBe(0.9)
    expect(bySchema.body.jobs).toBe(1)
    expect(bySchema.body.fields).toEqual([
      {
        key: 'ref',
        reviewed: 1,
        right: 1,
        corrected: 0,
        answered: 1,
        precision: 1,
        missed: 0,
        bands: bands([0, 0], [0, 0], [0, 0], [1, 1], [0, 0], [0, 0]),
        unchecked: { values: 1, right: 1, share: 1, precision: 1 },
      },
    ])
    expect((await accuracy(t, `?schema_id=${schema.id}&threshold=0.95`)).body.fields[0].unchecked).toEqual(NOTHING_UNCHECKED)
    // A deleted schema's jobs are still its own (D11).
    expect((await t.call('DELETE', `/api/v1/schemas/${schema.id}`)).status).toBe(200)
    expect((await accuracy(t, `?schema_id=${schema.id}`)).body.jobs).toBe(1)

    const orders = await accuracy(t, '?document_type=purchase_order')
    expect(orders.body.jobs).toBe(1)
    expect(orders.body.total).toMatchObject({ reviewed: 3, right: 2, corrected: 1, answered: 1, precision: 0, missed: 0 })
    expect((await accuracy(t, '?document_type=invoice')).body.jobs).toBe(5)
    expect((await accuracy(t, `?document_type=purchase_order&schema_id=${schema.id}`)).body.jobs).toBe(0)

    // The first job read in January; the others now.
    await t.rows('update jobs set created_at = ? where id = ?', ['2026-01-15T10:00:00.000Z', one.id])
    expect((await accuracy(t, '?since=2026-01-15')).body.jobs).toBe(6)
    expect((await accuracy(t, '?since=2026-01-15T10:00:00Z')).body.jobs).toBe(6)
    expect((await accuracy(t, '?since=2026-01-15T10:00:00.001Z')).body.jobs).toBe(5)
    expect((await accuracy(t, '?since=2026-01-15T11:00:00%2B01:00')).body.jobs).toBe(6)
    expect((await accuracy(t, '?since=2026-01-16')).body.jobs).toBe(5)
    expect((await accuracy(t, '?since=2026-01-16')).body.fields[0]).toMatchObject({ key: 'ref', reviewed: 5, right: 3, corrected: 2 })
    expect((await accuracy(t, '?since=2999-01-01')).body.jobs).toBe(0)
  })

  test('refuses a `since` or `threshold` that is no date or share with 400 naming each, and an unknown schema or document type with 404', async () => {
    const t = await makeTestApp({ engine: stated })
    for (const since of [
      'yesterday',
      '2026-02-30',
      '2026-13-01',
      '2026-11-27T10:00:00',
      '2026-11-27T24:00:00Z',
      '2026-11-27T10:60Z',
      '2026-11-27T10:00:00+24:00',
      '',
    ]) {
      const answer = await accuracy(t, `?since=${encodeURIComponent(since)}`)
      expectEnvelope(answer, 400, 'validation_failed')
      expect(detailPaths(answer)).toEqual(['query:/since'])
    }
    for (const threshold of ['1.5', '-0.1', 'high', '', '0x1', '1e-1', 'NaN']) {
      const answer = await accuracy(t, `?threshold=${encodeURIComponent(threshold)}`)
      expectEnvelope(answer, 400, 'validation_failed')
      expect(detailPaths(answer)).toEqual(['query:/threshold'])
    }
    expect(detailPaths(await accuracy(t, '?since=never&threshold=2'))).toEqual(['query:/since', 'query:/threshold'])
    expectEnvelope(await accuracy(t, '?schema_id=sch_01m7zvb9bb611cmatkr3ef5dhzw8cw'), 404, 'not_found', 'Schema not found')
    expectEnvelope(await accuracy(t, '?schema_id=nonsense'), 404, 'not_found', 'Schema not found')
    const unknownType = await accuracy(t, '?document_type=invoices')
    expectEnvelope(unknownType, 404, 'unknown_document_type', 'Unknown document type: "invoices"')
    expect(unknownType.body.available_types).toContain('invoice')
    expectEnvelope(await accuracy(t, '', null as never), 401, 'invalid_api_key', 'Invalid API key')
    // Unknown parameters are ignored (D33).
    expect((await accuracy(t, '?page=2')).status).toBe(200)
  })

  test('reads every reviewed job once, however many pages they take', async () => {
    const t = await makeTestApp({ engine: stated })
    const ids: string[] = []
    for (let n = 0; n < 5; n++) {
      const job = await extract(t, { ref: [`P-${n}`, 0.9] })
      await review(t, job.id, n % 2 ? { ref: `Q-${n}` } : {})
      ids.push(job.id)
    }
    // Two jobs created at one instant: the page boundary falls between them.
    await t.rows('update jobs set created_at = ? where id = ? or id = ?', ['2026-06-01T00:00:00.000Z', ids[1], ids[2]])
    const accountId = (await t.rows<{ account_id: string }>('select account_id from jobs where id = ?', [ids[0]]))[0]!.account_id
    const seen: boolean[] = []
    for await (const values of reviewedValues(t.database, accountId, {}, 2)) seen.push(values[0]!.corrected)
    expect(seen.length).toBe(5)
    expect(seen.filter(Boolean).length).toBe(2)
  })
})

describe('GET /api/v1/accuracy with the built-in engine', () => {
  test("counts receipts read and reviewed as their jobs' meta says", async () => {
    const t = await makeTestApp()
    const receipt = (total: string, no: string) =>
      [
        'SANYU SUPPLY SDN BHD',
        'NO 12 JALAN PASAR BARU, 43000 KAJANG',
        `Doc No: ${no}`,
        'Date: 12/03/2018',
        'PEN BLUE   1   3.00',
        `Total Sales (Incl GST)   ${total}`,
        'THANK YOU PLEASE COME AGAIN',
        '',
      ].join('\n')
    const fields = { company_name: 'The seller', date: 'Date of the receipt', total: 'Total paid' }
    const jobs = []
    for (const [total, no] of [
      ['3.00', 'CS001'],
      ['3.00', 'CS002'],
    ]) {
      const form = new FormData()
      form.set('file', new File([receipt(total!, no!)], 'receipt.txt'))
      form.set('extract', JSON.stringify({ document_type: 'invoice', fields }))
      jobs.push((await t.call('POST', '/api/v1/extract', { body: form })).body.job)
    }
    await review(t, jobs[0].id, { company_name: 'SANYU STATIONERY SHOP' })
    await review(t, jobs[1].id, {})
    const answer = (await accuracy(t, '?document_type=invoice')).body
    expect(answer.jobs).toBe(2)
    expect(answer.fields.map((field: { key: string }) => field.key)).toEqual(['company_name', 'date', 'total'])
    for (const field of answer.fields) {
      const read = jobs.filter((job) => job.result[field.key] !== null)
      expect(field.reviewed).toBe(2)
      expect(field.answered).toBe(read.length)
      expect(field.corrected).toBe(field.key === 'company_name' ? 1 : 0)
      const unchecked = read.filter((job) => job.fields_meta[field.key].confidence >= 0.95 && !job.fields_meta[field.key].checks)
      expect(field.unchecked.values).toBe(unchecked.length)
      // Each value in the band of its confidence (the last holds 1 too), right unless its review corrected it.
      const counts = EDGES.slice(1).map((): [number, number] => [0, 0])
      for (const [index, job] of jobs.entries()) {
        if (job.result[field.key] === null) continue
        const count = counts[EDGES.slice(0, -1).filter((edge) => job.fields_meta[field.key].confidence >= edge).length - 1]!
        count[0]++
        if (!(field.key === 'company_name' && index === 0)) count[1]++
      }
      expect(field.bands).toEqual(bands(...counts))
    }
    expect(answer.total.reviewed).toBe(6)
    expect(answer.total.corrected).toBe(1)
  })
})
