/**
 * How a job's document becomes values: read the file, run the engine, type its answers. `inProcess` does it
 * on the caller's thread (tests, fake engines); `threads.ts` does it in worker threads so the
 * server's event loop never waits on a large PDF.
 */
import { type Engine, type ExtractionOutput, type FieldMeta, type FieldSpec, NO_VALUE } from './engines/types'
import { locateValues } from './locate'
import { normaliseOutput } from './normalise'
import { readDocument } from './readers'
import type { DocumentText, MediaType, ReadLimits } from './readers/types'

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
    const document = await readDocument(content, mediaType, { limits, onPage, readTwice: engine.readsTwice === true })
    signal?.throwIfAborted()
    // One pipeline (D90): whatever the engine, its answers are typed by the same layer.
    const answer = async (text: DocumentText) =>
      locateValues(normaliseOutput(fields, await engine.extract({ document: text, documentType, fields, signal })), text)
    const output = await answer(document)
    if (!document.secondReading || !engine.readsTwice) return output
    signal?.throwIfAborted()
    return surer(output, await answer(document.secondReading))
  }
}

/** The least confidence at which a second reading's answer is taken (D67). */
const SECOND_READING_MIN_CONFIDENCE = 0.6

/**
 * Each field from the reading that answers it more surely: the second reading's answer replaces
 * the first's when the first has none or is less sure, and it is sure enough on its own.
 */
function surer(first: ExtractionOutput, second: ExtractionOutput): ExtractionOutput {
  const metaOf = (output: ExtractionOutput, key: string) => (Object.hasOwn(output.meta, key) ? output.meta[key] : undefined) ?? NO_VALUE
  const answers = Object.keys(first.values).map((key): [string, unknown, FieldMeta] => {
    const [value, meta, again, againMeta] = [first.values[key], metaOf(first, key), second.values[key], metaOf(second, key)]
    const sure = again !== null && again !== undefined && againMeta.confidence >= SECOND_READING_MIN_CONFIDENCE
    return sure && (value === null || value === undefined || meta.confidence < againMeta.confidence) ? [key, again, againMeta] : [key, value, meta]
  })
  // fromEntries makes own properties even of keys such as `__proto__`.
  return {
    values: Object.fromEntries(answers.map(([key, value]) => [key, value])),
    meta: Object.fromEntries(answers.map(([key, , meta]) => [key, meta])),
  }
}
