/**
 * What the extraction service and the job runner need from a database. Each dialect (sqlite.ts,
 * postgres.ts) implements it; dialect.ts picks one for a database, so neither imports the other
 * or this file's users.
 */
import type { JobField, JobFieldMeta, JobProgress, JobStatus, jobs } from '../../db/tables'
import { type SQL, sql } from 'drizzle-orm'
import type { JobErrorCode } from './engines/types'
import type { QueueCaps } from './queue-limits'

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

export type { QueueCaps } from './queue-limits'

/** A new job, or which cap it would pass. */
export type Created = { row: JobRow } | { over: 'jobs' | 'bytes' }

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
  /**
   * Stores a queued job with its document, and lets idle runners of any process know; unless the
   * account's jobs not yet ended would pass a cap with it, checked in the same transaction.
   */
  create(job: NewJobRow, content: Uint8Array, caps: QueueCaps): Promise<Created>
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
  /**
   * Claims the next job for `runner` in the accounts' turns (D131, D194): a job whose runner
   * stopped renewing it first, whoever's; else, of the accounts with jobs no runner holds and
   * below their share of `runner`'s slots (or alone in waiting), the one with the fewest jobs
   * running (on any runner), then the one whose job was claimed longest ago; of its jobs, the
   * oldest. `interrupted` when it was left running by a runner that stopped renewing it.
   * Undefined when there is none.
   */
  claimNext(runner: string, leaseMs: number, describe: DescribeJob, turn: ClaimTurn): Promise<(ClaimedJob & { interrupted: boolean }) | undefined>
  /** Whether a job has ended (or is gone). */
  ended(id: string): Promise<boolean>
  recordProgress(id: string, runner: string, progress: JobProgress): Promise<void>
  /** Records the outcome if `runner` still holds the job, releases its document, queues its webhook events. */
  complete(id: string, runner: string, outcome: JobOutcome, keepFileMs: number, describe: DescribeJob): Promise<boolean>
  /** Deletes kept documents whose retention has passed, and gives the space of deleted documents back (SQLite); how many. */
  purgeExpiredFiles(): Promise<number>
  /** Calls `wake` when another process may have queued a job; returns what stops it. */
  onQueued(wake: () => void): () => void
}

/** How many jobs one claim in turn passes over (their documents gone) before it gives up until the next poll. */
export const MAX_CLAIM_TRIES = 16

/**
 * How a runner's slots are shared (D194): while another account has work waiting, an account
 * holds at most `share` of them (half, rounded up); alone in waiting, it may take them all. A
 * runner whose slots are all taken claims `insteadOf` an account over its share: only for
 * another account below its share, and never a dead runner's job.
 */
export interface ClaimTurn {
  share: number
  insteadOf?: string
}

/** An account's share of `slots`: half of them, rounded up, at least one (D194). */
export function shareOf(slots: number): number {
  return Math.max(1, Math.ceil(slots / 2))
}

/**
 * The next job for `runner` (D131, D194), the same text on both dialects. A job whose runner
 * stopped renewing it comes first, whoever's (D195). Else the accounts with queued jobs take
 * turns: only those holding less than their share of this runner's slots, unless one is alone in
 * waiting; of them the fewest running on any runner first (a slot each before any has two), then
 * the one claimed from longest ago (never first), then the oldest waiting; of that account's
 * jobs, the oldest. Selects `id` and `status`.
 */
export function nextInTurnSql(now: string, runner: string, { share, insteadOf }: ClaimTurn): SQL {
  const orphan = sql`(jobs.status = 'running' and jobs.lease_expires_at < ${now})`
  const belowShare = sql`coalesce(busy.here, 0) < ${share}`
  const eligible =
    insteadOf === undefined ? sql`(${belowShare} or (select count(*) from waiting) = 1)` : sql`${belowShare} and waiting.account_id <> ${insteadOf}`
  return sql`
    with waiting as (
      select account_id, min(created_at) as first_at from jobs
      where status = 'queued' or (status = 'running' and lease_expires_at < ${now}) group by account_id
    ), busy as (
      select account_id, count(*) as running, sum(case when runner = ${runner} then 1 else 0 end) as here
      from jobs where status = 'running' and lease_expires_at >= ${now} group by account_id
    ), turn as (
      select waiting.account_id from waiting
      left join busy on busy.account_id = waiting.account_id
      left join job_turns on job_turns.account_id = waiting.account_id
      where ${eligible}
      order by coalesce(busy.running, 0), job_turns.last_claimed_at nulls first, waiting.first_at, waiting.account_id
      limit 1
    )
    select jobs.id, jobs.status from jobs
    where ${insteadOf === undefined ? orphan : sql`false`} or (jobs.status = 'queued' and jobs.account_id in (select account_id from turn))
    order by case when jobs.status = 'running' then 0 else 1 end, jobs.created_at, jobs.id
    limit 1`
}
