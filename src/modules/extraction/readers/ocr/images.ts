/**
 * Image documents → greyscale page rasters: JPEG, PNG, WebP (one page each) and TIFF (a page per
 * frame). Every page's size, and the memory its decoding takes, is read from its headers and
 * checked against the limits before anything is decoded (D67, D120), so a small file that claims
 * a huge image costs nothing; pages are decoded one at a time, as they are read.
 */
import jpeg from 'jpeg-js'
import { ExtractionError } from '../../errors'
import { checkImageBytes, checkPixels } from '../limits'
import { MEDIA_TYPES, type ReadLimits } from '../types'
import { type JpegFrame, jpegCoefficientBytes, jpegFrame, jpegScanCount } from './jpeg-header'
import { heifPlan } from './heif'
import { type DecodedPhoto, heicPage, jpegPage, type JpegTurn, type PhotoCut } from './photo'
import { pngPage } from './png'
import { mirror, type Raster, rotate, toGrey } from './raster'
import { tiffPagePixels, tiffPages } from './tiff'
import { decodeWebp } from './webp'

/** The pages of an image document, checked against the limits; each decoded when asked for. */
export interface ImagePages {
  count: number
  /** Page `index` (0-based); ExtractionError when it cannot be decoded. */
  decode(index: number): Promise<ImagePage>
}

/** A page of an image document: a photo's paper carries the image it was cut from (D401). */
export type ImagePage = Raster & { cutFrom?: PhotoCut }

/** A photo's page, with where it was cut from when its paper was found. */
function photoPage({ page, ...cut }: DecodedPhoto): ImagePage {
  return cut.paper ? { ...page, cutFrom: cut } : page
}

const MEBIBYTE = 1024 * 1024
/** Scans of one JPEG: a progressive one has about ten (libjpeg's own tools cap theirs likewise). */
const MAX_JPEG_SCANS = 100
/** libwebp's memory per pixel, lossy and lossless (measured, bench/decode-cost.ts: 10.3 and 21.8 bytes). */
const WEBP_LOSSY_BYTES_PER_PIXEL = 11
const WEBP_LOSSLESS_BYTES_PER_PIXEL = 23
/** jpeg-js's arrays of 64 coefficients (4 bytes each) take this much more than their coefficients (measured, bench/decode-cost.ts). */
const JPEG_JS_BLOCK_OVERHEAD = 1.7

/** Checks an image document against the limits and gives its pages to decode one by one. */
export function imagePages(bytes: Uint8Array, mediaType: string, limits: ReadLimits): ImagePages {
  const pages = guarded(() => checkedPages(bytes, mediaType, limits))
  return { count: pages.count, decode: (index) => guardedAsync(() => pages.decode(index)) }
}

function checkedPages(bytes: Uint8Array, mediaType: string, limits: ReadLimits): { count: number; decode(index: number): ImagePage | Promise<ImagePage> } {
  switch (mediaType) {
    case MEDIA_TYPES.jpeg: {
      const decode = checkedJpeg(bytes, limits, 'exif')
      return { count: 1, decode: async () => photoPage(await decode()) }
    }
    case MEDIA_TYPES.heic: {
      const decode = heicPage(bytes, limits)
      return { count: 1, decode: async () => photoPage(await decode()) }
    }
    case MEDIA_TYPES.png:
      return { count: 1, decode: pngPage(bytes, limits) }
    case MEDIA_TYPES.webp: {
      const { width, height, lossless } = webpHeader(bytes)
      checkPixels(width, height, limits)
      // What libwebp in WebAssembly takes (D185): its planes or ARGB, the RGBA it gives and the copy of
      // it handed back, the grey page; its memory grows to that and never shrinks.
      checkImageBytes(width * height * (lossless ? WEBP_LOSSLESS_BYTES_PER_PIXEL : WEBP_LOSSY_BYTES_PER_PIXEL) + 2 * bytes.length, limits)
      return { count: 1, decode: () => decodeWebpPage(bytes) }
    }
    case MEDIA_TYPES.tiff:
      return tiffPages(bytes, limits)
  }
  throw new Error(`no decoder for ${mediaType}`)
}

/**
 * A JPEG checked against the limits as a JPEG file is (its scans, its size, what its decoder
 * holds), to decode when asked: by libvips where it is loaded, else by the built-in decoder. A PDF
 * page that is one JPEG is read so too (D350), turned as its page shows it.
 */
export function jpegPhoto(bytes: Uint8Array, limits: ReadLimits, turn: JpegTurn, held = 0): () => Promise<DecodedPhoto> {
  const decode = guarded(() => checkedJpeg(bytes, limits, turn, held))
  return () => guardedAsync(decode)
}

