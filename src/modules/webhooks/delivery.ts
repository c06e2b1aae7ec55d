/**
 * The delivery worker (D84): runs in the serving process, takes due messages from the database
 * with a lease, POSTs each signed (Standard Webhooks), records the attempt, and schedules the
 * next one with exponential backoff for 24 hours. The queue lives in the database, so deliveries
 * survive restarts; new events are sent at once (the repository tells the worker when messages
 * are queued, in this process or, on PostgreSQL, in any). It is the shared lease worker (D130).
 */
import type { Database } from '../../db/database'
import { noteDatabaseFailure } from '../../db/errors'
import { createLeaseWorker } from '../../lib/lease-worker'
import type { Logger } from '../../lib/log'
import { isoIn } from '../../lib/time'
import { VERSION } from '../../version'
import { checkDeliveryHost, pinnedRequest } from './addresses'
import { type ClaimedMessage, type DeliveryShare, type RecordedAttempt, webhooksRepository } from './repository'
import { sign } from './service'

interface AttemptOutcome extends RecordedAttempt {
  /** false when trying again cannot help (a private address): the message fails at once. */
  retry: boolean
}

export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000
/** How long the attempts of a finished message stay listed (D85). */
export const DELIVERY_HISTORY_MS = 30 * 24 * 60 * 60 * 1000
const PURGE_EVERY_MS = 60 * 60 * 1000
/** Failed attempts in a row after which an endpoint's circuit opens: its messages wait (D138). */
export const CIRCUIT_FAILURES = 5
/** How long a circuit first stays open; each failed trial after it doubles this, up to the most. */
export const CIRCUIT_OPEN_MS = 30_000
const CIRCUIT_OPEN_MAX_MS = 10 * 60_000

