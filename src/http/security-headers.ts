/**
 * Headers that keep browsers from misreading what the service sends (D128): every response
 * carries `X-Content-Type-Options: nosniff` (an uploaded document downloaded again is never
 * sniffed into HTML) and may not be framed; everything but the API explorer also gets a
 * Content-Security-Policy that lets nothing load or run. The explorer's page sets its own policy.
 */
import { Elysia } from 'elysia'

const NOSNIFF = 'nosniff'
const NOTHING_RUNS = "default-src 'none'; frame-ancestors 'none'; sandbox"
const CSP = 'content-security-policy'

function secure(headers: Headers | Record<string, unknown>): void {
  if (headers instanceof Headers) {
    headers.set('x-content-type-options', NOSNIFF)
    headers.set('x-frame-options', 'DENY')
    if (!headers.has(CSP)) headers.set(CSP, NOTHING_RUNS)
    return
  }
  headers['x-content-type-options'] = NOSNIFF
  headers['x-frame-options'] = 'DENY'
  headers[CSP] ??= NOTHING_RUNS
}

export function securityHeaders() {
  return (
    new Elysia({ name: 'security-headers' })
      // A Response the route built carries the headers itself (put in `set`, Elysia would copy it to add them).
      .onAfterHandle({ as: 'global' }, ({ responseValue, set }) => secure(responseValue instanceof Response ? responseValue.headers : set.headers))
      // The error handler, which runs next, answers through `set`.
      .onError({ as: 'global' }, ({ set }) => secure(set.headers))
  )
}
