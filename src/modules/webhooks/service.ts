/**
 * Webhook endpoints of one account and their delivery attempts (D80–D86). The repository scopes
 * every account-facing query to the account; the delivery worker claims and records through it.
 * The extraction module queues a job's events with `queueJobEvent`, as a part of the transaction
 * that ends the job (D81, D213).
 */
import type { Database } from '../../db/database'
import type { Part, Queries } from '../../db/dialect'
import type { WebhookEvent } from '../../db/tables/webhooks'
import { errors } from '../../http/errors'
import { isIdOf, newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { refusedHost } from './addresses'
import { type CreatedWebhook, type CreateWebhookBody, type Delivery, MAX_WEBHOOKS_PER_ACCOUNT, type Webhook } from './model'
import { type EndpointRow, webhooksRepository } from './repository'

const SECRET_PREFIX = 'whsec_'
const SECRET_BYTES = 32

function toWire(row: EndpointRow): Webhook {
  return { id: row.id, url: row.url, events: row.events, created_at: row.createdAt }
}

async function findRow(database: Database, accountId: string, id: string): Promise<EndpointRow> {
  const row = isIdOf('whk', id) ? await webhooksRepository(database).find(accountId, id) : undefined
  if (!row) throw errors.notFound('Webhook')
  return row
}

/** A job that ended, as its webhook events need it: the wire form is the job as GET /api/v1/jobs/:id answers it. */
export interface EndedJob {
  id: string
  accountId: string
  status: string
  completedAt: string | null
  wire: unknown
  /** The event when it is not the job's end: `job.reviewed` (D277), at the review's time. */
  reviewed?: string
}

/** The event of a job's end (none for a canceled job, D81), or of its review (D277). */
function eventOf(job: EndedJob): WebhookEvent | undefined {
  if (job.reviewed) return 'job.reviewed'
  return job.status === 'succeeded' ? 'job.succeeded' : job.status === 'failed' ? 'job.failed' : undefined
}

/**
 * Queues one message per endpoint of the job's account that listens for its event (D81), as a part
 * of the transaction that ends the job, so the event is queued exactly when the job ends. The body
 * is made only when some endpoint listens.
 */
export function* queueJobEvent(database: Database, tx: Queries, job: EndedJob): Part<void> {
  const event = eventOf(job)
  if (!event) return
  const repository = webhooksRepository(database)
  const endpoints = yield* repository.listening(tx, job.accountId, event)
  if (endpoints.length === 0) return
  const payload = JSON.stringify({ type: event, timestamp: job.reviewed ?? job.completedAt ?? nowIso(), data: { job: job.wire } })
  yield* repository.queue(tx, endpoints, { event, jobId: job.id, payload })
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
export async function createWebhook(database: Database, accountId: string, input: CreateWebhookBody, allowPrivate: boolean): Promise<CreatedWebhook> {
  const url = checkUrl(input.url, allowPrivate)
  const row = await webhooksRepository(database).createWithinLimit(
    { id: newId('whk'), accountId, url, events: input.events, secret: newSecret(), createdAt: nowIso() },
    MAX_WEBHOOKS_PER_ACCOUNT,
  )
  if (!row) throw errors.webhookLimitReached(MAX_WEBHOOKS_PER_ACCOUNT)
  return { ...toWire(row), secret: row.secret }
}

/** The account's endpoints, newest first, without their secrets. */
export async function listWebhooks(database: Database, accountId: string): Promise<Webhook[]> {
  return (await webhooksRepository(database).list(accountId)).map(toWire)
}

export async function getWebhook(database: Database, accountId: string, id: string): Promise<Webhook> {
  return toWire(await findRow(database, accountId, id))
}

/** Deletes an endpoint with its queue and attempts: nothing more is sent to it (D85). */
export async function deleteWebhook(database: Database, accountId: string, id: string): Promise<void> {
  if (!isIdOf('whk', id) || !(await webhooksRepository(database).remove(accountId, id))) throw errors.notFound('Webhook')
}

export interface DeliveryPage {
  limit: number
  startingAfter?: string
}

/** An endpoint's delivery attempts, newest first, a page at a time (D85). */
export async function listDeliveries(
  database: Database,
  accountId: string,
  id: string,
  { limit, startingAfter }: DeliveryPage,
): Promise<{ deliveries: Delivery[]; has_more: boolean }> {
  const repository = webhooksRepository(database)
  await findRow(database, accountId, id)
  let after: { createdAt: string; id: string } | undefined
  if (startingAfter !== undefined) {
    after = isIdOf('att', startingAfter) ? await repository.findAttempt(id, startingAfter) : undefined
    if (!after) throw errors.validation([{ path: 'query:/starting_after', message: "Expected the ID of one of this webhook's deliveries" }])
  }
  const rows = await repository.attempts(id, limit + 1, after)
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
