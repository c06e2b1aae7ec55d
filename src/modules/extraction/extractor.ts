/**
 * How a job's document becomes values: read the file, run the engine, type its answers. `inProcess` does it
 * on the caller's thread (tests, fake engines); `threads.ts` does it in worker threads so the
 * server's event loop never waits on a large PDF.
 */
import type { Engine, ExtractionOutput, FieldSpec } from './engines/types'
import { locateValues } from './locate'
import { normaliseOutput } from './normalise'
import { readDocument } from './readers'
import type { MediaType, ReadLimits } from './readers/types'

export interface ExtractionTask {
  content: Uint8Array
  mediaType: MediaType
  documentType: string
  fields: FieldSpec[]
  limits: ReadLimits
}

export interface Progress {
  pages_done: number
  pages_total: number
}

/**
 * Resolves with the output, or rejects with an ExtractionError the job fails with; reports each
 * page read. An aborted signal (a canceled job) stops the work as soon as it can.
 */
export type Extractor = (task: ExtractionTask, onProgress?: (progress: Progress) => void, signal?: AbortSignal) => Promise<ExtractionOutput>

export function inProcessExtractor(engine: Engine): Extractor {
  return async ({ content, mediaType, documentType, fields, limits }, onProgress, signal) => {
    const onPage = (done: number, total: number) => {
      signal?.throwIfAborted()
      onProgress?.({ pages_done: done, pages_total: total })
    }
    const document = await readDocument(content, mediaType, { limits, onPage })
    signal?.throwIfAborted()
    // One pipeline (D90): whatever the engine, its answers are typed by the same layer.
    const output = normaliseOutput(fields, await engine.extract({ document, documentType, fields, signal }))
    return locateValues(output, document)
  }
}
