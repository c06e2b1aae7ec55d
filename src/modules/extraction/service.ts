/**
 * Extraction jobs of one account (D19–D21). A job keeps its own copy of its fields and the
 * file's facts; its document waits in job_files until the job ends. Every account-facing query
 * goes through `owned()`; the worker's queries claim and complete jobs by ID and runner.
 */
import { and, desc, eq, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import type { Database } from '../../db/database'
import { type JobField, type JobFieldMeta, type JobProgress, type JobStatus, jobFiles, jobs } from '../../db/tables'
import { errors } from '../../http/errors'
import { isIdOf } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { typeRuleDetails } from '../../http/models'
import { isFieldType } from '../../lib/field-types'
import { type Catalog, unknownDocumentType } from '../catalog/service'
import { getActiveSchemaVersion } from '../schemas/service'
import { enqueueJobEvent } from '../webhooks/service'
import { inferType } from './engines/builtin/concepts'
import type { FieldSpec, JobErrorCode } from './engines/types'
import { type FieldSource, resolveType } from './fields'
import type { ExtractRequest, Job } from './model'
import type { MediaType } from './readers/types'

type JobRow = typeof jobs.$inferSelect

function owned(accountId: string, id?: string): SQL {
  return id === undefined ? eq(jobs.accountId, accountId) : and(eq(jobs.accountId, accountId), eq(jobs.id, id))!
}

export function toWire(row: JobRow): Job {
  return {
    id: row.id,
    status: row.status,
    document_type: row.documentType,
    schema_id: row.schemaId,
    schema_version: row.schemaVersion,
    fields: row.fields.map((field) => {
      const { key, label, description, type, values, columns } = fieldSpecOf(field)
      return { key, label, description, type, ...(values ? { values } : {}), ...(columns ? { columns } : {}) }
    }),
    file: { name: row.fileName, size: row.fileSize, media_type: row.fileMediaType, sha256: row.fileSha256 },
    progress: row.progress,
    result: row.result,
    fields_meta: row.fieldsMeta && withBoxes(row.fieldsMeta),
    error: row.errorCode ? { code: row.errorCode as JobErrorCode, message: row.errorMessage ?? '' } : null,
    engine: row.engine,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    completed_at: row.completedAt,
  }
}

/** Jobs stored before values had boxes answer `bbox: null`, like a text document's. */
function withBoxes(meta: Record<string, JobFieldMeta>): Record<string, Required<JobFieldMeta>> {
  return Object.fromEntries(Object.entries(meta).map(([key, entry]) => [key, { ...entry, bbox: entry.bbox ?? null }]))
}

/** A job's stored field as the engine takes it; jobs stored before D91 are typed now, as they were read then. */
export function fieldSpecOf(field: JobField): FieldSpec {
  const { kind, type, ...rest } = field
  const legacy = isFieldType(kind) && kind !== 'auto' ? kind : undefined
  return { ...rest, type: type ?? legacy ?? inferType(field.key, field.label, field.description) }
}

/**
 * The field set of a request (D19): inline fields, a schema's fields, or the document type's
 * suggested fields, each typed once here (D91). Catalog fields of the same key lend the engine
 * their aliases and, for a field left `auto`, their type.
 */
export async function resolveFields(
  database: Database,
  catalog: Catalog,
  accountId: string,
  request: ExtractRequest,
): Promise<ResolvedFields> {
  if (request.fields !== undefined && request.schema_id !== undefined)
    throw errors.validation([{ path: '/extract/schema_id', message: 'Give either fields or schema_id, not both' }])
  if (request.schema_version !== undefined && request.schema_id === undefined)
    throw errors.validation([{ path: '/extract/schema_version', message: 'schema_version needs schema_id' }])
  if (request.fields !== undefined) {
    const details = Object.entries(request.fields).flatMap(([key, field]) =>
      typeof field === 'string' ? [] : typeRuleDetails(field, `/extract/fields/${key}`),
    )
    if (details.length > 0) throw errors.validation(details)
  }
  const type = catalog.get(request.document_type)
  if (!type) throw unknownDocumentType(catalog, request.document_type)
  const known = new Map(type.fields.map((field) => [field.key, field]))
  const withCatalog = (field: FieldSource): JobField => {
    const entry = known.get(field.key)
    const { key, label, description } = field
    return {
      key,
      label,
      description,
      ...resolveType(field, entry),
      ...(entry?.aliases?.length ? { aliases: entry.aliases } : {}),
    }
  }

  if (request.fields !== undefined) {
    const fields = Object.entries(request.fields).map(([key, field]) =>
      withCatalog(
        typeof field === 'string'
          ? { key, label: key, description: field }
          : { ...field, key, label: field.label ?? key, description: field.description ?? '' },
      ),
    )
    return { documentType: type.slug, schemaId: null, schemaVersion: null, fields }
  }
  if (request.schema_id !== undefined) {
    const schema = await getActiveSchemaVersion(database, accountId, request.schema_id, request.schema_version)
    if (schema.fields.length === 0)
      throw errors.validation([{ path: '/extract/schema_id', message: 'The schema has no fields to extract' }])
    const fields = schema.fields.map(withCatalog)
    return { documentType: type.slug, schemaId: schema.schema_id, schemaVersion: schema.version, fields }
  }
  const fields = type.fields.filter((field) => type.suggestedKeys.includes(field.key)).map(withCatalog)
  return { documentType: type.slug, schemaId: null, schemaVersion: null, fields }
}

export interface ResolvedFields {
  documentType: string
  schemaId: string | null
  schemaVersion: number | null
  fields: JobField[]
}

export interface NewJob extends ResolvedFields {
  accountId: string
  engine: string
  file: { name: string; mediaType: MediaType; content: Uint8Array; sha256: string }
}

export function createJob(db: Db, input: NewJob): Job {
  const now = nowIso() // one instant: a new job's updated_at equals its created_at
  return db.transaction((tx) => {
    const row = tx
      .insert(jobs)
      .values({
        createdAt: now,
        updatedAt: now,
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
      })
      .returning()
      .get()
    const { buffer, byteOffset, byteLength } = input.file.content
    tx.insert(jobFiles).values({ jobId: row.id, content: Buffer.from(buffer, byteOffset, byteLength) }).run() // a view, not a copy
    return toWire(row)
  })
}

export function getJob(db: Db, accountId: string, id: string): Job {
  const row = isIdOf('job', id) ? db.select().from(jobs).where(owned(accountId, id)).get() : undefined
  if (!row) throw errors.notFound('Job')
  return toWire(row)
}

export interface JobFilter {
  limit: number
  startingAfter?: string
  status?: JobStatus
  schemaId?: string
}

/** Newest first, with a cursor (D21), optionally only one status or one schema's jobs (D70). */
export function listJobs(db: Db, accountId: string, { limit, startingAfter, status, schemaId }: JobFilter): { jobs: Job[]; has_more: boolean } {
  let where = owned(accountId)
  if (status !== undefined) where = and(where, eq(jobs.status, status))!
  if (schemaId !== undefined) where = and(where, eq(jobs.schemaId, schemaId))!
  if (startingAfter !== undefined) {
    const cursor = isIdOf('job', startingAfter)
      ? db.select({ createdAt: jobs.createdAt, id: jobs.id }).from(jobs).where(owned(accountId, startingAfter)).get()
      : undefined
    if (!cursor)
      throw errors.validation([{ path: 'query:/starting_after', message: 'Expected the ID of one of your jobs' }])
    where = and(
      where,
      or(lt(jobs.createdAt, cursor.createdAt), and(eq(jobs.createdAt, cursor.createdAt), lt(jobs.id, cursor.id))),
    )!
  }
  const rows = db.select().from(jobs).where(where).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(limit + 1).all()
  return { jobs: rows.slice(0, limit).map(toWire), has_more: rows.length > limit }
}

// --- The worker's side: by job ID, fenced by the runner that claimed the job. ---

export interface ClaimedJob {
  row: JobRow
  content: Uint8Array
}

/** A running job's lease ends this long from now. */
function leaseUntil(leaseMs: number): string {
  return new Date(Date.now() + leaseMs).toISOString()
}

/** Jobs no runner holds: queued, or running under a lease its runner stopped renewing. */
function claimable(now: string): SQL {
  return or(eq(jobs.status, 'queued'), and(eq(jobs.status, 'running'), lt(jobs.leaseExpiresAt, now)))!
}

/**
 * Claims a job for this runner with a lease (D77): a queued job, or a running one whose runner
 * stopped renewing its lease (its process died). Undefined when another runner holds it or it
 * has ended.
 */
export function claimJob(db: Db, id: string, runner: string, leaseMs: number): ClaimedJob | undefined {
  return db.transaction(
    (tx) => {
      const now = nowIso()
      const row = tx
        .update(jobs)
        .set({ status: 'running', runner, leaseExpiresAt: leaseUntil(leaseMs), attempts: sql`${jobs.attempts} + 1`, updatedAt: now })
        .where(and(eq(jobs.id, id), claimable(now)))
        .returning()
        .get()
      if (!row) return undefined
      const file = tx.select({ content: jobFiles.content }).from(jobFiles).where(eq(jobFiles.jobId, id)).get()
      if (!file) {
        finish(tx, id, runner, { error: { code: 'file_missing', message: 'The uploaded document is no longer stored' } }, 0)
        return undefined
      }
      return { row, content: file.content }
    },
    { behavior: 'immediate' },
  )
}

/** Extends the leases of the jobs this runner still holds; returns those it no longer holds (canceled, or taken over). */
export function renewLeases(db: Db, runner: string, ids: string[], leaseMs: number): string[] {
  if (ids.length === 0) return []
  const renewed = db
    .update(jobs)
    .set({ leaseExpiresAt: leaseUntil(leaseMs) })
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
    .returning({ id: jobs.id })
    .all()
  const held = new Set(renewed.map((row) => row.id))
  return ids.filter((id) => !held.has(id))
}

/** Gives this runner's running jobs back to the queue, for a stop that cannot wait for them. */
export function releaseJobs(db: Db, runner: string, ids: string[]): number {
  if (ids.length === 0) return 0
  return db
    .update(jobs)
    .set({ status: 'queued', runner: null, leaseExpiresAt: null, updatedAt: nowIso() })
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
    .returning({ id: jobs.id })
    .all().length
}

/** Up to `limit` jobs that a runner may claim, oldest first, with whether each was left running by a runner that stopped. */
export function claimableJobs(db: Db, limit: number): { id: string; interrupted: boolean }[] {
  return db
    .select({ id: jobs.id, status: jobs.status })
    .from(jobs)
    .where(claimable(nowIso()))
    .orderBy(jobs.createdAt, jobs.id)
    .limit(limit)
    .all()
    .map((row) => ({ id: row.id, interrupted: row.status === 'running' }))
}

/** Whether a job has ended (or is gone), for a runner waiting on a job another runner holds. */
export function jobEnded(db: Db, id: string): boolean {
  const row = db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id)).get()
  return !row || FINISHED.includes(row.status)
}

