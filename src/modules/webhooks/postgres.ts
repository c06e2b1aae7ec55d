/**
 * Webhooks on PostgreSQL, shared by any number of instances (D100): the limit locks the
 * account's row, a claim locks due messages with SKIP LOCKED, and attempts are fenced by the
 * lease as on SQLite. Queued messages are announced with NOTIFY, on which the delivery workers
 * of every instance look at once.
 */
import { and, count, desc, eq, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm'
import type { PostgresDatabase } from '../../db/database'
import type { PgTx } from '../../db/postgres'
import { listen, notify } from '../../db/postgres-notify'
import { accounts, webhookAttempts, webhookEndpoints, webhookMessages } from '../../db/pg-tables'
import { newId } from '../../lib/ids'
import { isoIn, nowIso } from '../../lib/time'
import { dueInTurnSql, type EndedJob, eventOf, INTERRUPTED_ATTEMPT, type WebhooksRepository } from './repository'

const QUEUED_CHANNEL = 'extractd_webhooks'

function owned(accountId: string, id?: string): SQL {
  return id === undefined ? eq(webhookEndpoints.accountId, accountId) : and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id))!
}

/** As enqueueJobEventSqlite (D81), in the PostgreSQL transaction that ends the job; delivery workers are told when it commits. */
export async function enqueueJobEventPostgres(tx: PgTx, accountId: string, job: EndedJob): Promise<void> {
  const event = eventOf(job)
  if (!event) return
  const endpoints = (await tx.select({ id: webhookEndpoints.id, events: webhookEndpoints.events }).from(webhookEndpoints).where(owned(accountId))).filter(
    (endpoint) => endpoint.events.includes(event),
  )
  if (endpoints.length === 0) return
  const now = nowIso()
  const payload = JSON.stringify({ type: event, timestamp: job.completedAt ?? now, data: { job: job.wire() } })
  await tx.insert(webhookMessages).values(
    endpoints.map((endpoint) => ({
      id: newId('msg'),
      endpointId: endpoint.id,
      event,
      jobId: job.id,
      payload,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  )
  await notify(tx, QUEUED_CHANNEL)
}

export function postgresWebhooks({ db, url, transaction }: PostgresDatabase): WebhooksRepository {
  return {
    createWithinLimit: (endpoint, limit) =>
      transaction(async (tx) => {
        // Held until the transaction ends: the account's endpoint count cannot change meanwhile.
        await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, endpoint.accountId)).for('update')
        const [held] = await tx.select({ n: count() }).from(webhookEndpoints).where(owned(endpoint.accountId))
        if ((held?.n ?? 0) >= limit) return undefined
        const [row] = await tx.insert(webhookEndpoints).values(endpoint).returning()
        return row
      }),

    list: (accountId) => db.select().from(webhookEndpoints).where(owned(accountId)).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)),

    find: async (accountId, id) => (await db.select().from(webhookEndpoints).where(owned(accountId, id)))[0],

    remove: async (accountId, id) => (await db.delete(webhookEndpoints).where(owned(accountId, id)).returning({ id: webhookEndpoints.id })).length > 0,

    findAttempt: async (endpointId, id) =>
      (
        await db
          .select({ createdAt: webhookAttempts.createdAt, id: webhookAttempts.id })
          .from(webhookAttempts)
          .where(and(eq(webhookAttempts.endpointId, endpointId), eq(webhookAttempts.id, id)))
      )[0],

    attempts(endpointId, limit, after) {
      let where = eq(webhookAttempts.endpointId, endpointId)
      if (after)
        where = and(
          where,
          or(lt(webhookAttempts.createdAt, after.createdAt), and(eq(webhookAttempts.createdAt, after.createdAt), lt(webhookAttempts.id, after.id))),
        )!
      return db
        .select({
          id: webhookAttempts.id,
          messageId: webhookAttempts.messageId,
          event: webhookMessages.event,
          jobId: webhookMessages.jobId,
          attempt: webhookAttempts.attempt,
          statusCode: webhookAttempts.statusCode,
          durationMs: webhookAttempts.durationMs,
          error: webhookAttempts.error,
          createdAt: webhookAttempts.createdAt,
        })
        .from(webhookAttempts)
        .innerJoin(webhookMessages, eq(webhookMessages.id, webhookAttempts.messageId))
        .where(where)
        .orderBy(desc(webhookAttempts.createdAt), desc(webhookAttempts.id))
        .limit(limit)
    },

    async claimDue(owner, leaseMs, limit, share) {
      if (limit <= 0) return []
      return transaction(async (tx) => {
        const now = nowIso()
        const { rows: picked } = await tx.execute<{ id: string; interrupted: number }>(dueInTurnSql(owner, now, limit, share))
        if (picked.length === 0) return []
        // Another instance may have claimed one since: the lease is checked again as each row is locked.
        const claimed = await tx
          .update(webhookMessages)
          .set({ leaseOwner: owner, leaseExpiresAt: isoIn(leaseMs) })
          .where(
            and(
              inArray(
                webhookMessages.id,
                picked.map((row) => row.id),
              ),
              eq(webhookMessages.status, 'pending'),
              or(isNull(webhookMessages.leaseExpiresAt), lte(webhookMessages.leaseExpiresAt, now)),
            ),
          )
          .returning()
        const interrupted = new Set(picked.filter((row) => Number(row.interrupted) === 1).map((row) => row.id))
        for (const row of claimed) {
          if (!interrupted.has(row.id)) continue
          // D139: the attempt its dead owner was making is in the history, as the receiver may have seen it.
          row.attempts += 1
          await tx.insert(webhookAttempts).values({
            id: newId('att'),
            messageId: row.id,
            endpointId: row.endpointId,
            attempt: row.attempts,
            statusCode: null,
            durationMs: 0,
            error: INTERRUPTED_ATTEMPT,
            createdAt: now,
          })
          await tx.update(webhookMessages).set({ attempts: row.attempts, updatedAt: now }).where(eq(webhookMessages.id, row.id))
        }
        if (claimed.length === 0) return []
        const endpoints = new Map(
          (
            await tx
              .select({ id: webhookEndpoints.id, accountId: webhookEndpoints.accountId, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
              .from(webhookEndpoints)
              .where(inArray(webhookEndpoints.id, [...new Set(claimed.map((row) => row.endpointId))]))
          ).map((endpoint) => [endpoint.id, endpoint]),
        )
        return claimed.flatMap((row) => {
          const endpoint = endpoints.get(row.endpointId)
          return endpoint
            ? [
                {
                  id: row.id,
                  endpointId: row.endpointId,
                  accountId: endpoint.accountId,
                  event: row.event,
                  payload: row.payload,
                  attempts: row.attempts,
                  createdAt: row.createdAt,
                  url: endpoint.url,
                  secret: endpoint.secret,
                },
              ]
            : []
        })
      })
    },

    recordAttempt: (messageId, owner, attempt, next) =>
      transaction(async (tx) => {
        const [row] = await tx
          .select({ attempts: webhookMessages.attempts, endpointId: webhookMessages.endpointId })
          .from(webhookMessages)
          .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.leaseOwner, owner), eq(webhookMessages.status, 'pending')))
          .for('update')
        if (!row) return undefined
        const number = row.attempts + 1
        const at = new Date()
        await tx
          .insert(webhookAttempts)
          .values({ id: newId('att'), messageId, endpointId: row.endpointId, attempt: number, ...attempt, createdAt: at.toISOString() })
        const { status, nextAttemptAt } = next(number, at)
        await tx
          .update(webhookMessages)
          .set({ status, attempts: number, leaseOwner: null, leaseExpiresAt: null, updatedAt: at.toISOString(), ...(nextAttemptAt ? { nextAttemptAt } : {}) })
          .where(eq(webhookMessages.id, messageId))
        return nextAttemptAt ? { nextAttemptAt } : undefined
      }),

    async releaseLeases(owner) {
      await db
        .update(webhookMessages)
        .set({ leaseOwner: null, leaseExpiresAt: null })
        .where(and(eq(webhookMessages.leaseOwner, owner), eq(webhookMessages.status, 'pending')))
    },

    purgeFinished: async (before) =>
      (
        await db
          .delete(webhookMessages)
          .where(and(inArray(webhookMessages.status, ['delivered', 'failed']), lt(webhookMessages.updatedAt, before)))
          .returning({ id: webhookMessages.id })
      ).length,

    onQueued: (wake) => listen(url, QUEUED_CHANNEL, wake),
  }
}
