/** Reads a document of an accepted media type into page texts for the engines (D22). */
import { ExtractionError } from '../errors'
import { readDocx } from './docx'
import { readHtml } from './html'
import { readImage } from './image'
import type { LaidOutPage } from './layout'
import { readPdf } from './pdf'
import { readMarkdown, readText } from './text'
import { DEFAULT_READ_LIMITS, type DocumentText, MEDIA_TYPES, type MediaType, type ReadOptions } from './types'

export { detectMediaType } from './detect'

/**
 * The document's text, page by page, with word positions where the format has them. Throws
 * ExtractionError for documents that cannot be read (`corrupt_document`, `encrypted_document`,
 * `no_text_layer`, `empty_document`, `too_many_pages`, `image_too_large`).
 */
export async function readDocument(bytes: Uint8Array, mediaType: MediaType, options: ReadOptions = { limits: DEFAULT_READ_LIMITS }): Promise<DocumentText> {
  let pageCount = 0
  const onPage = (done: number, total: number) => {
    pageCount = total
    options.onPage?.(done, total)
  }
  const document = await readPages(bytes, mediaType, { ...options, onPage })
  // Formats read whole report their pages once, at the end; PDFs and images report each page.
  if (!document.layout) options.onPage?.(document.pages.length, document.pages.length)
  if (!document.pages.some((page) => page.trim())) throw new ExtractionError('empty_document', 'The document contains no text.')
  return pageCount > document.pages.length ? { ...document, pageCount } : document
}

async function readPages(bytes: Uint8Array, mediaType: MediaType, options: ReadOptions): Promise<DocumentText> {
  switch (mediaType) {
    case MEDIA_TYPES.pdf:
      return laidOut(await readPdf(bytes, options))
    case MEDIA_TYPES.jpeg:
    case MEDIA_TYPES.png:
    case MEDIA_TYPES.tiff:
    case MEDIA_TYPES.webp:
    case MEDIA_TYPES.heic:
      return laidOut(await readImage(bytes, mediaType, options))
    case MEDIA_TYPES.docx:
      return { pages: readDocx(bytes, options.limits) }
    case MEDIA_TYPES.html:
      return { pages: readHtml(bytes) }
    case MEDIA_TYPES.markdown:
      return { pages: readMarkdown(bytes) }
    case MEDIA_TYPES.text:
      return { pages: readText(bytes) }
    default:
      // Detection (D21) admits only the types above; anything else here is a bug, not the document's fault.
      throw new Error(`no reader for ${String(mediaType)}`)
  }
}

function laidOut(pages: LaidOutPage[]): DocumentText {
  const document = { pages: pages.map((page) => page.text), layout: pages.map((page) => page.layout) }
  if (!pages.some((page) => page.second)) return document
  return { ...document, secondReading: laidOut(pages.map((page) => page.second ?? page)) }
}
