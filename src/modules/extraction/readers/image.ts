/** Image documents (JPEG, PNG, TIFF, WebP) → page texts through OCR, one page per image or frame. */
import { layOut, type LaidOutPage } from './layout'
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
    const { second, ...page } = await recogniser.read(raster)
    pages.push({ ...layOut(page.lines, page.width, page.height), ...(second && { second: layOut(second.lines, second.width, second.height) }) })
    options.onPage?.(pages.length, total)
  }
  return pages
}
