/**
 * Webhooks on SQLite: the limit, claims and attempts in immediate transactions, so they hold
 * across processes on one file. Messages queued in this process wake its delivery worker at
 * once; those of other processes are found by its poll.
 */
import { and, count, desc, eq, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import type { SqliteDatabase } from '../../db/database'
import { webhookAttempts, webhookEndpoints, webhookMessages } from '../../db/tables'
import { newId } from '../../lib/ids'
import { isoIn, nowIso } from '../../lib/time'
import { dueInTurnSql, type EndedJob, eventOf, INTERRUPTED_ATTEMPT, type WebhooksRepository } from './repository'

const queuedListeners = new Set<() => void>()

function owned(accountId: string, id?: string): SQL {
  return id === undefined ? eq(webhookEndpoints.accountId, accountId) : and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id))!
}

/**
 * Queues one message per endpoint of the account that listens for the job's event (D81); called
 * by the extraction module in the transaction that ends the job, so the event is queued exactly
 * when the job ends.
 */
export function enqueueJobEventSqlite(tx: Db | Tx, accountId: string, job: EndedJob): void {
  const event = eventOf(job)
  if (!event) return
  const endpoints = tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(owned(accountId))
    .all()
    .filter((endpoint) => endpoint.events.includes(event))
  if (endpoints.length === 0) return
  const now = nowIso()
  const payload = JSON.stringify({ type: event, timestamp: job.completedAt ?? now, data: { job: job.wire() } })
  tx.insert(webhookMessages)
    .values(
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
    .run()
  // The transaction is synchronous: by the time this runs it has committed (or rolled back, and the worker finds nothing).
  queueMicrotask(() => {
    for (const listener of queuedListeners) listener()
  })
}

export function sqliteWebhooks({ db }: SqliteDatabase): WebhooksRepository {
  return {
    async createWithinLimit(endpoint, limit) {
      return db.transaction(
        (tx) => {
          const held = tx.select({ n: count() }).from(webhookEndpoints).where(owned(endpoint.accountId)).get()?.n ?? 0
          return held >= limit ? undefined : tx.insert(webhookEndpoints).values(endpoint).returning().get()
        },
        { behavior: 'immediate' },
      )
    },

    list: async (accountId) =>
      db.select().from(webhookEndpoints).where(owned(accountId)).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)).all(),

    find: async (accountId, id) => db.select().from(webhookEndpoints).where(owned(accountId, id)).get(),

    remove: async (accountId, id) => db.delete(webhookEndpoints).where(owned(accountId, id)).returning({ id: webhookEndpoints.id }).all().length > 0,

    findAttempt: async (endpointId, id) =>
      db
        .select({ createdAt: webhookAttempts.createdAt, id: webhookAttempts.id })
        .from(webhookAttempts)
        .where(and(eq(webhookAttempts.endpointId, endpointId), eq(webhookAttempts.id, id)))
        .get(),

    async attempts(endpointId, limit, after) {
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
        .all()
    },

    async claimDue(owner, leaseMs, limit, share) {
      if (limit <= 0) return []
      const now = nowIso()
      // A plain read first: an idle queue, the usual case, takes no write lock every second.
      const anyDue = db
        .select({ id: webhookMessages.id })
        .from(webhookMessages)
        .where(
          and(
            eq(webhookMessages.status, 'pending'),
            lte(webhookMessages.nextAttemptAt, now),
            or(isNull(webhookMessages.leaseExpiresAt), lte(webhookMessages.leaseExpiresAt, now)),
          ),
        )
        .limit(1)
        .get()
      if (!anyDue) return []
      return db.transaction(
        (tx) => {
          const picked = tx.all<{ id: string; interrupted: number }>(dueInTurnSql(owner, now, limit, share))
          if (picked.length === 0) return []
          const claimed = tx
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
            .all()
          const interrupted = new Set(picked.filter((row) => Number(row.interrupted) === 1).map((row) => row.id))
          for (const row of claimed) {
            if (!interrupted.has(row.id)) continue
            // D139: the attempt its dead owner was making is in the history, as the receiver may have seen it.
            row.attempts += 1
            tx.insert(webhookAttempts)
              .values({
                id: newId('att'),
                messageId: row.id,
                endpointId: row.endpointId,
                attempt: row.attempts,
                statusCode: null,
                durationMs: 0,
                error: INTERRUPTED_ATTEMPT,
                createdAt: now,
              })
              .run()
            tx.update(webhookMessages).set({ attempts: row.attempts, updatedAt: now }).where(eq(webhookMessages.id, row.id)).run()
          }
          const endpoints = new Map(
            tx
              .select({ id: webhookEndpoints.id, accountId: webhookEndpoints.accountId, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
              .from(webhookEndpoints)
              .where(inArray(webhookEndpoints.id, [...new Set(claimed.map((row) => row.endpointId))]))
              .all()
              .map((endpoint) => [endpoint.id, endpoint]),
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
        },
        { behavior: 'immediate' },
      )
    },

    async recordAttempt(messageId, owner, attempt, next) {
      return db.transaction(
        (tx) => {
          const row = tx
            .select({ attempts: webhookMessages.attempts, endpointId: webhookMessages.endpointId })
            .from(webhookMessages)
            .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.leaseOwner, owner), eq(webhookMessages.status, 'pending')))
            .get()
          if (!row) return undefined
          const number = row.attempts + 1
          const at = new Date()
          tx.insert(webhookAttempts)
            .values({ id: newId('att'), messageId, endpointId: row.endpointId, attempt: number, ...attempt, createdAt: at.toISOString() })
            .run()
          const { status, nextAttemptAt } = next(number, at)
          tx.update(webhookMessages)
            .set({ status, attempts: number, leaseOwner: null, leaseExpiresAt: null, updatedAt: at.toISOString(), ...(nextAttemptAt ? { nextAttemptAt } : {}) })
            .where(eq(webhookMessages.id, messageId))
            .run()
          return nextAttemptAt ? { nextAttemptAt } : undefined
        },
        { behavior: 'immediate' },
      )
    },

    async releaseLeases(owner) {
      db.update(webhookMessages)
        .set({ leaseOwner: null, leaseExpiresAt: null })
        .where(and(eq(webhookMessages.leaseOwner, owner), eq(webhookMessages.status, 'pending')))
        .run()
    },

    purgeFinished: async (before) =>
      db
        .delete(webhookMessages)
        .where(and(inArray(webhookMessages.status, ['delivered', 'failed']), lt(webhookMessages.updatedAt, before)))
        .returning({ id: webhookMessages.id })
        .all().length,

    onQueued(wake) {
      queuedListeners.add(wake)
      return () => queuedListeners.delete(wake)
    },
  }
}
