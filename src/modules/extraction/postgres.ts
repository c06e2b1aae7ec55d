/**
 * Jobs on PostgreSQL, shared by any number of instances (D100): a claim locks the job's row with
 * SKIP LOCKED, so instances never wait on each other's claims; completion is fenced by the
 * runner as on SQLite. A queued or released job is announced with NOTIFY, on which idle runners
 * of every instance look for work at once.
 */
import { and, count, desc, eq, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { PostgresDatabase } from '../../db/database'
import type { PgTx } from '../../db/postgres'
import { listen, notify } from '../../db/postgres-notify'
import { accounts, jobFiles, jobs, jobTurns } from '../../db/pg-tables'
import type { JobStatus } from '../../db/tables'
import { isoIn, nowIso } from '../../lib/time'
import { enqueueJobEventPostgres } from '../webhooks/postgres'
import {
  type ClaimedJob,
  type DescribeJob,
  endOf,
  FILE_MISSING,
  FINISHED,
  type JobOutcome,
  type JobsRepository,
  MAX_CLAIM_TRIES,
  nextInTurnSql,
} from './repository'

const QUEUED_CHANNEL = 'extractd_jobs'
/** Any number unique to extractd: the transaction advisory lock claims in turn take one at a time (D131). */
const CLAIM_LOCK = 0x6a6f6273 // "jobs"

function owned(accountId: string, id?: string): SQL {
  return id === undefined ? eq(jobs.accountId, accountId) : and(eq(jobs.accountId, accountId), eq(jobs.id, id))!
}

function claimable(now: string): SQL {
  return or(eq(jobs.status, 'queued'), and(eq(jobs.status, 'running'), lt(jobs.leaseExpiresAt, now)))!
}

async function releaseFile(tx: PgTx, id: string, keepFileMs: number): Promise<void> {
  if (keepFileMs > 0)
    await tx
      .update(jobFiles)
      .set({ expiresAt: isoIn(keepFileMs) })
      .where(eq(jobFiles.jobId, id))
  else await tx.delete(jobFiles).where(eq(jobFiles.jobId, id))
}

async function finish(tx: PgTx, id: string, runner: string, outcome: JobOutcome, keepFileMs: number, describe: DescribeJob): Promise<boolean> {
  const [done] = await tx
    .update(jobs)
    .set(endOf(outcome, nowIso()))
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
    .returning()
  if (!done) return false
  await releaseFile(tx, id, keepFileMs)
  await enqueueJobEventPostgres(tx, done.accountId, { id: done.id, status: done.status, completedAt: done.completedAt, wire: () => describe(done) })
  return true
}

/** Claims one job by ID in `tx`, waiting for a cancel that holds its row; undefined when it is not claimable (or its document is gone: it then fails). */
async function claimIn(tx: PgTx, id: string, runner: string, leaseMs: number, describe: DescribeJob, skipLocked: boolean): Promise<ClaimedJob | undefined> {
  const now = nowIso()
  const query = tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.id, id), claimable(now)))
  const [free] = await (skipLocked ? query.for('update', { skipLocked: true }) : query.for('update'))
  if (!free) return undefined
  const [row] = await tx
    .update(jobs)
    .set({ status: 'running', runner, leaseExpiresAt: isoIn(leaseMs), attempts: sql`${jobs.attempts} + 1`, updatedAt: now })
    .where(eq(jobs.id, id))
    .returning()
  const [file] = await tx.select({ content: jobFiles.content }).from(jobFiles).where(eq(jobFiles.jobId, id))
  if (!file) {
    await finish(tx, id, runner, FILE_MISSING, 0, describe)
    return undefined
  }
  await tx
    .insert(jobTurns)
    .values({ accountId: row!.accountId, lastClaimedAt: now })
    .onConflictDoUpdate({ target: jobTurns.accountId, set: { lastClaimedAt: now } })
  return { row: row!, content: file.content }
}

/** The status of one of the account's jobs, its row locked until the transaction ends. */
async function lockedStatus(tx: PgTx, accountId: string, id: string) {
  const [row] = await tx.select({ status: jobs.status }).from(jobs).where(owned(accountId, id)).for('update')
  return row?.status
}

