/** Image documents (JPEG, PNG, TIFF, WebP, HEIC) → page texts through OCR, one page per image or frame. */
import { type LaidOutPage, layOutReadings } from './layout'
import { pageRecogniser } from './ocr'
import { imagePages } from './ocr/images'
import { enoughText, type ReadOptions } from './types'

export async function readImage(bytes: Uint8Array, mediaType: string, options: ReadOptions): Promise<LaidOutPage[]> {
  const images = imagePages(bytes, mediaType, options.limits)
  const pages: LaidOutPage[] = []
  const recogniser = pageRecogniser(options.readTwice, options.recogniser)
  // One page decoded at a time: its pixels go once it is read.
  for (let index = 0; index < images.count && !enoughText(pages, options); index++) {
    pages.push(layOutReadings(await recogniser.read(await images.decode(index))))
    options.onPage?.(pages.length, images.count)
  }
  return pages
}
