/**
 * A bounded pool of in-process workers (D21). Jobs live in the database: a job is claimed by
 * one runner under a lease that it renews while the job runs, and completed by that runner
 * only (D77). Runners look for jobs no one holds (queued, or left running by a process that
 * died and stopped renewing) every few seconds, and at once when the database tells of a queued
 * job (PostgreSQL), so any server on the database takes them up.
 */
import type { Database } from '../../db/database'
import type { Logger } from '../../lib/log'
import { serialized } from '../../lib/serialized'
import { storedAnswers } from './answers'
import { ExtractionError, UNEXPECTED } from './engines/types'
import type { Extractor } from './extractor'
import type { MediaType, ReadLimits } from './readers/types'
import { type JobOutcome, jobsRepository } from './repository'
import { fieldSpecOf, toWire } from './wire'

export interface JobRunnerOptions {
  database: Database
  /** Reads a job's document and runs the engine: in worker threads in the server. */
  extract: Extractor
  /** Jobs extracted at the same time. */
  concurrency: number
  /** How long a finished job's document is kept; 0 deletes it at once. */
  keepFileMs: number
  /** What one document may cost to read. */
  readLimits: ReadLimits
  log: Logger
  /** How long a claimed job stays claimed without renewal; renewed every third of it. */
  leaseMs?: number
  /** How often a started runner looks for jobs no runner holds. */
  pollMs?: number
}

/** The lease of a runner made without one (tests); the server's comes from `--job-lease`. */
const DEFAULT_LEASE_MS = 30_000
const DEFAULT_POLL_MS = 2_000
/** How often a runner checks whether a job another runner holds has ended, for whoever waits on it here. */
const WATCH_MS = 250

export type JobRunner = ReturnType<typeof createJobRunner>

const PURGE_EVERY_MS = 60 * 60 * 1000

