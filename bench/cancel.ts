/**
 * Cancel, timeout and stop while native code reads a document (issue 30, D190–D193), against the
 * compiled binary with its default settings (2 workers) in a temporary directory:
 *
 * - cancels: image, PDF and HEIC jobs (a phone photo, a page scan as PNG and WebP, a scanned PDF,
 *   libheif's example HEIC) canceled at a random moment of their run, two at a time; after each,
 *   the server must answer, the job must read `canceled` (and still do at the end), and every
 *   tenth cancel a known scan must be read right. Target: CANCELS (100) cancels, no crash.
 * - timeouts: the kinds of job that take over twice as long alone, on a server with `--job-timeout
 *   1s`: each fails `extraction_timeout` (its process killed mid-read), or `document_too_large`
 *   where the document's pages are seen to need longer than a job may run before they are read
 *   (D187: a PDF's scanned pages, from its first); the server answers, and the next job (a text,
 *   read well within 1 s) reads right. Target: none succeeds or fails otherwise, most time out.
 * - stop: SIGTERM while 2 synchronous requests' jobs run (photos and scans, mid-OCR) and 4 more
 *   wait queued: the time to exit, its status, what the clients got, and the jobs' statuses
 *   after (target: within 10 s, status 0, the running jobs handed back and the queued left queued).
 *
 *   bun bench/cancel.ts        builds dist/extractd first (SKIP_BUILD=1 reuses it)
 *   EXTRACTD=/path/to/extractd  measures another binary (an older build, to compare)
 *   CANCELS=100 TIMEOUTS=10 ONLY=cancels,timeouts,stop
 *
 * Run by `bun run bench:hostile`. Exits 1 when a target is missed.
 */
import { Database } from 'bun:sqlite'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { imagePdf, receiptPhoto, renderPage, toJpeg, toPng, toWebp } from '../test/helpers/images'
import { startServer, tempDir } from '../test/helpers/process'

const ROOT = resolve(import.meta.dir, '..')
const env = process.env
const BINARY = env.EXTRACTD ?? join(ROOT, 'dist/extractd')
const CANCELS = Number(env.CANCELS ?? 100)
const TIMEOUTS = Number(env.TIMEOUTS ?? 10)
const ONLY = new Set((env.ONLY ?? 'cancels,timeouts,stop').split(','))
const STOP_TARGET_MS = 10_000

if (!env.SKIP_BUILD && !env.EXTRACTD) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
  if (build.exitCode !== 0) process.exit(1)
}

