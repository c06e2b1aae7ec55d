/**
 * Image documents → greyscale page rasters: JPEG, PNG, WebP (one page each) and TIFF (a page per
 * frame). Every page's size is read from its header and checked against the pixel limit before
 * anything is decoded, so a small file that claims a huge image costs nothing.
 */
import { decode as decodePng } from 'fast-png'
import jpeg from 'jpeg-js'
import UTIF from 'utif2'
import { ExtractionError } from '../../engines/types'
import { MEDIA_TYPES, type ReadLimits } from '../types'
import { mirror, type Raster, rotate, toGrey } from './raster'
import { decodeWebp } from './webp'

/** Decodes every page of an image document, in order. */
export async function decodeImage(bytes: Uint8Array, mediaType: string, limits: ReadLimits): Promise<Raster[]> {
  try {
    switch (mediaType) {
      case MEDIA_TYPES.jpeg:
        return [decodeJpeg(bytes, limits)]
      case MEDIA_TYPES.png:
        return [decodePngPage(bytes, limits)]
      case MEDIA_TYPES.webp:
        return [await decodeWebpPage(bytes, limits)]
      case MEDIA_TYPES.tiff:
        return decodeTiff(bytes, limits)
    }
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    throw new ExtractionError('corrupt_document', `The image could not be decoded: ${(error as Error)?.message ?? 'unknown error'}`)
  }
  throw new Error(`no decoder for ${mediaType}`)
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

/** Refuses a document with more pages than the limit. */
export function checkPages(pages: number, limits: ReadLimits): void {
  if (pages > limits.maxPages)
    throw new ExtractionError('too_many_pages', `The document has ${pages} pages; at most ${limits.maxPages} are read (--max-pages).`)
}

function megapixels(pixels: number): string {
  return String(Math.round(pixels / 100_000) / 10)
}

function decodeJpeg(bytes: Uint8Array, limits: ReadLimits): Raster {
  const { width, height } = jpegSize(bytes)
  checkPixels(width, height, limits)
  const image = jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: false,
    maxResolutionInMP: limits.maxPagePixels / 1_000_000,
    maxMemoryUsageInMB: Math.ceil((limits.maxPagePixels * 8) / 1_000_000) + 64,
  })
  const channels = image.data.length / (image.width * image.height)
  return { ...orient(toGrey(image.data, image.width, image.height, channels), exifOrientation(bytes)), dpi: jfifDpi(bytes) }
}

/** Dots per inch from a JPEG's JFIF header, when it gives a unit (1 inch, 2 cm). */
function jfifDpi(bytes: Uint8Array): number | undefined {
  if (bytes[2] !== 0xff || bytes[3] !== 0xe0 || String.fromCharCode(...bytes.subarray(6, 10)) !== 'JFIF') return undefined
  const unit = bytes[13]
  const density = (bytes[14]! << 8) | bytes[15]!
  if (unit === 1) return density
  if (unit === 2) return density * 2.54
  return undefined
}

/** Width and height from a JPEG's frame header (SOFn). */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  let at = 2
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) {
      at++
      continue
    }
    const marker = bytes[at + 1]!
    if (marker === 0xff || marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2
      continue
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (isFrame) return { height: (bytes[at + 5]! << 8) | bytes[at + 6]!, width: (bytes[at + 7]! << 8) | bytes[at + 8]! }
    at += 2 + length
  }
  throw new ExtractionError('corrupt_document', 'The JPEG has no frame header.')
}

/** EXIF orientation (1–8) of a JPEG, 1 when absent: phones store photos sideways and say so here. */
function exifOrientation(bytes: Uint8Array): number {
  let at = 2
  while (at + 4 < bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!
    if (marker === 0xda) break
    if (marker === 0xe1 && String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === 'Exif') {
      const tiff = at + 10
      const little = bytes[tiff] === 0x49
      const u16 = (p: number) => (little ? bytes[p]! | (bytes[p + 1]! << 8) : (bytes[p]! << 8) | bytes[p + 1]!)
      const u32 = (p: number) => (little ? u16(p) + u16(p + 2) * 65536 : u16(p) * 65536 + u16(p + 2))
      const ifd = tiff + u32(tiff + 4)
      const entries = ifd + 2 <= bytes.length ? u16(ifd) : 0
      for (let i = 0; i < entries; i++) {
        const entry = ifd + 2 + i * 12
        if (entry + 10 > bytes.length) break
        if (u16(entry) === 0x0112) return u16(entry + 8)
      }
      return 1
    }
    at += 2 + length
  }
  return 1
}

/** Clockwise turn of each EXIF orientation (tag 0x0112); 2, 4, 5 and 7 are mirrored first. */
const EXIF_TURNS: Record<number, 0 | 90 | 180 | 270> = { 2: 0, 3: 180, 4: 180, 5: 270, 6: 90, 7: 90, 8: 270 }

/** Applies an EXIF orientation (the four turns and flips that cameras use). */
export function orient(raster: Raster, orientation: number): Raster {
  const turn = EXIF_TURNS[orientation]
  if (turn === undefined) return raster
  return rotate([2, 4, 5, 7].includes(orientation) ? mirror(raster) : raster, turn)
}

