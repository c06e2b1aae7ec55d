/**
 * Body parsers of the routes that take a body. Both check the declared content type (415) and
 * size (413) before reading anything, and report a malformed body in the D1 envelope rather
 * than as Elysia's plain-text parse error.
 */
import type { TObject, TSchema } from '@sinclair/typebox'
import { errors } from './errors'
import { pointerSegment } from '../lib/text'

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i
const FORM_TYPE = /^multipart\/form-data$/i
/** No body of this API nests deeper than a few levels; deeper JSON only costs stack and time. */
export const MAX_JSON_DEPTH = 32
export const NUL_MESSAGE = 'Must not contain the character U+0000'
/** Room for a form's boundaries and its small JSON part, above the file's own limit. */
const FORM_OVERHEAD_BYTES = 256 * 1024

type ParseContext = { request: Request }

/**
 * The checks every body parser makes first. Returns false for a request with no body and no
 * content type, which the route's validation then reports as missing.
 */
function hasAcceptedBody(request: Request, expected: { mediaType: RegExp; name: string; limitBytes: number; shownLimitBytes: number }): boolean {
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim()
  if (request.body === null && mediaType === '') return false
  if (!expected.mediaType.test(mediaType)) throw errors.unsupportedMediaType(expected.name)
  if (Number(request.headers.get('content-length') ?? 0) > expected.limitBytes) throw errors.payloadTooLarge(expected.shownLimitBytes)
  return true
}

/** Deepest nesting of arrays and objects in JSON text, counted without parsing it. */
function nestingDepth(text: string, limit: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 92)
        i++ // backslash: skip the escaped character
      else if (char === 34) inString = false
    } else if (char === 34) inString = true
    else if (char === 91 || char === 123) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest
    } else if (char === 93 || char === 125) depth--
  }
  return deepest
}

/** JSON Pointer paths of the strings in a value that hold U+0000, which PostgreSQL's text cannot store (D99). */
function pathsWithNul(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return value.includes('\0') ? [path] : []
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => pathsWithNul(inner, `${path}/${pointerSegment(key)}`))
}

export function jsonBody(limitBytes: number) {
  return async ({ request }: ParseContext): Promise<unknown> => {
    const expected = { mediaType: JSON_TYPE, name: 'application/json', limitBytes, shownLimitBytes: limitBytes }
    if (!hasAcceptedBody(request, expected)) return undefined
    const bytes = await request.arrayBuffer()
    if (bytes.byteLength > limitBytes) throw errors.payloadTooLarge(limitBytes) // no content-length, or a wrong one
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {
      throw errors.invalidJson('the body is not valid UTF-8')
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw errors.invalidJson(error instanceof Error ? error.message : 'unreadable')
    }
    if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
      throw errors.validation([{ path: '', message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }])
    // Only an escape can put U+0000 in a JSON string, so most bodies are not walked.
    const withNul = text.includes('\\u0000') ? pathsWithNul(value) : []
    if (withNul.length > 0) throw errors.validation(withNul.map((path) => ({ path, message: NUL_MESSAGE })))
    return value
  }
}

type Part = File | string

/**
 * multipart/form-data, its parts as a plain object (a repeated part becomes an array). A part the
 * form's model declares JSON (`contentMediaType: 'application/json'`, D320) is text however it
 * comes: clients that follow the document's `encoding` (Swagger UI) send it as a file of type
 * application/json.
 */
export function multipartBody(maxFileBytes: number, form?: TObject) {
  const jsonParts = new Set(
    Object.entries<TSchema>(form?.properties ?? {}).flatMap(([name, schema]) => (schema.contentMediaType === 'application/json' ? [name] : [])),
  )
  const expected = {
    mediaType: FORM_TYPE,
    name: 'multipart/form-data',
    limitBytes: maxFileBytes + FORM_OVERHEAD_BYTES,
    shownLimitBytes: maxFileBytes,
  }
  return async ({ request }: ParseContext): Promise<unknown> => {
    if (!hasAcceptedBody(request, expected)) return undefined
    let data: Awaited<ReturnType<Request['formData']>>
    try {
      data = await request.formData()
    } catch {
      throw errors.validation([{ path: '', message: 'Malformed multipart/form-data body' }])
    }
    const parts: Record<string, Part | Part[]> = {}
    for (const [name, value] of data.entries()) {
      const previous = parts[name]
      const part = jsonParts.has(name) && value instanceof Blob ? await value.text() : (value as Part)
      parts[name] = previous === undefined ? part : [...(Array.isArray(previous) ? previous : [previous]), part]
    }
    return parts
  }
}
