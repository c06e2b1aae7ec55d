/**
 * Classifying and splitting a file (issue 34, D244–D246): read it — only as far as classifying
 * needs, or whole to split it — and ask the classifier. The layer the extraction threads run for
 * `POST /classify`, `"document_type": "auto"` and `"split": true`; the classifier is passed in, as
 * the engine is to the extractor, so that only the extraction thread picks the built-in one.
 */
import type { ClassifiableType, Classification, FoundDocument } from '../catalog/classification'
import { readDocument } from './readers'
import type { DocumentText, MediaType, ReadLimits, RecogniserName } from './readers/types'

/** Knows a catalog type when it sees one, and where the documents of a file of several begin. */
export interface Classifier {
  /** How many pages with text `classify` reads: a reader may stop there. */
  readonly pagesToClassify: number
  classify(document: DocumentText, types: readonly ClassifiableType[]): Classification
  split(document: DocumentText, types: readonly ClassifiableType[]): FoundDocument[]
}

export interface ClassifyTask {
  content: Uint8Array
  mediaType: MediaType
  limits: ReadLimits
  /** The word reader of scanned pages (`--ocr`, D160). */
  recogniser?: RecogniserName
}

/** A file's type, and its page count: read only as far as its first pages with text (D244). */
export async function classifyFile(
  classifier: Classifier,
  types: readonly ClassifiableType[],
  { content, mediaType, limits, recogniser }: ClassifyTask,
  read: typeof readDocument = readDocument,
): Promise<{ classification: Classification; pages: number }> {
  const document = await read(content, mediaType, { limits, textPages: classifier.pagesToClassify, recogniser })
  return { classification: classifier.classify(document, types), pages: document.pageCount ?? document.pages.length }
}

/** A document found in a file of several, with its pages' reading for the engine to extract from. */
export interface FoundText extends FoundDocument {
  document: DocumentText
}

/**
 * The documents of a file (D246): read whole — its pages' text and word positions, each page's
 * image gone once it is read — then split; each found document with its own pages' reading, page 1
 * being its first, so that what an engine answers counts pages within that document.
 */
export async function splitFile(
  classifier: Classifier,
  types: readonly ClassifiableType[],
  { content, mediaType, limits }: ClassifyTask,
  read: typeof readDocument = readDocument,
  readTwice = false,
): Promise<FoundText[]> {
  const document = await read(content, mediaType, { limits, readTwice })
  return classifier.split(document, types).map((found) => ({ ...found, document: pages(document, found.firstPage, found.lastPage) }))
}

/** Pages `first` to `last` (1-based) of a reading, with their word positions and second readings. */
export function pages(document: DocumentText, first: number, last: number): DocumentText {
  const slice = <T>(list: readonly T[]) => list.slice(first - 1, last)
  return {
    pages: slice(document.pages),
    ...(document.layout ? { layout: slice(document.layout) } : {}),
    ...(document.secondReading ? { secondReading: pages(document.secondReading, first, last) } : {}),
  }
}
