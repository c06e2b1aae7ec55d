/**
 * Renders every error as the D1 envelope. ApiError passes through as it is; Elysia's own
 * validation, parse and routing errors are translated (D2); anything unexpected is logged and
 * answered as a bare 500 that leaks nothing.
 */
import { Elysia, ValidationError } from 'elysia'
import { isDatabaseUnavailable, isStorageFull, noteDatabaseFailure, noteDatabaseWrite } from '../db/errors'
import { duplicateKeyDetails } from '../lib/fields/model'
import type { Logger } from '../lib/log'
import { ApiError, type ErrorDetail, errors } from './errors'

export interface RouteInfo {
  method: string
  path: string
}

type Answer = { status?: number | string; headers: Record<string, string | number> }

/**
 * The envelope as text, its status and headers in `set`: Elysia then makes the one Response,
 * with the headers already set for the request (X-Request-Id), instead of copying ours into a
 * new one.
 */
function render(error: ApiError, set: Answer): string {
  set.status = error.status // also read by the request log
  set.headers['content-type'] = 'application/json'
  Object.assign(set.headers, error.headers)
  return JSON.stringify(error)
}

/**
 * Every problem of the value (D2). Elysia's own list (`error.all`) stops at 64, so the problems
 * are read from the validator itself when it can list them, as TypeBox's compiled ones can.
 */
function problemsOf(error: ValidationError): Iterable<{ path?: unknown; message: string }> {
  const { validator } = error
  return typeof validator === 'object' && validator !== null && 'Errors' in validator && typeof validator.Errors === 'function'
    ? (validator.Errors(error.value) as Iterable<{ path: string; message: string }>)
    : error.all
}

function validationDetails(error: ValidationError): ErrorDetail[] {
  const seen = new Set<string>()
  const details: ErrorDetail[] = []
  for (const problem of problemsOf(error)) {
    const path = problem.path === undefined ? '' : String(problem.path)
    if (seen.has(path)) continue // TypeBox reports a missing property twice
    seen.add(path)
    details.push({ path: error.type === 'body' ? path : `${error.type}:${path}`, message: problem.message })
  }
  // D9 is checked by the services once the types are right; report it here too, so a body
  // with both kinds of problem names all of them at once (D2).
  if (error.type === 'body') details.push(...duplicateFieldKeys(error.value).filter((detail) => !seen.has(detail.path)))
  return details
}

function duplicateFieldKeys(body: unknown): ErrorDetail[] {
  const fields = (body as { fields?: unknown } | null)?.fields
  if (!Array.isArray(fields)) return []
  const keyed = fields.filter((field): field is { key: string } => typeof field?.key === 'string')
  return keyed.length === fields.length ? duplicateKeyDetails(keyed) : []
}

function routeMatcher(routes: () => RouteInfo[]) {
  let table: { pattern: RegExp; method: string }[] | undefined
  return (pathname: string): string[] => {
    table ??= routes()
      .filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
      .map((route) => ({
        method: route.method,
        pattern: new RegExp(`^${route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}/?$`),
      }))
    const methods = table.filter((route) => route.pattern.test(pathname)).map((route) => route.method)
    if (methods.includes('GET')) methods.push('HEAD') // Bun answers HEAD for every GET route
    return [...new Set(methods)]
  }
}

export function errorHandler({ routes, log, database }: { routes: () => RouteInfo[]; log: Logger; database: object }) {
  const allowedMethods = routeMatcher(routes)
  return new Elysia({ name: 'error-handler' })
    .onAfterHandle({ as: 'global' }, ({ request, set, responseValue }) => {
      // A request that changed something and succeeded wrote: the storage has room again (D196).
      const status = responseValue instanceof Response ? responseValue.status : Number(set.status ?? 200)
      if (request.method !== 'GET' && request.method !== 'HEAD' && status < 300) noteDatabaseWrite(database)
    })
    .onError({ as: 'global' }, ({ code, error, request, path, set }) => {
      const answer = (apiError: ApiError) => render(apiError, set)
      if (error instanceof ApiError) return answer(error)
      if (code === 'PARSE') {
        const cause = (error as Error).cause
        return answer(cause instanceof ApiError ? cause : errors.invalidJson('unreadable body'))
      }
      if (code === 'VALIDATION' && error instanceof ValidationError && error.type === 'params') return answer(errors.notFound('Resource')) // D6: a path ID that cannot even be decoded names nothing
      if (code === 'VALIDATION' && error instanceof ValidationError && error.type !== 'response') return answer(errors.validation(validationDetails(error)))
      if (code === 'NOT_FOUND') {
        const allowed = allowedMethods(path)
        if (allowed.length > 0) return answer(errors.methodNotAllowed(request.method, allowed))
        return answer(errors.notFound(`Route ${request.method} ${path}`))
      }
      if (isStorageFull(error)) {
        // D196: readiness reports it too, and the answer says what is wrong.
        noteDatabaseFailure(database, error)
        log.error('database storage full', { error: error instanceof Error ? error.message : String(error) })
        return answer(errors.storageFull())
      }
      if (isDatabaseUnavailable(error)) {
        log.warn('database unavailable', { error: error instanceof Error ? error.message : String(error) })
        return answer(errors.serviceUnavailable())
      }
      log.error('unhandled error', {
        error_code: String(code),
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      })
      return answer(errors.internal())
    })
}
