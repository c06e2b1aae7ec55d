/**
 * The job queue shared by accounts and instances: jobs are claimed in the accounts' turns
 * (D131), a runner holds only what it runs and claims again when a slot frees (D130), an account
 * cannot queue past its caps (D133), and a synchronous request waits at most the sync wait (D134).
 */
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import type { Database } from '../../../src/db/database'
import { ApiError } from '../../../src/http/errors'
import { silentLogger } from '../../../src/lib/log'
import { loadCatalog } from '../../../src/modules/catalog/service'
import type { Extractor } from '../../../src/modules/extraction/extractor'
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import type { QueueCaps } from '../../../src/modules/extraction/repository'
import { jobsRepository } from '../../../src/modules/extraction/repository'
import { claimJob, createJob, getJob } from '../../../src/modules/extraction/service'
import { createJobRunner, type JobRunner } from '../../../src/modules/extraction/worker'
import { createKey } from '../../../src/modules/keys/service'
import { BASE, expectEnvelope, makeTestApp } from '../../helpers/app'
import { anotherHandle, openTestDatabase, TEST_DIALECT } from '../../helpers/database'
import { tempDir } from '../../helpers/process'
import { joined } from '../../helpers/answers'
import { eventually } from '../../helpers/eventually'

// The first PostgreSQL database of a run takes seconds to make on a busy machine.
setDefaultTimeout(20_000)

const dir = tempDir('extractd-queue-')
afterAll(() => dir.remove())

const runners: JobRunner[] = []
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop(0)
})

let files = 0

/** A database file (or PostgreSQL) with two accounts; jobs are named by their text, which the extractor records in the order it starts them. */
async function setup() {
  const database = await openTestDatabase(join(dir.path, `queue-${files++}.sqlite`))
  const a = (await createKey(database, 'a')).accountId
  const b = (await createKey(database, 'b')).accountId
  const started: string[] = []
  const ended: string[] = []
  const extractor =
    (ms: number): Extractor =>
    async ({ content, fields }, _progress, signal) => {
      const name = new TextDecoder().decode(content)
      started.push(name)
      // Stopped, as the process pool stops a job, when the runner aborts it.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms)
        signal?.addEventListener('abort', () => {
          clearTimeout(timer)
          reject(new Error('aborted'))
        })
      })
      ended.push(name)
      return { kind: 'answers' as const, answers: joined({ values: Object.fromEntries(fields.map(({ key }) => [key, name])), meta: {} }) }
    }
  const runner = (options: { ms?: number; concurrency?: number; pollMs?: number; leaseMs?: number; on?: Database } = {}) => {
    const made = createJobRunner({
      database: options.on ?? database,
      extract: extractor(options.ms ?? 5),
      catalog: loadCatalog(),
      concurrency: options.concurrency ?? 1,
      keepFileMs: 0,
      readLimits: DEFAULT_READ_LIMITS,
      log: silentLogger,
      leaseMs: options.leaseMs ?? 300,
      pollMs: options.pollMs ?? 20,
    })
    runners.push(made)
    return made
  }
  const newJob = async (accountId: string, name: string, on: Database = database, caps?: QueueCaps) =>
    (
      await createJob(
        on,
        {
          accountId,
          documentType: 'invoice',
          schemaId: null,
          schemaVersion: null,
          fields: [{ key: 'total', label: 'Total', description: '', type: 'amount' }],
          engine: 'test',
          file: { name: 'a.txt', mediaType: 'text/plain', content: new TextEncoder().encode(name), sha256: '0'.repeat(64) },
        },
        caps,
      )
    ).id
  const statusOf = async (accountId: string, id: string) => (await getJob(database, accountId, id)).status
  return { database, a, b, started, ended, runner, newJob, statusOf }
}

