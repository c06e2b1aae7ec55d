/** Reads a document of an accepted media type into page texts for the engines (D22). */
import { ExtractionError } from '../engines/types'
import { readDocx } from './docx'
import { readHtml } from './html'
import { readPdf } from './pdf'
import { readMarkdown, readText } from './text'
import { MEDIA_TYPES, type DocumentText, type MediaType } from './types'

export { detectMediaType } from './detect'

/**
 * The document's text, page by page. Throws ExtractionError for documents that cannot be read
 * (`corrupt_document`, `encrypted_document`, `no_text_layer`, `empty_document`).
 */
export async function readDocument(bytes: Uint8Array, mediaType: MediaType): Promise<DocumentText> {
  const pages = await readPages(bytes, mediaType)
  if (!pages.some((page) => page.trim()))
    throw new ExtractionError('empty_document', 'The document contains no text.')
  return { pages }
}

async function readPages(bytes: Uint8Array, mediaType: MediaType): Promise<string[]> {
  switch (mediaType) {
    case MEDIA_TYPES.pdf:
      return readPdf(bytes)
    case MEDIA_TYPES.docx:
      return readDocx(bytes)
    case MEDIA_TYPES.html:
      return readHtml(bytes)
    case MEDIA_TYPES.markdown:
      return readMarkdown(bytes)
    case MEDIA_TYPES.text:
      return readText(bytes)
    default:
      throw new ExtractionError('unsupported_media_type', `Documents of type ${String(mediaType)} cannot be read.`)
  }
}
