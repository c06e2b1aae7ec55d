/**
 * How a job's document becomes values: read the file, run the engine, type its answers; and, for
 * the tasks that know a type when they see it (issue 34), classify it or split it first. `inProcess`
 * does it on the caller's thread (tests, fake engines); `processes.ts` does it in extraction
 * processes (D190) so the server's event loop never waits on a large PDF.
 */
import type { JobField } from '../../lib/fields/model'
import { AUTO_TYPE, type ClassifiableType, type Classification } from '../catalog/classification'
import { BROKEN_SUMS_FACTOR, SECOND_READING_MIN_CONFIDENCE } from './confidence'
import { type Answers, answerOf, answersOf } from './answers'
import { calibrate } from './calibration'
import { checkSums } from './checks'
import { type Classifier, classifyFile } from './classifier'
import { documentOf } from './documents'
import type { Engine } from './engines/types'
import { locateValues } from './locate'
import { normaliseAnswers } from './normalise'
import { readDocument } from './readers'
import type { DocumentText, MediaType, ReadLimits, RecogniserName } from './readers/types'

export interface ExtractionTask {
  content: Uint8Array
  mediaType: MediaType
  /** A catalog slug, or `auto`: the type the classifier finds (D248). */
  documentType: string
  /** The catalog's `issued_by_seller` of the document type (D220); with `auto`, each type's own instead. */
  issuedBySeller: boolean
  /** The fields of a named type; with `auto`, each type's `read` instead. */
  fields: JobField[]
  limits: ReadLimits
  /** Only for the tasks that know a type when they see it (issue 34); a task without it extracts as before. */
  typing?: Typing
}

/**
 * What a task does with the catalog's types (D248, D249): `classify` answers the type of a file
 * from its first pages (POST /classify); `auto` classifies the file and extracts it as the type it
 * is; `split` reads it as one or more documents, each extracted as the named type or, with `auto`,
 * as its own.
 */
export interface Typing {
  mode: 'classify' | 'auto' | 'split'
  types: TaskType[]
}

/** A catalog type as a task takes it: what the classifier reads, and how a document of it is extracted. */
export interface TaskType extends ClassifiableType {
  read: JobField[]
  issuedBySeller: boolean
}

/** One document of a file extracted (D249): its pages, 1-based; its type, null when none fits `auto`; its answers, null then. */
export interface DocumentOutput {
  firstPage: number
  lastPage: number
  documentType: string | null
  classification: Classification
  answers: Answers | null
}

/** What a task answers: a document's answers, a file's type, or the documents it holds. */
export type TaskOutput =
  | { kind: 'answers'; answers: Answers }
  | { kind: 'classified'; classification: Classification; pages: number }
  | { kind: 'documents'; documents: DocumentOutput[] }

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
) => Promise<TaskOutput>

export interface ExtractorOptions {
  /** Knows the catalog's types (issue 34): the extraction process passes the built-in one, whatever the engine (D248); needed only by tasks with `typing`. */
  classifier?: Classifier
  /** The document reader; a benchmark may pass one that keeps what it read (bench/extract.ts `--ocr-cache`). */
  read?: typeof readDocument
  /** The word reader of scanned pages, as the operator chose it (`--ocr`, D160). */
  recogniser?: RecogniserName
}

export function inProcessExtractor(engine: Engine, { classifier, read = readDocument, recogniser }: ExtractorOptions = {}): Extractor {
  return async ({ content, mediaType, documentType, issuedBySeller, fields, limits, typing }, onProgress, signal, onRead) => {
    if (typing && !classifier) throw new Error('a task that classifies needs an extractor with a classifier')
    // D244: classifying alone reads no further than the first pages with text.
    if (typing?.mode === 'classify' && classifier)
      return { kind: 'classified', ...(await classifyFile(classifier, typing.types, { content, mediaType, limits, recogniser }, read)) }
    const onPage = (done: number, total: number) => {
      signal?.throwIfAborted()
      onProgress?.({ pages_done: done, pages_total: total })
    }
    const document = await read(content, mediaType, { limits, onPage, readTwice: engine.readsTwice === true, recogniser })
    signal?.throwIfAborted()
    onRead?.({ pages: document.pages, ...(document.layout ? { layout: document.layout } : {}) })
    /** One document's answers: one pipeline (D90), whatever the engine, its answers typed by the same layer. */
    const extract = async (text: DocumentText, type: string, seller: boolean, wanted: JobField[]): Promise<Answers> => {
      const answer = async (reading: DocumentText) =>
        locateValues(
          normaliseAnswers(wanted, await engine.extract({ document: reading, documentType: type, issuedBySeller: seller, fields: wanted, signal })),
          reading,
        )
      const first = await answer(text)
      signal?.throwIfAborted()
      const output = text.secondReading && engine.readsTwice ? surer(first, await answer(text.secondReading)) : first
      // The answers checked against each other (D282), once each field has its reading; then each
      // confidence made the chance of being right, where the engine's scores were measured (D283).
      const checked = checkSums(wanted, output)
      return engine.calibration ? calibrate(wanted, checked, text, engine.calibration) : doubted(checked)
    }
    if (!typing || !classifier) return { kind: 'answers', answers: await extract(document, documentType, issuedBySeller, fields) }

    // D249: a file of one document is its whole reading; a bundle's documents are its page ranges, each counted from its own first page.
    const found =
      typing.mode === 'split'
        ? classifier.split(document, typing.types)
        : [{ firstPage: 1, lastPage: document.pages.length, classification: classifier.classify(document, typing.types) }]
    const documents: DocumentOutput[] = []
    const task = { documentType, split: typing.mode === 'split', fields, types: typing.types }
    for (const { firstPage, lastPage, classification } of found) {
      signal?.throwIfAborted()
      const slug = documentType === AUTO_TYPE ? classification.documentType : documentType
      const { type, fields: wanted, text } = documentOf(task, { firstPage, lastPage, documentType: slug }, document)
      const answers = slug !== null && wanted ? await extract(text, slug, type ? type.issuedBySeller : issuedBySeller, wanted) : null
      documents.push({ firstPage, lastPage, documentType: slug, classification, answers })
    }
    return { kind: 'documents', documents }
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
