/**
 * Job leases (D77): several runners on one database, as several servers on one file are. A job
 * runs under one runner's lease at a time, a dead runner's jobs are taken over once its lease
 * has run out, and every job completes exactly once.
 */
import { Database } from 'bun:sqlite'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openDb } from '../../../src/db/client'
import { migrate } from '../../../src/db/migrate'
import { type Logger, silentLogger } from '../../../src/lib/log'
import type { Extractor } from '../../../src/modules/extraction/extractor'
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import { claimJob, createJob, getJob } from '../../../src/modules/extraction/service'
import { createJobRunner, type JobRunner } from '../../../src/modules/extraction/worker'
import { createKey } from '../../../src/modules/keys/service'
import { tempDir } from '../../helpers/process'

const LEASE_MS = 300
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
    return { values: Object.fromEntries(fields.map(({ key }) => [key, name])), meta: {} }
  }
  return { extract, release, state }
}

function setup(path = ':memory:', log: Logger = silentLogger) {
  const { db } = openDb(path)
  migrate(db)
  const { accountId } = createKey(db, 'leases')
  const runner = (extract: Extractor, options: { concurrency?: number; leaseMs?: number } = {}) => {
    const created = createJobRunner({
      db,
      extract,
      concurrency: options.concurrency ?? 1,
      keepFileMs: 0,
      readLimits: DEFAULT_READ_LIMITS,
      log,
      leaseMs: options.leaseMs ?? LEASE_MS,
      pollMs: POLL_MS,
    })
    runners.push(created)
    return created
  }
  const newJob = () =>
    createJob(db, {
      accountId,
      documentType: 'invoice',
      schemaId: null,
      schemaVersion: null,
      fields: [{ key: 'total', label: 'Total', description: '' }],
      engine: 'test',
      file: { name: 'a.txt', mediaType: 'text/plain', content: new TextEncoder().encode('Total: 1.00'), sha256: '0'.repeat(64) },
    }).id
  const job = (id: string) => getJob(db, accountId, id)
  return { db, runner, newJob, job }
}

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await Bun.sleep(5)
  }
}

describe('job leases', () => {
  test('a started runner takes up a queued job that another process created', async () => {
    const { runner, newJob, job } = setup()
    const id = newJob()
    const worker = gatedExtractor('polled')
    worker.release()
    runner(worker.extract).start()
    await until(() => job(id).status === 'succeeded')
    expect(job(id).result).toEqual({ total: 'polled' })
  })

  test('the job of a runner that died is taken over once its lease has run out, and completes once', async () => {
    const { db, runner, newJob, job } = setup()
    const id = newJob()
    // A runner claims the job and dies at once: it never renews and never completes.
    expect(claimJob(db, id, 'dead-runner', LEASE_MS)).toBeDefined()
    expect(job(id).status).toBe('running')
    const survivor = gatedExtractor('survivor')
    survivor.release()
    const startedAt = Date.now()
    runner(survivor.extract).start()
    await Bun.sleep(LEASE_MS / 2)
    expect(job(id).status).toBe('running') // the lease still holds
    expect(survivor.state.calls).toBe(0)
    await until(() => job(id).status === 'succeeded')
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(LEASE_MS - 20)
    expect(job(id).result).toEqual({ total: 'survivor' })
    expect(survivor.state.calls).toBe(1)
  })

  test('a live runner renews its lease: a job running for many leases is never taken over', async () => {
    const { runner, newJob, job } = setup()
    const id = newJob()
    const slow = gatedExtractor('slow')
    const holder = runner(slow.extract)
    const done = holder.submit(id)
    await until(() => slow.state.calls === 1)
    const other = gatedExtractor('other')
    other.release()
    runner(other.extract).start()
    await Bun.sleep(LEASE_MS * 4)
    expect(other.state.calls).toBe(0)
    expect(job(id).status).toBe('running')
    slow.release()
    await done
    expect(job(id)).toMatchObject({ status: 'succeeded', result: { total: 'slow' } })
    expect(other.state.calls).toBe(0)
  })

  test('a runner that lost its lease stops the extraction, and only the new holder completes the job', async () => {
    const { db, runner, newJob, job } = setup()
    const id = newJob()
    const first = gatedExtractor('first')
    const holder = runner(first.extract)
    void holder.submit(id)
    await until(() => first.state.calls === 1)
    // Say the first runner's process stalled past its lease, and a second runner took the job over.
    db.$client.run("update jobs set lease_expires_at = '2000-01-01T00:00:00.000Z' where id = ?", [id])
    expect(claimJob(db, id, 'second-runner', 60_000)).toBeDefined()
    await until(() => first.state.aborted === 1)
    first.release()
    await Bun.sleep(LEASE_MS)
    expect(job(id).status).toBe('running') // still the second runner's, not completed by the first
    expect(job(id).result).toBeNull()
  })

  test('stopping gives a running job back to the queue, and another runner finishes it', async () => {
    const { runner, newJob, job } = setup()
    const id = newJob()
    const stopped = gatedExtractor('stopped')
    const leaving = runner(stopped.extract)
    void leaving.submit(id)
    await until(() => stopped.state.calls === 1)
    await leaving.stop(10)
    expect(job(id).status).toBe('queued')
    const next = gatedExtractor('next')
    next.release()
    runner(next.extract).start()
    await until(() => job(id).status === 'succeeded')
    expect(job(id).result).toEqual({ total: 'next' })
  })

  test('whoever waits on a job another runner holds hears when it ends there', async () => {
    const { runner, newJob, job } = setup()
    const id = newJob()
    const holder = gatedExtractor('holder')
    void runner(holder.extract).submit(id)
    await until(() => holder.state.calls === 1)
    const bystander = gatedExtractor('bystander')
    let heard = false
    const waited = runner(bystander.extract)
      .submit(id)
      .then(() => (heard = true))
    await Bun.sleep(50)
    expect(heard).toBe(false)
    holder.release()
    await waited
    expect(job(id).status).toBe('succeeded')
    expect(bystander.state.calls).toBe(0)
  })

  test('a database locked past the busy timeout while a job runs is logged, not thrown: the runner goes on', async () => {
    const path = join(dir.path, 'locked.sqlite')
    const errors: string[] = []
    const log = { ...silentLogger, error: (message: string) => errors.push(message) }
    const { db, runner, newJob, job } = setup(path, log)
    db.$client.run('PRAGMA busy_timeout = 5')
    const id = newJob()
    const slow = gatedExtractor('slow')
    const done = runner(slow.extract, { leaseMs: 60 }).submit(id)
    await until(() => slow.state.calls === 1)
    const holder = new Database(path)
    holder.run('BEGIN EXCLUSIVE')
    await until(() => errors.includes('job runner: renewing leases failed'))
    holder.run('ROLLBACK')
    holder.close()
    slow.release()
    await done
    expect(job(id)).toMatchObject({ status: 'succeeded', result: { total: 'slow' } })
  })
})
