/**
 * A bounded pool of in-process workers (D21). Jobs live in the database: a job is claimed by
 * one runner, read and extracted, and completed by that runner only. At start, jobs that a
 * stopped process left queued or running are queued again, so none is lost.
 */
import type { Db } from '../../db/client'
import type { Logger } from '../../lib/log'
import { ExtractionError, type FieldMeta, UNEXPECTED } from './engines/types'
import type { Extractor } from './extractor'
import type { MediaType, ReadLimits } from './readers/types'
import { claimJob, completeJob, fieldSpecOf, type JobOutcome, purgeExpiredFiles, queuedJobIds, recordProgress, requeueInterrupted } from './service'

export interface JobRunnerOptions {
  db: Db
  /** Reads a job's document and runs the engine: in worker threads in the server. */
  extract: Extractor
  /** Jobs extracted at the same time. */
  concurrency: number
  /** How long a finished job's document is kept; 0 deletes it at once. */
  keepFileMs: number
  /** What one document may cost to read. */
  readLimits: ReadLimits
  log: Logger
}

export type JobRunner = ReturnType<typeof createJobRunner>

const NO_VALUE: FieldMeta = { confidence: 0, page: null, snippet: null, bbox: null }
const PURGE_EVERY_MS = 60 * 60 * 1000

export function createJobRunner({ db, extract: extractFields, concurrency, keepFileMs, readLimits, log }: JobRunnerOptions) {
  const runnerId = crypto.randomUUID()
  const queue: string[] = []
  /** Jobs queued or running here, with whoever waits for each to finish. */
  const waiting = new Map<string, (() => void)[]>()
  /** Extractions running here, to stop when their job is canceled. */
  const running = new Map<string, AbortController>()
  let active = 0
  let stopping = false
  let drained: (() => void) | undefined
  let purgeTimer: ReturnType<typeof setInterval> | undefined

  async function extract(id: string): Promise<void> {
    const claimed = claimJob(db, id, runnerId)
    if (!claimed) return
    const { row, content } = claimed
    const started = performance.now()
    const controller = new AbortController()
    running.set(id, controller)
    let outcome: JobOutcome
    try {
      const output = await extractFields(
        {
          content,
          mediaType: row.fileMediaType as MediaType,
          documentType: row.documentType,
          fields: row.fields.map(fieldSpecOf),
          limits: readLimits,
        },
        (progress) => recordProgress(db, id, runnerId, progress),
        controller.signal,
      )
      // Every requested key answers, and nothing else does. Keys are any [A-Za-z0-9_]+, so
      // `constructor` or `__proto__` must be read and written as own properties only.
      const own = <T>(record: Record<string, T>, key: string): T | undefined =>
        Object.hasOwn(record, key) ? record[key] : undefined
      const entries = row.fields.map(({ key }) => {
        const value = own(output.values, key) ?? null
        return [key, value, value === null ? NO_VALUE : (own(output.meta, key) ?? NO_VALUE)] as const
      })
      outcome = {
        result: Object.fromEntries(entries.map(([key, value]) => [key, value])),
        fieldsMeta: Object.fromEntries(entries.map(([key, , meta]) => [key, { ...meta }])),
      }
    } catch (error) {
      if (controller.signal.aborted) {
        log.info('job canceled while running', { job_id: id })
        return
      }
      if (error instanceof ExtractionError) outcome = { error: { code: error.code, message: error.message } }
      else {
        log.error('extraction failed unexpectedly', { job_id: id, error: error instanceof Error ? error.stack : String(error) })
        outcome = { error: UNEXPECTED }
      }
    }
    try {
      completeJob(db, id, runnerId, outcome, keepFileMs)
    } catch (error) {
      // An answer that cannot be stored (say, a value JSON cannot hold) must not leave the job running.
      log.error('could not store a job outcome', { job_id: id, error: error instanceof Error ? error.message : String(error) })
      outcome = { error: UNEXPECTED }
      completeJob(db, id, runnerId, outcome, keepFileMs)
    }
    log.debug('job finished', {
      job_id: id,
      status: 'error' in outcome ? 'failed' : 'succeeded',
      duration_ms: Math.round(performance.now() - started),
    })
  }

  function settle(id: string): void {
    for (const resolve of waiting.get(id) ?? []) resolve()
    waiting.delete(id)
  }

  function pump(): void {
    while (!stopping && active < concurrency && queue.length > 0) {
      const id = queue.shift()!
      active++
      extract(id)
        .catch((error) => log.error('job runner error', { job_id: id, error: String(error) }))
        .finally(() => {
          running.delete(id)
          active--
          settle(id)
          if (active === 0 && stopping) drained?.()
          pump()
        })
    }
  }

  return {
    /** Queues again what a stopped process left behind and starts working. */
    start(): void {
      const requeued = requeueInterrupted(db)
      const ids = queuedJobIds(db)
      if (ids.length > 0) log.info('resuming jobs', { queued: ids.length, interrupted: requeued })
      for (const id of ids) this.submit(id)
      if (keepFileMs > 0) {
        purgeExpiredFiles(db)
        purgeTimer = setInterval(() => purgeExpiredFiles(db), Math.min(keepFileMs, PURGE_EVERY_MS))
        purgeTimer.unref()
      }
    },

    /** Queues a job; the promise resolves when this process has finished it (or could not claim it). */
    submit(id: string): Promise<void> {
      const isNew = !waiting.has(id)
      const done = new Promise<void>((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]))
      if (isNew) {
        queue.push(id)
        pump()
      }
      return done
    },

    /** How long a finished job's document is kept (D60); canceled jobs follow it too. */
    keepFileMs,

    /** Stops the extraction of a job that was canceled, if it runs here (D71). */
    cancel(id: string): void {
      running.get(id)?.abort()
    },

    /** Takes no more jobs and waits up to `graceMs` for running ones; the rest resume at the next start. */
    async stop(graceMs: number): Promise<void> {
      stopping = true
      if (purgeTimer) clearInterval(purgeTimer)
      if (active === 0) return
      await Promise.race([new Promise<void>((resolve) => (drained = resolve)), Bun.sleep(graceMs)])
    },

  }
}
