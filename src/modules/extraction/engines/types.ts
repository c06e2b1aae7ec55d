/** What every extraction engine takes and gives (D23). */
import type { Field } from '../../../lib/fields/types'
import type { Answers } from '../answers'
import type { DocumentText } from '../readers/types'

export interface ExtractionInput {
  document: DocumentText
  documentType: string
  /** The document type is issued by the seller to the buyer (its catalog file says so, D220). */
  issuedBySeller: boolean
  fields: Field[]
  /** Aborted when the job is cancelled or its time runs out. */
  signal?: AbortSignal
}

export interface Engine {
  /** Named on every job, e.g. "builtin" or "openai:gpt-4o-mini". */
  readonly name: string
  /**
   * Also answers from a scan's second reading, each field from the surer one (D67): for engines
   * whose answers cost nothing but a few milliseconds, not a model call.
   */
  readonly readsTwice?: boolean
  extract(input: ExtractionInput): Promise<Answers>
}

/** Every code a failed job may carry (D58, D67, D120), in one place; the OpenAPI document lists them. */
export const JOB_ERROR_CODES = [
  'corrupt_document',
  'encrypted_document',
  'no_text_layer',
  'empty_document',
  'too_many_pages',
  'image_too_large',
  'document_too_large',
  'engine_timeout',
  'engine_unavailable',
  'engine_rejected',
  'engine_refused',
  'engine_invalid_answer',
  'extraction_timeout',
  'extraction_failed',
  'file_missing',
] as const

export type JobErrorCode = (typeof JOB_ERROR_CODES)[number]

/** How a job fails on anything but an ExtractionError; the error's own text goes to the log only. */
export const UNEXPECTED = { code: 'extraction_failed', message: 'The extraction failed unexpectedly' } as const satisfies {
  code: JobErrorCode
  message: string
}

/**
 * A failure that ends the job as failed with this code and message (never a 5xx). The message is
 * the tenant's to read; `detail` (where and what an upstream server answered) is for the
 * operator's log only (D127).
 */
export class ExtractionError extends Error {
  override name = 'ExtractionError'
  constructor(
    readonly code: JobErrorCode,
    message: string,
    readonly detail?: string,
  ) {
    super(message)
  }
}
