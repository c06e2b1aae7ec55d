/** Documents as the engines see them: text, page by page (D22), with where each word sits when the reader knows. */
import type { PageLayout } from './layout'

export const MEDIA_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
  jpeg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  webp: 'image/webp',
  heic: 'image/heic',
} as const

export type MediaType = (typeof MEDIA_TYPES)[keyof typeof MEDIA_TYPES]

export const ACCEPTED_MEDIA_TYPES: MediaType[] = Object.values(MEDIA_TYPES)

export interface DocumentText {
  /** Text of each page in reading order, lines separated by "\n"; one entry for unpaged formats. */
  pages: string[]
  /** Per page, the positions of its words in the text and on the page (PDF and images only). */
  layout?: (PageLayout | undefined)[]
  /** The document again with its doubtful scanned pages as read a second time, larger (D67). */
  secondReading?: DocumentText
  /** The file's number of pages, when a reader stopped before the last (`ReadOptions.textPages`, D244). */
  pageCount?: number
}

/** What one document may cost to read (D67, D120). */
export interface ReadLimits {
  maxPages: number
  /** Largest page image, in pixels, that is decoded and recognised. */
  maxPagePixels: number
  /** Pixels of all the page images of one document together. */
  maxDocumentPixels: number
  /** Memory one document may take as it is decoded: a page image as its decoder holds it, a stream or a DOCX's parts inflated. */
  maxDecodeBytes: number
  /** Time a job may take (its --job-timeout): page images that would take longer to read are refused up front (D187). */
  maxReadSeconds?: number
}

/** The defaults of `--max-pages`, `--max-page-megapixels`, `--max-document-megapixels`, `--max-decode-mb` and `--job-timeout`. */
export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxPages: 100,
  maxPagePixels: 40_000_000,
  maxDocumentPixels: 1_000_000_000,
  maxDecodeBytes: 256 * 1024 * 1024,
  maxReadSeconds: 300,
}

/** The word readers a scanned page may be recognised with (D160): `auto` picks one per page. */
export const RECOGNISERS = ['auto', 'tesseract', 'paddle', 'mix'] as const
export type RecogniserName = (typeof RECOGNISERS)[number]

export interface ReadOptions {
  limits: ReadLimits
  /** Which word reader recognises scanned pages (the operator's `--ocr`); `auto` when not given. */
  recogniser?: RecogniserName
  /** Called after each page is read, for the job's progress. */
  onPage?: (pagesDone: number, pagesTotal: number) => void
  /** Read a doubtful scanned page a second time, for an engine that answers from both readings (D67). */
  readTwice?: boolean
  /**
   * Stop once this many pages with text are read (PDFs and images, whose pages cost a text layer's
   * parse or an OCR run each): what classifying a document needs (D244). The limits still apply to
   * the whole file; other formats are read whole, as they cost next to nothing.
   */
  textPages?: number
}

/** Whether the pages read so far hold the `textPages` pages with text that were asked for (D244). */
export function enoughText(pages: readonly { text: string }[], options: ReadOptions): boolean {
  return options.textPages !== undefined && pages.filter((page) => /[\p{L}\p{N}]/u.test(page.text)).length >= options.textPages
}
