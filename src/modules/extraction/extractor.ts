/**
 * How a job's document becomes values: read the file, run the engine, type its answers. `inProcess` does it
 * on the caller's thread (tests, fake engines); `processes.ts` does it in extraction processes (D190) so
 * the server's event loop never waits on a large PDF.
 */
import type { JobField } from '../../lib/fields/model'
import { BROKEN_SUMS_FACTOR, SECOND_READING_MIN_CONFIDENCE } from './confidence'
import { type Answers, answerOf, answersOf } from './answers'
import { calibrate } from './calibration'
import { checkSums } from './checks'
import type { Engine } from './engines/types'
import { locateValues } from './locate'
import { normaliseAnswers } from './normalise'
import { readDocument } from './readers'
import type { DocumentText, MediaType, ReadLimits, RecogniserName } from './readers/types'

export interface ExtractionTask {
  content: Uint8Array
  mediaType: MediaType
  documentType: string
  /** The catalog's `issued_by_seller` of the document type (D220). */
  issuedBySeller: boolean
  fields: JobField[]
  limits: ReadLimits
}

export interface Progress {
  pages_done: number
  pages_total: number
}

/**
 * Resolves with the output, or rejects with an ExtractionError the job fails with; reports each
 * page read. An aborted signal (a canceled job) stops the work as soon as it can. `onRead` is
 * handed the document as it was read (without its second reading), before the engine runs: the
 * job runner reads it again with the account's learned layouts and keeps it for a review (D274).
 */
export type Extractor = (
  task: ExtractionTask,
  onProgress?: (progress: Progress) => void,
  signal?: AbortSignal,
  onRead?: (document: DocumentText) => void,
) => Promise<Answers>

export interface ExtractorOptions {
  /** The document reader; a benchmark may pass one that keeps what it read (bench/extract.ts `--ocr-cache`). */
  read?: typeof readDocument
  /** The word reader of scanned pages, as the operator chose it (`--ocr`, D160). */
  recogniser?: RecogniserName
}

export function inProcessExtractor(engine: Engine, { read = readDocument, recogniser }: ExtractorOptions = {}): Extractor {
  return async ({ content, mediaType, documentType, issuedBySeller, fields, limits }, onProgress, signal, onRead) => {
    const onPage = (done: number, total: number) => {
      signal?.throwIfAborted()
      onProgress?.({ pages_done: done, pages_total: total })
    }
    const document = await read(content, mediaType, { limits, onPage, readTwice: engine.readsTwice === true, recogniser })
    signal?.throwIfAborted()
    onRead?.({ pages: document.pages, ...(document.layout ? { layout: document.layout } : {}) })
    // One pipeline (D90): whatever the engine, its answers are typed by the same layer.
    const answer = async (text: DocumentText) =>
      locateValues(normaliseAnswers(fields, await engine.extract({ document: text, documentType, issuedBySeller, fields, signal })), text)
    const first = await answer(document)
    signal?.throwIfAborted()
    const output = document.secondReading && engine.readsTwice ? surer(first, await answer(document.secondReading)) : first
    // The answers checked against each other (D282), once each field has its reading; then each
    // confidence made the chance of being right, where the engine's scores were measured (D283).
    const checked = checkSums(fields, output)
    return engine.calibration ? calibrate(fields, checked, document, engine.calibration) : doubted(checked)
  }
}

/**
 * Each field from the reading that answers it more surely: the second reading's answer replaces
 * the first's when the first has none or is less sure, and it is sure enough on its own.
 */
function surer(first: Answers, second: Answers): Answers {
  return answersOf(
    Object.keys(first).map((key) => {
      const [one, again] = [answerOf(first, key), answerOf(second, key)]
      const sure = again.value !== null && again.value !== undefined && again.confidence >= SECOND_READING_MIN_CONFIDENCE
      return [key, sure && (one.value === null || one.value === undefined || one.confidence < again.confidence) ? again : one] as const
    }),
  )
}

/** An engine not calibrated: a value whose sums break is worth less than its score (D282). */
function doubted(answers: Answers): Answers {
  return answersOf(
    Object.keys(answers).map((key) => {
      const answer = answerOf(answers, key)
      return [key, answer.sums === 'broken' ? { ...answer, confidence: answer.confidence * BROKEN_SUMS_FACTOR } : answer] as const
    }),
  )
}
