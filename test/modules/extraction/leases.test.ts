/**
 * Job leases (D77): several runners on one database, as several servers on one file are. A job
 * runs under one runner's lease at a time, a dead runner's jobs are taken over once its lease
 * has run out, and every job completes exactly once.
 */
import { Database as SqliteClient } from 'bun:sqlite'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Database } from '../../../src/db/database'
import { type Logger, silentLogger } from '../../../src/lib/log'
import { loadCatalog } from '../../../src/modules/catalog/service'
import type { Extractor } from '../../../src/modules/extraction/extractor'
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import { claimJob, createJob, getJob } from '../../../src/modules/extraction/service'
import { createJobRunner, type JobRunner } from '../../../src/modules/extraction/worker'
import { createKey } from '../../../src/modules/keys/service'
import { anotherHandle, openTestDatabase, query, TEST_DIALECT } from '../../helpers/database'
import { tempDir } from '../../helpers/process'
import { joined } from '../../helpers/answers'
import { eventually } from '../../helpers/eventually'

// Long enough that a loaded machine's stalled event loop (seen: 150 ms and more) does not let a live lease run out mid-test.
const LEASE_MS = 600
const POLL_MS = 20

const dir = tempDir('extractd-leases-')
afterAll(() => dir.remove())

const runners: JobRunner[] = []
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop(0)
})

/** An extractor that answers `<name>` for every field once released, counting its calls and noticing aborts. */
function gatedExtractor(name: string) {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const state = { calls: 0, aborted: 0 }
  const extract: Extractor = async ({ fields }, _progress, signal) => {
    state.calls++
    await new Promise<void>((resolve, reject) => {
      gate.then(resolve)
      signal?.addEventListener('abort', () => {
        state.aborted++
        reject(new Error('aborted'))
      })
    })
    return { kind: 'answers' as const, answers: joined({ values: Object.fromEntries(fields.map(({ key }) => [key, name])), meta: {} }) }
  }
  return { extract, release, state }
}

let files = 0

/** A database (a SQLite file, or PostgreSQL) with an account, and runners and jobs on it; `another` is a second process's handle. */
async function setup(log: Logger = silentLogger) {
  const database = await openTestDatabase(join(dir.path, `leases-${files++}.sqlite`))
  const { accountId } = await createKey(database, 'leases')
  const runner = (extract: Extractor, options: { concurrency?: number; leaseMs?: number; on?: Database; pollMs?: number } = {}) => {
    const created = createJobRunner({
      database: options.on ?? database,
      extract,
      catalog: loadCatalog(),
      concurrency: options.concurrency ?? 1,
      keepFileMs: 0,
      readLimits: DEFAULT_READ_LIMITS,
      log,
      leaseMs: options.leaseMs ?? LEASE_MS,
      pollMs: options.pollMs ?? POLL_MS,
    })
    runners.push(created)
    return created
  }
  const newJob = async (on: Database = database) =>
    (
      await createJob(on, {
        accountId,
        documentType: 'invoice',
        schemaId: null,
        schemaVersion: null,
        fields: [{ key: 'total', label: 'Total', description: '', type: 'amount' }],
        engine: 'test',
        file: { name: 'a.txt', mediaType: 'text/plain', content: new TextEncoder().encode('Total: 1.00'), sha256: '0'.repeat(64) },
      })
    ).id
  const job = (id: string) => getJob(database, accountId, id)
  const claim = (id: string, runnerId: string, leaseMs: number) => claimJob(database, id, runnerId, leaseMs)
  return { database, runner, newJob, job, claim }
}