export type JobOutcome =
  | { result: Record<string, unknown>; fieldsMeta: Record<string, JobFieldMeta> }
  | { error: { code: JobErrorCode; message: string } }

/** A finished job's document is kept for the retention time, or deleted at once (D60). */
function releaseFile(tx: Tx | Db, id: string, keepFileMs: number): void {
  if (keepFileMs > 0)
    tx.update(jobFiles).set({ expiresAt: new Date(Date.now() + keepFileMs).toISOString() }).where(eq(jobFiles.jobId, id)).run()
  else tx.delete(jobFiles).where(eq(jobFiles.jobId, id)).run()
}

const FINISHED: JobStatus[] = ['succeeded', 'failed', 'canceled']

/** The status of one of the account's jobs, read inside a transaction; 404 when it is not theirs. */
function ownedStatus(tx: Tx, accountId: string, id: string): JobStatus {
  const row = isIdOf('job', id) ? tx.select({ status: jobs.status }).from(jobs).where(owned(accountId, id)).get() : undefined
  if (!row) throw errors.notFound('Job')
  return row.status
}

/**
 * Cancels a queued or running job of the account (D71): it ends `canceled` at once, whoever runs
 * it. Returns whether it was running, so the caller stops the extraction; 409 when it had ended.
 */
export function cancelJob(db: Db, accountId: string, id: string, keepFileMs: number): { wasRunning: boolean } {
  return db.transaction(
    (tx) => {
      const status = ownedStatus(tx, accountId, id)
      if (FINISHED.includes(status)) throw errors.jobFinished(status)
      const now = nowIso()
      tx.update(jobs).set({ status: 'canceled', runner: null, leaseExpiresAt: null, updatedAt: now, completedAt: now }).where(eq(jobs.id, id)).run()
      releaseFile(tx, id, keepFileMs)
      return { wasRunning: status === 'running' }
    },
    { behavior: 'immediate' },
  )
}

