/**
 * The console speaks the public API only, through openapi-fetch typed by the types generated from
 * /openapi.json into generated/api.ts (`bun run openapi:types`). The key lives in this tab's
 * sessionStorage: never in a URL, never in localStorage.
 */
import createClient, { type Middleware } from 'openapi-fetch'
import { useEffect, useState } from 'preact/hooks'
import type { components, paths } from './generated/api.ts'

export { FIELD_TYPES } from '../../../lib/fields/types.ts'

export type Schema = components['schemas']['Schema']
export type Field = Schema['fields'][number]
export type Job = components['schemas']['Job']
export type JobField = Job['fields'][number]
export type FieldMeta = NonNullable<Job['fields_meta']>[string]
export type Bbox = NonNullable<FieldMeta['bbox']>
export type DocumentType = components['schemas']['DocumentType']
// Keys are not named components of the document (src/http/openapi.ts names those); their routes' answers say what they are.
export type ApiKey = paths['/api/v1/keys']['get']['responses'][200]['content']['application/json']['keys'][number]
export type CreatedApiKey = paths['/api/v1/keys']['post']['responses'][201]['content']['application/json']['key']
export type Webhook = components['schemas']['Webhook']
export type CreatedWebhook = components['schemas']['CreatedWebhook']
export type Delivery = components['schemas']['WebhookDelivery']
export type FieldType = Field['type']
export type Column = NonNullable<Field['columns']>[number]

const KEY_ITEM = 'extractd.apiKey'

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY_ITEM),
  signIn: (key: string) => sessionStorage.setItem(KEY_ITEM, key),
  signOut: () => sessionStorage.removeItem(KEY_ITEM),
}

/** Called when the API answers 401: the key was revoked or mistyped. */
let onUnauthorized: () => void = () => {}
export function whenUnauthorized(handler: () => void) {
  onUnauthorized = handler
}

const auth: Middleware = {
  onRequest({ request }) {
    const key = session.key()
    if (key) request.headers.set('authorization', `Bearer ${key}`)
    return request
  },
  onResponse({ response }) {
    if (response.status === 401 && session.key()) onUnauthorized()
    return response
  },
}

export const api = createClient<paths>({ baseUrl: location.origin })
api.use(auth)

export interface ApiError {
  error: string
  code: string
  details?: { path: string; message: string }[]
}

/** What to do, for the errors whose message says only what went wrong (D336). */
const NEXT_STEP: Partial<Record<string, string>> = {
  invalid_api_key: 'Check the key, or create one with `npm run extractd -- keys create` (with the binary: `extractd keys create`).',
  not_found: 'It may have been deleted: refresh the list.',
  schema_limit_reached: 'Delete a schema you no longer use, then try again.',
  webhook_limit_reached: 'Delete an endpoint you no longer use, then try again.',
  payload_too_large: 'Send a smaller file, or ask the operator to raise --max-upload-mb.',
  internal_error: "Try again; if it fails again, the server's log says why.",
  method_not_allowed: 'Reload the console: it may be older than the server.',
  invalid_json: 'Reload the console: it may be older than the server.',
}

/** The API's error envelope (D1) as one line for the user: what went wrong, said once, and what to do. */
export function describeError(error: unknown): string {
  if (error && typeof error === 'object' && 'error' in error) {
    const { error: message, code, details } = error as ApiError
    // A validation message repeats its first detail: the details alone say it, each once.
    const said = details?.length ? `Invalid request: ${details.map((detail) => `${detail.path || 'body'}: ${detail.message}`).join('; ')}` : message
    const next = NEXT_STEP[code]
    return next ? `${said}. ${next}` : said
  }
  // fetch rejects only when no answer came.
  if (error instanceof TypeError) return `The server did not answer (${error.message}): check that it is running and reachable, then try again.`
  if (error instanceof Error) return error.message
  return 'The request failed: try again.'
}

/** Throws the API's error, so screens can show it; answers the body otherwise. */
export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let answered: Awaited<typeof request>
  try {
    answered = await request
  } catch (failure) {
    throw new Error(describeError(failure))
  }
  const { data, error, response } = answered
  if (error !== undefined || !response.ok) throw new Error(describeError(error))
  return data as T
}

let catalog: Promise<DocumentType[]> | undefined

/** The catalog's document types, read once: they are the same for every account while the server runs. A failed read is tried again next time. */
export function documentTypes(): Promise<DocumentType[]> {
  catalog ??= call(api.GET('/api/v1/document-types')).then(
    (data) => data.document_types,
    (failure) => {
      catalog = undefined
      throw failure
    },
  )
  return catalog
}

/**
 * The account's schemas and the catalog's types, read as a screen opens: the pickers of the jobs,
 * accuracy and try screens read them here. A failed read is told to `onError`, if given.
 */
export function useSchemasAndTypes(onError?: (message: string) => void): { schemas: Schema[]; types: DocumentType[] } {
  const [schemas, setSchemas] = useState<Schema[]>([])
  const [types, setTypes] = useState<DocumentType[]>([])
  useEffect(() => {
    const failed = (failure: Error) => onError?.(failure.message)
    call(api.GET('/api/v1/schemas')).then((data) => setSchemas(data.schemas), failed)
    documentTypes().then(setTypes, failed)
  }, [])
  return { schemas, types }
}

/** The upload: multipart, so the body is the form itself. */
export function extract(file: File, extractPart: Record<string, unknown>) {
  const form = new FormData()
  form.append('file', file, file.name)
  form.append('extract', JSON.stringify(extractPart))
  return call(
    api.POST('/api/v1/extract', {
      params: { query: { async: 'true' } },
      body: form as never,
      bodySerializer: (body) => body as unknown as FormData,
    }),
  )
}

const served = document.getElementById('console')?.dataset
const KEEP_FILES_MS = Number(served?.keepFilesMs ?? 0)
/** The server's clock less this browser's, from the page's own time: a wrong clock here does not ask for a purged document. */
const CLOCK_OFFSET_MS = served?.serverTime ? Number(served.serverTime) - Date.now() : 0
/** A document due for deletion within this margin is not asked for: the answer could be a 404. */
const EXPIRY_MARGIN_MS = 60_000

/**
 * Whether the server still keeps the job's document: while the job runs, and for `--keep-files`
 * after it ends (D331). Past that the console does not ask, so the browser logs no 404.
 */
export function documentKept(job: Job): boolean {
  if (!ENDED.has(job.status)) return true
  if (KEEP_FILES_MS <= 0 || !job.completed_at) return false
  return Date.parse(job.completed_at) + KEEP_FILES_MS > Date.now() + CLOCK_OFFSET_MS + EXPIRY_MARGIN_MS
}

/** A job's stored document, as a File; null when the server no longer keeps it (D331: not asked for then). */
export async function jobFile(job: Job): Promise<File | null> {
  if (!documentKept(job)) return null
  const { data, response } = await api.GET('/api/v1/jobs/{id}/file', { params: { path: { id: job.id } }, parseAs: 'blob' })
  if (!response.ok || !data) return null
  return new File([data as Blob], job.file.name, { type: job.file.media_type })
}

export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export function saveText(text: string, name: string, type: string) {
  saveBlob(new Blob([text], { type }), name)
}

export function saveJson(value: unknown, name: string) {
  saveText(JSON.stringify(value, null, 2), name, 'application/json')
}

export const ENDED = new Set<Job['status']>(['succeeded', 'failed', 'canceled'])