export function postgresJobs({ db, url, transaction }: PostgresDatabase): JobsRepository {
  const one = async <T>(rows: Promise<T[]>) => (await rows)[0]
  const runningOf = (runner: string, ids: string[]) => and(inArray(jobs.id, ids), eq(jobs.status, 'running'), eq(jobs.runner, runner))

  return {
    create: ({ now, ...job }, content, { maxQueuedJobs, maxQueuedBytes }) =>
      transaction(async (tx) => {
        // Held until the transaction ends: the account's waiting jobs cannot change meanwhile, on any instance (D133).
        await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, job.accountId)).for('update')
        const [waiting] = await tx
          .select({ jobs: count(), bytes: sql<string>`coalesce(sum(${jobs.fileSize}), 0)` })
          .from(jobs)
          .where(and(owned(job.accountId), inArray(jobs.status, ['queued', 'running'])))
        const held = { jobs: Number(waiting?.jobs ?? 0), bytes: Number(waiting?.bytes ?? 0) }
        if (held.jobs >= maxQueuedJobs) return { over: 'jobs' as const }
        if (held.jobs > 0 && held.bytes + job.fileSize > maxQueuedBytes) return { over: 'bytes' as const }
        const [row] = await tx
          .insert(jobs)
          .values({ ...job, createdAt: now, updatedAt: now })
          .returning()
        const { buffer, byteOffset, byteLength } = content
        await tx.insert(jobFiles).values({ jobId: row!.id, content: Buffer.from(buffer, byteOffset, byteLength) })
        await notify(tx, QUEUED_CHANNEL)
        return { row: row! }
      }),

    find: (accountId, id) => one(db.select().from(jobs).where(owned(accountId, id))),

    list(accountId, { limit, status, schemaId, after }) {
      let where = owned(accountId)
      if (status !== undefined) where = and(where, eq(jobs.status, status))!
      if (schemaId !== undefined) where = and(where, eq(jobs.schemaId, schemaId))!
      if (after !== undefined) where = and(where, or(lt(jobs.createdAt, after.createdAt), and(eq(jobs.createdAt, after.createdAt), lt(jobs.id, after.id))))!
      return db.select().from(jobs).where(where).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(limit)
    },

    file: (accountId, id) =>
      one(
        db
          .select({ name: jobs.fileName, mediaType: jobs.fileMediaType, content: jobFiles.content })
          .from(jobs)
          .leftJoin(jobFiles, eq(jobFiles.jobId, jobs.id))
          .where(owned(accountId, id)),
      ),

    cancel: (accountId, id, keepFileMs) =>
      transaction(async (tx) => {
        const status = await lockedStatus(tx, accountId, id)
        if (status === undefined || FINISHED.includes(status)) return status
        const now = nowIso()
        await tx.update(jobs).set({ status: 'canceled', runner: null, leaseExpiresAt: null, updatedAt: now, completedAt: now }).where(eq(jobs.id, id))
        await releaseFile(tx, id, keepFileMs)
        return status
      }),

    remove: (accountId, id) =>
      transaction(async (tx) => {
        const status = await lockedStatus(tx, accountId, id)
        if (status === undefined || !FINISHED.includes(status)) return status
        await tx.delete(jobFiles).where(eq(jobFiles.jobId, id))
        await tx.delete(jobs).where(eq(jobs.id, id))
        return status
      }),

    // Another instance claiming the same job holds its row: skip it rather than wait.
    claim: (id, runner, leaseMs, describe) => transaction((tx) => claimIn(tx, id, runner, leaseMs, describe, true)),

    claimNext: (runner, leaseMs, describe, turn) =>
      transaction(async (tx) => {
        // One claim in turn at a time across instances: each sees the running jobs and turns the last one left.
        await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`)
        // A job whose document is gone fails as it is claimed; the next in turn is taken instead.
        for (let tries = 0; tries < MAX_CLAIM_TRIES; tries++) {
          const { rows } = await tx.execute<{ id: string; status: JobStatus }>(nextInTurnSql(nowIso(), runner, turn))
          const next = rows[0]
          if (!next) return undefined
          const claimed = await claimIn(tx, next.id, runner, leaseMs, describe, false)
          if (claimed) return { ...claimed, interrupted: next.status === 'running' }
        }
        return undefined
      }),

    async renew(runner, ids, leaseMs) {
      if (ids.length === 0) return []
      const rows = await db
        .update(jobs)
        .set({ leaseExpiresAt: isoIn(leaseMs) })
        .where(runningOf(runner, ids))
        .returning({ id: jobs.id })
      return rows.map((row) => row.id)
    },

    async release(runner, ids) {
      if (ids.length === 0) return 0
      return transaction(async (tx) => {
        const rows = await tx
          .update(jobs)
          .set({ status: 'queued', runner: null, leaseExpiresAt: null, updatedAt: nowIso() })
          .where(runningOf(runner, ids))
          .returning({ id: jobs.id })
        if (rows.length > 0) await notify(tx, QUEUED_CHANNEL)
        return rows.length
      })
    },

    async ended(id) {
      const row = await one(db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id)))
      return !row || FINISHED.includes(row.status)
    },

    async recordProgress(id, runner, progress) {
      await db
        .update(jobs)
        .set({ progress, updatedAt: nowIso() })
        .where(runningOf(runner, [id]))
    },

    complete: (id, runner, outcome, keepFileMs, describe) => transaction((tx) => finish(tx, id, runner, outcome, keepFileMs, describe)),

    async purgeExpiredFiles() {
      const rows = await db
        .delete(jobFiles)
        .where(and(isNotNull(jobFiles.expiresAt), lt(jobFiles.expiresAt, nowIso())))
        .returning({ id: jobFiles.jobId })
      return rows.length
    },

    onQueued: (wake) => listen(url, QUEUED_CHANNEL, wake),
  }
}