describe('jobs are claimed in the accounts turns (D131)', () => {
  test("another account's job runs next after the job running now, not after one account's whole backlog", async () => {
    const { a, b, started, runner, newJob } = await setup()
    for (let i = 1; i <= 5; i++) await newJob(a, `a${i}`)
    await newJob(b, 'b1')
    runner().start()
    await eventually(() => started.length === 6)
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'a5'])
  })

  test('two accounts with backlogs take turns, one job each', async () => {
    const { a, b, started, runner, newJob } = await setup()
    for (let i = 1; i <= 3; i++) await newJob(a, `a${i}`)
    for (let i = 1; i <= 3; i++) await newJob(b, `b${i}`)
    runner().start()
    await eventually(() => started.length === 6)
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3'])
  })

  test('across two instances: the second slot goes to the account with no job running, though the other queued first', async () => {
    const { database, a, b, started, runner, newJob } = await setup()
    const other = await anotherHandle(database)
    for (let i = 1; i <= 4; i++) await newJob(a, `a${i}`)
    await newJob(b, 'b1', other)
    runner({ ms: 200 }).start()
    await eventually(() => started.length === 1)
    runner({ ms: 200, on: other }).start()
    await eventually(() => started.length === 2)
    expect(started).toEqual(['a1', 'b1'])
  })
})

describe('while another account waits, one account holds at most half the slots (D194)', () => {
  test("an idle runner gives one account every slot; another account's job then takes the place of its newest, which waits for its turn", async () => {
    const { a, b, started, runner, newJob, statusOf, database } = await setup()
    await newJob(a, 'a1')
    const a2 = await newJob(a, 'a2')
    runner({ ms: 3000, concurrency: 2 }).start()
    await eventually(() => started.length === 2)
    const b1 = await newJob(b, 'b1')
    await eventually(() => started.length === 3)
    expect(await statusOf(a, a2)).toBe('queued')
    await eventually(async () => (await statusOf(a, a2)) === 'succeeded' && (await statusOf(b, b1)) === 'succeeded', 10_000)
    expect(started).toEqual(['a1', 'a2', 'b1', 'a2'])
    expect((await jobsRepository(database).find(a, a2))!.attempts).toBe(2)
  })

  test("an account at its share of a runner's slots waits there while another account waits, though it has fewer jobs running anywhere", async () => {
    const { database, a, b, started, runner, newJob } = await setup()
    // B's three jobs run on another instance.
    for (let i = 1; i <= 3; i++) expect(await claimJob(database, await newJob(b, `b${i}`), 'elsewhere', 60_000)).toBeDefined()
    for (let i = 1; i <= 3; i++) await newJob(a, `a${i}`)
    await newJob(b, 'b4')
    runner({ ms: 2000, concurrency: 4 }).start()
    await eventually(() => started.length === 4)
    // A, with fewer jobs running anywhere, comes first until it holds its share here, 2 of the 4 slots; then B; then A alone waits.
    expect(started.map((name) => name[0])).toEqual(['a', 'a', 'b', 'a'])
  })

  test('one account alone is never made to give way to itself', async () => {
    const { a, started, runner, newJob, statusOf } = await setup()
    const ids: string[] = []
    for (let i = 1; i <= 4; i++) ids.push(await newJob(a, `a${i}`))
    runner({ ms: 300, concurrency: 2 }).start()
    await eventually(async () => (await Promise.all(ids.map((id) => statusOf(a, id)))).every((status) => status === 'succeeded'), 5000)
    expect(started).toEqual(['a1', 'a2', 'a3', 'a4'])
  })
})

describe('a runner holds only what it runs (D130)', () => {
  test('a freed slot claims the next job at once, not at the next poll', async () => {
    const { a, ended, runner, newJob, statusOf } = await setup()
    const ids: string[] = []
    for (let i = 1; i <= 4; i++) ids.push(await newJob(a, `a${i}`))
    runner({ pollMs: 60_000 }).start()
    await eventually(() => ended.length === 4, 3000)
    // The last job's result is written just after its extraction ends.
    await eventually(async () => (await Promise.all(ids.map((id) => statusOf(a, id)))).every((status) => status === 'succeeded'), 3000)
  })

  test("a dead runner's job is taken over once its lease runs out, ahead of the survivor's own backlog", async () => {
    const { database, a, ended, runner, newJob } = await setup()
    const orphan = await newJob(a, 'orphan')
    expect(await claimJob(database, orphan, 'dead-runner', 300)).toBeDefined()
    for (let i = 1; i <= 10; i++) await newJob(a, `a${i}`)
    runner({ ms: 100 }).start()
    await eventually(() => ended.length === 11, 5000)
    // The backlog alone takes ~1 s; the orphan's lease ran out after 0.3 s.
    expect(ended.indexOf('orphan')).toBeLessThan(6)
  })
})

