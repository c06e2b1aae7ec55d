/**
 * The body parser of upload routes: multipart/form-data only (415 otherwise), refused before it
 * is read when its declared size is over the limit (413), parts returned as a plain object.
 */
import { errors } from './errors'

/** Room for the form's boundaries and its small JSON part, above the file's own limit. */
const FORM_OVERHEAD_BYTES = 256 * 1024

export function multipartBody(maxFileBytes: () => number) {
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (request.body === null && type === '') return undefined
    if (type !== 'multipart/form-data') throw errors.unsupportedMediaType('multipart/form-data')
    const limit = maxFileBytes() + FORM_OVERHEAD_BYTES
    if (Number(request.headers.get('content-length') ?? 0) > limit) throw errors.payloadTooLarge(maxFileBytes())
    let form: Awaited<ReturnType<Request['formData']>>
    try {
      form = await request.formData()
    } catch {
      throw errors.validation([{ path: '', message: 'Malformed multipart/form-data body' }])
    }
    type Part = File | string
    const parts: Record<string, Part | Part[]> = {}
    for (const [name, value] of form.entries()) {
      const previous = parts[name]
      const part = value as Part
      parts[name] = previous === undefined ? part : [...(Array.isArray(previous) ? previous : [previous]), part]
    }
    return parts
  }
}