/** A job's stored document, as uploaded (D72); 404 when the job is unknown or its document is no longer kept. */
export function getJobFile(db: Db, accountId: string, id: string): { name: string; mediaType: string; content: Uint8Array } {
  const row = isIdOf('job', id)
    ? db
        .select({ name: jobs.fileName, mediaType: jobs.fileMediaType, content: jobFiles.content })
        .from(jobs)
        .leftJoin(jobFiles, eq(jobFiles.jobId, jobs.id))
        .where(owned(accountId, id))
        .get()
    : undefined
  if (!row) throw errors.notFound('Job')
  if (!row.content) throw errors.notFound('Stored document of the job')
  return { name: row.name, mediaType: row.mediaType, content: row.content }
}

/** Deletes a finished job of the account with its result and any kept document (D71); 409 while it is not finished. */
export function deleteJob(db: Db, accountId: string, id: string): void {
  db.transaction(
    (tx) => {
      const status = ownedStatus(tx, accountId, id)
      if (!FINISHED.includes(status)) throw errors.jobNotFinished(status)
      tx.delete(jobFiles).where(eq(jobFiles.jobId, id)).run()
      tx.delete(jobs).where(eq(jobs.id, id)).run()
    },
    { behavior: 'immediate' },
  )
}

function finish(tx: Tx | Db, id: string, runner: string, outcome: JobOutcome, keepFileMs: number): boolean {
  const now = nowIso()
  const done = tx
    .update(jobs)
    .set(
      'result' in outcome
        ? { status: 'succeeded', result: outcome.result, fieldsMeta: outcome.fieldsMeta, leaseExpiresAt: null, updatedAt: now, completedAt: now }
        : { status: 'failed', errorCode: outcome.error.code, errorMessage: outcome.error.message, leaseExpiresAt: null, updatedAt: now, completedAt: now },
    )
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
    .returning()
    .get()
  if (!done) return false
  releaseFile(tx, id, keepFileMs)
  // D81: the job's webhook events are queued in the transaction that ends it.
  enqueueJobEvent(tx, done.accountId, { id: done.id, status: done.status, completedAt: done.completedAt, wire: () => toWire(done) })
  return true
}

/** Records how many pages of a running job are read, if this runner still holds it. */
export function recordProgress(db: Db, id: string, runner: string, progress: JobProgress): void {
  db.update(jobs)
    .set({ progress, updatedAt: nowIso() })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.runner, runner)))
    .run()
}

/** Records the outcome, if this runner still holds the job; the file is kept only on request. */
export function completeJob(db: Db, id: string, runner: string, outcome: JobOutcome, keepFileMs: number): boolean {
  return db.transaction((tx) => finish(tx, id, runner, outcome, keepFileMs), { behavior: 'immediate' })
}

/** Deletes kept files whose retention has passed; returns how many. */
export function purgeExpiredFiles(db: Db): number {
  return db
    .delete(jobFiles)
    .where(and(isNotNull(jobFiles.expiresAt), lt(jobFiles.expiresAt, nowIso())))
    .returning({ id: jobFiles.jobId })
    .all().length
}

/** Stored documents of some jobs, for tests and operators' checks. */
export function storedFileIds(db: Db, ids: string[]): string[] {
  return db.select({ id: jobFiles.jobId }).from(jobFiles).where(inArray(jobFiles.jobId, ids)).all().map((row) => row.id)
}

