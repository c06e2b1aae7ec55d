/**
 * One structured log line per request, and its ID echoed in `X-Request-Id`. A client's own
 * X-Request-Id is kept when it looks like an ID, so calls can be traced across services.
 * Never logs keys, bodies or query strings.
 */
import { Elysia } from 'elysia'
import type { Logger } from '../lib/log'

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/
const REQUEST_ID = 'x-request-id'

interface RequestInfo {
  id: string
  startedAt: number
}

/** Every request's ID and arrival, from its first byte (before its body is read). */
const requests = new WeakMap<Request, RequestInfo>()

/** When the request arrived (`performance.now()`), before its body was read: what bounds a synchronous wait (D197). */
export function arrivedAt(request: Request): number | undefined {
  return requests.get(request)?.startedAt
}

export function requestLog({ log, accountOf }: { log: Logger; accountOf: (request: Request) => string | undefined }) {
  return new Elysia({ name: 'request-log' })
    .onRequest(({ request }) => {
      const given = request.headers.get(REQUEST_ID)
      requests.set(request, { id: given && CLIENT_ID.test(given) ? given : crypto.randomUUID(), startedAt: performance.now() })
    })
    .onAfterHandle({ as: 'global' }, ({ request, responseValue, set }) => {
      const id = requests.get(request)!.id
      // A Response the route built carries the header itself: had it been put in `set`, Elysia
      // would copy that Response into a new one to add it.
      if (responseValue instanceof Response) responseValue.headers.set(REQUEST_ID, id)
      else set.headers[REQUEST_ID] = id
    })
    .onError({ as: 'global' }, ({ request, set }) => {
      // The error handler, which runs next, answers through `set`.
      const info = requests.get(request)
      if (info) set.headers[REQUEST_ID] = info.id
    })
    .onAfterResponse({ as: 'global' }, ({ request, path, route, set, responseValue }) => {
      const info = requests.get(request)
      if (!info) return
      const status = responseValue instanceof Response ? responseValue.status : Number(set.status ?? 200)
      log.info('request', {
        request_id: info.id,
        method: request.method,
        route: route || null,
        path,
        status,
        duration_ms: Math.round((performance.now() - info.startedAt) * 100) / 100,
        account_id: accountOf(request) ?? null,
      })
    })
}
