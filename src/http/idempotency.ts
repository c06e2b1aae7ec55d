/**
 * Idempotency keys (D75). A request that creates something may carry `Idempotency-Key`; its
 * first successful answer is stored for 24 hours per account, and a retry of the same request
 * with the same key gets that answer again, with `Idempotent-Replayed: true`, instead of a second
 * schema or job. Only this file and its store read or write the idempotency_keys table.
 */
import type { Database } from '../db/database'
import { isDatabaseUnavailable } from '../db/errors'
import { errors } from './errors'
import { idempotencyStore } from './idempotency-store'
import { jsonResponse } from './json'

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000
/**
 * A first request still unanswered after this long is taken for lost (its process ended
 * mid-request), so its key can be used again (D136): above the longest a request may last (the
 * synchronous wait, at most 4 minutes, and an upload), minutes rather than an hour.
 */
export const IN_FLIGHT_TIMEOUT_MS = 5 * 60 * 1000
/** How often the end of a request is written again while the database cannot take it. */
const SETTLE_RETRY_MS = 1_000
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

/**
 * Writes how a request ended (its answer stored, or its key given up). While the database cannot
 * answer, the write is tried again in the background until it can (D136), so a key is never left
 * held by a request that ended; past the in-flight timeout the key is taken for lost anyway.
 */
async function settleKey(write: () => Promise<void>): Promise<void> {
  try {
    await write()
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error
    const giveUpAt = Date.now() + IN_FLIGHT_TIMEOUT_MS
    void (async () => {
      while (Date.now() < giveUpAt) {
        await Bun.sleep(SETTLE_RETRY_MS)
        try {
          return await write()
        } catch (again) {
          if (!isDatabaseUnavailable(again)) return
        }
      }
    })()
  }
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
        await settleKey(() => store.forget(accountId, key))
        throw error
      }
      // A success is answered even while the database cannot store it yet: what it created exists (D135).
      if (answer.status >= 200 && answer.status < 300) await settleKey(() => store.store(accountId, key, answer.status, answer.body))
      else await settleKey(() => store.forget(accountId, key))
      return toResponse(answer)
    },
  }
}