function checkedJpeg(bytes: Uint8Array, limits: ReadLimits, turn: JpegTurn, held = 0): () => Promise<DecodedPhoto> {
  const frame = jpegFrameOf(bytes)
  // Each scan of a progressive JPEG is a pass over the whole image: thousands of tiny scans cost minutes.
  const scans = jpegScanCount(bytes)
  if (scans > MAX_JPEG_SCANS) throw new ExtractionError('corrupt_document', `The JPEG has ${scans} scans; at most ${MAX_JPEG_SCANS} are read.`)
  const page = jpegPage(bytes, frame, limits, { dpi: jfifDpi(bytes), turn, held })
  if (page) return page
  const builtin = builtinJpegPage(bytes, limits, turn, held)
  return async () => {
    const decoded = builtin()
    return { page: decoded, width: decoded.width, height: decoded.height }
  }
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

/**
 * The decoder of a JPEG by jpeg-js, where libvips is not available, checked against the limits
 * first (D183): jpeg-js keeps every coefficient of the image, each block of 64 in an array of
 * its own (measured: about 1.6 times the coefficients' 4 bytes; 1.7 counted), then its samples, the RGB it
 * gives and the grey page.
 */
export function builtinJpegPage(bytes: Uint8Array, limits: ReadLimits, turn: JpegTurn = 'exif', held = 0): () => Raster {
  const frame = jpegFrameOf(bytes)
  checkPixels(frame.width, frame.height, limits)
  const pixels = frame.width * frame.height
  const components = frame.components.length
  checkImageBytes(Math.ceil(jpegCoefficientBytes(frame) * 2 * JPEG_JS_BLOCK_OVERHEAD) + pixels * (2 * components + 1) + bytes.length + held, limits)
  return () => decodeJpeg(bytes, limits, turn)
}

/** A JPEG by jpeg-js, turned upright. */
function decodeJpeg(bytes: Uint8Array, limits: ReadLimits, turn: JpegTurn): Raster {
  const image = jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: false,
    maxResolutionInMP: limits.maxPagePixels / 1_000_000,
    maxMemoryUsageInMB: Math.floor(limits.maxDecodeBytes / MEBIBYTE),
  })
  const channels = image.data.length / (image.width * image.height)
  const grey = toGrey(image.data, image.width, image.height, channels)
  return { ...(turn === 'exif' ? orient(grey, exifOrientation(bytes)) : rotate(grey, turn)), dpi: jfifDpi(bytes) }
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

/** A JPEG's frame header (SOFn). */
function jpegFrameOf(bytes: Uint8Array): JpegFrame {
  const frame = jpegFrame(bytes)
  if (!frame) throw new ExtractionError('corrupt_document', 'The JPEG has no frame header.')
  return frame
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

async function decodeWebpPage(bytes: Uint8Array): Promise<Raster> {
  const image = await decodeWebp(bytes)
  return toGrey(image.data, image.width, image.height, 4)
}

/**
 * Width and height from a WebP's VP8, VP8L or VP8X header, and whether it is decoded as lossless
 * (VP8L, or an alpha plane, which is coded so).
 */
function webpHeader(bytes: Uint8Array): { width: number; height: number; lossless: boolean } {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16))
  const at = 20
  if (chunk === 'VP8X' && bytes.length >= at + 10) {
    const u24 = (p: number) => bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16)
    return { width: u24(at + 4) + 1, height: u24(at + 7) + 1, lossless: webpChunks(bytes).some((type) => type === 'VP8L' || type === 'ALPH') }
  }
  if (chunk === 'VP8L' && bytes.length >= at + 5) {
    const bits = bytes[at + 1]! | (bytes[at + 2]! << 8) | (bytes[at + 3]! << 16) | (bytes[at + 4]! << 24)
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, lossless: true }
  }
  if (chunk === 'VP8 ' && bytes.length >= at + 10) {
    return { width: (bytes[at + 6]! | (bytes[at + 7]! << 8)) & 0x3fff, height: (bytes[at + 8]! | (bytes[at + 9]! << 8)) & 0x3fff, lossless: false }
  }
  throw new ExtractionError('corrupt_document', 'The WebP has no image header.')
}

/** The types of a WebP's chunks, in order. */
function webpChunks(bytes: Uint8Array): string[] {
  const types: string[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = 12; at + 8 <= bytes.length; at += 8 + view.getUint32(at + 4, true) + (view.getUint32(at + 4, true) & 1)) {
    types.push(String.fromCharCode(...bytes.subarray(at, at + 4)))
  }
  return types
}

/** The pixels of an image document's largest page, as its headers give them (for the decode-cost benchmark). */
export function imagePixels(bytes: Uint8Array, mediaType: string): number {
  switch (mediaType) {
    case MEDIA_TYPES.jpeg: {
      const { width, height } = jpegFrameOf(bytes)
      return width * height
    }
    case MEDIA_TYPES.png:
      return new DataView(bytes.buffer, bytes.byteOffset).getUint32(16) * new DataView(bytes.buffer, bytes.byteOffset).getUint32(20)
    case MEDIA_TYPES.webp: {
      const { width, height } = webpHeader(bytes)
      return width * height
    }
    case MEDIA_TYPES.heic: {
      const { width, height } = heifPlan(bytes)
      return width * height
    }
    case MEDIA_TYPES.tiff:
      return tiffPagePixels(bytes)
  }
  return 0
}
