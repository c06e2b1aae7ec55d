/**
 * What `GET /api/v1/accuracy` costs an account with many reviewed jobs (D290), in process: one
 * invoice read by the built-in engine and reviewed, copied into REVIEWED reviewed jobs and
 * UNREVIEWED others of the same account; then the accuracy over all of them, timed against a page
 * of 100 jobs (`GET /api/v1/jobs?limit=100`) in the same run, as medians of ROUNDS calls each.
 *
 *   bun bench/accuracy.ts                                   SQLite in memory
 *   EXTRACTD_TEST_DATABASE=postgres EXTRACTD_TEST_POSTGRES=postgres://… bun bench/accuracy.ts
 *   REVIEWED=5000 UNREVIEWED=15000 ROUNDS=5
 */
import { newId } from '../src/lib/ids'
import { makeTestApp } from '../test/helpers/app'
import { closeTestDatabases } from '../test/helpers/database'
import { makeInvoice } from '../test/helpers/invoice'

const env = process.env
const REVIEWED = Number(env.REVIEWED ?? 5000)
const UNREVIEWED = Number(env.UNREVIEWED ?? 15000)
const ROUNDS = Number(env.ROUNDS ?? 5)

const t = await makeTestApp()
const form = new FormData()
form.set('file', new File([await makeInvoice()], 'invoice.pdf'))
form.set('extract', JSON.stringify({ document_type: 'invoice' }))
const job = (await t.call('POST', '/api/v1/extract', { body: form })).body.job
const keys = Object.keys(job.result)
await t.call('POST', `/api/v1/jobs/${job.id}/review`, { body: { fields: { [keys[0]!]: null } } })

const COLUMNS =
  'account_id, status, document_type, schema_id, schema_version, fields, file_name, file_size, file_media_type, file_sha256, result, fields_meta, review_threshold, needs_review, engine, attempts, updated_at, completed_at'
const started = performance.now()
for (let n = 0; n < REVIEWED + UNREVIEWED; n++) {
  const createdAt = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString()
  await t.rows(`insert into jobs (id, created_at, reviewed_at, ${COLUMNS}) select ?, ?, ?, ${COLUMNS} from jobs where id = ?`, [
    newId('job'),
    createdAt,
    n % (1 + UNREVIEWED / REVIEWED) < 1 ? createdAt : null,
    job.id,
  ])
}
const seeded = (performance.now() - started) / 1000

async function median(path: string): Promise<{ ms: number; body: any }> {
  const times: number[] = []
  let body: any
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now()
    const answer = await t.call('GET', path)
    times.push(performance.now() - start)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    body = answer.body
  }
  return { ms: times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!, body }
}

const page = await median('/api/v1/jobs?limit=100')
const accuracy = await median('/api/v1/accuracy')
const recent = await median('/api/v1/accuracy?since=2026-01-08')
console.log(`${t.database.kind}: seeded ${REVIEWED + UNREVIEWED} jobs of ${keys.length} fields in ${seeded.toFixed(1)} s`)
console.log(`GET /api/v1/jobs?limit=100: ${page.ms.toFixed(1)} ms (median of ${ROUNDS})`)
console.log(
  `GET /api/v1/accuracy: ${accuracy.ms.toFixed(1)} ms over ${accuracy.body.jobs} reviewed jobs (${accuracy.body.total.reviewed} values), ${(accuracy.ms / page.ms).toFixed(1)}× the page`,
)
console.log(
  `GET /api/v1/accuracy?since=2026-01-08: ${recent.ms.toFixed(1)} ms over ${recent.body.jobs} reviewed jobs, ${(recent.ms / page.ms).toFixed(1)}× the page`,
)
await t.runner.stop(0)
await closeTestDatabases()
process.exit(0)
