/**
 * Classifying and splitting a file (issue 34, D244–D246): the classifier, and the reading of a file
 * only as far as classifying needs. The layer the extraction processes run for `POST /classify`,
 * `"document_type": "auto"` and `"split": true` (the extractor reads a file to split whole and asks
 * `split`; documents.ts cuts each found document's pages); the classifier is passed in, as the
 * engine is to the extractor, so that only the extraction process picks the built-in one.
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
