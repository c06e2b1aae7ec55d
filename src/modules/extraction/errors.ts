/**
 * How a job fails (D58, D67, D120, D127): the closed list of codes a failed job may carry and the
 * one error that carries them. The readers throw it and the engines throw it, so both import it
 * from here, and the readers know nothing of the engines (D204).
 */

/** Every code a failed job may carry, in one place; the OpenAPI document lists them. */
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
  /** `"document_type": "auto"` and a document of none of the catalog's types (D250). */
  'unknown_document_type',
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
