/**
 * A bounded pool of in-process workers (D21) on the shared lease worker (D130). Jobs live in the
 * database: a job is claimed by one runner under a lease that it renews while the job runs, and
 * completed by that runner only (D77). A runner holds only the jobs it runs: it claims the next
 * job in the accounts' turns (D131) whenever a slot frees, every few seconds, and at once when the
 * database tells of a queued job (PostgreSQL), so any server on the database takes them up, and a
 * job whose runner died is taken over first when a slot frees (D195). While another account
 * waits, an account holds at most half the slots: a full runner gives its newest job back (D194).
 */
import type { Database } from '../../db/database'
import { noteDatabaseFailure } from '../../db/errors'
import { createLeaseWorker } from '../../lib/lease-worker'
import type { Logger } from '../../lib/log'
import type { JobField } from '../../lib/fields/model'
import { AUTO_TYPE, type Classification } from '../catalog/classification'
import type { Catalog } from '../catalog/service'
import type { Answers } from './answers'
import { documentOf } from './documents'
import { DEFAULT_QUEUE_CAPS, DEFAULT_SYNC_WAIT_MS } from './queue-limits'
import { ExtractionError, UNEXPECTED } from './errors'
import type { Extractor, TaskOutput, TaskType } from './extractor'
import type { LayoutSource } from './learning/layout'
import type { DocumentText, MediaType, ReadLimits } from './readers/types'
import { type ClaimedJob, type FoundJobRow, type JobOutcome, jobsRepository, type QueueCaps, shareOf } from './repository'
import { claimNextJob, completeJob, outcomeOf, typesToRead } from './service'
import { jobFieldOf } from './wire'

export interface JobRunnerOptions {
  database: Database
  /** Reads a job's document and runs the engine: in extraction processes in the server (D190). */
  extract: Extractor
  /** What the engine is told of a job's document type (D220); the types a job with `auto` or `split`, and POST /classify, tell apart (D250). */
  catalog: Catalog
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
  /** How much one account may have waiting (D133). */
  caps?: QueueCaps
  /** How long a request without `?async=true` waits for its job before answering 202 (D134). */
  syncWaitMs?: number
  /**
   * The learned layouts of an account that a document printing some words may be the sender's of
   * (D270): a document that matches one is read with it first (D265, D274). From the database, so
   * that a review on one instance is used by the next extraction on any other.
   */
  layoutsOf?: (accountId: string) => LayoutSource
}

/** The lease of a runner made without one (tests); the server's comes from `--job-lease`. */
const DEFAULT_LEASE_MS = 30_000
const DEFAULT_POLL_MS = 2_000
/** How often a runner checks whether jobs waited on here but run elsewhere have ended. */
const WATCH_MS = 250

export type JobRunner = ReturnType<typeof createJobRunner>

/** How often expired documents are deleted and the space of deleted ones given back. */
const PURGE_EVERY_MS = 60 * 1000

