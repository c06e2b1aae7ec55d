/**
 * Webhook endpoints and their delivery queue in the database, written once for both dialects
 * (D210). The limit of endpoints is checked and applied in one transaction that takes turns with
 * the account's other creates; a claim leases due messages (on PostgreSQL passing over rows another
 * instance is claiming), and attempts are fenced by the lease (D84). Queued messages are announced
 * on a channel: to this process's delivery worker, and on PostgreSQL to every instance's.
 */
import { and, count, desc, eq, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm'
import { perDatabase } from '../../db/database'
import { forUpdate, lock, notify, type Part, type Queries, rows, run } from '../../db/dialect'
import type { Tables } from '../../db/tables/kit'
import { type MessageStatus, type WebhookEvent, webhookTables } from '../../db/tables/webhooks'
import { newId } from '../../lib/ids'
import { isoIn, nowIso } from '../../lib/time'

export type EndpointRow = Tables<typeof webhookTables>['webhookEndpoints']['$inferSelect']

const QUEUED_CHANNEL = 'extractd_webhooks'
/** Any number unique to extractd: an account's endpoint creates take turns on it with the account's ID (D80). */
const ENDPOINT_LIMIT_LOCK = 0x77686b73 // "whks"

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

/** An attempt as recorded: its number (1 for the first), when it ended, and what follows it. */
export interface Attempt extends RecordedAttempt {
  number: number
  at: Date
  status: MessageStatus
  /** When to try again, for a message still pending. */
  nextAttemptAt?: string
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

export const webhooksRepository = perDatabase((database) => {
  const { db } = database
  const { webhookEndpoints, webhookMessages, webhookAttempts } = webhookTables[database.kind]

  const owned = (accountId: string, id?: string): SQL =>
    id === undefined ? eq(webhookEndpoints.accountId, accountId) : and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id))!
  /** Pending messages no owner holds: never leased, or leased by an owner that stopped renewing. */
  const free = (now: string) =>
    and(eq(webhookMessages.status, 'pending'), or(isNull(webhookMessages.leaseExpiresAt), lte(webhookMessages.leaseExpiresAt, now)))!

  return {
    /** Stores the endpoint unless the account already has `limit` (then undefined), atomically. */
    createWithinLimit: (endpoint: EndpointRow, limit: number): Promise<EndpointRow | undefined> =>
      database.transaction(function* (tx) {
        yield* lock(ENDPOINT_LIMIT_LOCK, endpoint.accountId)
        const [held] = yield* run(tx.select({ n: count() }).from(webhookEndpoints).where(owned(endpoint.accountId)))
        if ((held?.n ?? 0) >= limit) return undefined
        const [row] = yield* run(tx.insert(webhookEndpoints).values(endpoint).returning())
        return row
      }),

    /** The account's endpoints, newest first. */
    list: (accountId: string): Promise<EndpointRow[]> =>
      db.select().from(webhookEndpoints).where(owned(accountId)).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)),

    find: async (accountId: string, id: string): Promise<EndpointRow | undefined> => (await db.select().from(webhookEndpoints).where(owned(accountId, id)))[0],

    /** Deletes the endpoint with its queue and attempts; false when it is not the account's. */
    remove: async (accountId: string, id: string): Promise<boolean> =>
      (await db.delete(webhookEndpoints).where(owned(accountId, id)).returning({ id: webhookEndpoints.id })).length > 0,

    /** An attempt at the endpoint, as a cursor. */
    findAttempt: async (endpointId: string, id: string): Promise<{ createdAt: string; id: string } | undefined> =>
      (
        await db
          .select({ createdAt: webhookAttempts.createdAt, id: webhookAttempts.id })
          .from(webhookAttempts)
          .where(and(eq(webhookAttempts.endpointId, endpointId), eq(webhookAttempts.id, id)))
      )[0],

    /** The endpoint's attempts, newest first, older than `after` if given. */
    attempts(endpointId: string, limit: number, after?: { createdAt: string; id: string }): Promise<DeliveryRow[]> {
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

    /** The account's endpoints that listen for `event`. */
    *listening(tx: Queries, accountId: string, event: WebhookEvent): Part<string[]> {
      const endpoints = yield* run(tx.select({ id: webhookEndpoints.id, events: webhookEndpoints.events }).from(webhookEndpoints).where(owned(accountId)))
      return endpoints.filter((endpoint) => endpoint.events.includes(event)).map((endpoint) => endpoint.id)
    },

    /** Queues one message per endpoint, due now, and tells the delivery workers once the transaction commits. */
    *queue(tx: Queries, endpointIds: string[], message: { event: WebhookEvent; jobId: string; payload: string }): Part<void> {
      const now = nowIso()
      yield* run(
        tx
          .insert(webhookMessages)
          .values(endpointIds.map((endpointId) => ({ id: newId('msg'), endpointId, ...message, nextAttemptAt: now, createdAt: now, updatedAt: now }))),
      )
      yield* notify(QUEUED_CHANNEL)
    },

    // The delivery worker's side: by message ID, fenced by the lease (D84).
    /**
     * Leases up to `limit` due messages to `owner` in the accounts' and endpoints' turns (D137); no
     * two owners hold one message. A message whose last owner died while holding it gets an
     * `interrupted` attempt in its history first (D139).
     */
    async claimDue(owner: string, leaseMs: number, limit: number, share: DeliveryShare): Promise<ClaimedMessage[]> {
      if (limit <= 0) return []
      const now = nowIso()
      // A plain read first: an idle queue, the usual case, takes no lock every second.
      const [anyDue] = await db
        .select({ id: webhookMessages.id })
        .from(webhookMessages)
        .where(and(free(now), lte(webhookMessages.nextAttemptAt, now)))
        .limit(1)
      if (!anyDue) return []
      return database.transaction(function* (tx) {
        const picked = yield* rows<{ id: string; interrupted: number }>(dueInTurnSql(owner, now, limit, share))
        if (picked.length === 0) return []
        // Another instance may have claimed one since: the lease is checked again as each row is locked.
        const claimed = yield* run(
          tx
            .update(webhookMessages)
            .set({ leaseOwner: owner, leaseExpiresAt: isoIn(leaseMs) })
            .where(
              and(
                inArray(
                  webhookMessages.id,
                  picked.map((row) => row.id),
                ),
                free(now),
              ),
            )
            .returning(),
        )
        if (claimed.length === 0) return []
        const interrupted = new Set(picked.filter((row) => Number(row.interrupted) === 1).map((row) => row.id))
        for (const row of claimed) {
          if (!interrupted.has(row.id)) continue
          // D139: the attempt its dead owner was making is in the history, as the receiver may have seen it.
          row.attempts += 1
          yield* run(
            tx.insert(webhookAttempts).values({
              id: newId('att'),
              messageId: row.id,
              endpointId: row.endpointId,
              attempt: row.attempts,
              statusCode: null,
              durationMs: 0,
              error: INTERRUPTED_ATTEMPT,
              createdAt: now,
            }),
          )
          yield* run(tx.update(webhookMessages).set({ attempts: row.attempts, updatedAt: now }).where(eq(webhookMessages.id, row.id)))
        }
        const endpoints = new Map(
          (yield* run(
            tx
              .select({ id: webhookEndpoints.id, accountId: webhookEndpoints.accountId, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
              .from(webhookEndpoints)
              .where(inArray(webhookEndpoints.id, [...new Set(claimed.map((row) => row.endpointId))])),
          )).map((endpoint) => [endpoint.id, endpoint]),
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

    /** The attempts made so far of a message `owner` still holds, its row locked until the transaction ends; undefined when it does not hold it. */
    *held(tx: Queries, messageId: string, owner: string): Part<{ attempts: number; endpointId: string } | undefined> {
      const [row] = yield* forUpdate(
        tx
          .select({ attempts: webhookMessages.attempts, endpointId: webhookMessages.endpointId })
          .from(webhookMessages)
          .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.leaseOwner, owner), eq(webhookMessages.status, 'pending'))),
      )
      return row
    },

    /** Records an attempt of a held message, and moves the message on as the attempt says, its lease given back. */
    *recordAttempt(tx: Queries, messageId: string, endpointId: string, { number, at, status, nextAttemptAt, ...attempt }: Attempt): Part<void> {
      yield* run(tx.insert(webhookAttempts).values({ id: newId('att'), messageId, endpointId, attempt: number, ...attempt, createdAt: at.toISOString() }))
      yield* run(
        tx
          .update(webhookMessages)
          .set({ status, attempts: number, leaseOwner: null, leaseExpiresAt: null, updatedAt: at.toISOString(), ...(nextAttemptAt ? { nextAttemptAt } : {}) })
          .where(eq(webhookMessages.id, messageId)),
      )
    },

    /** Gives back the leases `owner` holds. */
    async releaseLeases(owner: string): Promise<void> {
      await db
        .update(webhookMessages)
        .set({ leaseOwner: null, leaseExpiresAt: null })
        .where(and(eq(webhookMessages.leaseOwner, owner), eq(webhookMessages.status, 'pending')))
    },

    /** Deletes delivered and failed messages last touched before `before`, with their attempts; how many. */
    purgeFinished: async (before: string): Promise<number> =>
      (
        await db
          .delete(webhookMessages)
          .where(and(inArray(webhookMessages.status, ['delivered', 'failed']), lt(webhookMessages.updatedAt, before)))
          .returning({ id: webhookMessages.id })
      ).length,

    /** Calls `wake` when messages were queued, here or (PostgreSQL) in another process; returns what stops it. */
    onQueued: (wake: () => void) => database.listen(QUEUED_CHANNEL, wake),
  }
})
