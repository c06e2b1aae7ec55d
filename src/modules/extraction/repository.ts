/**
 * Jobs and their documents in the database, written once for both dialects (D210). A job is
 * claimed by one runner at a time, under a lease, and completed by that runner only (D77); claims
 * in turn take turns across processes (D131), and a new job is counted against its account's caps
 * in the transaction that stores it (D133). Queued jobs are announced on a channel: to this
 * process's runner, and on PostgreSQL to every instance's. What a job's end means to other modules
 * (its webhook events) is the service's to add to the transaction (D213).
 */
import { and, count, desc, eq, gte, inArray, isNotNull, lt, ne, or, type SQL, sql } from 'drizzle-orm'
import { perDatabase } from '../../db/database'
import { forUpdate, lock, notify, type Part, type Queries, rows, run } from '../../db/dialect'
import {
  type JobClassification,
  type JobDocument,
  type JobProgress,
  type JobReading,
  type JobSplitFrom,
  type JobStatus,
  jobTables,
  type StoredJobField,
} from '../../db/tables/jobs'
import type { JobField } from '../../lib/fields/model'
import type { Tables } from '../../db/tables/kit'
import { isoIn, nowIso } from '../../lib/time'
import type { StoredAnswers } from './answers'
import type { JobErrorCode } from './errors'
import type { QueueCaps } from './queue-limits'

export type JobRow = Tables<typeof jobTables>['jobs']['$inferSelect']

export interface NewJobRow {
  accountId: string
  documentType: string
  schemaId: string | null
  schemaVersion: number | null
  fields: StoredJobField[]
  fileName: string
  fileSize: number
  fileMediaType: string
  fileSha256: string
  engine: string
  /** Read the file as one or more documents (D251). */
  split: boolean
  reviewThreshold: number
  /** One instant: a new job's updated_at equals its created_at. */
  now: string
}

/**
 * A found document's job (D251): made ended, with its outcome, in the transaction that ends the
 * job that split its file; its ID chosen before, so that job lists it.
 */
export interface FoundJobRow extends Omit<NewJobRow, 'split'> {
  id: string
  splitFrom: JobSplitFrom
  outcome: JobOutcome
}

export interface JobPage {
  limit: number
  status?: JobStatus
  schemaId?: string
  /** Only succeeded jobs that need a person, or that do not (D284). */
  needsReview?: boolean
  /** Only jobs older than this one (D21's cursor). */
  after?: { createdAt: string; id: string }
}

/** Which reviewed jobs an account's accuracy counts (D290): one schema's, one document type's, those created from a time on. */
export interface ReviewedFilter {
  schemaId?: string
  documentType?: string
  /** An ISO 8601 UTC timestamp, compared with `created_at` (D5: both are written alike). */
  since?: string
}

export interface ClaimedJob {
  row: JobRow
  content: Uint8Array
}

export type { QueueCaps } from './queue-limits'

/** A new job, or which cap it would pass. */
export type Created = { row: JobRow } | { over: 'jobs' | 'bytes' }

/**
 * A job's end: its answers (and the document as it was read, as JSON, kept for a review, D272), or its error;
 * with `auto` (D250), the type found and the fields read as it, when one fits, and how sure the
 * classifier was; with `split` (D251), the documents found, each a job of its own (its `result` null).
 */
export type JobOutcome = (
  | (StoredAnswers & { reading?: string })
  | { result: null; fieldsMeta: null; needsReview: false }
  | { error: { code: JobErrorCode; message: string } }
) & {
  documentType?: string
  fields?: JobField[]
  classification?: JobClassification
  documents?: JobDocument[]
}

export const FINISHED: readonly JobStatus[] = ['succeeded', 'failed', 'canceled']

/** What a job holds when it ends, by outcome. */
function endOf(outcome: JobOutcome, now: string) {
  const { documentType, fields, classification, documents } = outcome
  const found = { ...(documentType && { documentType }), ...(fields && { fields }), ...(classification && { classification }), ...(documents && { documents }) }
  return 'result' in outcome
    ? {
        status: 'succeeded' as const,
        result: outcome.result,
        fieldsMeta: outcome.fieldsMeta,
        needsReview: outcome.needsReview,
        ...found,
        leaseExpiresAt: null,
        updatedAt: now,
        completedAt: now,
      }
    : {
        status: 'failed' as const,
        errorCode: outcome.error.code,
        errorMessage: outcome.error.message,
        ...found,
        leaseExpiresAt: null,
        updatedAt: now,
        completedAt: now,
      }
}

