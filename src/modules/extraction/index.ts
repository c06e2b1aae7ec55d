/** Routes of extraction: POST /api/v1/extract and the account's jobs. */
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import { Elysia, t } from 'elysia'
import type { Database } from '../../db/database'
import { JOB_STATUSES, type JobStatus } from '../../db/tables/jobs'
import type { AuthPlugin } from '../../http/auth'
import { type ErrorDetail, errors } from '../../http/errors'
import { pageLimit } from '../../http/paging'
import type { Idempotency } from '../../http/idempotency'
import { Deleted, errorResponses } from '../../http/models'
import { multipartBody } from '../../http/body'
import { arrivedAt } from '../../http/request-log'
import type { Catalog } from '../catalog/service'
import {
  ClassifyForm,
  ClassifyResult,
  DEFAULT_JOB_PAGE,
  ExtractForm,
  ExtractQuery,
  ExtractRequest,
  JobEnvelope,
  JobList,
  JobParams,
  JobsQuery,
  MAX_JOB_PAGE,
} from './model'
// Detection only: the readers themselves (PDF.js, OCR) load in the extraction processes (D190).
import { ACCEPTED_MEDIA_TYPES, type MediaType } from './readers/types'
import { cancelJob, classifyFile, createJob, deleteJob, getJob, getJobFile, jobOnceReadable, listJobs, resolveFields } from './service'
import type { JobRunner } from './worker'

export interface ExtractionDeps {
  database: Database
  catalog: Catalog
  auth: AuthPlugin
  idempotency: Idempotency
  runner: JobRunner
  engineName: string
  maxUploadBytes: number
}

let extractRequestCheck: TypeCheck<typeof ExtractRequest> | undefined
/** Compiled with the first upload, not at start (D150). */
const extractRequestChecker = () => (extractRequestCheck ??= TypeCompiler.Compile(ExtractRequest))

/** How long a request whose job exists keeps trying to read it while the database cannot answer (D135). */
const JOB_REREAD_MS = 5_000

/** The `extract` part: JSON, then the rules of ExtractRequest, with paths under /extract. */
function parseExtract(text: string): ExtractRequest {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw errors.invalidJson(`the extract part: ${(error as Error).message}`)
  }
  const extractRequest = extractRequestChecker()
  if (extractRequest.Check(value)) return value
  const details: ErrorDetail[] = []
  for (const problem of extractRequest.Errors(value)) {
    const path = `/extract${problem.path}`
    // A key that breaks the Field rules shows up as a property the record does not allow.
    const message =
      path.startsWith('/extract/fields/') && problem.message === 'Unexpected property'
        ? 'Invalid field key: ASCII letters, digits and underscores only, 1 to 64 of them'
        : problem.message
    if (!details.some((detail) => detail.path === path)) details.push({ path, message })
  }
  throw errors.validation(details)
}

/** An uploaded file's checks, the same for every route that takes a document: a name, some bytes. */
function checkFile(file: File): void {
  if (!file.name) throw errors.validation([{ path: '/file', message: 'The file part needs a file name' }])
  if (file.size === 0) throw errors.validation([{ path: '/file', message: 'The file is empty' }])
}

/** The media type of a document, from its content; 415 for a kind no reader takes. */
async function mediaTypeOf(content: Uint8Array): Promise<MediaType> {
  // Loaded with the first upload, not at start: its unzip library builds its tables as it loads (D150).
  const { detectMediaType } = await import('./readers/detect')
  const mediaType = detectMediaType(content)
  if (!mediaType) throw errors.unsupportedDocument(ACCEPTED_MEDIA_TYPES)
  return mediaType
}

