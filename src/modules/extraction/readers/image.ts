/**
 * Image documents (JPEG, PNG, TIFF, WebP, HEIC) → page texts through OCR, one page per image or
 * frame, each word placed on the image as a viewer shows it (D401).
 */
import { type LaidOutPage, layOutReadings, mapBoxes } from './layout'
import { pageRecogniser } from './ocr'
import { imagePages } from './ocr/images'
import { onDecodedImage } from './ocr/photo'
import { enoughText, type ReadOptions } from './types'

export async function readImage(bytes: Uint8Array, mediaType: string, options: ReadOptions): Promise<LaidOutPage[]> {
  const images = imagePages(bytes, mediaType, options.limits)
  const pages: LaidOutPage[] = []
  const recogniser = pageRecogniser(options.readTwice, options.recogniser)
  // One page decoded at a time: its pixels go once it is read.
  for (let index = 0; index < images.count && !enoughText(pages, options); index++) {
    const image = await images.decode(index)
    const read = await recogniser.read(image)
    // Words are placed on the image as it is shown, not on the paper OCR read upright (D401).
    const page = layOutReadings(read)
    pages.push(read.turned || image.cutFrom ? mapBoxes(page, onDecodedImage(read.turned, image, image.cutFrom)) : page)
    options.onPage?.(pages.length, images.count)
  }
  return pages
}
