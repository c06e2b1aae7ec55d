/**
 * The budget every reader keeps (D67, D120): pages, pixels per page and per document, and the
 * memory a document takes as it is decoded. Each check runs on what the file declares, before the
 * decoder allocates anything for it.
 */
import { ExtractionError } from '../errors'
import type { ReadLimits } from './types'

/** Pieces of markup (tags and runs of text) read between two collections of the young generation (D391). */
const PIECES_PER_COLLECTION = 200_000

/**
 * Counts the pieces a markup reader reads and collects its young garbage every 200,000 (D391): in a
 * process that holds OCR's memory the collector lets garbage grow with that memory, and an 11 MB
 * page of nested elements took the process from 278 MiB to 588 (to 193 from 66 in a fresh one);
 * collected as it goes, to 384. Each collection of the young generation takes a millisecond or two.
 */
export function collectingGarbage(): () => void {
  let pieces = 0
  return () => {
    if (++pieces % PIECES_PER_COLLECTION === 0) Bun.gc(false)
  }
}

/** Refuses a document with more pages than the limit. */
export function checkPages(pages: number, limits: ReadLimits): void {
  if (pages > limits.maxPages)
    throw new ExtractionError('too_many_pages', `The document has ${pages} pages; at most ${limits.maxPages} are read (--max-pages).`)
}

/** Refuses a page larger than the limit, before it is decoded. */
export function checkPixels(width: number, height: number, limits: ReadLimits): void {
  if (!(width > 0 && height > 0)) throw new ExtractionError('corrupt_document', 'The image has no pixels.')
  if (width * height > limits.maxPagePixels)
    throw new ExtractionError(
      'image_too_large',
      `A page of the document is ${width} × ${height} pixels (${megapixels(width * height)} MP); at most ${megapixels(limits.maxPagePixels)} MP are read per page (--max-page-megapixels).`,
    )
}

/** Refuses a page image whose decoding would take more memory than the budget. */
export function checkImageBytes(bytes: number, limits: ReadLimits): void {
  if (bytes > limits.maxDecodeBytes)
    throw new ExtractionError(
      'image_too_large',
      `A page image of the document needs ${mebibytes(bytes)} MiB to decode; at most ${mebibytes(limits.maxDecodeBytes)} MiB are used per document (--max-decode-mb).`,
    )
}

/** Refuses a document whose content inflates past the budget (`what` says what does). */
export function checkInflatedBytes(bytes: number, limits: ReadLimits, what: string): void {
  if (bytes > limits.maxDecodeBytes) throw inflatesPastBudget(limits, what)
}

/** The failure of a document whose content (`what`) inflates past the budget. */
export function inflatesPastBudget(limits: ReadLimits, what: string): ExtractionError {
  const budget = mebibytes(limits.maxDecodeBytes)
  return new ExtractionError(
    'document_too_large',
    `${what} more than ${budget} MiB when unpacked; at most ${budget} MiB are used per document (--max-decode-mb).`,
  )
}

/**
 * Reading a page image (decoding it, preparing it and recognising it) takes at least this long per
 * megapixel (D187): measured in process, 0.11 s of CPU for an empty page of 40 MP and 2.9 s for a
 * page of dense text scanned at 300 dpi, on two shared cores.
 */
const READ_SECONDS_PER_MEGAPIXEL = 0.5

/**
 * Refuses a document whose pages hold more pixels together than the limit, or more than can be
 * read in the time a job is given (at READ_SECONDS_PER_MEGAPIXEL).
 */
export function checkDocumentPixels(pixels: number, limits: ReadLimits): void {
  if (pixels > limits.maxDocumentPixels)
    throw new ExtractionError(
      'document_too_large',
      `The document's page images hold ${megapixels(pixels)} MP together; at most ${megapixels(limits.maxDocumentPixels)} MP are read per document (--max-document-megapixels).`,
    )
  const seconds = (pixels / 1_000_000) * READ_SECONDS_PER_MEGAPIXEL
  if (limits.maxReadSeconds !== undefined && seconds > limits.maxReadSeconds)
    throw new ExtractionError(
      'document_too_large',
      `The document's page images hold ${megapixels(pixels)} MP together, about ${Math.round(seconds)} s of reading at ${READ_SECONDS_PER_MEGAPIXEL} s a megapixel; a job may run ${Math.round(limits.maxReadSeconds)} s (--job-timeout).`,
    )
}

/** Refuses a container with more parts than are ever read. */
export function checkParts(parts: number, maxParts: number, what: string): void {
  if (parts > maxParts) throw new ExtractionError('document_too_large', `${what}: ${parts}; at most ${maxParts} are read.`)
}

/** Pixels as megapixels, to a tenth, for messages. */
export function megapixels(pixels: number): string {
  return String(Math.round(pixels / 100_000) / 10)
}

export function mebibytes(bytes: number): string {
  return String(Math.ceil(bytes / (1024 * 1024)))
}
