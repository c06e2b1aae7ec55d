/** What every extraction engine takes and gives (D23). */
import type { JobField } from '../../../lib/fields/model'
import type { Answers } from '../answers'
import type { DocumentText } from '../readers/types'

export interface ExtractionInput {
  document: DocumentText
  documentType: string
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
  extract(input: ExtractionInput): Promise<Answers>
}
