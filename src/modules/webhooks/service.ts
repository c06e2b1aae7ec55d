/**
 * Webhook endpoints of one account and their delivery queue (D80–D86). Account-facing queries go
 * through `owned()`; the delivery worker's queries claim messages with a lease and record each
 * attempt, fenced by that lease. The extraction module's one way in is `enqueueJobEvent`, called
 * in the transaction that ends a job.
 */
import { and, asc, count, desc, eq, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type WebhookEvent, webhookAttempts, webhookEndpoints, webhookMessages } from '../../db/tables'
import { errors } from '../../http/errors'
import { isIdOf, newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { refusedHost } from './addresses'
import { type CreatedWebhook, type CreateWebhookBody, type Delivery, MAX_WEBHOOKS_PER_ACCOUNT, type Webhook } from './model'

type EndpointRow = typeof webhookEndpoints.$inferSelect
type MessageRow = typeof webhookMessages.$inferSelect

const SECRET_PREFIX = 'whsec_'
const SECRET_BYTES = 32

function owned(accountId: string, id?: string): SQL {
  return id === undefined
    ? eq(webhookEndpoints.accountId, accountId)
    : and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id))!
}

function toWire(row: EndpointRow): Webhook {
  return { id: row.id, url: row.url, events: row.events, created_at: row.createdAt }
}

function findRow(db: Db | Tx, accountId: string, id: string): EndpointRow {
  const row = isIdOf('whk', id) ? db.select().from(webhookEndpoints).where(owned(accountId, id)).get() : undefined
  if (!row) throw errors.notFound('Webhook')
  return row
}

/** A new signing secret in the Standard Webhooks form: `whsec_` and base64 of 32 random bytes. */
export function newSecret(): string {
  return SECRET_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(SECRET_BYTES))).toString('base64')
}

/**
 * The `webhook-signature` value (Standard Webhooks): HMAC-SHA256 of `id.timestamp.body` with the
 * base64-decoded part of the secret after `whsec_`, in base64, tagged `v1,`.
 */
export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  return `v1,${new Bun.CryptoHasher('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`
}

/** D82: http(s), no credentials, and (unless allowed) no private or loopback host. 400 at `/url` otherwise. */
export function checkUrl(raw: string, allowPrivate: boolean): string {
  const refuse = (message: string) => errors.validation([{ path: '/url', message }])
  if (!/^https?:\/\//i.test(raw)) throw refuse('Expected an http:// or https:// URL')
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw refuse('Expected an absolute http(s) URL')
  }
  if (url.hostname === '') throw refuse('The URL needs a host')
  if (url.username !== '' || url.password !== '') throw refuse('Credentials in the URL are not allowed; authenticate the sender by its signature')
  if (!allowPrivate) {
    const reason = refusedHost(url.hostname)
    if (reason) throw refuse(reason)
  }
  return url.href
}

/** Registers an endpoint; the answer is the only place its secret is shown (D80). */
export function createWebhook(db: Db, accountId: string, input: CreateWebhookBody, allowPrivate: boolean): CreatedWebhook {
  const url = checkUrl(input.url, allowPrivate)
  return db.transaction(
    (tx) => {
      const held = tx.select({ n: count() }).from(webhookEndpoints).where(owned(accountId)).get()?.n ?? 0
      if (held >= MAX_WEBHOOKS_PER_ACCOUNT) throw errors.webhookLimitReached(MAX_WEBHOOKS_PER_ACCOUNT)
      const row = tx
        .insert(webhookEndpoints)
        .values({ id: newId('whk'), accountId, url, events: input.events, secret: newSecret(), createdAt: nowIso() })
        .returning()
        .get()
      return { ...toWire(row), secret: row.secret }
    },
    { behavior: 'immediate' },
  )
}

