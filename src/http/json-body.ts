/**
 * The body parser of JSON routes: checks the content type (415) and size (413) before reading,
 * and reports malformed JSON as 400 `invalid_json` rather than Elysia's plain-text answer.
 */
import { errors } from './errors'

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i

export function jsonBody(limitBytes: number) {
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim()
    if (request.body === null && type === '') return undefined // no body at all: validation says what is missing
    if (!JSON_TYPE.test(type)) throw errors.unsupportedMediaType('application/json')
    if (Number(request.headers.get('content-length') ?? 0) > limitBytes) throw errors.payloadTooLarge(limitBytes)
    const bytes = await request.arrayBuffer()
    if (bytes.byteLength > limitBytes) throw errors.payloadTooLarge(limitBytes)
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    } catch (error) {
      throw errors.invalidJson(error instanceof Error ? error.message : 'unreadable')
    }
  }
}
