/**
 * How a job's document becomes values: read the file, then run the engine. `inProcess` does it
 * on the caller's thread (tests, fake engines); `threads.ts` does it in worker threads so the
 * server's event loop never waits on a large PDF.
 */
import type { Engine, ExtractionOutput, FieldSpec } from './engines/types'
import { readDocument } from './readers'
import type { MediaType } from './readers/types'

export interface ExtractionTask {
  content: Uint8Array
  mediaType: MediaType
  documentType: string
  fields: FieldSpec[]
}

/** Resolves with the engine's output, or rejects with an ExtractionError the job fails with. */
export type Extractor = (task: ExtractionTask) => Promise<ExtractionOutput>

export function inProcessExtractor(engine: Engine): Extractor {
  return async ({ content, mediaType, documentType, fields }) => {
    const document = await readDocument(content, mediaType)
    return engine.extract({ document, documentType, fields })
  }
}

/** How a job fails on anything but an ExtractionError; the error's own text goes to the log only. */
export const UNEXPECTED = { code: 'extraction_failed', message: 'The extraction failed unexpectedly' } as const