// ---- documents -------------------------------------------------------------------------------------
const RECEIPT = ['CORNER GROCER LTD', 'Receipt No: CG-3390', 'Date: 05/11/2024', 'Milk 2L          2.10', 'Bread            3.30', 'TOTAL          12.40']
const INVOICE = ['ACME SUPPLIES LTD', 'Invoice No: INV-7', 'Date: 2024-03-05', 'Widgets x 4     40.00', 'Total due: 48.00 EUR']
const page = await renderPage({ lines: INVOICE, width: 595, fontSize: 14 }, 300)
const pageJpeg = toJpeg(page, 85)
const DOCUMENTS: { kind: string; name: string; bytes: Uint8Array }[] = [
  { kind: 'JPEG photo 12 MP', name: 'IMG_0042.jpg', bytes: await receiptPhoto(RECEIPT, { grain: 24 }) },
  { kind: 'PNG scan 300 dpi', name: 'scan.png', bytes: toPng(page) },
  { kind: 'PDF of 6 scanned pages', name: 'scans.pdf', bytes: await imagePdf(Array.from({ length: 6 }, () => ({ jpeg: pageJpeg }))) },
  { kind: 'HEIC photo', name: 'IMG_0001.HEIC', bytes: new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/example.heic'))) },
  { kind: 'WebP scan', name: 'scan.webp', bytes: await toWebp(page) },
]
/** A receipt whose reading is known (test/e2e/ocr.test.ts): the "next job reads right" check. */
const CHECK = {
  name: 'check.jpg',
  bytes: toJpeg(await renderPage({ lines: ['CORNER GROCER LTD', 'Receipt No: CG-3390', 'Date: 05/11/2024', 'Apples       2   3.20', 'TOTAL          12.40'] })),
  extract: { document_type: 'invoice', fields: { invoice_number: 'Receipt number', date: 'Date', total: 'Total' } },
  expected: { invoice_number: 'CG-3390', date: '2024-11-05', total: '12.40' },
}
/** Long enough to be running when SIGTERM comes: 12 scanned pages each. */
const LONG_PDF = await imagePdf(Array.from({ length: 12 }, () => ({ jpeg: pageJpeg })))
const EXTRACT = { document_type: 'invoice', fields: { invoice_number: 'Invoice or receipt number', total: 'Total' } }

// ---- servers ---------------------------------------------------------------------------------------
const work = tempDir('extractd-bench-cancel-')
/** One home for every server of the run: native libraries are unpacked into its cache once. */
const HOME = { HOME: work.path }

/** The first key of each database, printed at its first start only. */
const keys = new Map<string, string>()

async function serve(args: string[] = [], db = join(work.path, `run-${Date.now()}.sqlite`)) {
  const server = await startServer([BINARY], ['--db', db, ...args], work.path, HOME)
  if (server.firstKey) keys.set(db, server.firstKey)
  return { server, db, stderr: server.stderr, key: keys.get(db)! }
}

type Served = Awaited<ReturnType<typeof serve>>

async function call(served: Served, path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(served.server.url + path, { ...init, headers: { authorization: `Bearer ${served.key}` } })
  return { status: response.status, body: await response.json().catch(() => null) }
}

function form(document: { name: string; bytes: Uint8Array }, extract: object = EXTRACT): FormData {
  const body = new FormData()
  body.set('file', new File([document.bytes], document.name))
  body.set('extract', JSON.stringify(extract))
  return body
}

async function jobOf(served: Served, id: string) {
  return (await call(served, `/api/v1/jobs/${id}`)).body?.job as { id: string; status: string; error?: { code: string }; result?: any } | undefined
}

/** Whether the server still answers /healthz, within 5 s. */
async function up(served: Served): Promise<boolean> {
  if (served.server.proc.exitCode !== null || served.server.proc.signalCode) return false
  try {
    return (await fetch(`${served.server.url}/healthz`, { signal: AbortSignal.timeout(5000) })).status === 200
  } catch {
    return false
  }
}

/** A text whose reading is known, read well within a 1 s timeout: the check of the timeouts. */
const TEXT_CHECK = {
  name: 'invoice.txt',
  bytes: new TextEncoder().encode('ACME Ltd\nInvoice No.: T-123\nDate: 2024-03-05\nTotal: 10.00 EUR\n'),
  extract: { document_type: 'invoice', fields: { invoice_number: 'Invoice number', total: 'Total' } },
  expected: { invoice_number: 'T-123', total: '10.00' },
}

/** What checks read wrong: the job's status and error code, or its values. */
const misreadings: string[] = []

/**
 * Whether the check document is read right. A synchronous request whose job outlasts the sync
 * wait (a busy machine: the other lane's photo shares the cores) is answered 202; its job is then
 * followed to its end, for a slow reading is not a wrong one.
 */
async function readsRight(served: Served, check: typeof CHECK | typeof TEXT_CHECK = CHECK): Promise<boolean> {
  try {
    const { status, body } = await call(served, '/api/v1/extract', { method: 'POST', body: form(check, check.extract) })
    let job = body?.job as Awaited<ReturnType<typeof jobOf>>
    const until = performance.now() + 300_000
    while (status === 202 && job && (job.status === 'queued' || job.status === 'running') && performance.now() < until) {
      await Bun.sleep(500)
      job = await jobOf(served, job.id)
    }
    if (job?.status === 'succeeded' && Bun.deepEquals(job.result, check.expected)) return true
    misreadings.push(`${status} ${job?.status ?? '-'} ${job?.error?.code ?? JSON.stringify(job?.result ?? null)}`)
    return false
  } catch {
    misreadings.push('the server went down')
    return false
  }
}

/** How the server died: its exit status or signal and the last lines it wrote on stderr. */
function death(served: Served): string {
  const { exitCode, signalCode } = served.server.proc
  const tail = served.stderr().trim().split('\n').slice(-3).join(' / ')
  return `exit ${exitCode ?? '-'} signal ${signalCode ?? '-'}: ${tail}`
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
let misses = 0

// ---- how long each kind takes, uncanceled ----------------------------------------------------------
let served = await serve()
console.log(`extractd ${BINARY}\n`)
const durations = new Map<string, number>()
for (const document of DOCUMENTS) {
  const started = performance.now()
  const { body } = await call(served, '/api/v1/extract', { method: 'POST', body: form(document) })
  durations.set(document.kind, performance.now() - started)
  console.log(
    `${document.kind} (${Math.round(document.bytes.length / 1024)} KiB): ${body?.job?.status} ${body?.job?.error?.code ?? ''} in ${seconds(durations.get(document.kind)!)}`,
  )
}

// ---- cancels ---------------------------------------------------------------------------------------
if (ONLY.has('cancels')) {
  const canceled: string[] = []
  const crashes: string[] = []
  let endedFirst = 0
  let notCanceled = 0
  let wrongReads = 0
  let restarting: Promise<void> | undefined
  const moments: number[] = []

  /** After a crash the server is started again on its database, so the loop can count the rest. */
  async function survive(): Promise<void> {
    if (await up(served)) return
    restarting ??= (async () => {
      crashes.push(death(served))
      served = await serve([], served.db)
      restarting = undefined
    })()
    await restarting
  }

  async function lane(lane: number): Promise<void> {
    for (let round = 0; canceled.length < CANCELS; round++) {
      const document = DOCUMENTS[(round * 2 + lane) % DOCUMENTS.length]!
      const submitted = await call(served, '/api/v1/extract?async=true', { method: 'POST', body: form(document) }).catch(() => undefined)
      if (submitted?.status !== 202) {
        await survive()
        continue
      }
      const id = submitted.body.job.id as string
      let job = await jobOf(served, id).catch(() => undefined)
      while (job && job.status === 'queued') job = await jobOf(served, id).catch(() => undefined)
      if (job?.status !== 'running') {
        await survive()
        continue
      }
      // A random moment of its run: between its start and the time it takes alone (8 s at most).
      const delay = Math.random() * Math.min(durations.get(document.kind)!, 8000)
      await Bun.sleep(delay)
      const answer = await call(served, `/api/v1/jobs/${id}/cancel`, { method: 'POST' }).catch(() => undefined)
      if (answer?.status === 409) {
        endedFirst++
        continue
      }
      if (answer?.status === 200 && answer.body.job.status === 'canceled') {
        canceled.push(id)
        moments.push(delay)
      } else notCanceled++
      await Bun.sleep(200) // long enough for a process torn down mid-call to abort
      await survive()
      if (canceled.length % 10 === 0 && !(await readsRight(served))) {
        wrongReads++
        await survive()
      }
    }
  }

  const started = performance.now()
  await Promise.all([lane(0), lane(1)])
  let stillCanceled = 0
  for (const id of canceled) if ((await jobOf(served, id))?.status === 'canceled') stillCanceled++
  const last = (await up(served)) && (await readsRight(served))
  const ok = crashes.length === 0 && stillCanceled === canceled.length && notCanceled === 0 && wrongReads === 0 && last
  if (!ok) misses++
  console.log(
    `\ncancels: ${canceled.length} running jobs canceled ${Math.round(Math.min(...moments))}–${Math.round(Math.max(...moments))} ms into their run ` +
      `(median ${Math.round(median(moments))} ms) in ${seconds(performance.now() - started)}; ${endedFirst} ended before their cancel; ` +
      `server crashes: ${crashes.length}${crashes.length ? ` (first: ${crashes[0]})` : ''}; ` +
      `still canceled at the end: ${stillCanceled}/${canceled.length}; cancels not answered canceled: ${notCanceled}; ` +
      `checks read wrong: ${wrongReads}${misreadings.length ? ` (${misreadings.join('; ')})` : ''}; last job read right: ${last} — ${ok ? 'ok' : 'MISSED'}`,
  )
}
await served.server.stop()

// ---- timeouts --------------------------------------------------------------------------------------
if (ONLY.has('timeouts')) {
  served = await serve(['--job-timeout', '1s'])
  const outcomes: string[] = []
  let down = 0
  let wrongReads = 0
  // Photos and scans that take over twice the timeout alone (a warm process reads faster than the
  // first, and pages that are one JPEG are read as photos, D350); the check text well within it.
  const slow = DOCUMENTS.filter((document) => durations.get(document.kind)! > 2000)
  for (let i = 0; i < TIMEOUTS && slow.length > 0; i++) {
    const document = slow[i % slow.length]!
    const { body } = await call(served, '/api/v1/extract', { method: 'POST', body: form(document) }).catch(() => ({ body: undefined }))
    outcomes.push(body?.job ? `${body.job.status}${body.job.error ? ` ${body.job.error.code}` : ''}` : 'no answer')
    await Bun.sleep(200)
    if (!(await up(served))) {
      down++
      console.log(`  server down after timeout ${i + 1}: ${death(served)}`)
      served = await serve(['--job-timeout', '1s'], served.db)
    } else if (!(await readsRight(served, TEXT_CHECK))) wrongReads++
  }
  const timedOut = outcomes.filter((outcome) => outcome === 'failed extraction_timeout').length
  const refusedUpFront = outcomes.filter((outcome) => outcome === 'failed document_too_large').length
  const ok = down === 0 && wrongReads === 0 && timedOut + refusedUpFront === outcomes.length && timedOut >= outcomes.length / 2
  if (!ok) misses++
  console.log(
    `timeouts (--job-timeout 1s, ${slow.map((document) => document.kind).join(', ')}): ${timedOut}/${outcomes.length} failed extraction_timeout, ${refusedUpFront} document_too_large ` +
      `(${[...new Set(outcomes)].join(', ')}); server down after ${down}; next job read wrong ${wrongReads} times — ${ok ? 'ok' : 'MISSED'}`,
  )
  await served.server.stop()
}

// ---- stop ------------------------------------------------------------------------------------------
if (ONLY.has('stop')) {
  served = await serve()
  const documents = [LONG_PDF, DOCUMENTS[0]!.bytes, LONG_PDF, LONG_PDF, DOCUMENTS[0]!.bytes, LONG_PDF]
  // Six clients waiting synchronously, as the reliability run's were.
  const answers = documents.map((bytes, i) =>
    call(served, '/api/v1/extract', { method: 'POST', body: form({ name: i % 3 === 1 ? 'photo.jpg' : 'scans.pdf', bytes }) }).then(
      ({ status, body }) => `${status} ${body?.job?.status ?? body?.code ?? ''}`,
      () => 'connection closed',
    ),
  )
  let running: { id: string }[] = []
  while (running.length < 2) {
    running = (await call(served, '/api/v1/jobs?status=running')).body.jobs
    await Bun.sleep(50)
  }
  await Bun.sleep(1500) // mid-OCR
  const queued = (await call(served, '/api/v1/jobs?status=queued')).body.jobs.length
  const started = performance.now()
  const code = await served.server.stop('SIGTERM')
  const stopMs = performance.now() - started
  const clients = await Promise.all(answers)
  const database = new Database(served.db, { readonly: true })
  const statuses = database.query('select status, count(*) as n from jobs group by status order by status').all() as { status: string; n: number }[]
  database.close()
  const crashed = /terminate called|Aborted|core dumped/.test(served.stderr())
  const after = Object.fromEntries(statuses.map(({ status, n }) => [status, n]))
  const ok = stopMs <= STOP_TARGET_MS && code === 0 && !crashed && (after.queued ?? 0) >= queued
  if (!ok) misses++
  console.log(
    `stop: SIGTERM with ${running.length} jobs running mid-OCR and ${queued} queued, all of synchronous requests: exited ${code} in ${seconds(stopMs)}` +
      `${crashed ? ' after a native abort' : ''}; the clients got ${[...new Set(clients)].map((c) => `${clients.filter((x) => x === c).length}× ${c}`).join(', ')}; ` +
      `jobs after: ${statuses.map(({ status, n }) => `${n} ${status}`).join(', ')} (target ≤ ${STOP_TARGET_MS / 1000} s, status 0, queued left queued) — ${ok ? 'ok' : 'MISSED'}`,
  )
  // The next start takes the jobs up again.
  served = await serve([], served.db)
  let resumed = 0
  for (let i = 0; i < 100 && resumed < 2; i++) {
    resumed = (await call(served, '/api/v1/jobs?status=running')).body.jobs.length
    await Bun.sleep(100)
  }
  console.log(`after a new start on the same database: ${resumed} jobs running again`)
  await served.server.stop('SIGKILL')
}

work.remove()
console.log(misses ? `\n${misses} target(s) missed` : '\nevery target met')
process.exit(misses ? 1 : 0)
