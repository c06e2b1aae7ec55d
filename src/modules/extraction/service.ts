/**
 * Extraction jobs of one account (D19–D21). A job keeps its own copy of its fields and the
 * file's facts; its document waits in job_files until the job ends. The repository scopes every
 * account-facing query to the account.
 */
import type { Database } from '../../db/database'
import type { Part, Queries } from '../../db/dialect'
import { isDatabaseUnavailable } from '../../db/errors'
import type { JobClassification, JobReading, JobStatus, StoredFieldMeta, StoredJobField } from '../../db/tables/jobs'
import { errors } from '../../http/errors'
import { isIdOf, newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { type FieldInput, type JobField, typeRuleDetails } from '../../lib/fields/model'
import { DEFAULT_REVIEW_THRESHOLD } from '../../lib/fields/types'
import { AUTO_TYPE, type Classification } from '../catalog/classification'
import type { DocumentTypeEntry } from '../catalog/model'
import { type Catalog, unknownDocumentType } from '../catalog/service'
import { getActiveSchemaVersion } from '../schemas/service'
import { queueJobEvent } from '../webhooks/service'
import { resolveField } from '../../lib/fields/resolve'
import { type Answers, type StoredAnswers, storedAnswers } from './answers'
import { documentOf } from './documents'
import { ExtractionError } from './errors'
import type { DocumentOutput, TaskOutput, TaskType } from './extractor'
import type { ExtractRequest, Job } from './model'
import type { DocumentText } from './readers/types'
import type { MediaType } from './readers/types'
import { DEFAULT_QUEUE_CAPS } from './queue-limits'
import {
  type ClaimedJob,
  type ClaimTurn,
  FINISHED,
  type FoundJobRow,
  type JobOutcome,
  type JobRow,
  jobsRepository,
  type QueueCaps,
  type ReviewedFilter,
} from './repository'
import { jobFieldOf, toWire } from './wire'

/**
 * The field set of a request (D19): inline fields, a schema's fields, or the document type's
 * suggested fields, each typed once here (D91). Catalog fields of the same key lend the engine
 * their aliases and, for a field left `auto`, their type.
 */
export async function resolveFields(database: Database, catalog: Catalog, accountId: string, request: ExtractRequest): Promise<ResolvedFields> {
  if (request.fields !== undefined && request.schema_id !== undefined)
    throw errors.validation([{ path: '/extract/schema_id', message: 'Give either fields or schema_id, not both' }])
  if (request.schema_version !== undefined && request.schema_id === undefined)
    throw errors.validation([{ path: '/extract/schema_version', message: 'schema_version needs schema_id' }])
  // A schema's jobs are checked as the schema says (D284): the request sets the threshold only without one.
  if (request.review_threshold !== undefined && request.schema_id !== undefined)
    throw errors.validation([{ path: '/extract/review_threshold', message: 'Set review_threshold on the schema, not with schema_id' }])
  const reviewThreshold = request.review_threshold ?? DEFAULT_REVIEW_THRESHOLD
  if (request.fields !== undefined) {
    const details = Object.entries(request.fields).flatMap(([key, field]) =>
      typeof field === 'string' ? [] : typeRuleDetails(field, `/extract/fields/${key}`),
    )
    if (details.length > 0) throw errors.validation(details)
  }
  // D250: with `auto` the type is found as the job runs; its fields are typed without a catalog type, and take its aliases then.
  const auto = request.document_type === AUTO_TYPE
  const type = auto ? undefined : catalog.get(request.document_type)
  if (!type && !auto) throw unknownDocumentType(catalog, request.document_type)
  const documentType = type?.slug ?? AUTO_TYPE
  const known = new Map(type?.fields.map((field) => [field.key, field]))
  const withCatalog = (field: Omit<FieldInput, 'required'>): JobField => resolveField(field, known.get(field.key))

  if (request.fields !== undefined) {
    const fields = Object.entries(request.fields).map(([key, field]) =>
      withCatalog(
        typeof field === 'string'
          ? { key, label: key, description: field }
          : { ...field, key, label: field.label ?? key, description: field.description ?? '' },
      ),
    )
    return { documentType, schemaId: null, schemaVersion: null, fields, reviewThreshold }
  }
  if (request.schema_id !== undefined) {
    const schema = await getActiveSchemaVersion(database, accountId, request.schema_id, request.schema_version)
    if (schema.fields.length === 0) throw errors.validation([{ path: '/extract/schema_id', message: 'The schema has no fields to extract' }])
    const fields = schema.fields.map(withCatalog)
    return { documentType, schemaId: schema.schema_id, schemaVersion: schema.version, fields, reviewThreshold: schema.review_threshold }
  }
  // With `auto`, no fields: the found type's suggested fields, chosen as the job runs (D250).
  return { documentType, schemaId: null, schemaVersion: null, fields: type ? suggestedFields(type) : [], reviewThreshold }
}
/** A type's suggested fields as a job reads them, typed and with the catalog's aliases. */
function suggestedFields(type: DocumentTypeEntry): JobField[] {
  return type.fields.filter((field) => type.suggestedKeys.includes(field.key)).map((field) => resolveField(field, field))
}

/**
 * Every catalog type as a task that classifies takes it (D250): its cues, and the fields a
 * document of it is read with: the job's own, each with the aliases of the type's field of the same
 * key, or, when the job gives none, the type's suggested fields.
 */
export function typesToRead(catalog: Catalog, given: readonly StoredJobField[]): TaskType[] {
  return catalog.classifiable().map((type) => {
    const entry = catalog.get(type.slug)!
    const aliases = new Map(entry.fields.map((field) => [field.key, field.aliases]))
    const read = given.length ? given.map((field) => resolveField(jobFieldOf(field), { aliases: aliases.get(field.key) })) : suggestedFields(entry)
    return { ...type, read, issuedBySeller: entry.issued_by_seller === true }
  })
}

export interface ResolvedFields {
  documentType: string
  schemaId: string | null
  schemaVersion: number | null
  fields: JobField[]
  /** The schema's review threshold, the request's, or the default (D284). */
  reviewThreshold: number
}

export interface NewJob extends Omit<ResolvedFields, 'reviewThreshold'> {
  reviewThreshold?: number
  accountId: string
  engine: string
  /** Read the file as one or more documents (D251); false when left out. */
  split?: boolean
  file: { name: string; mediaType: MediaType; content: Uint8Array; sha256: string }
}

/** How long an account over a queue cap is asked to wait before it tries again (D133). */
const QUEUE_RETRY_AFTER_S = 10

/** Queues a job, unless the account's waiting jobs would pass a cap with it: 429 `queue_limit_reached` (D133). */
export async function createJob(database: Database, input: NewJob, caps: QueueCaps = DEFAULT_QUEUE_CAPS): Promise<Job> {
  const created = await jobsRepository(database).create(
    {
      accountId: input.accountId,
      documentType: input.documentType,
      schemaId: input.schemaId,
      schemaVersion: input.schemaVersion,
      fields: input.fields,
      fileName: input.file.name,
      fileSize: input.file.content.byteLength,
      fileMediaType: input.file.mediaType,
      fileSha256: input.file.sha256,
      engine: input.engine,
      split: input.split ?? false,
      reviewThreshold: input.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD,
      now: nowIso(),
    },
    input.file.content,
    caps,
  )
  if ('over' in created) throw errors.queueLimitReached(created.over, created.over === 'jobs' ? caps.maxQueuedJobs : caps.maxQueuedBytes, QUEUE_RETRY_AFTER_S)
  return toWire(created.row)
}

export async function getJob(database: Database, accountId: string, id: string): Promise<Job> {
  const row = isIdOf('job', id) ? await jobsRepository(database).find(accountId, id) : undefined
  if (!row) throw errors.notFound('Job')
  return toWire(row)
}

/**
 * The job as it is now; while the database cannot answer, tried again for up to `retryMs`, then
 * the job as it was created (D135): a request whose job exists never answers as if it did not.
 */
export async function jobOnceReadable(database: Database, accountId: string, created: Job, retryMs: number): Promise<Job> {
  const deadline = Date.now() + retryMs
  for (;;) {
    try {
      return await getJob(database, accountId, created.id)
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error
      if (Date.now() >= deadline) return created
      await Bun.sleep(REREAD_EVERY_MS)
    }
  }
}

const REREAD_EVERY_MS = 250

export interface JobFilter {
  limit: number
  startingAfter?: string
  status?: JobStatus
  schemaId?: string
  needsReview?: boolean
}

/** Newest first, with a cursor (D21), optionally only one status or one schema's jobs (D70). */
export async function listJobs(
  database: Database,
  accountId: string,
  { limit, startingAfter, status, schemaId, needsReview }: JobFilter,
): Promise<{ jobs: Job[]; has_more: boolean }> {
  const repository = jobsRepository(database)
  let after: { createdAt: string; id: string } | undefined
  if (startingAfter !== undefined) {
    after = isIdOf('job', startingAfter) ? await repository.find(accountId, startingAfter) : undefined
    if (!after) throw errors.validation([{ path: 'query:/starting_after', message: 'Expected the ID of one of your jobs' }])
  }
  const rows = await repository.list(accountId, { limit: limit + 1, status, schemaId, needsReview, after })
  return { jobs: rows.slice(0, limit).map(toWire), has_more: rows.length > limit }
}

/**
 * Cancels a queued or running job of the account (D71): it ends `canceled` at once, whoever runs
 * it. Returns whether it was running, so the caller stops the extraction; 409 when it had ended.
 */
export async function cancelJob(database: Database, accountId: string, id: string, keepFileMs: number): Promise<{ wasRunning: boolean }> {
  const status = isIdOf('job', id) ? await jobsRepository(database).cancel(accountId, id, keepFileMs) : undefined
  if (status === undefined) throw errors.notFound('Job')
  if (FINISHED.includes(status)) throw errors.jobFinished(status)
  return { wasRunning: status === 'running' }
}

/** A job's stored document, as uploaded (D72); 404 when the job is unknown or its document is no longer kept. */
export async function getJobFile(database: Database, accountId: string, id: string): Promise<{ name: string; mediaType: string; content: Uint8Array }> {
  const row = isIdOf('job', id) ? await jobsRepository(database).file(accountId, id) : undefined
  if (!row) throw errors.notFound('Job')
  if (!row.content) throw errors.notFound('Stored document of the job')
  return { name: row.name, mediaType: row.mediaType, content: row.content }
}

/** Deletes a finished job of the account with its result and any kept document (D71); 409 while it is not finished. */
export async function deleteJob(database: Database, accountId: string, id: string): Promise<void> {
  const status = isIdOf('job', id) ? await jobsRepository(database).remove(accountId, id) : undefined
  if (status === undefined) throw errors.notFound('Job')
  if (!FINISHED.includes(status)) throw errors.jobNotFinished(status)
}

// The runner's side (D77): claims and ends, each in one transaction with the webhook events of the
// jobs it ends (D81), which the webhooks module queues (D213).

/** Queues the webhook events of the jobs that ended, in the transaction that ended them. */
function* jobsEnded(database: Database, tx: Queries, ended: JobRow[]): Part<void> {
  for (const row of ended)
    yield* queueJobEvent(database, tx, { id: row.id, accountId: row.accountId, status: row.status, completedAt: row.completedAt, wire: toWire(row) })
}

/** Claims a queued job, or a running one whose lease ran out, for `runner`; undefined when another holds it or it ended. */
export function claimJob(database: Database, id: string, runner: string, leaseMs: number): Promise<ClaimedJob | undefined> {
  const jobs = jobsRepository(database)
  return database.transaction(function* (tx) {
    const { job, ended } = yield* jobs.claim(tx, id, runner, leaseMs)
    yield* jobsEnded(database, tx, ended)
    return job
  })
}

/** Claims the next job for `runner` in the accounts' turns and within their shares (D131, D194); undefined when there is none. */
export async function claimNextJob(
  database: Database,
  runner: string,
  leaseMs: number,
  turn: ClaimTurn,
): Promise<(ClaimedJob & { interrupted: boolean }) | undefined> {
  const jobs = jobsRepository(database)
  if (!(await jobs.anyClaimable(turn.insteadOf))) return undefined
  return database.transaction(function* (tx) {
    const { job, ended } = yield* jobs.claimNext(tx, runner, leaseMs, turn)
    yield* jobsEnded(database, tx, ended)
    return job
  })
}

/** Records the outcome if `runner` still holds the job, releases its document, and queues its webhook events; whether it did. */
export function completeJob(
  database: Database,
  id: string,
  runner: string,
  outcome: JobOutcome,
  keepFileMs: number,
  found: FoundJobRow[] = [],
): Promise<boolean> {
  const jobs = jobsRepository(database)
  return database.transaction(function* (tx) {
    const ended = yield* jobs.finish(tx, id, runner, outcome, keepFileMs)
    if (!ended) return false
    const documents = yield* jobs.found(tx, found)
    yield* jobsEnded(database, tx, [...documents, ended])
    return true
  })
}

/** A document read as more than this much JSON is not kept for a review: its job can be reviewed, but teaches no layout (D272). */
export const MAX_READING_BYTES = 2 * 1024 * 1024

/**
 * What a job keeps of its document's reading for a review (D272): the reading without its second
 * one, as the JSON stored, if it is not too large. Serialised once, here, and measured in bytes (D373).
 */
function keptReading(reading: DocumentText): string | undefined {
  const kept: JobReading = { pages: reading.pages, ...(reading.layout ? { layout: reading.layout } : {}) }
  const json = JSON.stringify(kept)
  return Buffer.byteLength(json) <= MAX_READING_BYTES ? json : undefined
}

// A review (D271): the reviews service composes these parts with its own tables and the webhook event.

/** A job as a review reads it: its fields as the engine read them, its values, and what its document was read as (D272). */
export interface JobToReview {
  job: Job
  fields: JobField[]
  result: Record<string, unknown>
  fieldsMeta: Record<string, StoredFieldMeta>
  reading: JobReading | undefined
}

/** One of the account's jobs to review: 404 when it is not the account's, 409 `job_not_succeeded` when it did not succeed. */
export async function jobToReview(database: Database, accountId: string, id: string): Promise<JobToReview> {
  const repository = jobsRepository(database)
  const row = isIdOf('job', id) ? await repository.find(accountId, id) : undefined
  if (!row) throw errors.notFound('Job')
  if (row.status !== 'succeeded') throw errors.jobNotSucceeded(row.status)
  return {
    job: toWire(row),
    fields: row.fields.map(jobFieldOf),
    result: row.result ?? {},
    fieldsMeta: row.fieldsMeta ?? {},
    reading: await repository.reading(id),
  }
}

/** Records a review's values in the job, in the caller's transaction: the job as it is then, or undefined when it is gone. */
export function* recordReview(database: Database, tx: Queries, accountId: string, id: string, review: StoredAnswers & { at: string }): Part<Job | undefined> {
  const repository = jobsRepository(database)
  const row = yield* repository.locked(tx, accountId, id)
  if (!row) return undefined
  return toWire(yield* repository.reviewed(tx, id, review))
}

/** One value of a reviewed job as the account's accuracy counts it (D290, D291): what the engine read, and what the reviewer did with it. */
export interface ReviewedValue {
  key: string
  /** The engine's confidence in the value it read (0 for none). */
  confidence: number
  /** Whether the engine read a value (not null). */
  read: boolean
  /** Whether the latest review changed it (D271): a value given where none was read, a read value emptied, or another value. */
  corrected: boolean
  /** Whether the value breaks a sum between answers (D282). */
  broken: boolean
}

/** Reviewed jobs are read in pages of this many: the account's accuracy holds one page at a time, whatever their number (D290). */
const REVIEWED_PAGE = 500

export type { ReviewedFilter }

/**
 * The values of the account's reviewed jobs, job by job, newest first, as their latest review left
 * them (a job reviewed twice is one job, D271); read in pages so that memory holds one (D290).
 * Keys in each job's field order.
 */
export async function* reviewedValues(
  database: Database,
  accountId: string,
  filter: ReviewedFilter,
  pageSize = REVIEWED_PAGE,
): AsyncGenerator<ReviewedValue[]> {
  const repository = jobsRepository(database)
  let after: { createdAt: string; id: string } | undefined
  for (;;) {
    const page = await repository.reviewedPage(accountId, filter, pageSize, after)
    for (const row of page)
      yield Object.entries(row.fieldsMeta ?? {}).flatMap(([key, meta]) =>
        // Every key of a reviewed job has `read_value` (D271); one without was not reviewed.
        'read_value' in meta
          ? [
              {
                key,
                confidence: meta.confidence,
                read: meta.read_value !== null && meta.read_value !== undefined,
                corrected: meta.corrected === true,
                broken: Boolean(meta.checks?.length),
              },
            ]
          : [],
      )
    if (page.length < pageSize) return
    after = page.at(-1)
  }
}

/**
 * POST /classify (D252): the file's type and page count, read in the extraction threads; a file
 * that cannot be read is 422 `unreadable_document`, with the code a job would fail with.
 */
export async function classifyFile(
  runner: { classify(file: { content: Uint8Array; mediaType: MediaType }, signal?: AbortSignal): Promise<{ classification: Classification; pages: number }> },
  file: { content: Uint8Array; mediaType: MediaType },
  signal?: AbortSignal,
): Promise<{ document_type: string | null; confidence: number; candidates: JobClassification['candidates']; pages: number }> {
  try {
    const { classification, pages } = await runner.classify(file, signal)
    return { document_type: classification.documentType, ...classificationOf(classification), pages }
  } catch (error) {
    if (error instanceof ExtractionError) throw errors.unreadableDocument(error.code, error.message)
    throw error
  }
}

/** A classification as a job records it and the API answers it (D250). */
export function classificationOf({ confidence, candidates }: Classification): JobClassification {
  return { confidence, candidates: candidates.map((candidate) => ({ document_type: candidate.documentType, confidence: candidate.confidence })) }
}

/** A job with `auto` whose document is of no type the catalog holds fails, rather than be read as a guess (D250). */
function noTypeFits({ candidates }: Classification): JobOutcome {
  const likeliest = candidates[0]
  const hint = likeliest ? ` (the likeliest, ${likeliest.documentType}, at ${likeliest.confidence.toFixed(2)})` : ''
  return { error: { code: 'unknown_document_type', message: `The document is of none of the catalog's types${hint}` } }
}

/**
 * What a task's output makes of a job (D250, D251): its outcome; with `auto`, the type found and
 * its fields; with `split`, the jobs of the documents found, made ended, each with its pages, its
 * type and its answers, and the job that split them listing them. Each document keeps what it was
 * read as, its own pages of the file's reading, for a review to learn from (D272, D255).
 */
export function outcomeOf(row: JobRow, output: TaskOutput, types: readonly TaskType[], reading?: DocumentText): { outcome: JobOutcome; found: FoundJobRow[] } {
  const keys = (fields: readonly { key: string }[]) => fields.map(({ key }) => key)
  const answered = (fields: readonly { key: string }[], answers: Answers, text: DocumentText | undefined): JobOutcome => {
    const kept = text && keptReading(text)
    return { ...storedAnswers(keys(fields), answers, row.reviewThreshold), ...(kept && { reading: kept }) }
  }
  if (output.kind === 'answers') return { outcome: answered(row.fields, output.answers, reading), found: [] }
  if (output.kind === 'classified') throw new Error('a job never only classifies')
  const auto = row.documentType === AUTO_TYPE
  const task = { documentType: row.documentType, split: row.split, fields: row.fields.map(jobFieldOf), types }
  /** One document's outcome: with `auto`, its type, the fields read as it and its classification. */
  const documentOutcome = (document: DocumentOutput): JobOutcome => {
    const { documentType, classification, answers } = document
    const { fields, text } = documentOf(task, document, reading)
    if (answers === null || documentType === null || !fields)
      return { ...noTypeFits(classification), ...(auto && { classification: classificationOf(classification) }) }
    const stored = answered(fields, answers, text)
    return auto ? { ...stored, documentType, fields, classification: classificationOf(classification) } : stored
  }
  if (!row.split) return { outcome: documentOutcome(output.documents[0]!), found: [] }
  const now = nowIso()
  const found: FoundJobRow[] = output.documents.map((document) => {
    const outcome = documentOutcome(document)
    return {
      id: newId('job'),
      accountId: row.accountId,
      documentType: outcome.documentType ?? row.documentType,
      schemaId: row.schemaId,
      schemaVersion: row.schemaVersion,
      fields: outcome.fields ?? row.fields,
      fileName: row.fileName,
      fileSize: row.fileSize,
      fileMediaType: row.fileMediaType,
      fileSha256: row.fileSha256,
      engine: row.engine,
      reviewThreshold: row.reviewThreshold,
      splitFrom: { job_id: row.id, first_page: document.firstPage, last_page: document.lastPage },
      outcome,
      now,
    }
  })
  const documents = found.map(({ id, splitFrom, documentType }) => ({
    first_page: splitFrom.first_page,
    last_page: splitFrom.last_page,
    document_type: documentType === AUTO_TYPE ? null : documentType,
    job_id: id,
  }))
  // The job that split holds no values of its own: its documents' jobs each say whether they need a person (D255).
  return { outcome: { result: null, fieldsMeta: null, needsReview: false, documents }, found }
}
