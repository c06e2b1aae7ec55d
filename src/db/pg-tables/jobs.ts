/** Extraction jobs and their uploaded files, on PostgreSQL: as tables/jobs.ts. */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import type { JobProgress, JobStatus, StoredFieldMeta, StoredJobField } from '../tables/jobs'
import { accounts } from './accounts'
import { bytea, jsonText } from './columns'

export const jobs = pgTable(
  'jobs',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('job')),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    documentType: text('document_type').notNull(),
    schemaId: text('schema_id'),
    schemaVersion: integer('schema_version'),
    fields: jsonText<StoredJobField[]>('fields').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    fileMediaType: text('file_media_type').notNull(),
    fileSha256: text('file_sha256').notNull(),
    result: jsonText<Record<string, unknown>>('result'),
    fieldsMeta: jsonText<Record<string, StoredFieldMeta>>('fields_meta'),
    progress: jsonText<JobProgress>('progress'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    engine: text('engine').notNull(),
    runner: text('runner'),
    leaseExpiresAt: text('lease_expires_at'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
    updatedAt: text('updated_at').notNull().$defaultFn(nowIso),
    completedAt: text('completed_at'),
  },
  (table) => [
    index('jobs_account_created_idx').on(table.accountId, table.createdAt, table.id),
    index('jobs_status_idx').on(table.status, table.createdAt),
    index('jobs_account_status_idx').on(table.accountId, table.status),
  ],
)

export const jobFiles = pgTable(
  'job_files',
  {
    jobId: text('job_id')
      .primaryKey()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    content: bytea('content').notNull(),
    expiresAt: text('expires_at'),
  },
  (table) => [index('job_files_expires_idx').on(table.expiresAt)],
)

export const jobTurns = pgTable('job_turns', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id),
  lastClaimedAt: text('last_claimed_at').notNull(),
})