const FILE_MISSING: JobOutcome = { error: { code: 'file_missing', message: 'The uploaded document is no longer stored' } }

/** What a claim found: the job it claimed, and the jobs that ended as it passed over them (their documents gone). */
interface Claim<J = ClaimedJob> {
  job?: J
  ended: JobRow[]
}

/** How many jobs one claim in turn passes over (their documents gone) before it gives up until the next poll. */
const MAX_CLAIM_TRIES = 16

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
function nextInTurnSql(now: string, runner: string, { share, insteadOf }: ClaimTurn): SQL {
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

const QUEUED_CHANNEL = 'extractd_jobs'
/** Any number unique to extractd: the transaction advisory lock claims in turn take one at a time (D131). */
const CLAIM_LOCK = 0x6a6f6273 // "jobs"
/** Any number unique to extractd: an account's new jobs take turns on it with the account's ID, to count against its caps (D133). */
const QUEUE_CAPS_LOCK = 0x6a6f6271 // "jobq"

export const jobsRepository = perDatabase((database) => {
  const { db } = database
  const { jobs, jobFiles, jobTurns, jobReadings } = jobTables[database.kind]

  const owned = (accountId: string, id?: string): SQL =>
    id === undefined ? eq(jobs.accountId, accountId) : and(eq(jobs.accountId, accountId), eq(jobs.id, id))!
  /** Jobs no runner holds: queued, or running under a lease its runner stopped renewing. */
  const claimable = (now: string): SQL => or(eq(jobs.status, 'queued'), and(eq(jobs.status, 'running'), lt(jobs.leaseExpiresAt, now)))!
  const runningOf = (runner: string, ids: string[]) => and(inArray(jobs.id, ids), eq(jobs.status, 'running'), eq(jobs.runner, runner))

  /** The status of one of the account's jobs, its row locked until the transaction ends. */
  function* lockedStatus(tx: Queries, accountId: string, id: string): Part<JobStatus | undefined> {
    const [row] = yield* forUpdate(tx.select({ status: jobs.status }).from(jobs).where(owned(accountId, id)))
    return row?.status
  }

  /** A finished job's document is kept for the retention time, or deleted at once (D60). */
  function* releaseFile(tx: Queries, id: string, keepFileMs: number): Part<void> {
    if (keepFileMs > 0)
      yield* run(
        tx
          .update(jobFiles)
          .set({ expiresAt: isoIn(keepFileMs) })
          .where(eq(jobFiles.jobId, id)),
      )
    else yield* run(tx.delete(jobFiles).where(eq(jobFiles.jobId, id)))
  }

  /** Records the outcome if `runner` still holds the job, and releases its document; the ended job, or undefined. */
  function* finish(tx: Queries, id: string, runner: string, outcome: JobOutcome, keepFileMs: number): Part<JobRow | undefined> {
    const [done] = yield* run(
      tx
        .update(jobs)
        .set(endOf(outcome, nowIso()))
        .where(runningOf(runner, [id]))
        .returning(),
    )
    if (done) yield* releaseFile(tx, id, keepFileMs)
    if (done && 'reading' in outcome && outcome.reading)
      yield* run(tx.insert(jobReadings).values({ jobId: id, reading: outcome.reading }).onConflictDoNothing())
    return done
  }

  /**
   * Claims one job by ID for `runner`: passing over it when another transaction holds its row
   * (`skipLocked`), else waiting for that one (a cancel) to end. Nothing when it is not claimable;
   * a job whose document is gone ends failed instead.
   */
  function* claimIn(tx: Queries, id: string, runner: string, leaseMs: number, skipLocked: boolean): Part<Claim> {
    const now = nowIso()
    const [free] = yield* forUpdate(
      tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.id, id), claimable(now))),
      { skipLocked },
    )
    if (!free) return { ended: [] }
    const [row] = yield* run(
      tx
        .update(jobs)
        .set({ status: 'running', runner, leaseExpiresAt: isoIn(leaseMs), attempts: sql`${jobs.attempts} + 1`, updatedAt: now })
        .where(eq(jobs.id, id))
        .returning(),
    )
    const [file] = yield* run(tx.select({ content: jobFiles.content }).from(jobFiles).where(eq(jobFiles.jobId, id)))
    if (!file) {
      const ended = yield* finish(tx, id, runner, FILE_MISSING, 0)
      return { ended: ended ? [ended] : [] }
    }
    yield* run(
      tx
        .insert(jobTurns)
        .values({ accountId: row!.accountId, lastClaimedAt: now })
        .onConflictDoUpdate({ target: jobTurns.accountId, set: { lastClaimedAt: now } }),
    )
    return { job: { row: row!, content: file.content }, ended: [] }
  }

  return {
    /**
     * Stores a queued job with its document, and lets idle runners know; unless the account's jobs
     * not yet ended would pass a cap with it, counted while the account's other new jobs wait their
     * turn, on any process (D133).
     */
    create: ({ now, ...job }: NewJobRow, content: Uint8Array, { maxQueuedJobs, maxQueuedBytes }: QueueCaps): Promise<Created> =>
      database.transaction(function* (tx) {
        yield* lock(QUEUE_CAPS_LOCK, job.accountId)
        const [waiting] = yield* run(
          tx
            .select({ jobs: count(), bytes: sql<number | string>`coalesce(sum(${jobs.fileSize}), 0)` })
            .from(jobs)
            .where(and(owned(job.accountId), inArray(jobs.status, ['queued', 'running']))),
        )
        const held = { jobs: Number(waiting?.jobs ?? 0), bytes: Number(waiting?.bytes ?? 0) }
        if (held.jobs >= maxQueuedJobs) return { over: 'jobs' as const }
        if (held.jobs > 0 && held.bytes + job.fileSize > maxQueuedBytes) return { over: 'bytes' as const }
        const [row] = yield* run(
          tx
            .insert(jobs)
            .values({ ...job, createdAt: now, updatedAt: now })
            .returning(),
        )
        const { buffer, byteOffset, byteLength } = content
        yield* run(tx.insert(jobFiles).values({ jobId: row!.id, content: Buffer.from(buffer, byteOffset, byteLength) })) // a view, not a copy
        yield* notify(QUEUED_CHANNEL)
        return { row: row! }
      }),

    find: async (accountId: string, id: string): Promise<JobRow | undefined> => (await db.select().from(jobs).where(owned(accountId, id)))[0],

    /** The account's jobs, newest first, `limit` of them. */
    list(accountId: string, { limit, status, schemaId, needsReview, after }: JobPage): Promise<JobRow[]> {
      let where = owned(accountId)
      if (needsReview !== undefined) where = and(where, eq(jobs.needsReview, needsReview))!
      if (status !== undefined) where = and(where, eq(jobs.status, status))!
      if (schemaId !== undefined) where = and(where, eq(jobs.schemaId, schemaId))!
      if (after !== undefined) where = and(where, or(lt(jobs.createdAt, after.createdAt), and(eq(jobs.createdAt, after.createdAt), lt(jobs.id, after.id))))!
      return db.select().from(jobs).where(where).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(limit)
    },

    /** A job's document as uploaded; `content` null once it is no longer kept. */
    file: async (accountId: string, id: string): Promise<{ name: string; mediaType: string; content: Uint8Array | null } | undefined> =>
      (
        await db
          .select({ name: jobs.fileName, mediaType: jobs.fileMediaType, content: jobFiles.content })
          .from(jobs)
          .leftJoin(jobFiles, eq(jobFiles.jobId, jobs.id))
          .where(owned(accountId, id))
      )[0],

    /** Ends a job that has not ended as canceled (D71); the status it had, or undefined when it is not the account's. */
    cancel: (accountId: string, id: string, keepFileMs: number): Promise<JobStatus | undefined> =>
      database.transaction(function* (tx) {
        const status = yield* lockedStatus(tx, accountId, id)
        if (status === undefined || FINISHED.includes(status)) return status
        const now = nowIso()
        yield* run(tx.update(jobs).set({ status: 'canceled', runner: null, leaseExpiresAt: null, updatedAt: now, completedAt: now }).where(eq(jobs.id, id)))
        yield* releaseFile(tx, id, keepFileMs)
        return status
      }),

    /** Deletes an ended job and its document; the status it had, or undefined when it is not the account's. */
    remove: (accountId: string, id: string): Promise<JobStatus | undefined> =>
      database.transaction(function* (tx) {
        const status = yield* lockedStatus(tx, accountId, id)
        if (status === undefined || !FINISHED.includes(status)) return status
        yield* run(tx.delete(jobFiles).where(eq(jobFiles.jobId, id)))
        yield* run(tx.delete(jobReadings).where(eq(jobReadings.jobId, id)))
        yield* run(tx.delete(jobs).where(eq(jobs.id, id)))
        return status
      }),

    // The runner's side: by job ID, fenced by the runner that claimed the job (D77).
    /**
     * Whether any job waits for a runner: a plain read, so an idle queue, the usual case, takes no
     * lock at every poll. Claiming `insteadOf` an account (D194), only another account's queued job counts.
     */
    anyClaimable: async (insteadOf?: string): Promise<boolean> => {
      const waiting = insteadOf === undefined ? claimable(nowIso()) : and(eq(jobs.status, 'queued'), ne(jobs.accountId, insteadOf))
      return (await db.select({ id: jobs.id }).from(jobs).where(waiting).limit(1)).length > 0
    },

    /** Claims a queued job, or a running one whose lease ran out, for `runner`; nothing when another holds it (it is passed over) or it ended. */
    claim: (tx: Queries, id: string, runner: string, leaseMs: number): Part<Claim> => claimIn(tx, id, runner, leaseMs, true),

    /**
     * Claims the next job for `runner` in the accounts' turns (D131, D194): a job whose runner
     * stopped renewing it first, whoever's (D195); else, of the accounts with jobs no runner holds
     * and below their share of `runner`'s slots (or alone in waiting), the one with the fewest jobs
     * running (on any runner), then the one whose job was claimed longest ago; of its jobs, the
     * oldest. `interrupted` when it was left running by a runner that stopped renewing it.
     */
    *claimNext(tx: Queries, runner: string, leaseMs: number, turn: ClaimTurn): Part<Claim<ClaimedJob & { interrupted: boolean }>> {
      // One claim in turn at a time across processes: each sees the running jobs and turns the last one left.
      yield* lock(CLAIM_LOCK)
      const ended: JobRow[] = []
      // A job whose document is gone fails as it is claimed; the next in turn is taken instead.
      for (let tries = 0; tries < MAX_CLAIM_TRIES; tries++) {
        const [next] = yield* rows<{ id: string; status: JobStatus }>(nextInTurnSql(nowIso(), runner, turn))
        if (!next) break
        const claimed = yield* claimIn(tx, next.id, runner, leaseMs, false)
        ended.push(...claimed.ended)
        if (claimed.job) return { job: { ...claimed.job, interrupted: next.status === 'running' }, ended }
      }
      return { ended }
    },

    /** Extends the leases of the jobs `runner` still holds; returns the IDs it holds. */
    async renew(runner: string, ids: string[], leaseMs: number): Promise<string[]> {
      if (ids.length === 0) return []
      const held = await db
        .update(jobs)
        .set({ leaseExpiresAt: isoIn(leaseMs) })
        .where(runningOf(runner, ids))
        .returning({ id: jobs.id })
      return held.map((row) => row.id)
    },

    /** Gives `runner`'s running jobs back to the queue, and lets idle runners know; how many. */
    async release(runner: string, ids: string[]): Promise<number> {
      if (ids.length === 0) return 0
      return database.transaction(function* (tx) {
        const released = yield* run(
          tx
            .update(jobs)
            .set({ status: 'queued', runner: null, leaseExpiresAt: null, updatedAt: nowIso() })
            .where(runningOf(runner, ids))
            .returning({ id: jobs.id }),
        )
        if (released.length > 0) yield* notify(QUEUED_CHANNEL)
        return released.length
      })
    },

    /** Whether a job has ended (or is gone). */
    async ended(id: string): Promise<boolean> {
      const [row] = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id))
      return !row || FINISHED.includes(row.status)
    },

    async recordProgress(id: string, runner: string, progress: JobProgress): Promise<void> {
      await db
        .update(jobs)
        .set({ progress, updatedAt: nowIso() })
        .where(runningOf(runner, [id]))
    },

    /** Records the outcome if `runner` still holds the job, and releases its document; the ended job. */
    finish,

    /** Stores the jobs of the documents found in a split job's file, ended (D251); they hold no file of their own. */
    *found(tx: Queries, found: FoundJobRow[]): Part<JobRow[]> {
      if (found.length === 0) return []
      const rows = yield* run(
        tx
          .insert(jobs)
          .values(
            found.map(({ now, outcome, ...job }) => {
              const pages = job.splitFrom.last_page - job.splitFrom.first_page + 1
              return { ...job, ...endOf(outcome, now), progress: { pages_done: pages, pages_total: pages }, attempts: 1, createdAt: now }
            }),
          )
          .returning(),
      )
      // Each document keeps its own pages' reading for a review to learn from (D272).
      const readings = found.flatMap(({ id, outcome }) => ('reading' in outcome && outcome.reading ? [{ jobId: id, reading: outcome.reading }] : []))
      if (readings.length > 0) yield* run(tx.insert(jobReadings).values(readings))
      return rows
    },

    /** Deletes kept documents whose retention has passed, and gives the space of deleted documents back; how many. */
    async purgeExpiredFiles(): Promise<number> {
      const purged = await db
        .delete(jobFiles)
        .where(and(isNotNull(jobFiles.expiresAt), lt(jobFiles.expiresAt, nowIso())))
        .returning({ id: jobFiles.jobId })
      // Documents deleted here or as their jobs ended leave free pages (D133).
      await database.reclaimSpace()
      return purged.length
    },

    // A review (D271): the reviews service composes these with its own tables and the webhook event.

    /** One of the account's jobs, its row locked until the transaction ends. */
    *locked(tx: Queries, accountId: string, id: string): Part<JobRow | undefined> {
      const [row] = yield* forUpdate(tx.select().from(jobs).where(owned(accountId, id)))
      return row
    },

    /** What a job's document was read as, when it was kept (D272). */
    async reading(id: string): Promise<JobReading | undefined> {
      const text = (await db.select({ reading: jobReadings.reading }).from(jobReadings).where(eq(jobReadings.jobId, id)))[0]?.reading
      return text === undefined ? undefined : (JSON.parse(text) as JobReading)
    },

    /** A job's values as a review leaves them; the job as it is then. */
    *reviewed(tx: Queries, id: string, review: StoredAnswers & { at: string }): Part<JobRow> {
      const [row] = yield* run(
        tx
          .update(jobs)
          .set({ result: review.result, fieldsMeta: review.fieldsMeta, needsReview: review.needsReview, reviewedAt: review.at, updatedAt: review.at })
          .where(eq(jobs.id, id))
          .returning(),
      )
      return row!
    },

    /**
     * A page of the account's reviewed jobs (D271), newest first by creation, after `after` (the
     * previous page's last): their ids, creation times and fields' meta, on the account's index of
     * jobs by creation (D290).
     */
    reviewedPage(accountId: string, filter: ReviewedFilter, limit: number, after?: { createdAt: string; id: string }) {
      let where = and(owned(accountId), isNotNull(jobs.reviewedAt))!
      if (filter.schemaId !== undefined) where = and(where, eq(jobs.schemaId, filter.schemaId))!
      if (filter.documentType !== undefined) where = and(where, eq(jobs.documentType, filter.documentType))!
      if (filter.since !== undefined) where = and(where, gte(jobs.createdAt, filter.since))!
      if (after !== undefined) where = and(where, or(lt(jobs.createdAt, after.createdAt), and(eq(jobs.createdAt, after.createdAt), lt(jobs.id, after.id))))!
      return db
        .select({ id: jobs.id, createdAt: jobs.createdAt, fieldsMeta: jobs.fieldsMeta })
        .from(jobs)
        .where(where)
        .orderBy(desc(jobs.createdAt), desc(jobs.id))
        .limit(limit)
    },

    /** Calls `wake` when a job may have been queued, here or (PostgreSQL) in another process; returns what stops it. */
    onQueued: (wake: () => void) => database.listen(QUEUED_CHANNEL, wake),
  }
})