/** The account's endpoints, newest first, without their secrets. */
export function listWebhooks(db: Db, accountId: string): Webhook[] {
  return db
    .select()
    .from(webhookEndpoints)
    .where(owned(accountId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .all()
    .map(toWire)
}

export function getWebhook(db: Db, accountId: string, id: string): Webhook {
  return toWire(findRow(db, accountId, id))
}

/** Deletes an endpoint with its queue and attempts: nothing more is sent to it (D85). */
export function deleteWebhook(db: Db, accountId: string, id: string): void {
  db.transaction(
    (tx) => {
      findRow(tx, accountId, id)
      tx.delete(webhookEndpoints).where(owned(accountId, id)).run()
    },
    { behavior: 'immediate' },
  )
}

export interface DeliveryPage {
  limit: number
  startingAfter?: string
}

/** An endpoint's delivery attempts, newest first, a page at a time (D85). */
export function listDeliveries(db: Db, accountId: string, id: string, { limit, startingAfter }: DeliveryPage): { deliveries: Delivery[]; has_more: boolean } {
  findRow(db, accountId, id)
  let where = eq(webhookAttempts.endpointId, id)
  if (startingAfter !== undefined) {
    const cursor = isIdOf('att', startingAfter)
      ? db
          .select({ createdAt: webhookAttempts.createdAt, id: webhookAttempts.id })
          .from(webhookAttempts)
          .where(and(eq(webhookAttempts.endpointId, id), eq(webhookAttempts.id, startingAfter)))
          .get()
      : undefined
    if (!cursor) throw errors.validation([{ path: 'query:/starting_after', message: 'Expected the ID of one of this webhook\'s deliveries' }])
    where = and(
      where,
      or(lt(webhookAttempts.createdAt, cursor.createdAt), and(eq(webhookAttempts.createdAt, cursor.createdAt), lt(webhookAttempts.id, cursor.id))),
    )!
  }
  const rows = db
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
    .limit(limit + 1)
    .all()
  const deliveries = rows.slice(0, limit).map((row) => ({
    id: row.id,
    message_id: row.messageId,
    event: row.event,
    job_id: row.jobId,
    attempt: row.attempt,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    error: row.error,
    created_at: row.createdAt,
  }))
  return { deliveries, has_more: rows.length > limit }
}

// --- The seam for the extraction module. ---

const enqueuedListeners = new Set<() => void>()

/** Calls `listener` after messages were queued in this process (the delivery worker's nudge). Returns the unsubscribe. */
export function onMessagesQueued(listener: () => void): () => void {
  enqueuedListeners.add(listener)
  return () => enqueuedListeners.delete(listener)
}

/** A job that ended: its ID and status, and its wire form (as GET /api/v1/jobs/:id answers it), built only when someone listens. */
export interface EndedJob {
  id: string
  status: string
  completedAt: string | null
  wire: () => unknown
}

/**
 * Queues one message per endpoint of the account that subscribed to the job's event (D81); call
 * it in the transaction that ends the job, so the event is queued exactly when the job ends.
 * Jobs that end other than succeeded or failed (canceled) send nothing.
 */
export function enqueueJobEvent(tx: Db | Tx, accountId: string, job: EndedJob): void {
  if (job.status !== 'succeeded' && job.status !== 'failed') return
  const event: WebhookEvent = job.status === 'succeeded' ? 'job.succeeded' : 'job.failed'
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
    .values(endpoints.map((endpoint) => ({ id: newId('msg'), endpointId: endpoint.id, event, jobId: job.id, payload, nextAttemptAt: now, createdAt: now, updatedAt: now })))
    .run()
  // The transaction is synchronous: by the time this runs it has committed (or rolled back, and the worker finds nothing).
  queueMicrotask(() => {
    for (const listener of enqueuedListeners) listener()
  })
}

// --- The delivery worker's side: by message ID, fenced by the lease. ---

export interface ClaimedMessage {
  id: string
  event: WebhookEvent
  payload: string
  attempts: number
  createdAt: string
  url: string
  secret: string
}

/**
 * Takes up to `limit` due messages for `owner` until `leaseMs` from now, in one UPDATE, so two
 * processes on one database never hold the same message (D84). A lease that ran out (its process
 * died mid-delivery) can be taken over.
 */
export function claimDueMessages(db: Db, owner: string, leaseMs: number, limit: number): ClaimedMessage[] {
  if (limit <= 0) return []
  const now = nowIso()
  const due = (tx: Db | Tx) =>
    tx
      .select({ id: webhookMessages.id })
      .from(webhookMessages)
      .where(
        and(
          eq(webhookMessages.status, 'pending'),
          lte(webhookMessages.nextAttemptAt, now),
          or(isNull(webhookMessages.leaseExpiresAt), lte(webhookMessages.leaseExpiresAt, now)),
        ),
      )
      .orderBy(asc(webhookMessages.nextAttemptAt), asc(webhookMessages.id))
      .limit(limit)
  // A plain read first: an idle queue, the usual case, takes no write lock every second.
  if (!due(db).get()) return []
  return db.transaction(
    (tx) => {
      const claimed = tx
        .update(webhookMessages)
        .set({ leaseOwner: owner, leaseExpiresAt: new Date(Date.now() + leaseMs).toISOString() })
        .where(inArray(webhookMessages.id, due(tx)))
        .returning()
        .all()
      if (claimed.length === 0) return []
      const endpoints = new Map(
        tx
          .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
          .from(webhookEndpoints)
          .where(inArray(webhookEndpoints.id, [...new Set(claimed.map((row) => row.endpointId))]))
          .all()
          .map((endpoint) => [endpoint.id, endpoint]),
      )
      return claimed.flatMap((row: MessageRow) => {
        const endpoint = endpoints.get(row.endpointId)
        return endpoint
          ? [{ id: row.id, event: row.event, payload: row.payload, attempts: row.attempts, createdAt: row.createdAt, url: endpoint.url, secret: endpoint.secret }]
          : []
      })
    },
    { behavior: 'immediate' },
  )
}

export interface AttemptOutcome {
  statusCode: number | null
  durationMs: number
  /** null when the receiver accepted the message (2xx). */
  error: string | null
  /** false when trying again cannot help (a private address): the message fails at once. */
  retry: boolean
}

/**
 * Records one attempt and decides what follows (D84): delivered on 2xx; otherwise the next
 * attempt after `delayMs`, unless that falls past `retryWindowMs` after the event, then failed.
 * Returns when to try next, or undefined. Does nothing when the lease was lost or the endpoint deleted.
 */
export function recordAttempt(
  db: Db,
  message: ClaimedMessage,
  owner: string,
  outcome: AttemptOutcome,
  schedule: { delayMs: (attempt: number) => number; retryWindowMs: number },
): { nextAttemptAt: string } | undefined {
  return db.transaction(
    (tx) => {
      const row = tx
        .select({ attempts: webhookMessages.attempts, endpointId: webhookMessages.endpointId })
        .from(webhookMessages)
        .where(and(eq(webhookMessages.id, message.id), eq(webhookMessages.leaseOwner, owner), eq(webhookMessages.status, 'pending')))
        .get()
      if (!row) return undefined
      const attempt = row.attempts + 1
      const now = new Date()
      tx.insert(webhookAttempts)
        .values({
          id: newId('att'),
          messageId: message.id,
          endpointId: row.endpointId,
          attempt,
          statusCode: outcome.statusCode,
          durationMs: outcome.durationMs,
          error: outcome.error,
          createdAt: now.toISOString(),
        })
        .run()
      const next = new Date(now.getTime() + schedule.delayMs(attempt))
      const giveUp = outcome.error !== null && (!outcome.retry || next.getTime() > Date.parse(message.createdAt) + schedule.retryWindowMs)
      const status = outcome.error === null ? 'delivered' : giveUp ? 'failed' : 'pending'
      tx.update(webhookMessages)
        .set({
          status,
          attempts: attempt,
          leaseOwner: null,
          leaseExpiresAt: null,
          updatedAt: now.toISOString(),
          ...(status === 'pending' ? { nextAttemptAt: next.toISOString() } : {}),
        })
        .where(eq(webhookMessages.id, message.id))
        .run()
      return status === 'pending' ? { nextAttemptAt: next.toISOString() } : undefined
    },
    { behavior: 'immediate' },
  )
}

/** Gives back the leases this owner holds (a stopping process), so another process may deliver at once. */
export function releaseLeases(db: Db, owner: string): void {
  db.update(webhookMessages)
    .set({ leaseOwner: null, leaseExpiresAt: null })
    .where(and(eq(webhookMessages.leaseOwner, owner), eq(webhookMessages.status, 'pending')))
    .run()
}

/** Deletes delivered and failed messages last touched before `before`, with their attempts (D85); returns how many. */
export function purgeFinishedMessages(db: Db, before: string): number {
  return db
    .delete(webhookMessages)
    .where(and(inArray(webhookMessages.status, ['delivered', 'failed']), lt(webhookMessages.updatedAt, before)))
    .returning({ id: webhookMessages.id })
    .all().length
}

/** The messages of a job, for tests and operators' checks: status and attempts per endpoint. */
export function messagesOfJob(db: Db, jobId: string): { endpointId: string; event: WebhookEvent; status: string; attempts: number }[] {
  return db
    .select({ endpointId: webhookMessages.endpointId, event: webhookMessages.event, status: webhookMessages.status, attempts: webhookMessages.attempts })
    .from(webhookMessages)
    .where(eq(webhookMessages.jobId, jobId))
    .all()
}
