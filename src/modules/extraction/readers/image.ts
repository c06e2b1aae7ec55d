/** Image documents (JPEG, PNG, TIFF, WebP) → page texts through OCR, one page per image or frame. */
import { layOut, type LaidOutPage } from './layout'
import { recognisePage } from './ocr'
import { decodeImage } from './ocr/images'
import type { ReadOptions } from './types'

export async function readImage(bytes: Uint8Array, mediaType: string, options: ReadOptions): Promise<LaidOutPage[]> {
  const rasters = await decodeImage(bytes, mediaType, options.limits)
  const pages: LaidOutPage[] = []
  for (const [index, raster] of rasters.entries()) {
    const page = await recognisePage(raster)
    rasters[index] = undefined as never // a page's pixels are not needed once it is read
    pages.push(layOut(page.lines, page.width, page.height))
    options.onPage?.(index + 1, rasters.length)
  }
  return pages
}
