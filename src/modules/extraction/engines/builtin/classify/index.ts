/**
 * The built-in classifier (issue 34, D240–D247): which catalog type a document is, from what a
 * person sees on its first pages — its title, the labels of the type's fields, the phrases of its
 * cues, the signs of its build — and where the documents of a file of several begin (split.ts).
 * Deterministic and offline, like the built-in engine whose label reading it shares; it runs in the
 * extraction threads, whatever engine extracts.
 */
import type { ClassifiableType, Classification, FoundDocument } from '../../../../catalog/classification'
import type { Classifier } from '../../../classifier'
import type { DocumentText } from '../../../readers/types'
import { compile, readPages } from './reading'
import { classifyReadings } from './score'
import { splitReadings } from './split'
import { CLASSIFY_PAGES } from './weights'

export const builtinClassifier: Classifier = {
  pagesToClassify: CLASSIFY_PAGES,
  classify: classifyDocument,
  split: splitDocument,
}

/** The type of a document, read from its first pages with text (a reader may stop there: `ReadOptions.textPages`). */
export function classifyDocument(document: DocumentText, types: readonly ClassifiableType[]): Classification {
  const compiled = compile(types)
  return classifyReadings(readPages(document, compiled, firstTextPages(document, CLASSIFY_PAGES)), compiled)
}

/** The documents of a file of several, in page order, each with its type (D246). */
export function splitDocument(document: DocumentText, types: readonly ClassifiableType[]): FoundDocument[] {
  const compiled = compile(types)
  return splitReadings(readPages(document, compiled), compiled)
}

/** How many leading pages hold the first `count` pages with text. */
function firstTextPages(document: DocumentText, count: number): number {
  let seen = 0
  for (const [index, page] of document.pages.entries()) if (/[\p{L}\p{N}]/u.test(page) && ++seen >= count) return index + 1
  return document.pages.length
}
