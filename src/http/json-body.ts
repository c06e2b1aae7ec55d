/**
 * The body parser of JSON routes: checks the content type (415) and size (413) before reading,
 * and reports malformed JSON as 400 `invalid_json` rather than Elysia's plain-text answer.
 */
import { errors } from './errors'

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i
/** No body of this API nests deeper than a few levels; deeper JSON only costs stack and time. */
export const MAX_JSON_DEPTH = 32

/** Deepest nesting of arrays and objects in JSON text, counted without parsing it. */
function nestingDepth(text: string, limit: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 92) i++ // backslash: skip the escaped character
      else if (char === 34) inString = false
    } else if (char === 34) inString = true
    else if (char === 91 || char === 123) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest
    } else if (char === 93 || char === 125) depth--
  }
  return deepest
}

export function jsonBody(limitBytes: number) {
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim()
    if (request.body === null && type === '') return undefined // no body at all: validation says what is missing
    if (!JSON_TYPE.test(type)) throw errors.unsupportedMediaType('application/json')
    if (Number(request.headers.get('content-length') ?? 0) > limitBytes) throw errors.payloadTooLarge(limitBytes)
    const bytes = await request.arrayBuffer()
    if (bytes.byteLength > limitBytes) throw errors.payloadTooLarge(limitBytes)
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
    return value
  }
}
