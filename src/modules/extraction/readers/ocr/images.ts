/**
 * Image documents → greyscale page rasters: JPEG, PNG, WebP (one page each) and TIFF (a page per
 * frame). Every page's size, and the memory its decoding takes, is read from its headers and
 * checked against the limits before anything is decoded (D67, D120), so a small file that claims
 * a huge image costs nothing; pages are decoded one at a time, as they are read.
 */
import { decode as decodePng } from 'fast-png'
import jpeg from 'jpeg-js'
import { ExtractionError } from '../../errors'
import { checkImageBytes, checkPixels } from '../limits'
import { MEDIA_TYPES, type ReadLimits } from '../types'
import { jpegFrameSize, jpegScanCount } from './jpeg-header'
import { decodeHeic, jpegPage } from './photo'
import { checkPng } from './png'
import { mirror, type Raster, rotate, toGrey } from './raster'
import { tiffPages } from './tiff'
import { decodeWebp } from './webp'

/** The pages of an image document, checked against the limits; each decoded when asked for. */
export interface ImagePages {
  count: number
  /** Page `index` (0-based); ExtractionError when it cannot be decoded. */
  decode(index: number): Promise<Raster>
}

const MEBIBYTE = 1024 * 1024
/** Scans of one JPEG: a progressive one has about ten (libjpeg's own tools cap theirs likewise). */
const MAX_JPEG_SCANS = 100

/** Checks an image document against the limits and gives its pages to decode one by one. */
export function imagePages(bytes: Uint8Array, mediaType: string, limits: ReadLimits): ImagePages {
  const pages = guarded(() => checkedPages(bytes, mediaType, limits))
  return { count: pages.count, decode: (index) => guardedAsync(() => pages.decode(index)) }
}

function checkedPages(bytes: Uint8Array, mediaType: string, limits: ReadLimits): { count: number; decode(index: number): Raster | Promise<Raster> } {
  switch (mediaType) {
    case MEDIA_TYPES.jpeg: {
      const { width, height } = jpegSize(bytes)
      // Each scan of a progressive JPEG is a pass over the whole image: thousands of tiny scans cost minutes.
      const scans = jpegScanCount(bytes)
      if (scans > MAX_JPEG_SCANS) throw new ExtractionError('corrupt_document', `The JPEG has ${scans} scans; at most ${MAX_JPEG_SCANS} are read.`)
      const page = jpegPage(bytes, width, height, limits, jfifDpi(bytes))
      if (page) return { count: 1, decode: page }
      checkPixels(width, height, limits)
      return { count: 1, decode: () => decodeJpeg(bytes, limits) }
    }
    case MEDIA_TYPES.heic:
      return { count: 1, decode: () => decodeHeic(bytes, limits) }
    case MEDIA_TYPES.png:
      checkPng(bytes, limits)
      return { count: 1, decode: () => decodePngPage(bytes) }
    case MEDIA_TYPES.webp: {
      const { width, height } = webpSize(bytes)
      checkPixels(width, height, limits)
      // libwebp's RGBA, the copy it decodes from, and the grey page.
      checkImageBytes(width * height * 5 + bytes.length, limits)
      return { count: 1, decode: () => decodeWebpPage(bytes) }
    }
    case MEDIA_TYPES.tiff:
      return tiffPages(bytes, limits)
  }
  throw new Error(`no decoder for ${mediaType}`)
}

function guarded<T>(work: () => T): T {
  try {
    return work()
  } catch (error) {
    throw asExtractionError(error)
  }
}

async function guardedAsync<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw asExtractionError(error)
  }
}

function asExtractionError(error: unknown): unknown {
  if (error instanceof ExtractionError) return error
  const message = (error as Error)?.message ?? 'unknown error'
  // The JPEG decoder's own limits (set from ours) speak of its options.
  if (message.includes('maxResolutionInMP'))
    return new ExtractionError('image_too_large', 'A frame of the image has more pixels than are read per page (--max-page-megapixels).')
  if (message.includes('maxMemoryUsageInMB'))
    return new ExtractionError('image_too_large', 'A page image of the document needs more memory to decode than is used per document (--max-decode-mb).')
  return new ExtractionError('corrupt_document', `The image could not be decoded: ${message}`)
}

/** A JPEG by jpeg-js, where libvips is not available. */
function decodeJpeg(bytes: Uint8Array, limits: ReadLimits): Raster {
  const image = jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: false,
    maxResolutionInMP: limits.maxPagePixels / 1_000_000,
    maxMemoryUsageInMB: Math.floor(limits.maxDecodeBytes / MEBIBYTE),
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
  const size = jpegFrameSize(bytes)
  if (!size) throw new ExtractionError('corrupt_document', 'The JPEG has no frame header.')
  return size
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

function decodePngPage(bytes: Uint8Array): Raster {
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

async function decodeWebpPage(bytes: Uint8Array): Promise<Raster> {
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
