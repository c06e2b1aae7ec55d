/**
 * Jobs on PostgreSQL, shared by any number of instances (D100): a claim locks the job's row with
 * SKIP LOCKED, so instances never wait on each other's claims; completion is fenced by the
 * runner as on SQLite. A queued or released job is announced with NOTIFY, on which idle runners
 * of every instance look for work at once.
 */
import { and, desc, eq, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { PostgresDatabase } from '../../db/database'
import type { PgTx } from '../../db/postgres'
import { listen, notify } from '../../db/postgres-notify'
import { jobFiles, jobs } from '../../db/pg-tables'
import { isoIn, nowIso } from '../../lib/time'
import { enqueueJobEventPostgres } from '../webhooks/postgres'
import { type DescribeJob, endOf, FILE_MISSING, FINISHED, type JobOutcome, type JobsRepository } from './repository'

const QUEUED_CHANNEL = 'extractd_jobs'

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

/** The status of one of the account's jobs, its row locked until the transaction ends. */
async function lockedStatus(tx: PgTx, accountId: string, id: string) {
  const [row] = await tx.select({ status: jobs.status }).from(jobs).where(owned(accountId, id)).for('update')
  return row?.status
}

export function postgresJobs({ db, url, transaction }: PostgresDatabase): JobsRepository {
  const one = async <T>(rows: Promise<T[]>) => (await rows)[0]
  const runningOf = (runner: string, ids: string[]) => and(inArray(jobs.id, ids), eq(jobs.status, 'running'), eq(jobs.runner, runner))

  return {
    create: ({ now, ...job }, content) =>
      transaction(async (tx) => {
        const [row] = await tx
          .insert(jobs)
          .values({ ...job, createdAt: now, updatedAt: now })
          .returning()
        const { buffer, byteOffset, byteLength } = content
        await tx.insert(jobFiles).values({ jobId: row!.id, content: Buffer.from(buffer, byteOffset, byteLength) })
        await notify(tx, QUEUED_CHANNEL)
        return row!
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

    claim: (id, runner, leaseMs, describe) =>
      transaction(async (tx) => {
        const now = nowIso()
        // Another instance claiming the same job holds its row: skip it rather than wait.
        const [free] = await tx
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(eq(jobs.id, id), claimable(now)))
          .for('update', { skipLocked: true })
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
        return { row: row!, content: file.content }
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

    async claimable(limit) {
      const rows = await db.select({ id: jobs.id, status: jobs.status }).from(jobs).where(claimable(nowIso())).orderBy(jobs.createdAt, jobs.id).limit(limit)
      return rows.map((row) => ({ id: row.id, interrupted: row.status === 'running' }))
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
