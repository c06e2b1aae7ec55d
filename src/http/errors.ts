/**
 * Every error the API can answer, in one place (D1): a closed list of codes, one status per
 * code. Handlers throw ApiError; only the error handler turns it into the JSON envelope.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  missing_parameter: 400,
  invalid_json: 400,
  invalid_api_key: 401,
  not_found: 404,
  unknown_document_type: 404,
  method_not_allowed: 405,
  job_finished: 409,
  job_not_finished: 409,
  job_not_succeeded: 409,
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  webhook_limit_reached: 409,
  words_not_kept: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unreadable_document: 422,
  schema_limit_reached: 429,
  queue_limit_reached: 429,
  internal_error: 500,
  service_unavailable: 503,
  storage_full: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export interface ErrorDetail {
  path: string
  message: string
}

/** Extra top-level members of the envelope, such as `details` or `available_types`. */
export type ErrorExtras = {
  details?: ErrorDetail[]
  available_types?: string[]
  accepted_types?: string[]
  /** Why a document could not be read: the code a job reading it would fail with (D252). */
  reason?: string
}

export class ApiError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extras: ErrorExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'ApiError'
    this.status = ERROR_STATUS[code]
  }

  toJSON() {
    return { error: this.message, code: this.code, ...this.extras }
  }
}

export const errors = {
  invalidApiKey: () => new ApiError('invalid_api_key', 'Invalid API key'),
  notFound: (what: string) => new ApiError('not_found', `${what} not found`),
  validation: (details: ErrorDetail[]) => new ApiError('validation_failed', describeDetails(details), { details }),
  missingParameter: (name: string) => new ApiError('missing_parameter', `Missing required query param: ${name}`),
  invalidJson: (reason: string) => new ApiError('invalid_json', `Malformed JSON body: ${reason}`),
  unsupportedMediaType: (expected: string) => new ApiError('unsupported_media_type', `Unsupported Content-Type: expected ${expected}`),
  unsupportedDocument: (accepted_types: string[]) =>
    new ApiError(
      'unsupported_media_type',
      'Unsupported document: send a PDF, an image (JPEG, PNG, TIFF, WebP or HEIC), a DOCX, HTML, Markdown or plain text file',
      {
        accepted_types,
      },
    ),
  payloadTooLarge: (limitBytes: number) => new ApiError('payload_too_large', `Request body exceeds the limit of ${limitBytes} bytes`),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError(
      'method_not_allowed',
      `Method ${method} is not allowed on this path`,
      {},
      {
        Allow: allowed.join(', '),
      },
    ),
  jobFinished: (status: string) => new ApiError('job_finished', `The job has already ended (${status}); only queued or running jobs can be canceled`),
  jobNotSucceeded: (status: string) => new ApiError('job_not_succeeded', `The job is ${status}; only a succeeded job's values can be reviewed`),
  wordsNotKept: () =>
    new ApiError(
      'words_not_kept',
      "The places of this job's words are not kept (a text, Markdown, HTML or DOCX document has none; a document read as more than 2 MiB is not kept): type the value instead",
    ),
  jobNotFinished: (status: string) => new ApiError('job_not_finished', `The job is ${status}; cancel it first, or wait until it ends, to delete it`),
  idempotencyKeyReused: () => new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request'),
  idempotencyKeyInUse: () =>
    new ApiError(
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still being processed; retry after it ends',
      {},
      {
        'Retry-After': '1',
      },
    ),
  schemaLimitReached: (max: number) => new ApiError('schema_limit_reached', `Schema limit reached: an account can hold at most ${max} active schemas`),
  queueLimitReached: (what: 'jobs' | 'bytes', max: number, retryAfterSeconds: number) =>
    new ApiError(
      'queue_limit_reached',
      what === 'jobs'
        ? `Queue limit reached: an account can have at most ${max} jobs queued or running; retry when some have ended`
        : `Queue limit reached: the documents of an account's queued and running jobs can hold at most ${max} bytes; retry when some have ended`,
      {},
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  /** A document POST /classify could not read (D252); an extraction job would fail with `reason`. */
  unreadableDocument: (reason: string, message: string) => new ApiError('unreadable_document', message, { reason }),
  webhookLimitReached: (max: number) => new ApiError('webhook_limit_reached', `Webhook limit reached: an account can hold at most ${max} webhooks`),
  internal: () => new ApiError('internal_error', 'Internal server error'),
  serviceUnavailable: () => new ApiError('service_unavailable', 'The database is not available right now; retry shortly', {}, { 'Retry-After': '1' }),
  storageFull: () =>
    new ApiError(
      'storage_full',
      "The server's storage is full: nothing new can be stored until its operator frees space; retry later",
      {},
      { 'Retry-After': String(STORAGE_FULL_RETRY_AFTER_S) },
    ),
}

/** How long a client is asked to wait when the storage is full (D196): freeing space takes an operator. */
const STORAGE_FULL_RETRY_AFTER_S = 60

function describeDetails(details: ErrorDetail[]): string {
  const first = details[0]
  if (!first) return 'Invalid request'
  const where = first.path === '' ? 'body' : first.path
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : ''
  return `Invalid request: ${where}: ${first.message}${more}`
}
