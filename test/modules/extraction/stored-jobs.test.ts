/**
 * Jobs stored by earlier releases read as they did (D91, D200): fields without `type` (the
 * catalog's `kind`, or nothing) are typed as they were read then, meta without `bbox` answers
 * `bbox: null`, and such a job still queued is extracted with those types.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { silentLogger } from '../../../src/lib/log'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { inProcessExtractor } from '../../../src/modules/extraction/extractor'
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import { createJobRunner, type JobRunner } from '../../../src/modules/extraction/worker'
import { makeTestApp, type TestApp } from '../../helpers/app'

const DOCUMENT = 'ACME GmbH\nInvoice No: INV-7\nIssued: 03.03.2026\nCode: 0042\nTotal: 1.234,50 EUR\n'

/** The job fields as releases before D91 stored them: a catalog field's `kind`, or no type at all. */
const LEGACY_FIELDS = [
  { key: 'total', label: 'Total', description: 'Total due', kind: 'amount' },
  { key: 'code', label: 'Code', description: '', kind: 'number' },
  { key: 'invoice_number', label: 'Invoice No', description: '' },
  { key: 'issued', label: 'Issued', description: 'Date of issue', kind: 'not-a-type' },
]

const runners: JobRunner[] = []
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop(0)
})

/** A queued job (the app's runner takes none) whose stored fields are then set to `fields`. */
async function queuedJob(t: TestApp, fields: unknown[]): Promise<string> {
  const form = new FormData()
  form.append('file', new File([DOCUMENT], 'invoice.txt', { type: 'text/plain' }))
  form.append('extract', JSON.stringify({ document_type: 'invoice', fields: { total: 'Total due' } }))
  const created = await t.call('POST', '/api/v1/extract?async=true', { body: form })
  expect(created.status).toBe(202)
  await t.rows('update jobs set fields = ? where id = ?', [JSON.stringify(fields), created.body.job.id])
  return created.body.job.id
}

describe('jobs stored by earlier releases', () => {
  test('fields with `kind` or no type answer the type they were read as; a `kind` that is no type is inferred', async () => {
    const t = await makeTestApp({ paused: true })
    const id = await queuedJob(t, LEGACY_FIELDS)
    const response = await t.call('GET', `/api/v1/jobs/${id}`)
    expect(response.status).toBe(200)
    expect(response.body.job.fields).toEqual([
      { key: 'total', label: 'Total', description: 'Total due', type: 'amount' },
      // Inferred from its words, `code` would be text.
      { key: 'code', label: 'Code', description: '', type: 'number' },
      { key: 'invoice_number', label: 'Invoice No', description: '', type: 'text' },
      { key: 'issued', label: 'Issued', description: 'Date of issue', type: 'date' },
    ])
    // Every property in the order of the Field, whatever order the row holds.
    expect(Object.keys(response.body.job.fields[0])).toEqual(['key', 'label', 'description', 'type'])
  })

  test('meta stored before values had boxes answers `bbox: null`; meta with a box keeps it', async () => {
    const t = await makeTestApp({ paused: true })
    const id = await queuedJob(t, [LEGACY_FIELDS[0], LEGACY_FIELDS[2]])
    const box = { left: 0.1, top: 0.2, width: 0.3, height: 0.04 }
    await t.rows("update jobs set status = 'succeeded', result = ?, fields_meta = ?, completed_at = updated_at where id = ?", [
      JSON.stringify({ total: '1234.50', invoice_number: 'INV-7' }),
      JSON.stringify({
        total: { confidence: 0.9, page: 1, snippet: 'Total: 1.234,50 EUR' },
        invoice_number: { confidence: 0.96, page: 1, snippet: 'x', bbox: box },
      }),
      id,
    ])
    const response = await t.call('GET', `/api/v1/jobs/${id}`)
    expect(response.status).toBe(200)
    expect(response.body.job.fields_meta).toEqual({
      total: { confidence: 0.9, page: 1, snippet: 'Total: 1.234,50 EUR', bbox: null },
      invoice_number: { confidence: 0.96, page: 1, snippet: 'x', bbox: box },
    })
  })

  test('a queued job with such fields is extracted with the types they were read as', async () => {
    const t = await makeTestApp({ paused: true })
    const id = await queuedJob(t, LEGACY_FIELDS)
    const runner = createJobRunner({
      database: t.database,
      extract: inProcessExtractor(builtinEngine),
      catalog: t.catalog,
      concurrency: 1,
      keepFileMs: 0,
      readLimits: DEFAULT_READ_LIMITS,
      log: silentLogger,
    })
    runners.push(runner)
    await runner.submit(id)
    const { body } = await t.call('GET', `/api/v1/jobs/${id}`)
    expect(body.job.status).toBe('succeeded')
    expect(body.job.result).toEqual({ total: '1234.50', code: 42, invoice_number: 'INV-7', issued: '2026-03-03' })
    expect(body.job.fields_meta.total).toEqual({
      confidence: expect.any(Number),
      page: 1,
      snippet: 'Total: 1.234,50 EUR',
      bbox: null,
      needs_review: expect.any(Boolean),
    })
  })
})
