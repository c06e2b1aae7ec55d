/**
 * What the webhooks service and the delivery worker need from a database. Each dialect
 * (sqlite.ts, postgres.ts) implements it; dialect.ts picks one for a database.
 */
import { type SQL, sql } from 'drizzle-orm'
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
  endpointId: string
  accountId: string
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
  /**
   * Leases up to `limit` due messages to `owner` in the accounts' and endpoints' turns (D137); no
   * two owners hold one message. A message whose last owner died while holding it gets an
   * `interrupted` attempt in its history first (D139).
   */
  claimDue(owner: string, leaseMs: number, limit: number, share: DeliveryShare): Promise<ClaimedMessage[]>
  /** Records an attempt if `owner` still holds the message, and moves it on as `next` says; the next attempt's time, if any. */
  recordAttempt(messageId: string, owner: string, attempt: RecordedAttempt, next: NextStep): Promise<{ nextAttemptAt: string } | undefined>
  /** Gives back the leases `owner` holds. */
  releaseLeases(owner: string): Promise<void>
  /** Deletes delivered and failed messages last touched before `before`, with their attempts; how many. */
  purgeFinished(before: string): Promise<number>
  /** Calls `wake` when messages were queued, here or in another process; returns what stops it. */
  onQueued(wake: () => void): () => void
}

/** How an owner's delivery slots are shared (D137, D138). */
export interface DeliveryShare {
  /** Messages one account may have in flight at one owner. */
  perAccount: number
  /** Messages one endpoint may have in flight at one owner. */
  perEndpoint: number
  /** Endpoints whose circuit is open: none of their messages is claimed now. */
  skipEndpoints: string[]
}

/** What an attempt cut off by the death of the process making it is recorded as (D139). */
export const INTERRUPTED_ATTEMPT = 'interrupted'

/**
 * The due messages `owner` may claim now, in turn (D137), the same text on both dialects: no
 * account or endpoint past its share of the owner's slots (counting what the owner holds), every
 * account's first message before any account's second, then the longest due. Selects `id` and
 * `interrupted` (leased by an owner that stopped renewing: it died mid-attempt).
 */
export function dueInTurnSql(owner: string, now: string, limit: number, { perAccount, perEndpoint, skipEndpoints }: DeliveryShare): SQL {
  const skipped =
    skipEndpoints.length === 0
      ? sql``
      : sql`and webhook_messages.endpoint_id not in (${sql.join(
          skipEndpoints.map((id) => sql`${id}`),
          sql`, `,
        )})`
  return sql`
    with mine as (
      select webhook_endpoints.account_id, webhook_messages.endpoint_id from webhook_messages
      join webhook_endpoints on webhook_endpoints.id = webhook_messages.endpoint_id
      where webhook_messages.status = 'pending' and webhook_messages.lease_owner = ${owner} and webhook_messages.lease_expires_at > ${now}
    ), account_load as (
      select account_id, count(*) as held from mine group by account_id
    ), endpoint_load as (
      select endpoint_id, count(*) as held from mine group by endpoint_id
    ), due as (
      select webhook_messages.id, webhook_messages.next_attempt_at, webhook_endpoints.account_id, webhook_messages.endpoint_id,
        case when webhook_messages.lease_owner is null then 0 else 1 end as interrupted,
        row_number() over (partition by webhook_endpoints.account_id order by webhook_messages.next_attempt_at, webhook_messages.id) as account_rank,
        row_number() over (partition by webhook_messages.endpoint_id order by webhook_messages.next_attempt_at, webhook_messages.id) as endpoint_rank
      from webhook_messages join webhook_endpoints on webhook_endpoints.id = webhook_messages.endpoint_id
      where webhook_messages.status = 'pending' and webhook_messages.next_attempt_at <= ${now}
        and (webhook_messages.lease_expires_at is null or webhook_messages.lease_expires_at <= ${now}) ${skipped}
    )
    select due.id, due.interrupted from due
    left join account_load on account_load.account_id = due.account_id
    left join endpoint_load on endpoint_load.endpoint_id = due.endpoint_id
    where due.account_rank + coalesce(account_load.held, 0) <= ${perAccount} and due.endpoint_rank + coalesce(endpoint_load.held, 0) <= ${perEndpoint}
    order by due.account_rank + coalesce(account_load.held, 0), due.next_attempt_at, due.id
    limit ${limit}`
}