describe('stopping (D193)', () => {
  test('answers those waiting on queued jobs at once, gives the running job back after the grace, and leaves queued jobs queued', async () => {
    const { a, started, ended, runner, newJob, statusOf } = await setup()
    const ids = [await newJob(a, 'a1'), await newJob(a, 'a2'), await newJob(a, 'a3')]
    const stopping = runner({ ms: 60_000 })
    stopping.start()
    await eventually(() => started.length === 1)
    const order: string[] = []
    const waits = ids.map((id, i) => stopping.submit(id).then(() => order.push(`a${i + 1} answered`)))
    await stopping.stop(300).then(() => order.push('stopped'))
    await Promise.all(waits)
    // The queued jobs' waiters first, the running job's when the grace ran out and it was given back.
    expect(order.slice(0, 2).sort()).toEqual(['a2 answered', 'a3 answered'])
    expect(order.slice(2)).toEqual(['a1 answered', 'stopped'])
    expect(await Promise.all(ids.map((id) => statusOf(a, id)))).toEqual(['queued', 'queued', 'queued'])
    expect([started, ended]).toEqual([['a1'], []])
  })
})

describe("a dead runner's job comes first (D195)", () => {
  test("it is claimed before any queued job, though another account's turn would come first", async () => {
    const { database, a, b, started, runner, newJob } = await setup()
    const orphan = await newJob(a, 'orphan')
    expect(await claimJob(database, orphan, 'dead-runner', 100)).toBeDefined()
    for (let i = 1; i <= 3; i++) await newJob(b, `b${i}`)
    await Bun.sleep(150) // its lease runs out
    runner().start()
    await eventually(() => started.length === 4)
    expect(started).toEqual(['orphan', 'b1', 'b2', 'b3'])
  })
})

describe('queue caps (D133)', () => {
  test('jobs queued or running past the cap are refused, exactly, across two instances at once', async () => {
    const { database, a, newJob } = await setup()
    const other = await anotherHandle(database)
    const caps = { maxQueuedJobs: 5, maxQueuedBytes: 1_000_000 }
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => newJob(a, `a${i}`, i % 2 ? database : other, caps)))
    for (const outcome of outcomes)
      if (outcome.status === 'rejected') expect(outcome.reason instanceof ApiError && outcome.reason.code === 'queue_limit_reached').toBe(true)
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5)
  })
})

describe.skipIf(TEST_DIALECT !== 'sqlite')('SQLite: the space of deleted documents (D133)', () => {
  test('is given back to the file system by the purge after their jobs are canceled', async () => {
    const { database, a } = await setup()
    if (database.kind !== 'sqlite') throw new Error('SQLite only')
    const pages = () => (database.sqlite.query('PRAGMA page_count').get() as { page_count: number }).page_count
    const empty = pages()
    const jobs = jobsRepository(database)
    const ids = []
    for (let i = 0; i < 4; i++) {
      const created = await createJob(database, {
        accountId: a,
        documentType: 'invoice',
        schemaId: null,
        schemaVersion: null,
        fields: [{ key: 'total', label: 'Total', description: '', type: 'amount' }],
        engine: 'test',
        file: { name: 'big.txt', mediaType: 'text/plain', content: new Uint8Array(1024 * 1024).fill(65), sha256: '0'.repeat(64) },
      })
      ids.push(created.id)
    }
    const full = pages()
    expect(full).toBeGreaterThan(empty + 900)
    for (const id of ids) await jobs.cancel(a, id, 0)
    expect(pages()).toBe(full) // deleted, but the file keeps the pages until the purge
    await jobs.purgeExpiredFiles()
    expect(pages()).toBeLessThan(empty + 100)
  })
})

