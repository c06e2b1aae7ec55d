/** Extraction jobs and their uploaded files: only the extraction module reads or writes these. */
import type { FieldMeta, JobField } from '../../lib/fields/model'
import { nowIso } from '../../lib/time'
import { accountTables } from './accounts'
import { defineTables } from './kit'

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const

export type JobStatus = (typeof JOB_STATUSES)[number]

/**
 * A job's own copy of a field as stored (D20): a JobField, but jobs stored before typed fields
 * (D91) have the catalog's `kind` (when the key was a catalog field) or nothing instead of `type`.
 */
export type StoredJobField = Omit<JobField, 'type'> & Partial<Pick<JobField, 'type'>> & { kind?: string }

/** A field's meta as stored: jobs stored before values had boxes have no `bbox`. */
export type StoredFieldMeta = Omit<FieldMeta, 'bbox'> & Partial<Pick<FieldMeta, 'bbox'>>

/** Which type a job's document was found to be (issue 34, D250), as the API answers it. */
export interface JobClassification {
  confidence: number
  candidates: { document_type: string; confidence: number }[]
}

/** A document found in a job's file of several (D251), as the API answers it. */
export interface JobDocument {
  first_page: number
  last_page: number
  document_type: string | null
  job_id: string
}

/** The file a found document's job was read from (D251): the job that split it, and its pages there. */
export interface JobSplitFrom {
  job_id: string
  first_page: number
  last_page: number
}

/** A document as it was read: the text of each page and, for PDFs and images, where its words are (readers/types.ts DocumentText). */
export interface JobReading {
  pages: string[]
  layout?: unknown[]
}

/** Pages read so far of a running job's document. */
export interface JobProgress {
  pages_done: number
  pages_total: number
}

export const jobTables = defineTables((k) => {
  const { accounts } = k.of(accountTables)

  const jobs = k.table(
    'jobs',
    {
      id: k.id('job'),
      accountId: k
        .text('account_id')
        .notNull()
        .references(() => accounts.id),
      status: k.text('status').$type<JobStatus>().notNull().default('queued'),
      documentType: k.text('document_type').notNull(),
      /** The schema the fields were copied from; no foreign key, the copy stands alone. */
      schemaId: k.text('schema_id'),
      /** The version of that schema the fields were copied from. */
      schemaVersion: k.integer('schema_version'),
      fields: k.json<StoredJobField[]>('fields').notNull(),
      fileName: k.text('file_name').notNull(),
      fileSize: k.integer('file_size').notNull(),
      fileMediaType: k.text('file_media_type').notNull(),
      fileSha256: k.text('file_sha256').notNull(),
      result: k.json<Record<string, unknown>>('result'),
      fieldsMeta: k.json<Record<string, StoredFieldMeta>>('fields_meta'),
      /** The confidence under which a value needs a person (D284): the schema's, the request's, or the default. */
      reviewThreshold: k.real('review_threshold').notNull().default(0.95),
      /** Whether any value of a succeeded job needs a person (D284); null until it succeeds. */
      needsReview: k.boolean('needs_review'),
      progress: k.json<JobProgress>('progress'),
      errorCode: k.text('error_code'),
      errorMessage: k.text('error_message'),
      engine: k.text('engine').notNull(),
      /** Read the file as one or more documents (`"split": true`, D251). */
      split: k.boolean('split').notNull().default(false),
      /** The type found when the request left it to the classifier (`auto`, D250). */
      classification: k.json<JobClassification>('classification'),
      /** A split job's documents, each a job of its own (D251). */
      documents: k.json<JobDocument[]>('documents'),
      /** A found document's job: the job whose file it came from, and its pages there (D251). */
      splitFrom: k.json<JobSplitFrom>('split_from'),
      /** The process run that claimed the job; only it may complete it. */
      runner: k.text('runner'),
      /** Until when the runner holds a running job; it renews this while it runs, and after it any runner may take the job over. */
      leaseExpiresAt: k.text('lease_expires_at'),
      attempts: k.integer('attempts').notNull().default(0),
      createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
      updatedAt: k.text('updated_at').notNull().$defaultFn(nowIso),
      completedAt: k.text('completed_at'),
      /** When a person last reviewed the job's values (D271); null until then. */
      reviewedAt: k.text('reviewed_at'),
    },
    (table) => [
      k.index('jobs_account_created_idx').on(table.accountId, table.createdAt, table.id),
      k.index('jobs_status_idx').on(table.status, table.createdAt),
      // An account's jobs not yet ended, counted against its caps at every new job (D133).
      k.index('jobs_account_status_idx').on(table.accountId, table.status),
    ],
  )

  /** Uploaded documents: kept until their job ends, then only when the operator asks (retention). */
  const jobFiles = k.table(
    'job_files',
    {
      jobId: k
        .text('job_id')
        .primaryKey()
        .references(() => jobs.id, { onDelete: 'cascade' }),
      content: k.bytes('content').notNull(),
      /** When a finished job's file may be deleted; null while the job still needs it. */
      expiresAt: k.text('expires_at'),
    },
    (table) => [k.index('job_files_expires_idx').on(table.expiresAt)],
  )

  /**
   * Each account's turn at the job runners (D131): when a runner last claimed one of its jobs. The
   * next job claimed is the account's with the fewest running, then the one served longest ago.
   */
  const jobTurns = k.table('job_turns', {
    accountId: k
      .text('account_id')
      .primaryKey()
      .references(() => accounts.id),
    lastClaimedAt: k.text('last_claimed_at').notNull(),
  })

  /**
   * What a succeeded job's document was read as (its pages' text and words' places): a review
   * learns the sender's layout from it after the document itself is gone (D272). Deleted with its job.
   * The JSON text of a JobReading, serialised once by the service that measures it (D373).
   */
  const jobReadings = k.table('job_readings', {
    jobId: k
      .text('job_id')
      .primaryKey()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    reading: k.text('reading').notNull(),
  })

  return { jobs, jobFiles, jobTurns, jobReadings }
})
