/**
 * Cancel, timeout and stop while the compiled binary's extraction processes are in native code
 * (issue 30, D190, D193): a job's end never takes the server with it. `bun bench/cancel.ts` runs
 * the hundred random cancels and measures the stop; this holds the outcomes.
 */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eventually } from '../helpers/eventually'
import { imagePdf, receiptPhoto, renderPage, toJpeg } from '../helpers/images'
import { api, upload } from '../helpers/llm-stub'
import { buildBinary, runCli, type RunningServer, startServer, tempDir } from '../helpers/process'

setDefaultTimeout(180_000)

const dir = tempDir('extractd-cancel-')
/** One home for the binary's cache: its native libraries are unpacked once for every server here. */
const HOME = { HOME: dir.path }
let binary: string
const EXTRACT = { document_type: 'invoice', fields: { invoice_number: 'Receipt number', date: 'Date', total: 'Total' } }
const RECEIPT = ['CORNER GROCER LTD', 'Receipt No: CG-3390', 'Date: 05/11/2024', 'Apples       2   3.20', 'TOTAL          12.40']
let photo: Uint8Array
let scans: Uint8Array
/** Long enough that no job ends between the check that two run and the stop, on a fast idle machine too (6 pages did). */
let longScans: Uint8Array
let receipt: Uint8Array
/**
 * Pages small enough that the document's read-time estimate (D187: 0.5 s a megapixel) stays
 * under the 1 s timeout, so the timeout, not an early refusal, ends the job: 5 × ~0.35 MP.
 */
let timeoutScans: Uint8Array

beforeAll(async () => {
  binary = await buildBinary()
  photo = await receiptPhoto(RECEIPT)
  const page = toJpeg(await renderPage({ lines: ['ACME SUPPLIES LTD', 'Invoice No: INV-7', 'Total due: 48.00 EUR'], width: 595, fontSize: 14 }, 300), 85)
  scans = await imagePdf(Array.from({ length: 6 }, () => ({ jpeg: page })))
  longScans = await imagePdf(Array.from({ length: 40 }, () => ({ jpeg: page })))
  const small = toJpeg(await renderPage({ lines: ['ACME SUPPLIES LTD', 'Invoice No: INV-7', 'Total due: 48.00 EUR'], width: 595, fontSize: 14 }, 150), 85)
  timeoutScans = await imagePdf(Array.from({ length: 5 }, () => ({ jpeg: small })))
  receipt = toJpeg(await renderPage({ lines: RECEIPT }))
}, 180_000)

afterAll(() => dir.remove())

