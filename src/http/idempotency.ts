/**
 * Idempotency keys (D75). A request that creates something may carry `Idempotency-Key`; its
 * first successful answer is stored for 24 hours per account, and a retry of the same request
 * with the same key gets that answer again, with `Idempotent-Replayed: true`, instead of a second
 * schema or job. Only this file and its store read or write the idempotency_keys table.
 */
import type { Database } from '../db/database'
import { errors } from './errors'
import { idempotencyStore } from './idempotency-store'
import { jsonResponse } from './json'

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000
/**
 * A first request still unanswered after this long is taken for lost (its process ended
 * mid-request), so its key can be used again.
 */
export const IN_FLIGHT_TIMEOUT_MS = 60 * 60 * 1000
const PURGE_EVERY_MS = 60 * 1000

const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/

/**
 * The header in the OpenAPI document of every operation marked `x-idempotent` (added by the
 * document's normaliser). It is checked here rather than by a route schema, which would make
 * Elysia copy every request's headers into an object on the busiest write route.
 */
export const IDEMPOTENCY_KEY_PARAMETER = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'A key of your choosing (1–255 printable ASCII characters). A retry with the same key and the same request gets ' +
    'the first answer again, with `Idempotent-Replayed: true`, for 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: KEY_PATTERN.source },
  example: 'order-4711-upload',
}

/** What a handler answers: its status and its JSON text. */
export interface Answer {
  status: number
  body: string
}

function sha256(text: string): string {
  return new Bun.CryptoHasher('sha256').update(text).digest('hex')
}

function toResponse(answer: Answer, replayed = false): Response {
  const response = jsonResponse(answer.body, answer.status)
  if (replayed) response.headers.set('idempotent-replayed', 'true')
  return response
}

export interface Idempotency {
  /**
   * Answers `handle()`'s answer, at most once per key: `fingerprint` names the request's body
   * (method, path and query are added here), and is only asked for when the request has a key.
   */
  run(request: Request, accountId: string, fingerprint: () => string, handle: () => Answer | Promise<Answer>): Promise<Response>
}

export function createIdempotency(database: Database): Idempotency {
  let lastPurge = 0
  return {
    async run(request, accountId, fingerprint, handle) {
      const key = request.headers.get('idempotency-key')
      if (key === null) return toResponse(await handle())
      if (!KEY_PATTERN.test(key)) throw errors.validation([{ path: 'headers:/idempotency-key', message: 'Expected 1 to 255 printable ASCII characters' }])
      const url = new URL(request.url)
      const requestHash = sha256(`${request.method} ${url.pathname}${url.search}\n${fingerprint()}`)
      // Made with the first request that names a key, not at start (D150); made once per database.
      const store = idempotencyStore(database)
      const at = Date.now()
      const expiredBefore = new Date(at - IDEMPOTENCY_KEY_TTL_MS).toISOString()
      if (at - lastPurge > PURGE_EVERY_MS) {
        lastPurge = at
        await store.purge(expiredBefore)
      }
      const claim = await store.claim({
        accountId,
        key,
        requestHash,
        now: new Date(at).toISOString(),
        expiredBefore,
        lostBefore: new Date(at - IN_FLIGHT_TIMEOUT_MS).toISOString(),
      })
      if (!claim.claimed) {
        const { row } = claim
        if (!row || row.requestHash !== requestHash) throw errors.idempotencyKeyReused()
        if (row.responseStatus === null || row.responseBody === null) throw errors.idempotencyKeyInUse()
        return toResponse({ status: row.responseStatus, body: row.responseBody }, true)
      }
      let answer: Answer
      try {
        answer = await handle()
      } catch (error) {
        // Only success is remembered: a refused request created nothing, so it may be tried again.
        await store.forget(accountId, key)
        throw error
      }
      if (answer.status >= 200 && answer.status < 300) await store.store(accountId, key, answer.status, answer.body)
      else await store.forget(accountId, key)
      return toResponse(answer)
    },
  }
}