function decodePngPage(bytes: Uint8Array, limits: ReadLimits): Raster {
  // IHDR is the first chunk: width and height at bytes 16–23.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length < 24) throw new ExtractionError('corrupt_document', 'The PNG is truncated.')
  checkPixels(view.getUint32(16), view.getUint32(20), limits)
  const image = decodePng(bytes)
  const dpi = pngDpi(image.resolution)
  return { ...pngRaster(image), dpi }
}

/** Pixels per metre (the pHYs chunk) as dots per inch. */
function pngDpi(resolution: { x: number; unit: number } | undefined): number | undefined {
  return resolution?.unit === 1 && resolution.x > 0 ? Math.round(resolution.x * 0.0254) : undefined
}

function pngRaster(image: ReturnType<typeof decodePng>): Raster {
  if (image.palette) {
    const rgb = new Uint8Array(image.width * image.height * 3)
    const indices = image.data
    for (let i = 0; i < image.width * image.height; i++) {
      const colour = image.palette[indices[i]!] ?? [255, 255, 255]
      rgb.set(colour.slice(0, 3), i * 3)
    }
    return toGrey(rgb, image.width, image.height, 3)
  }
  if (image.depth === 1 || image.depth === 2 || image.depth === 4) {
    // Packed samples: unpack to one byte per sample, rows padded to whole bytes.
    const depth = image.depth
    const samples = new Uint8Array(image.width * image.height * image.channels)
    const rowBytes = Math.ceil((image.width * image.channels * depth) / 8)
    for (let y = 0; y < image.height; y++) {
      for (let i = 0; i < image.width * image.channels; i++) {
        const bit = i * depth
        const byte = image.data[y * rowBytes + (bit >> 3)]!
        samples[y * image.width * image.channels + i] = (byte >> (8 - depth - (bit & 7))) & ((1 << depth) - 1)
      }
    }
    return toGrey(samples, image.width, image.height, image.channels, (1 << depth) - 1)
  }
  return toGrey(image.data, image.width, image.height, image.channels, image.depth === 16 ? 65535 : 255)
}

async function decodeWebpPage(bytes: Uint8Array, limits: ReadLimits): Promise<Raster> {
  const { width, height } = webpSize(bytes)
  checkPixels(width, height, limits)
  const image = await decodeWebp(bytes)
  return toGrey(image.data, image.width, image.height, 4)
}

/** Width and height from a WebP's VP8, VP8L or VP8X header. */
function webpSize(bytes: Uint8Array): { width: number; height: number } {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16))
  const at = 20
  if (chunk === 'VP8X' && bytes.length >= at + 10) {
    const u24 = (p: number) => bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16)
    return { width: u24(at + 4) + 1, height: u24(at + 7) + 1 }
  }
  if (chunk === 'VP8L' && bytes.length >= at + 5) {
    const bits = bytes[at + 1]! | (bytes[at + 2]! << 8) | (bytes[at + 3]! << 16) | (bytes[at + 4]! << 24)
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  if (chunk === 'VP8 ' && bytes.length >= at + 10) {
    return { width: (bytes[at + 6]! | (bytes[at + 7]! << 8)) & 0x3fff, height: (bytes[at + 8]! | (bytes[at + 9]! << 8)) & 0x3fff }
  }
  throw new ExtractionError('corrupt_document', 'The WebP has no image header.')
}

function decodeTiff(bytes: Uint8Array, limits: ReadLimits): Raster[] {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  // Sub-images (thumbnails, reduced resolutions) are not pages.
  const pages = UTIF.decode(buffer).filter((ifd) => !(Number((ifd as Record<string, number[]>).t254?.[0] ?? 0) & 1))
  if (!pages.length) throw new ExtractionError('corrupt_document', 'The TIFF has no image.')
  checkPages(pages.length, limits)
  for (const ifd of pages) {
    const tags = ifd as Record<string, number[]>
    checkPixels(Number(tags.t256?.[0] ?? 0), Number(tags.t257?.[0] ?? 0), limits)
  }
  return pages.map((ifd) => {
    UTIF.decodeImage(buffer, ifd)
    const rgba = UTIF.toRGBA8(ifd)
    ;(ifd as { data?: unknown }).data = undefined
    return { ...toGrey(rgba, ifd.width, ifd.height, 4), dpi: tiffDpi(ifd as Record<string, unknown>) }
  })
}

/** XResolution (tag 282, a rational) in ResolutionUnit (tag 296: 2 inch, the default, 3 cm). */
function tiffDpi(tags: Record<string, unknown>): number | undefined {
  const resolution = (tags.t282 as number[][] | number[] | undefined)?.[0]
  const value = Array.isArray(resolution) ? resolution[0]! / (resolution[1] || 1) : resolution
  if (!value || !Number.isFinite(value)) return undefined
  const unit = (tags.t296 as number[] | undefined)?.[0] ?? 2
  return unit === 3 ? value * 2.54 : unit === 2 ? value : undefined
}
