/** Image documents (JPEG, PNG, TIFF, WebP) → page texts through OCR, one page per image or frame. */
import { type LaidOutPage, layOutReadings } from './layout'
import { pageRecogniser } from './ocr'
import { decodeImage } from './ocr/images'
import type { ReadOptions } from './types'

export async function readImage(bytes: Uint8Array, mediaType: string, options: ReadOptions): Promise<LaidOutPage[]> {
  const rasters = await decodeImage(bytes, mediaType, options.limits)
  const total = rasters.length
  const pages: LaidOutPage[] = []
  const recogniser = pageRecogniser(options.readTwice)
  // Taken off the list one by one, so a page's pixels can go once it is read.
  for (let raster = rasters.shift(); raster; raster = rasters.shift()) {
    pages.push(layOutReadings(await recogniser.read(raster)))
    options.onPage?.(pages.length, total)
  }
  return pages
}