export interface DeliveryWorkerOptions {
  database: Database
  log: Logger
  /** Whether private and loopback addresses may be reached (D83). */
  allowPrivate: boolean
  /** Delay before the first retry; each further one doubles, up to an hour. */
  retryDelayMs: number
  /** How long one attempt may wait for the receiver's answer. */
  timeoutMs?: number
  /** How often the database is asked for due messages (other processes', retries). */
  pollMs?: number
  /** Messages delivered at the same time; an account has at most half of them, an endpoint a quarter (D137). */
  concurrency?: number
  /** How long an endpoint's circuit first stays open after CIRCUIT_FAILURES failed attempts in a row. */
  circuitOpenMs?: number
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>

/** Exponential backoff: `first`, 2×, 4×… capped at an hour (D84). */
export function retryDelay(firstDelayMs: number, attempt: number): number {
  return Math.min(firstDelayMs * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS)
}

/** A short, stable text for what went wrong with a request that got no answer. */
function describeFailure(error: unknown): string {
  const { name, code } = (error ?? {}) as { name?: string; code?: string }
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout'
  if (code === 'ConnectionRefused' || code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ConnectionClosed' || code === 'ECONNRESET') return 'connection closed'
  if (typeof code === 'string' && /CERT|TLS|SSL|SELF_SIGNED|VERIFY/i.test(code)) return 'tls error'
  return 'connection failed'
}

export function createDeliveryWorker({
  database,
  log,
  allowPrivate,
  retryDelayMs,
  timeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS,
  pollMs = 1000,
  concurrency = 8,
  circuitOpenMs = CIRCUIT_OPEN_MS,
}: DeliveryWorkerOptions) {
  const queue = webhooksRepository(database)
  // A lease outlives the longest attempt (DNS, connect, the timeout) by a good margin.
  const leaseMs = timeoutMs + 30_000
  const timers = new Set<ReturnType<typeof setTimeout>>()
  /** Endpoints that failed lately, by ID: failed attempts in a row, and until when their circuit is open (D138). */
  const circuits = new Map<string, { failures: number; opened: number; openUntil: number }>()

  /** Counts an attempt's outcome against its endpoint's circuit; one that opens it wakes the worker when it closes. */
  function countAttempt(endpointId: string, failed: boolean): void {
    if (!failed) {
      circuits.delete(endpointId)
      return
    }
    const circuit = circuits.get(endpointId) ?? { failures: 0, opened: 0, openUntil: 0 }
    circuit.failures++
    if (circuit.failures >= CIRCUIT_FAILURES) {
      const openMs = Math.min(circuitOpenMs * 2 ** circuit.opened, CIRCUIT_OPEN_MAX_MS)
      circuit.opened++
      circuit.openUntil = Date.now() + openMs
      log.info('webhook endpoint circuit open', { endpoint_id: endpointId, failures: circuit.failures, open_ms: openMs })
      wakeIn(openMs)
    }
    circuits.set(endpointId, circuit)
  }

  /** The share of this worker's slots each account and endpoint may hold, and the endpoints whose circuit is open. */
  function share(): DeliveryShare {
    const now = Date.now()
    return {
      perAccount: Math.max(1, Math.ceil(concurrency / 2)),
      perEndpoint: Math.max(1, Math.ceil(concurrency / 4)),
      skipEndpoints: [...circuits].filter(([, circuit]) => circuit.openUntil > now).map(([id]) => id),
    }
  }

  async function attempt(message: ClaimedMessage): Promise<AttemptOutcome> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    let request: ReturnType<typeof pinnedRequest> = { url: message.url, headers: {} }
    if (!allowPrivate) {
      const host = await checkDeliveryHost(new URL(message.url).hostname)
      if (!host.ok) return { statusCode: null, durationMs: elapsed(), error: host.error, retry: host.retry }
      // Connect to the address just checked: no second lookup a rebinding name could answer otherwise (D126).
      request = pinnedRequest(message.url, host.address)
    }
    const timestamp = Math.floor(Date.now() / 1000)
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        ...(request.tls && { tls: request.tls }),
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'user-agent': `extractd/${VERSION}`,
          'webhook-id': message.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign(message.secret, message.id, timestamp, message.payload),
        },
        body: message.payload,
      })
      await response.body?.cancel().catch(() => {}) // the answer's body is not read
      const status = response.status
      const error = status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}`
      return { statusCode: status, durationMs: elapsed(), error, retry: true }
    } catch (error) {
      return { statusCode: null, durationMs: elapsed(), error: describeFailure(error), retry: true }
    }
  }

  function wakeIn(ms: number): void {
    const timer = setTimeout(
      () => {
        timers.delete(timer)
        void worker.poll()
      },
      Math.max(0, ms),
    )
    timer.unref?.()
    timers.add(timer)
  }

  async function deliver(message: ClaimedMessage): Promise<void> {
    const outcome = await attempt(message)
    const { statusCode, durationMs, error } = outcome
    countAttempt(message.endpointId, error !== null)
    // Recorded only while this worker still holds the message (D84), as attempt number one more than those made.
    const next = await database.transaction(function* (tx) {
      const held = yield* queue.held(tx, message.id, worker.owner)
      if (!held) return undefined
      const number = held.attempts + 1
      const at = new Date()
      const retryAt = new Date(at.getTime() + retryDelay(retryDelayMs, number))
      const giveUp = !outcome.retry || retryAt.getTime() > Date.parse(message.createdAt) + RETRY_WINDOW_MS
      const nextAttemptAt = error === null || giveUp ? undefined : retryAt.toISOString()
      const status = error === null ? 'delivered' : nextAttemptAt ? 'pending' : 'failed'
      yield* queue.recordAttempt(tx, message.id, held.endpointId, { number, at, statusCode, durationMs, error, status, nextAttemptAt })
      return nextAttemptAt
    })
    const fields = {
      message_id: message.id,
      event: message.event,
      attempt: message.attempts + 1,
      status_code: outcome.statusCode,
      duration_ms: outcome.durationMs,
    }
    if (outcome.error === null) log.debug('webhook delivered', fields)
    else log.info('webhook attempt failed', { ...fields, error: outcome.error, next_attempt_at: next ?? null })
    if (next) wakeIn(Date.parse(next) - Date.now())
  }

  const worker = createLeaseWorker<ClaimedMessage>({
    name: 'webhook delivery',
    log,
    concurrency,
    pollMs,
    leaseMs,
    claim: (owner, room) => queue.claimDue(owner, leaseMs, room, share()),
    idOf: (message) => message.id,
    run: (message) => deliver(message),
    failed: (error) => noteDatabaseFailure(database, error),
    release: async (owner) => {
      await queue.releaseLeases(owner)
      return 0
    },
    onQueued: (wake) => queue.onQueued(wake),
    purge: { what: 'purging the delivery history', everyMs: PURGE_EVERY_MS, run: () => queue.purgeFinished(isoIn(-DELIVERY_HISTORY_MS)) },
  })

  return {
    /** Starts polling; messages left by a stopped process are due again (their leases run out). */
    start: worker.start,

    /** Takes no more messages, waits up to `graceMs` for attempts under way, and gives back the rest. */
    async stop(graceMs: number): Promise<void> {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      await worker.stop(graceMs)
    },
  }
}