/** Content-Disposition for a download under its original name (RFC 6266: an ASCII fallback and the UTF-8 name). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`
}

export function extractionModule({ database, catalog, auth, idempotency, runner, engineName, maxUploadBytes }: ExtractionDeps) {
  return new Elysia({ tags: ['Extraction'] })
    .use(auth)
    .post(
      '/extract',
      async ({ principal, body, query, request }) => {
        const deadline = (arrivedAt(request) ?? performance.now()) + runner.syncWaitMs
        const wanted = parseExtract(body.extract)
        const { file } = body
        checkFile(file)
        // The form is already in memory, bounded by the parser's limit.
        const content = new Uint8Array(await file.arrayBuffer())
        const sha256 = new Bun.CryptoHasher('sha256').update(content).digest('hex')
        // D75: a retry is the same `extract` part with the same file.
        return idempotency.run(
          request,
          principal.accountId,
          () => `${body.extract}\n${sha256}`,
          async () => {
            const resolved = await resolveFields(database, catalog, principal.accountId, wanted)
            if (file.size > maxUploadBytes) throw errors.payloadTooLarge(maxUploadBytes)
            const mediaType = await mediaTypeOf(content)

            const job = await createJob(
              database,
              {
                accountId: principal.accountId,
                ...resolved,
                engine: engineName,
                split: wanted.split === true,
                file: { name: file.name, mediaType, content, sha256 },
              },
              runner.caps,
            )
            const finished = runner.submit(job.id)
            if (query.async === 'true') return { status: 202, body: JSON.stringify({ job }) }
            // D134, D197: a synchronous request waits at most the sync wait from its arrival (its
            // upload included), then answers as ?async=true would.
            const left = () => Math.max(0, deadline - performance.now())
            const ended = await Promise.race([finished.then(() => true), Bun.sleep(left()).then(() => false)])
            // D135: the job exists, so the answer carries it, even while the database cannot be read.
            const current = await jobOnceReadable(database, principal.accountId, job, Math.min(JOB_REREAD_MS, left()))
            return { status: ended && current.status !== 'queued' && current.status !== 'running' ? 200 : 202, body: JSON.stringify({ job: current }) }
          },
        )
      },
      {
        auth: true,
        parse: multipartBody(maxUploadBytes, ExtractForm),
        body: ExtractForm,
        query: ExtractQuery,
        response: { 200: JobEnvelope, 202: JobEnvelope, ...errorResponses(400, 401, 404, 409, 413, 415, 429) },
        detail: {
          operationId: 'extract',
          'x-idempotent': true,
          summary: 'Extract fields from a document',
          description:
            'Multipart form: `file` (PDF, scanned or with a text layer; JPEG, PNG, TIFF, WebP or HEIC image; DOCX, HTML, Markdown ' +
            'or plain text) and `extract` (JSON). Scans and photos are read by OCR. ' +
            "Fields come from `fields`, from `schema_id`, or else the document type's suggested fields. " +
            'Waits for the job and answers 200 (a failed extraction is still 200 with `status: "failed"`); ' +
            "with `?async=true` answers 202 at once, and so does a job still queued or running after the server's synchronous wait " +
            '(`--sync-wait`, 55 s by default): poll `GET /api/v1/jobs/{id}` then. ' +
            'An account with too many jobs queued or running, or too many bytes of documents in them, gets 429 `queue_limit_reached` with `Retry-After`. With `Idempotency-Key`, a retry (the same `extract` part and the same file) ' +
            'gets the first answer again instead of a second job.',
        },
      },
    )
    .post(
      '/classify',
      async ({ body, request }) => {
        const { file } = body
        checkFile(file)
        if (file.size > maxUploadBytes) throw errors.payloadTooLarge(maxUploadBytes)
        const content = new Uint8Array(await file.arrayBuffer())
        const mediaType = await mediaTypeOf(content)
        return classifyFile(runner, { content, mediaType }, request.signal)
      },
      {
        auth: true,
        parse: multipartBody(maxUploadBytes),
        body: ClassifyForm,
        response: { 200: ClassifyResult, ...errorResponses(400, 401, 413, 415, 422) },
        detail: {
          operationId: 'classify',
          summary: "Find a document's type",
          description:
            'Multipart form: `file`, as for POST /api/v1/extract. Answers which catalog type the document is (the built-in types and ' +
            "the operator's own, `--catalog-dir`), reading no more than its first pages with text: `document_type` (null when none fits), " +
            '`confidence`, the ranked `candidates`, and its page count. Makes no job and stores nothing. A document that cannot be read ' +
            'is 422 `unreadable_document`, its `reason` the code an extraction job would fail with.',
        },
      },
    )
    .get(
      '/jobs',
      async ({ principal, query }) => {
        const limit = pageLimit(query.limit, DEFAULT_JOB_PAGE, MAX_JOB_PAGE)
        if (query.status !== undefined && !(JOB_STATUSES as readonly string[]).includes(query.status))
          throw errors.validation([{ path: 'query:/status', message: `Expected one of ${JOB_STATUSES.join(', ')}` }])
        if (query.needs_review !== undefined && query.needs_review !== 'true' && query.needs_review !== 'false')
          throw errors.validation([{ path: 'query:/needs_review', message: 'Expected true or false' }])
        return listJobs(database, principal.accountId, {
          limit,
          startingAfter: query.starting_after,
          status: query.status as JobStatus | undefined,
          schemaId: query.schema_id,
          needsReview: query.needs_review === undefined ? undefined : query.needs_review === 'true',
        })
      },
      {
        auth: true,
        query: JobsQuery,
        response: { 200: JobList, ...errorResponses(400, 401) },
        detail: {
          operationId: 'listJobs',
          summary: 'List jobs',
          description: 'Newest first; page with `limit` and `starting_after`; filter by `status`, `schema_id` and `needs_review`.',
        },
      },
    )
    .get('/jobs/:id', async ({ principal, params }) => ({ job: await getJob(database, principal.accountId, params.id) }), {
      auth: true,
      params: JobParams,
      response: { 200: JobEnvelope, ...errorResponses(401, 404) },
      detail: { operationId: 'getJob', summary: 'Read a job' },
    })
    .get(
      '/jobs/:id/file',
      async ({ principal, params }) => {
        const file = await getJobFile(database, principal.accountId, params.id)
        return new Response(file.content, {
          headers: { 'content-type': file.mediaType, 'content-disposition': attachment(file.name) },
        })
      },
      {
        auth: true,
        params: JobParams,
        response: { 200: t.File({ description: 'The document as uploaded, with its detected media type and original name.' }), ...errorResponses(401, 404) },
        detail: {
          operationId: 'getJobFile',
          summary: "Download a job's document",
          description: 'While the job runs, and after it for as long as the server keeps documents (`--keep-files`); else 404.',
        },
      },
    )
    .post(
      '/jobs/:id/cancel',
      async ({ principal, params }) => {
        const { wasRunning } = await cancelJob(database, principal.accountId, params.id, runner.keepFileMs)
        if (wasRunning) runner.cancel(params.id)
        return { job: await getJob(database, principal.accountId, params.id) }
      },
      {
        auth: true,
        params: JobParams,
        response: { 200: JobEnvelope, ...errorResponses(401, 404, 409) },
        detail: {
          operationId: 'cancelJob',
          summary: 'Cancel a job',
          description: 'A queued or running job ends `canceled` at once and its extraction is stopped; an ended job is 409 `job_finished`.',
        },
      },
    )
    .delete(
      '/jobs/:id',
      async ({ principal, params }) => {
        await deleteJob(database, principal.accountId, params.id)
        return { ok: true as const }
      },
      {
        auth: true,
        params: JobParams,
        response: { 200: Deleted, ...errorResponses(401, 404, 409) },
        detail: {
          operationId: 'deleteJob',
          summary: 'Delete a job',
          description: 'Deletes an ended job with its result and any kept document; a queued or running job is 409 `job_not_finished`.',
        },
      },
    )
}
