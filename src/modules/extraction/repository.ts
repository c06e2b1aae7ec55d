/** What the extraction service and the job runner need from a database; each dialect implements it. */
import { perDatabase } from '../../db/database'
import type { JobField, JobFieldMeta, JobProgress, JobStatus, jobs } from '../../db/tables'
import type { JobErrorCode } from './engines/types'
import { postgresJobs } from './postgres'
import { sqliteJobs } from './sqlite'

export type JobRow = typeof jobs.$inferSelect

export interface NewJobRow {
  accountId: string
  documentType: string
  schemaId: string | null
  schemaVersion: number | null
  fields: JobField[]
  fileName: string
  fileSize: number
  fileMediaType: string
  fileSha256: string
  engine: string
  /** One instant: a new job's updated_at equals its created_at. */
  now: string
}

export interface JobPage {
  limit: number
  status?: JobStatus
  schemaId?: string
  /** Only jobs older than this one (D21's cursor). */
  after?: { createdAt: string; id: string }
}

export interface ClaimedJob {
  row: JobRow
  content: Uint8Array
}

export type JobOutcome = { result: Record<string, unknown>; fieldsMeta: Record<string, JobFieldMeta> } | { error: { code: JobErrorCode; message: string } }

export const FINISHED: readonly JobStatus[] = ['succeeded', 'failed', 'canceled']

/** What a job holds when it ends, by outcome. */
export function endOf(outcome: JobOutcome, now: string) {
  return 'result' in outcome
    ? { status: 'succeeded' as const, result: outcome.result, fieldsMeta: outcome.fieldsMeta, leaseExpiresAt: null, updatedAt: now, completedAt: now }
    : { status: 'failed' as const, errorCode: outcome.error.code, errorMessage: outcome.error.message, leaseExpiresAt: null, updatedAt: now, completedAt: now }
}

export const FILE_MISSING: JobOutcome = { error: { code: 'file_missing', message: 'The uploaded document is no longer stored' } }

/** What a job's end tells the webhooks module (D81): the wire form of the ended job. */
export type DescribeJob = (row: JobRow) => unknown

export interface JobsRepository {
  /** Stores a queued job with its document, and lets idle runners of any process know. */
  create(job: NewJobRow, content: Uint8Array): Promise<JobRow>
  find(accountId: string, id: string): Promise<JobRow | undefined>
  /** The account's jobs, newest first, `limit` of them. */
  list(accountId: string, page: JobPage): Promise<JobRow[]>
  /** A job's document as uploaded; `content` null once it is no longer kept. */
  file(accountId: string, id: string): Promise<{ name: string; mediaType: string; content: Uint8Array | null } | undefined>
  /** Ends a job that has not ended as canceled (D71); the status it had, or undefined when it is not the account's. */
  cancel(accountId: string, id: string, keepFileMs: number): Promise<JobStatus | undefined>
  /** Deletes an ended job and its document; the status it had, or undefined when it is not the account's. */
  remove(accountId: string, id: string): Promise<JobStatus | undefined>

  // The runner's side: by job ID, fenced by the runner that claimed the job (D77).
  /** Claims a queued job, or a running one whose lease ran out, for `runner`; undefined when another holds it or it ended. */
  claim(id: string, runner: string, leaseMs: number, describe: DescribeJob): Promise<ClaimedJob | undefined>
  /** Extends the leases of the jobs `runner` still holds; returns the IDs it holds. */
  renew(runner: string, ids: string[], leaseMs: number): Promise<string[]>
  /** Gives `runner`'s running jobs back to the queue; how many. */
  release(runner: string, ids: string[]): Promise<number>
  /** Up to `limit` jobs a runner may claim, oldest first; `interrupted` when left running by a runner that stopped. */
  claimable(limit: number): Promise<{ id: string; interrupted: boolean }[]>
  /** Whether a job has ended (or is gone). */
  ended(id: string): Promise<boolean>
  recordProgress(id: string, runner: string, progress: JobProgress): Promise<void>
  /** Records the outcome if `runner` still holds the job, releases its document, queues its webhook events. */
  complete(id: string, runner: string, outcome: JobOutcome, keepFileMs: number, describe: DescribeJob): Promise<boolean>
  /** Deletes kept documents whose retention has passed; how many. */
  purgeExpiredFiles(): Promise<number>
  /** Calls `wake` when another process may have queued a job; returns what stops it. */
  onQueued(wake: () => void): () => void
}

export const jobsRepository = perDatabase<JobsRepository>({ sqlite: sqliteJobs, postgres: postgresJobs })
