/** Jobs on SQLite: immediate transactions, so claims and completions hold across processes on one file. */
import { and, count, desc, eq, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import type { SqliteDatabase } from '../../db/database'
import { type JobStatus, jobFiles, jobs, jobTurns } from '../../db/tables'
import { isoIn, nowIso } from '../../lib/time'
import { enqueueJobEventSqlite } from '../webhooks/sqlite'
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

function owned(accountId: string, id?: string): SQL {
  return id === undefined ? eq(jobs.accountId, accountId) : and(eq(jobs.accountId, accountId), eq(jobs.id, id))!
}

/** Jobs no runner holds: queued, or running under a lease its runner stopped renewing. */
function claimable(now: string): SQL {
  return or(eq(jobs.status, 'queued'), and(eq(jobs.status, 'running'), lt(jobs.leaseExpiresAt, now)))!
}

/** A finished job's document is kept for the retention time, or deleted at once (D60). */
function releaseFile(tx: Tx | Db, id: string, keepFileMs: number): void {
  if (keepFileMs > 0)
    tx.update(jobFiles)
      .set({ expiresAt: isoIn(keepFileMs) })
      .where(eq(jobFiles.jobId, id))
      .run()
  else tx.delete(jobFiles).where(eq(jobFiles.jobId, id)).run()
}

function finish(tx: Tx | Db, id: string, runner: string, outcome: JobOutcome, keepFileMs: number, describe: DescribeJob): boolean {
  const done = tx
    .update(jobs)
    .set(endOf(outcome, nowIso()))
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
    .returning()
    .get()
  if (!done) return false
  releaseFile(tx, id, keepFileMs)
  // D81: the job's webhook events are queued in the transaction that ends it.
  enqueueJobEventSqlite(tx, done.accountId, { id: done.id, status: done.status, completedAt: done.completedAt, wire: () => describe(done) })
  return true
}

/** Claims one job by ID in `tx`; undefined when it is not claimable (or its document is gone: it then fails). */
function claimIn(tx: Tx, id: string, runner: string, leaseMs: number, describe: DescribeJob): ClaimedJob | undefined {
  const now = nowIso()
  const row = tx
    .update(jobs)
    .set({ status: 'running', runner, leaseExpiresAt: isoIn(leaseMs), attempts: sql`${jobs.attempts} + 1`, updatedAt: now })
    .where(and(eq(jobs.id, id), claimable(now)))
    .returning()
    .get()
  if (!row) return undefined
  const file = tx.select({ content: jobFiles.content }).from(jobFiles).where(eq(jobFiles.jobId, id)).get()
  if (!file) {
    finish(tx, id, runner, FILE_MISSING, 0, describe)
    return undefined
  }
  tx.insert(jobTurns)
    .values({ accountId: row.accountId, lastClaimedAt: now })
    .onConflictDoUpdate({ target: jobTurns.accountId, set: { lastClaimedAt: now } })
    .run()
  return { row, content: file.content }
}

export function sqliteJobs({ db, sqlite }: SqliteDatabase): JobsRepository {
  const ownedStatus = (tx: Tx, accountId: string, id: string) => tx.select({ status: jobs.status }).from(jobs).where(owned(accountId, id)).get()?.status

  return {
    async create({ now, ...job }, content, { maxQueuedJobs, maxQueuedBytes }) {
      // Immediate: the count and the insert hold across processes on the file, so the caps are exact (D133).
      return db.transaction(
        (tx) => {
          const waiting = tx
            .select({ jobs: count(), bytes: sql<number>`coalesce(sum(${jobs.fileSize}), 0)` })
            .from(jobs)
            .where(and(owned(job.accountId), inArray(jobs.status, ['queued', 'running'])))
            .get() ?? { jobs: 0, bytes: 0 }
          if (waiting.jobs >= maxQueuedJobs) return { over: 'jobs' as const }
          if (waiting.jobs > 0 && waiting.bytes + job.fileSize > maxQueuedBytes) return { over: 'bytes' as const }
          const row = tx
            .insert(jobs)
            .values({ ...job, createdAt: now, updatedAt: now })
            .returning()
            .get()
          const { buffer, byteOffset, byteLength } = content
          tx.insert(jobFiles)
            .values({ jobId: row.id, content: Buffer.from(buffer, byteOffset, byteLength) })
            .run() // a view, not a copy
          return { row }
        },
        { behavior: 'immediate' },
      )
    },

    find: async (accountId, id) => db.select().from(jobs).where(owned(accountId, id)).get(),

    async list(accountId, { limit, status, schemaId, after }) {
      let where = owned(accountId)
      if (status !== undefined) where = and(where, eq(jobs.status, status))!
      if (schemaId !== undefined) where = and(where, eq(jobs.schemaId, schemaId))!
      if (after !== undefined) where = and(where, or(lt(jobs.createdAt, after.createdAt), and(eq(jobs.createdAt, after.createdAt), lt(jobs.id, after.id))))!
      return db.select().from(jobs).where(where).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(limit).all()
    },

    file: async (accountId, id) =>
      db
        .select({ name: jobs.fileName, mediaType: jobs.fileMediaType, content: jobFiles.content })
        .from(jobs)
        .leftJoin(jobFiles, eq(jobFiles.jobId, jobs.id))
        .where(owned(accountId, id))
        .get(),

    async cancel(accountId, id, keepFileMs) {
      return db.transaction(
        (tx) => {
          const status = ownedStatus(tx, accountId, id)
          if (status === undefined || FINISHED.includes(status)) return status
          const now = nowIso()
          tx.update(jobs).set({ status: 'canceled', runner: null, leaseExpiresAt: null, updatedAt: now, completedAt: now }).where(eq(jobs.id, id)).run()
          releaseFile(tx, id, keepFileMs)
          return status
        },
        { behavior: 'immediate' },
      )
    },

    async remove(accountId, id) {
      return db.transaction(
        (tx) => {
          const status = ownedStatus(tx, accountId, id)
          if (status === undefined || !FINISHED.includes(status)) return status
          tx.delete(jobFiles).where(eq(jobFiles.jobId, id)).run()
          tx.delete(jobs).where(eq(jobs.id, id)).run()
          return status
        },
        { behavior: 'immediate' },
      )
    },

    async claim(id, runner, leaseMs, describe) {
      return db.transaction((tx) => claimIn(tx, id, runner, leaseMs, describe), { behavior: 'immediate' })
    },

    async claimNext(runner, leaseMs, describe, turn) {
      // A plain read first: an idle queue, the usual case, takes no write lock at every poll.
      if (!db.select({ id: jobs.id }).from(jobs).where(claimable(nowIso())).limit(1).get()) return undefined
      // Immediate: one claim at a time across processes, each seeing the turns the last one left.
      return db.transaction(
        (tx) => {
          // A job whose document is gone fails as it is claimed; the next in turn is taken instead.
          for (let tries = 0; tries < MAX_CLAIM_TRIES; tries++) {
            const [next] = tx.all<{ id: string; status: JobStatus }>(nextInTurnSql(nowIso(), runner, turn))
            if (!next) return undefined
            const claimed = claimIn(tx, next.id, runner, leaseMs, describe)
            if (claimed) return { ...claimed, interrupted: next.status === 'running' }
          }
          return undefined
        },
        { behavior: 'immediate' },
      )
    },

    async renew(runner, ids, leaseMs) {
      if (ids.length === 0) return []
      return db
        .update(jobs)
        .set({ leaseExpiresAt: isoIn(leaseMs) })
        .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
        .returning({ id: jobs.id })
        .all()
        .map((row) => row.id)
    },

    async release(runner, ids) {
      if (ids.length === 0) return 0
      return db
        .update(jobs)
        .set({ status: 'queued', runner: null, leaseExpiresAt: null, updatedAt: nowIso() })
        .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
        .returning({ id: jobs.id })
        .all().length
    },

    async ended(id) {
      const row = db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id)).get()
      return !row || FINISHED.includes(row.status)
    },

    async recordProgress(id, runner, progress) {
      db.update(jobs)
        .set({ progress, updatedAt: nowIso() })
        .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
        .run()
    },

    async complete(id, runner, outcome, keepFileMs, describe) {
      return db.transaction((tx) => finish(tx, id, runner, outcome, keepFileMs, describe), { behavior: 'immediate' })
    },

    async purgeExpiredFiles() {
      const purged = db
        .delete(jobFiles)
        .where(and(isNotNull(jobFiles.expiresAt), lt(jobFiles.expiresAt, nowIso())))
        .returning({ id: jobFiles.jobId })
        .all().length
      // Documents deleted here or as their jobs ended leave free pages: give them back to the file system (D133).
      sqlite.run('PRAGMA incremental_vacuum')
      return purged
    },

    // Other processes' jobs are found by the runner's poll.
    onQueued: () => () => {},
  }
}
