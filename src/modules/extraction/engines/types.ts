/** What every extraction engine takes and gives (D23). */
import type { ResolvedColumn, ResolvedType } from '../../../lib/field-types'
import type { DocumentText } from '../readers/types'

/** One field to extract, typed once when its job was created (D91). */
export interface FieldSpec {
  key: string
  label: string
  description: string
  /** Declared, else the catalog's, else inferred from key, label and description; never `auto`. */
  type: ResolvedType
  /** The allowed answers of an `enum` field. */
  values?: string[]
  /** The columns of a `table` field, when declared. */
  columns?: ResolvedColumn[]
  /** Other printed labels of the field, from the catalog. */
  aliases?: string[]
}

export interface FieldMeta {
  /** 0–1: how sure the engine is; a value it is unsure of is returned as null instead. */
  confidence: number
  /** 1-based page the value was read from, or null when there is no value. */
  page: number | null
  /** The text the value was read from (a line or two), or null when there is no value. */
  snippet: string | null
  /** Where the value is printed on its page (PDFs and images); added after the engine, by locate.ts. */
  bbox?: BoundingBox | null
}

/** The meta of a field without a value. */
export const NO_VALUE: FieldMeta = { confidence: 0, page: null, snippet: null, bbox: null }

/** A box on a page as fractions (0–1) of the page's width and height, from its top-left corner. */
export interface BoundingBox {
  left: number
  top: number
  width: number
  height: number
}

export interface ExtractionInput {
  document: DocumentText
  documentType: string
  fields: FieldSpec[]
  /** Aborted when the job is cancelled or its time runs out. */
  signal?: AbortSignal
}

export interface ExtractionOutput {
  /** One entry per requested key: the normalised value, or null when not found or unsure. */
  values: Record<string, unknown>
  meta: Record<string, FieldMeta>
}

export interface Engine {
  /** Named on every job, e.g. "builtin" or "openai:gpt-4o-mini". */
  readonly name: string
  /**
   * Also answers from a scan's second reading, each field from the surer one (D67): for engines
   * whose answers cost nothing but a few milliseconds, not a model call.
   */
  readonly readsTwice?: boolean
  extract(input: ExtractionInput): Promise<ExtractionOutput>
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