describe('POST /api/v1/extract under the caps and the sync wait', () => {
  const upload = (text: string, extract: Record<string, unknown> = { document_type: 'invoice' }) => {
    const form = new FormData()
    form.set('extract', JSON.stringify(extract))
    form.set('file', new File([text], 'doc.txt', { type: 'text/plain' }))
    return form
  }

  test("over the account's cap of jobs: 429 queue_limit_reached with Retry-After; another account is not affected; a canceled job frees a place", async () => {
    const t = await makeTestApp({ paused: true, queueCaps: { maxQueuedJobs: 2, maxQueuedBytes: 1_000_000 } })
    const first = await t.call('POST', '/api/v1/extract?async=true', { body: upload('Total: 1.00') })
    expect(first.status).toBe(202)
    expect((await t.call('POST', '/api/v1/extract?async=true', { body: upload('Total: 2.00') })).status).toBe(202)
    const refused = await t.call('POST', '/api/v1/extract?async=true', { body: upload('Total: 3.00') })
    expectEnvelope(refused, 429, 'queue_limit_reached', 'Queue limit reached: an account can have at most 2 jobs queued or running; retry when some have ended')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs).toHaveLength(2)
    expect((await t.call('POST', '/api/v1/extract?async=true', { body: upload('Total: 4.00'), key: t.keyB.key })).status).toBe(202)
    expect((await t.call('POST', `/api/v1/jobs/${first.body.job.id}/cancel`)).status).toBe(200)
    expect((await t.call('POST', '/api/v1/extract?async=true', { body: upload('Total: 5.00') })).status).toBe(202)
  })

  test("over the account's cap of queued bytes: 429; a single document larger than the cap is taken when nothing waits", async () => {
    const t = await makeTestApp({ paused: true, queueCaps: { maxQueuedJobs: 100, maxQueuedBytes: 30 } })
    expect((await t.call('POST', '/api/v1/extract?async=true', { body: upload('x'.repeat(40)) })).status).toBe(202)
    const refused = await t.call('POST', '/api/v1/extract?async=true', { body: upload('y'.repeat(5)) })
    expectEnvelope(
      refused,
      429,
      'queue_limit_reached',
      "Queue limit reached: the documents of an account's queued and running jobs can hold at most 30 bytes; retry when some have ended",
    )
    expect((await t.call('GET', '/api/v1/jobs')).body.jobs).toHaveLength(1)
  })

  test('a synchronous request whose job has not ended within the sync wait answers 202 with the job, which runs on', async () => {
    const t = await makeTestApp({ paused: true, syncWaitMs: 50 })
    const started = Date.now()
    const response = await t.call('POST', '/api/v1/extract', { body: upload('Total: 1.00') })
    const { id, status } = response.body.job
    expect([response.status, status]).toEqual([202, 'queued'])
    expect(Date.now() - started).toBeLessThan(5000)
    const read = await t.call('GET', `/api/v1/jobs/${id}`)
    expect([read.status, read.body.job.status]).toEqual([200, 'queued'])
  })

  test("the sync wait counts from the request's arrival: an upload slower than the wait is answered 202 as soon as its job exists (D197)", async () => {
    const t = await makeTestApp({ paused: true, syncWaitMs: 1000 })
    const encoded = new Response(upload('Total: 1.00'))
    const contentType = encoded.headers.get('content-type')!
    const bytes = new Uint8Array(await encoded.arrayBuffer())
    const order: string[] = []
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.subarray(0, 16))
        await Bun.sleep(1200) // the upload takes longer than the whole wait
        controller.enqueue(bytes.subarray(16))
        controller.close()
        // Had the wait begun after the upload, the answer would come after this.
        setTimeout(() => order.push('half the wait after the upload'), 500)
      },
    })
    const response = await t.app.handle(
      new Request(`${BASE}/api/v1/extract`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.keyA.key}`, 'content-type': contentType },
        body,
        duplex: 'half',
      } as RequestInit),
    )
    order.push('answered')
    expect(response.status).toBe(202)
    expect(((await response.json()) as { job: { status: string } }).job.status).toBe('queued')
    await eventually(() => order.length === 2)
    expect(order).toEqual(['answered', 'half the wait after the upload'])
  })

  test('a synchronous request whose job ends within the sync wait answers 200 with the ended job', async () => {
    const t = await makeTestApp({ syncWaitMs: 30_000 })
    const response = await t.call('POST', '/api/v1/extract', { body: upload('Invoice\nTotal: 1.00') })
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('succeeded')
  })
})
