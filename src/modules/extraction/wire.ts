/** A job as the API answers it, from its stored row. */
import type { StoredFieldMeta, StoredJobField } from '../../db/tables/jobs'
import { inferType } from '../../lib/fields/concepts'
import type { FieldMeta, JobField } from '../../lib/fields/model'
import { isFieldType } from '../../lib/fields/types'
import type { JobErrorCode } from './errors'

import type { Job } from './model'
import type { JobRow } from './repository'

export function toWire(row: JobRow): Job {
  return {
    id: row.id,
    status: row.status,
    document_type: row.documentType,
    schema_id: row.schemaId,
    schema_version: row.schemaVersion,
    fields: row.fields.map((field) => {
      const { key, label, description, type, values, columns } = jobFieldOf(field)
      return { key, label, description, type, ...(values ? { values } : {}), ...(columns ? { columns } : {}) }
    }),
    file: { name: row.fileName, size: row.fileSize, media_type: row.fileMediaType, sha256: row.fileSha256 },
    progress: row.progress,
    result: row.result,
    fields_meta: row.fieldsMeta && withBoxes(row.fieldsMeta),
    error: row.errorCode ? { code: row.errorCode as JobErrorCode, message: row.errorMessage ?? '' } : null,
    engine: row.engine,
    // Issue 34: only on the jobs that have them, so a request as before answers as before (D253).
    ...(row.classification && { classification: row.classification }),
    ...(row.split && { documents: row.documents }),
    ...(row.splitFrom && { split_from: row.splitFrom }),
    review_threshold: row.reviewThreshold,
    needs_review: row.needsReview,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    completed_at: row.completedAt,
    reviewed_at: row.reviewedAt,
  }
}

/** Jobs stored before values had boxes answer `bbox: null`, like a text document's. */
function withBoxes(meta: Record<string, StoredFieldMeta>): Record<string, FieldMeta> {
  return Object.fromEntries(Object.entries(meta).map(([key, entry]) => [key, { ...entry, bbox: entry.bbox ?? null }]))
}

/** A job's stored field as the engines read it; jobs stored before D91 are typed now, as they were read then. */
export function jobFieldOf(field: StoredJobField): JobField {
  const { kind, type, ...rest } = field
  const legacy = isFieldType(kind) && kind !== 'auto' ? kind : undefined
  return { ...rest, type: type ?? legacy ?? inferType(field.key, field.label, field.description) }
}