describe('job leases', () => {
  test('a started runner takes up a queued job that another process created', async () => {
    const { runner, newJob, job } = await setup()
    const id = await newJob()
    const worker = gatedExtractor('polled')
    worker.release()
    runner(worker.extract).start()
    await eventually(async () => (await job(id)).status === 'succeeded', 3000)
    expect((await job(id)).result).toEqual({ total: 'polled' })
  })

  test('the job of a runner that died is taken over once its lease has run out, and completes once', async () => {
    const { runner, newJob, job, claim } = await setup()
    const id = await newJob()
    // A runner claims the job and dies at once: it never renews and never completes.
    expect(await claim(id, 'dead-runner', LEASE_MS)).toBeDefined()
    expect((await job(id)).status).toBe('running')
    const survivor = gatedExtractor('survivor')
    survivor.release()
    const startedAt = Date.now()
    runner(survivor.extract).start()
    await Bun.sleep(LEASE_MS / 2)
    expect((await job(id)).status).toBe('running') // the lease still holds
    expect(survivor.state.calls).toBe(0)
    await eventually(async () => (await job(id)).status === 'succeeded', 3000)
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(LEASE_MS - 20)
    expect((await job(id)).result).toEqual({ total: 'survivor' })
    expect(survivor.state.calls).toBe(1)
  })

  test('a live runner renews its lease: a job running for many leases is never taken over', async () => {
    const { runner, newJob, job } = await setup()
    const id = await newJob()
    const slow = gatedExtractor('slow')
    const holder = runner(slow.extract)
    const done = holder.submit(id)
    await eventually(() => slow.state.calls === 1, 3000)
    const other = gatedExtractor('other')
    other.release()
    runner(other.extract).start()
    await Bun.sleep(LEASE_MS * 3)
    expect(other.state.calls).toBe(0)
    expect((await job(id)).status).toBe('running')
    slow.release()
    await done
    expect(await job(id)).toMatchObject({ status: 'succeeded', result: { total: 'slow' } })
    expect(other.state.calls).toBe(0)
  })

  test('a runner that lost its lease stops the extraction, and only the new holder completes the job', async () => {
    const { database, runner, newJob, job, claim } = await setup()
    const id = await newJob()
    const first = gatedExtractor('first')
    const holder = runner(first.extract)
    void holder.submit(id)
    await eventually(() => first.state.calls === 1, 3000)
    // Say the first runner's process stalled past its lease, and a second runner took the job over.
    await query(database, "update jobs set lease_expires_at = '2000-01-01T00:00:00.000Z' where id = ?", [id])
    expect(await claim(id, 'second-runner', 60_000)).toBeDefined()
    await eventually(() => first.state.aborted === 1, 3000)
    first.release()
    await Bun.sleep(LEASE_MS)
    expect((await job(id)).status).toBe('running') // still the second runner's, not completed by the first
    expect((await job(id)).result).toBeNull()
  })

  test('stopping gives a running job back to the queue, and another runner finishes it', async () => {
    const { runner, newJob, job } = await setup()
    const id = await newJob()
    const stopped = gatedExtractor('stopped')
    const leaving = runner(stopped.extract)
    void leaving.submit(id)
    await eventually(() => stopped.state.calls === 1, 3000)
    await leaving.stop(10)
    expect((await job(id)).status).toBe('queued')
    const next = gatedExtractor('next')
    next.release()
    runner(next.extract).start()
    await eventually(async () => (await job(id)).status === 'succeeded', 3000)
    expect((await job(id)).result).toEqual({ total: 'next' })
  })

  test('whoever waits on a job another runner holds hears when it ends there', async () => {
    const { runner, newJob, job } = await setup()
    const id = await newJob()
    const holder = gatedExtractor('holder')
    void runner(holder.extract).submit(id)
    await eventually(() => holder.state.calls === 1, 3000)
    const bystander = gatedExtractor('bystander')
    let heard = false
    const waited = runner(bystander.extract)
      .submit(id)
      .then(() => (heard = true))
    await Bun.sleep(50)
    expect(heard).toBe(false)
    holder.release()
    await waited
    expect((await job(id)).status).toBe('succeeded')
    expect(bystander.state.calls).toBe(0)
  })

  test.skipIf(TEST_DIALECT !== 'sqlite')(
    'SQLite: a database locked past the busy timeout while a job runs is logged, not thrown: the runner goes on',
    async () => {
      const errors: string[] = []
      const log = { ...silentLogger, error: (message: string) => errors.push(message) }
      const { database, runner, newJob, job } = await setup(log)
      if (database.kind !== 'sqlite') throw new Error('SQLite only')
      database.sqlite.run('PRAGMA busy_timeout = 5')
      const path = database.sqlite.filename
      const id = await newJob()
      const slow = gatedExtractor('slow')
      const done = runner(slow.extract, { leaseMs: 60 }).submit(id)
      await eventually(() => slow.state.calls === 1, 3000)
      const holder = new SqliteClient(path)
      holder.run('BEGIN EXCLUSIVE')
      await eventually(() => errors.includes('job runner: renewing leases failed'), 3000)
      holder.run('ROLLBACK')
      holder.close()
      slow.release()
      await done
      expect(await job(id)).toMatchObject({ status: 'succeeded', result: { total: 'slow' } })
    },
  )

  test('a runner waiting on a job another runner holds takes it over once the lease of that runner runs out, for the same waiters', async () => {
    const { runner, newJob, job, claim } = await setup()
    const id = await newJob()
    expect(await claim(id, 'dead-runner', LEASE_MS)).toBeDefined()
    const waiter = gatedExtractor('waiter')
    waiter.release()
    const here = runner(waiter.extract)
    here.start()
    const done = here.submit(id) // held by the dead runner: this runner waits on it
    await Bun.sleep(LEASE_MS / 2)
    expect(waiter.state.calls).toBe(0)
    await done
    expect(await job(id)).toMatchObject({ status: 'succeeded', result: { total: 'waiter' } })
    expect(waiter.state.calls).toBe(1)
  })

  test('two processes draining one queue: every job runs once and completes once, none claimed by both', async () => {
    const { database, runner, newJob, job } = await setup()
    const other = await anotherHandle(database)
    const ids: string[] = []
    for (let i = 0; i < 30; i++) ids.push(await newJob(i % 2 ? database : other))
    const seen: string[] = []
    const counting =
      (name: string): Extractor =>
      async ({ fields, content }) => {
        seen.push(new TextDecoder().decode(content))
        await Bun.sleep(5)
        return { kind: 'answers' as const, answers: joined({ values: Object.fromEntries(fields.map(({ key }) => [key, name])), meta: {} }) }
      }
    // Leases long enough that a stalled event loop on a busy machine never lets one run out: this is about claims, not takeovers.
    runner(counting('here'), { concurrency: 3, leaseMs: 10_000 }).start()
    runner(counting('there'), { concurrency: 3, leaseMs: 10_000, on: other }).start()
    await eventually(async () => (await Promise.all(ids.map(job))).every((one) => one.status === 'succeeded'), 10_000)
    expect(seen).toHaveLength(30)
    const rows = await query<{ attempts: number }>(database, 'select attempts from jobs')
    expect(rows.map((row) => Number(row.attempts))).toEqual(Array(30).fill(1))
    const results = (await Promise.all(ids.map(job))).map((one) => one.result?.total)
    expect(new Set(results)).toEqual(new Set(['here', 'there']))
  })
})

describe.skipIf(TEST_DIALECT !== 'postgres')('PostgreSQL: notifications', () => {
  test('an idle runner takes up a job queued by another process at once, long before its next poll', async () => {
    const { database, runner, newJob, job } = await setup()
    const other = await anotherHandle(database)
    const idle = gatedExtractor('told')
    idle.release()
    runner(idle.extract, { pollMs: 60_000 }).start()
    await Bun.sleep(200) // its first look found nothing; the next would be a minute later
    const id = await newJob(other)
    await eventually(async () => (await job(id)).status === 'succeeded', 5_000)
    expect((await job(id)).result).toEqual({ total: 'told' })
  })
})