/** The server's extraction processes now. */
function children(server: RunningServer): number[] {
  return readdirSync(`/proc/${server.proc.pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${server.proc.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  )
}

/** Whether a process is alive (a zombie not yet reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

async function submit(server: RunningServer, bytes: Uint8Array, name: string): Promise<string> {
  const { status, body } = await api(server, '/api/v1/extract?async=true', { method: 'POST', body: upload(bytes, name, EXTRACT) })
  expect(status).toBe(202)
  return body.job.id
}

async function whenRunning(server: RunningServer, id: string): Promise<void> {
  await eventually(async () => (await api(server, `/api/v1/jobs/${id}`)).body.job.status === 'running', 60_000)
}

/** The known receipt, read synchronously: the server reads right after what happened before. */
async function expectReadsRight(server: RunningServer): Promise<void> {
  const { status, body } = await api(server, '/api/v1/extract', { method: 'POST', body: upload(receipt, 'receipt.jpg', EXTRACT) })
  expect(status).toBe(200)
  expect(body.job).toMatchObject({ status: 'succeeded', result: { invoice_number: 'CG-3390', date: '2024-11-05', total: '12.40' } })
}

describe('one server', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer([binary], ['--db', join(dir.path, 'cancel.sqlite')], dir.path, HOME)
  })
  afterAll(() => server?.stop())

  test('the extraction runs in processes of the same executable, which `ps` shows as extract-worker', async () => {
    await expectReadsRight(server)
    const [pid] = children(server)
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)).toEqual([binary, 'extract-worker'])
  })

  test('photos and scans canceled at random moments of their reading end canceled; only their process is killed, and the server reads on', async () => {
    const documents = [
      { bytes: photo, name: 'IMG_0042.jpg' },
      { bytes: scans, name: 'scans.pdf' },
      { bytes: new Uint8Array(readFileSync(join(import.meta.dir, '../fixtures/example.heic'))), name: 'IMG_0001.HEIC' },
    ]
    const canceled: string[] = []
    for (let round = 0; round < 6; round++) {
      const document = documents[round % documents.length]!
      const id = await submit(server, document.bytes, document.name)
      await whenRunning(server, id)
      const before = children(server)
      await Bun.sleep(Math.random() * 1500)
      const { status, body } = await api(server, `/api/v1/jobs/${id}/cancel`, { method: 'POST' })
      if (status === 409) continue // it ended first
      expect(status).toBe(200)
      expect(body.job.status).toBe('canceled')
      canceled.push(id)
      // Its process is killed; the server answers.
      await eventually(() => before.filter(alive).length < before.length)
      expect((await api(server, '/healthz')).status).toBe(200)
      expect(server.proc.exitCode).toBeNull()
    }
    expect(canceled.length).toBeGreaterThan(0)
    await expectReadsRight(server)
    for (const id of canceled) expect((await api(server, `/api/v1/jobs/${id}`)).body.job.status).toBe('canceled')
    expect(server.stderr()).not.toMatch(/terminate called|Aborted|core dumped/)
  })

  test('an extraction process started by hand refuses: only a server starts one', async () => {
    const result = await runCli([binary], ['extract-worker'], dir.path, HOME)
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('extractd: extract-worker is started by extractd serve, not by hand\n')
  })
})

test('--job-timeout stops a scan mid-OCR: the job fails extraction_timeout, the server reads on', async () => {
  const server = await startServer([binary], ['--db', join(dir.path, 'timeout.sqlite'), '--job-timeout', '1s'], dir.path, HOME)
  try {
    const { status, body } = await api(server, '/api/v1/extract', { method: 'POST', body: upload(timeoutScans, 'scans.pdf', EXTRACT) })
    expect(status).toBe(200)
    expect(body.job).toMatchObject({ status: 'failed', error: { code: 'extraction_timeout', message: 'The extraction took longer than 1 s and was stopped' } })
    expect(server.proc.exitCode).toBeNull()
    expect(server.stderr()).not.toMatch(/terminate called|Aborted|core dumped/)
  } finally {
    await server.stop()
  }
})

test('SIGTERM with jobs running and queued: exits 0 without waiting for the queue; running jobs go back to the queue, queued ones stay; the next start takes them up', async () => {
  const db = join(dir.path, 'stop.sqlite')
  const server = await startServer([binary], ['--db', db], dir.path, HOME)
  // Six clients waiting synchronously: two jobs run (mid-OCR), four wait.
  const answers = Array.from({ length: 6 }, () =>
    api(server, '/api/v1/extract', { method: 'POST', body: upload(longScans, 'scans.pdf', EXTRACT) }).then(
      ({ status, body }) => ({ status, job: body.job.status as string }),
      () => ({ status: 0, job: 'no answer' }),
    ),
  )
  await eventually(async () => (await api(server, '/api/v1/jobs?status=running')).body.jobs.length === 2, 60_000)
  const processes = children(server)
  expect(await server.stop('SIGTERM')).toBe(0)
  expect(server.stderr()).not.toMatch(/terminate called|Aborted|core dumped/)
  await eventually(() => processes.filter(alive).length === 0)
  // Every client was answered, 202 with its job as it was: none of the jobs ran to its end.
  for (const answer of await Promise.all(answers)) expect(answer).toMatchObject({ status: 202, job: expect.stringMatching(/^(queued|running)$/) })
  const database = new Database(db, { readonly: true })
  const jobs = database.query('select status, runner, attempts from jobs').all() as { status: string; runner: string | null; attempts: number }[]
  database.close()
  expect(jobs).toHaveLength(6)
  expect(jobs.every((job) => job.status === 'queued' && job.runner === null)).toBe(true)
  expect(jobs.map((job) => job.attempts).sort()).toEqual([0, 0, 0, 0, 1, 1])

  // The database's key was printed at its first start.
  const again = { ...(await startServer([binary], ['--db', db], dir.path, HOME)), firstKey: server.firstKey }
  try {
    await eventually(() => again.lines.some((line) => line.includes('"resuming jobs"')))
    await eventually(async () => (await api(again, '/api/v1/jobs?status=running')).body.jobs.length === 2, 60_000)
  } finally {
    expect(await again.stop('SIGTERM')).toBe(0)
  }
})

test('a server killed outright takes its extraction processes with it', async () => {
  const server = await startServer([binary], ['--db', join(dir.path, 'kill.sqlite')], dir.path, HOME)
  const id = await submit(server, scans, 'scans.pdf')
  await whenRunning(server, id)
  const processes = children(server)
  expect(processes).toHaveLength(1)
  expect(await server.stop('SIGKILL')).not.toBe(0)
  await eventually(() => processes.filter(alive).length === 0)
})
