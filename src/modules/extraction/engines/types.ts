/** What every extraction engine takes and gives (D23). */
import type { JobField } from '../../../lib/fields/model'
import type { Answers } from '../answers'
import type { CalibrationTable } from '../calibration'
import type { DocumentText } from '../readers/types'

export interface ExtractionInput {
  document: DocumentText
  documentType: string
  /** The document type is issued by the seller to the buyer (its catalog file says so, D220). */
  issuedBySeller: boolean
  fields: JobField[]
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
  /**
   * What its scores measured right, by evidence kind (D283): with it, a value's confidence is its
   * chance of being right. An engine without one answers its own scores.
   */
  readonly calibration?: CalibrationTable
  extract(input: ExtractionInput): Promise<Answers>
}