export function createJobRunner({
  database,
  extract: extractFields,
  catalog,
  concurrency,
  keepFileMs,
  readLimits,
  log,
  leaseMs = DEFAULT_LEASE_MS,
  pollMs = DEFAULT_POLL_MS,
  caps = DEFAULT_QUEUE_CAPS,
  syncWaitMs = DEFAULT_SYNC_WAIT_MS,
  layoutsOf,
}: JobRunnerOptions) {
  const jobs = jobsRepository(database)
  /** The catalog's types with their suggested fields, as a job without fields of its own and /classify read them: the catalog never changes while the server runs. */
  let suggested: TaskType[] | undefined
  const suggestedTypes = () => (suggested ??= typesToRead(catalog, []))
  /** Jobs waited on here (a synchronous request), with whoever waits for each to end. */
  const waiting = new Map<string, (() => void)[]>()
  let polled = false

  /**
   * Runs a claimed job to its end, and settles whoever waits on it here. A job stopped here
   * (canceled, given back, taken over) is settled by the watch once it has ended wherever it runs.
   */
  async function runJob({ row, content }: ClaimedJob, signal: AbortSignal): Promise<void> {
    try {
      await extract(row, content, signal)
    } finally {
      if (!signal.aborted) settle(row.id)
    }
  }

  async function extract(row: ClaimedJob['row'], content: Uint8Array, signal: AbortSignal): Promise<void> {
    const id = row.id
    const started = performance.now()
    let progressWrites: Promise<unknown> = Promise.resolve()
    let outcome: JobOutcome
    let reading: DocumentText | undefined
    let found: FoundJobRow[] = []
    try {
      const fields = row.fields.map(jobFieldOf)
      // D250, D251: a job that leaves its type to the classifier, or splits its file, takes the catalog's types along.
      const types = row.documentType === AUTO_TYPE || row.split ? (row.fields.length ? typesToRead(catalog, row.fields) : suggestedTypes()) : []
      const output = await extractFields(
        {
          content,
          mediaType: row.fileMediaType as MediaType,
          documentType: row.documentType,
          issuedBySeller: catalog.get(row.documentType)?.issued_by_seller === true,
          fields,
          limits: readLimits,
          ...(types.length > 0 && { typing: { mode: row.split ? 'split' : 'auto', types } }),
        },
        // One write after the other: on a pool, writes sent at once may land out of order, and page 2 overwrite page 3.
        (progress) =>
          void (progressWrites = progressWrites.then(() => worker.upkeep('recording progress', () => jobs.recordProgress(id, worker.owner, progress)))),
        signal,
        (document) => (reading = document),
      )
      const learned = reading && layoutsOf ? await withLayouts(row, reading, fields, types, output) : output
      ;({ outcome, found } = outcomeOf(row, learned, types, reading))
    } catch (error) {
      if (signal.aborted) {
        log.info('job stopped while running: canceled, given back, or taken over by another runner', { job_id: id })
        return
      }
      if (error instanceof ExtractionError) outcome = { error: { code: error.code, message: error.message } }
      else {
        log.error('extraction failed unexpectedly', { job_id: id, error: error instanceof Error ? error.stack : String(error) })
        outcome = { error: UNEXPECTED }
      }
    }
    try {
      await completeJob(database, id, worker.owner, outcome, keepFileMs, found)
    } catch (error) {
      noteDatabaseFailure(database, error)
      // An answer that cannot be stored (say, a value JSON cannot hold) must not leave the job running.
      log.error('could not store a job outcome', { job_id: id, error: error instanceof Error ? error.message : String(error) })
      outcome = { error: UNEXPECTED }
      await completeJob(database, id, worker.owner, outcome, keepFileMs)
    }
    log.debug('job finished', {
      job_id: id,
      status: 'error' in outcome ? 'failed' : 'succeeded',
      duration_ms: Math.round(performance.now() - started),
    })
  }

  /**
   * Each document's answers read again with the account's learned layouts, a bundle's documents on
   * their own pages (D255); a lookup that fails leaves the general reading's (D274).
   */
  async function withLayouts(row: ClaimedJob['row'], reading: DocumentText, fields: JobField[], types: TaskType[], output: TaskOutput): Promise<TaskOutput> {
    const layouts = layoutsOf!(row.accountId)
    try {
      // The learned reading's code (the normalisers, the lexicons) loads with the first job, not at start (D150, D372).
      const { withLearnedLayouts } = await import('./learning/read')
      const learn = (text: DocumentText, wanted: JobField[], answers: Answers) => withLearnedLayouts(text, wanted, answers, layouts)
      if (output.kind === 'answers') return { kind: 'answers', answers: await learn(reading, fields, output.answers) }
      if (output.kind !== 'documents') return output
      const documents = []
      const task = { documentType: row.documentType, split: row.split, fields, types }
      for (const document of output.documents) {
        const { fields: wanted, text } = documentOf(task, document, reading)
        documents.push(document.answers && wanted ? { ...document, answers: await learn(text, wanted, document.answers) } : document)
      }
      return { kind: 'documents', documents }
    } catch (error) {
      log.warn('learned layouts could not be read; the job keeps the general reading', {
        job_id: row.id,
        error: error instanceof Error ? error.message : String(error),
      })
      return output
    }
  }

  /** An account's share of this runner's slots while another account waits (D194). */
  const share = shareOf(concurrency)

  /** Claims the next jobs in the accounts' turns, one claim each, as many as there are free slots. */
  async function claim(owner: string, room: number): Promise<ClaimedJob[]> {
    const claimed: (ClaimedJob & { interrupted: boolean })[] = []
    for (let i = 0; i < room; i++) {
      const next = await claimNextJob(database, owner, leaseMs, { share })
      if (!next) break
      claimed.push(next)
    }
    const interrupted = claimed.filter((job) => job.interrupted).length
    // Logged at the first look (jobs a stopped server left) and whenever a dead runner's job is taken over.
    if (claimed.length > 0 && (!polled || interrupted > 0)) log.info('resuming jobs', { queued: claimed.length - interrupted, interrupted })
    polled = true
    return claimed
  }

  /**
   * Every slot taken, and an account holds more than its share of them: another account's job
   * below its share, if one waits, takes the place of that account's newest job, which goes back
   * to the queue to wait for its turn (D194).
   */
  async function displace(owner: string, running: ClaimedJob[]) {
    const held = new Map<string, ClaimedJob[]>()
    for (const job of running) held.set(job.row.accountId, [...(held.get(job.row.accountId) ?? []), job])
    const over = [...held.values()].filter((jobs) => jobs.length > share).sort((a, b) => b.length - a.length)[0]
    if (!over) return undefined
    const newest = over.at(-1)!.row
    const claimed = await claimNextJob(database, owner, leaseMs, { share, insteadOf: newest.accountId })
    if (!claimed) return undefined
    await jobs.release(owner, [newest.id])
    log.info('job given back to the queue: another account waits', { job_id: newest.id, account_id: newest.accountId, for_job_id: claimed.row.id })
    return { claimed, displaced: [newest.id] }
  }

  const worker = createLeaseWorker<ClaimedJob>({
    name: 'job runner',
    log,
    concurrency,
    pollMs,
    leaseMs,
    claim,
    idOf: (job) => job.row.id,
    run: runJob,
    renew: (owner, ids) => jobs.renew(owner, ids, leaseMs),
    release: (owner, ids) => jobs.release(owner, ids),
    displace,
    failed: (error) => noteDatabaseFailure(database, error),
    onQueued: (wake) => jobs.onQueued(wake),
    purge: { what: 'purging documents', everyMs: PURGE_EVERY_MS, run: () => jobs.purgeExpiredFiles() },
  })

  function settle(id: string): void {
    for (const resolve of waiting.get(id) ?? []) resolve()
    waiting.delete(id)
  }

  /** Settles the waiters of jobs that run elsewhere (or wait their turn) once they have ended. */
  const watchTimer = setInterval(async () => {
    for (const id of [...waiting.keys()]) {
      if (worker.runs(id)) continue
      if ((await worker.upkeep('watching a job', () => jobs.ended(id))) === true) settle(id)
    }
  }, WATCH_MS)
  watchTimer.unref()

  return {
    /** Takes up the jobs no runner holds, now and every few seconds, and purges expired documents. */
    start: worker.start,

    /**
     * Asks for a queued job to be run; the promise resolves when it has ended, here or elsewhere
     * (or this runner stops). The job waits its account's turn like any other (D131).
     */
    submit(id: string): Promise<void> {
      const done = new Promise<void>((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]))
      void worker.poll()
      return done
    },

    /**
     * The catalog type of a file and its page count, read in the extraction processes as far as its
     * first pages with text (D244, D252): POST /classify, which makes no job. Rejects with the
     * ExtractionError a job would fail with.
     */
    async classify(file: { content: Uint8Array; mediaType: MediaType }, signal?: AbortSignal): Promise<{ classification: Classification; pages: number }> {
      const typing = { mode: 'classify' as const, types: suggestedTypes() }
      const task = { ...file, documentType: AUTO_TYPE, issuedBySeller: false, fields: [], limits: readLimits, typing }
      const output = await extractFields(task, undefined, signal)
      if (output.kind !== 'classified') throw new Error('a classifying task answered something else')
      return output
    },

    /** How long a finished job's document is kept (D60); canceled jobs follow it too. */
    keepFileMs,
    caps,
    syncWaitMs,

    /** Stops the extraction of a job that was canceled, if it runs here (D71). */
    cancel(id: string): void {
      worker.abort(id)
    },

    /**
     * Takes no more jobs and waits up to `graceMs` for running ones; those still running then go
     * back to the queue, for another server or the next start (D193). Requests waiting on jobs
     * that do not run here are answered at once: those jobs stay queued.
     */
    async stop(graceMs: number): Promise<void> {
      for (const id of [...waiting.keys()]) if (!worker.runs(id)) settle(id)
      const released = await worker.stop(graceMs)
      clearInterval(watchTimer)
      for (const id of [...waiting.keys()]) settle(id)
      if (released > 0) log.info('jobs given back to the queue', { jobs: released })
    },
  }
}