export function createJobRunner({
  database,
  extract: extractFields,
  concurrency,
  keepFileMs,
  readLimits,
  log,
  leaseMs = DEFAULT_LEASE_MS,
  pollMs = DEFAULT_POLL_MS,
}: JobRunnerOptions) {
  const jobs = jobsRepository(database)
  const runnerId = crypto.randomUUID()
  const queue: string[] = []
  /** Jobs queued or running here, with whoever waits for each to finish. */
  const waiting = new Map<string, (() => void)[]>()
  /** Jobs waited on here that another runner holds: taken over when they become claimable. */
  const watching = new Set<string>()
  /** Extractions running here, to stop when their job is canceled. */
  const running = new Map<string, AbortController>()
  let active = 0
  let stopping = false
  let polled = false
  let drained: (() => void) | undefined
  let purgeTimer: ReturnType<typeof setInterval> | undefined
  let pollTimer: ReturnType<typeof setInterval> | undefined
  let stopListening = () => {}

  /** Runs a claimed job to its end; false when it could not be claimed (another runner holds it, or it ended). */
  async function extract(id: string): Promise<boolean> {
    const claimed = await jobs.claim(id, runnerId, leaseMs, toWire)
    if (!claimed) return false
    const { row, content } = claimed
    const started = performance.now()
    const controller = new AbortController()
    running.set(id, controller)
    let progressWrites: Promise<unknown> = Promise.resolve()
    let outcome: JobOutcome
    try {
      const answers = await extractFields(
        {
          content,
          mediaType: row.fileMediaType as MediaType,
          documentType: row.documentType,
          fields: row.fields.map(fieldSpecOf),
          limits: readLimits,
        },
        // One write after the other: on a pool, writes sent at once may land out of order, and page 2 overwrite page 3.
        (progress) => void (progressWrites = progressWrites.then(() => upkeep('recording progress', () => jobs.recordProgress(id, runnerId, progress)))),
        controller.signal,
      )
      outcome = storedAnswers(
        row.fields.map(({ key }) => key),
        answers,
      )
    } catch (error) {
      if (controller.signal.aborted) {
        log.info('job stopped while running: canceled, or taken over by another runner', { job_id: id })
        return true
      }
      if (error instanceof ExtractionError) outcome = { error: { code: error.code, message: error.message } }
      else {
        log.error('extraction failed unexpectedly', { job_id: id, error: error instanceof Error ? error.stack : String(error) })
        outcome = { error: UNEXPECTED }
      }
    }
    try {
      await jobs.complete(id, runnerId, outcome, keepFileMs, toWire)
    } catch (error) {
      // An answer that cannot be stored (say, a value JSON cannot hold) must not leave the job running.
      log.error('could not store a job outcome', { job_id: id, error: error instanceof Error ? error.message : String(error) })
      outcome = { error: UNEXPECTED }
      await jobs.complete(id, runnerId, outcome, keepFileMs, toWire)
    }
    log.debug('job finished', {
      job_id: id,
      status: 'error' in outcome ? 'failed' : 'succeeded',
      duration_ms: Math.round(performance.now() - started),
    })
    return true
  }

  /** Runs a piece of the runner's own upkeep; a database that cannot answer now is logged, not thrown into a timer. */
  async function upkeep<T>(what: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work()
    } catch (error) {
      log.error(`job runner: ${what} failed`, { error: error instanceof Error ? error.message : String(error) })
      return undefined
    }
  }

  /** Settles the waiters of a job another runner holds once it has ended. */
  async function watch(id: string): Promise<void> {
    watching.add(id)
    while (!stopping && watching.has(id) && (await upkeep('watching a job', () => jobs.ended(id))) !== true) await Bun.sleep(WATCH_MS)
    // A job taken over here is settled when its extraction here ends.
    if (watching.delete(id) || stopping) settle(id)
  }

  /** Keeps the leases of the jobs running here, and stops those this runner no longer holds. */
  const renewTimer = setInterval(async () => {
    const ids = [...running.keys()]
    const held = await upkeep('renewing leases', () => jobs.renew(runnerId, ids, leaseMs))
    if (held === undefined) return
    for (const id of ids) if (!held.includes(id)) running.get(id)?.abort()
  }, leaseMs / 3)
  renewTimer.unref()

  /** Takes up jobs no runner holds, as far as there is room here; logged at start and whenever an interrupted job is resumed. */
  const poll = serialized(async () => {
    const atStart = !polled
    polled = true
    const room = concurrency - active - queue.length
    if (stopping || room <= 0) return
    const claimable = (await upkeep('looking for jobs', () => jobs.claimable(room + waiting.size))) ?? []
    const found = claimable.filter((job) => !waiting.has(job.id) || watching.has(job.id)).slice(0, room)
    const interrupted = found.filter((job) => job.interrupted).length
    if (found.length > 0 && (atStart || interrupted > 0)) log.info('resuming jobs', { queued: found.length - interrupted, interrupted })
    for (const job of found) {
      // A job waited on here whose runner died (or gave it back) is claimable now: run it here, for the same waiters.
      if (watching.delete(job.id)) {
        queue.push(job.id)
        pump()
      } else void submit(job.id)
    }
  })

  /** Queues a job; the promise resolves when it has ended, here or elsewhere (or this runner stops). */
  function submit(id: string): Promise<void> {
    const isNew = !waiting.has(id)
    const done = new Promise<void>((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]))
    if (isNew) {
      queue.push(id)
      pump()
    }
    return done
  }

  function settle(id: string): void {
    for (const resolve of waiting.get(id) ?? []) resolve()
    waiting.delete(id)
  }

  function pump(): void {
    while (!stopping && active < concurrency && queue.length > 0) {
      const id = queue.shift()!
      active++
      let ranHere = true
      extract(id)
        .then((ran) => (ranHere = ran))
        .catch((error) => log.error('job runner error', { job_id: id, error: String(error) }))
        .finally(() => {
          running.delete(id)
          active--
          if (ranHere) settle(id)
          else void watch(id)
          if (active === 0 && stopping) drained?.()
          pump()
        })
    }
  }

  return {
    /** Takes up the jobs no runner holds, now and every few seconds, and purges expired documents. */
    start(): void {
      void poll()
      pollTimer = setInterval(() => void poll(), pollMs)
      pollTimer.unref()
      stopListening = jobs.onQueued(() => void poll())
      if (keepFileMs > 0) {
        const purge = () => void upkeep('purging kept documents', () => jobs.purgeExpiredFiles())
        purge()
        purgeTimer = setInterval(purge, Math.min(keepFileMs, PURGE_EVERY_MS))
        purgeTimer.unref()
      }
    },

    submit,

    /** How long a finished job's document is kept (D60); canceled jobs follow it too. */
    keepFileMs,

    /** Stops the extraction of a job that was canceled, if it runs here (D71). */
    cancel(id: string): void {
      running.get(id)?.abort()
    },

    /**
     * Takes no more jobs and waits up to `graceMs` for running ones; those still running then go
     * back to the queue, for another server or the next start.
     */
    async stop(graceMs: number): Promise<void> {
      stopping = true
      clearInterval(purgeTimer)
      clearInterval(pollTimer)
      stopListening()
      if (active > 0) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), Bun.sleep(graceMs)])
      clearInterval(renewTimer)
      const released = (await upkeep('giving jobs back', () => jobs.release(runnerId, [...running.keys()]))) ?? 0
      if (released > 0) log.info('jobs given back to the queue', { jobs: released })
    },
  }
}
