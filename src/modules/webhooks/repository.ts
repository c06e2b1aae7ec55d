/**
 * What the webhooks service and the delivery worker need from a database. Each dialect
 * (sqlite.ts, postgres.ts) implements it; dialect.ts picks one for a database.
 */
import type { MessageStatus, WebhookEvent, webhookEndpoints } from '../../db/tables'

export type EndpointRow = typeof webhookEndpoints.$inferSelect

/** A job that ended: its ID and status, and its wire form (as GET /api/v1/jobs/:id answers it), built only when someone listens. */
export interface EndedJob {
  id: string
  status: string
  completedAt: string | null
  wire: () => unknown
}

/** The messages a job's end queues (D81): one per endpoint of the account that listens for its event; none for other ends. */
export function eventOf(job: EndedJob): WebhookEvent | undefined {
  return job.status === 'succeeded' ? 'job.succeeded' : job.status === 'failed' ? 'job.failed' : undefined
}

export interface DeliveryRow {
  id: string
  messageId: string
  event: WebhookEvent
  jobId: string
  attempt: number
  statusCode: number | null
  durationMs: number
  error: string | null
  createdAt: string
}

export interface ClaimedMessage {
  id: string
  event: WebhookEvent
  payload: string
  attempts: number
  createdAt: string
  url: string
  secret: string
}

export interface RecordedAttempt {
  statusCode: number | null
  durationMs: number
  error: string | null
}

/** What follows an attempt, decided from its number and time: the message's status, and when to try again. */
export type NextStep = (attempt: number, at: Date) => { status: MessageStatus; nextAttemptAt?: string }

export interface WebhooksRepository {
  /** Stores the endpoint unless the account already has `limit` (then undefined), atomically. */
  createWithinLimit(endpoint: EndpointRow, limit: number): Promise<EndpointRow | undefined>
  /** The account's endpoints, newest first. */
  list(accountId: string): Promise<EndpointRow[]>
  find(accountId: string, id: string): Promise<EndpointRow | undefined>
  /** Deletes the endpoint with its queue and attempts; false when it is not the account's. */
  remove(accountId: string, id: string): Promise<boolean>
  /** An attempt at the endpoint, as a cursor. */
  findAttempt(endpointId: string, id: string): Promise<{ createdAt: string; id: string } | undefined>
  /** The endpoint's attempts, newest first, older than `after` if given. */
  attempts(endpointId: string, limit: number, after?: { createdAt: string; id: string }): Promise<DeliveryRow[]>

  // The delivery worker's side: by message ID, fenced by the lease (D84).
  /** Leases up to `limit` due messages to `owner`; no two owners hold one message. */
  claimDue(owner: string, leaseMs: number, limit: number): Promise<ClaimedMessage[]>
  /** Records an attempt if `owner` still holds the message, and moves it on as `next` says; the next attempt's time, if any. */
  recordAttempt(messageId: string, owner: string, attempt: RecordedAttempt, next: NextStep): Promise<{ nextAttemptAt: string } | undefined>
  /** Gives back the leases `owner` holds. */
  releaseLeases(owner: string): Promise<void>
  /** Deletes delivered and failed messages last touched before `before`, with their attempts; how many. */
  purgeFinished(before: string): Promise<number>
  /** Calls `wake` when messages were queued, here or in another process; returns what stops it. */
  onQueued(wake: () => void): () => void
}
