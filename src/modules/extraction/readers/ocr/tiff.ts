/**
 * TIFF pages, walked and checked before any is decoded, then decoded one at a time. The chain of
 * image directories (IFDs) is followed here, not by the decoder: a chain that loops, runs longer
 * than the pages that are read, or points outside the file is refused. Each page's size, pixel
 * format, compression and strips are checked against the limits, the document's pixels are added
 * up, and a page is handed to the decoder alone, its sub-directories (EXIF, thumbnails) cut off.
 */
import UTIF from 'utif2'
import { ExtractionError } from '../../errors'
import { inflatesPast } from '../inflate'
import { checkDocumentPixels, checkImageBytes, checkPages, checkPixels } from '../limits'
import type { ReadLimits } from '../types'
import { jpegCoefficientBytes, jpegFrame } from './jpeg-header'
import { type Raster, toGrey } from './raster'

/** Bytes of each TIFF field type (1–13); other types are skipped by the decoder. */
const TYPE_BYTES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 }
/** Tags whose values the decoder would follow to further directories: renamed to this unused tag. */
const SUB_DIRECTORY_TAGS = new Set([330, 34665, 34853, 50740, 61440])
const INERT_TAG = 65000
/** Compressions of document scans that the decoder reads within the page's own size. */
const NONE = 1
const DEFLATE = new Set([8, 32946])
const JPEG = 7
const SUPPORTED_COMPRESSIONS = new Set([NONE, 2, 3, 4, 5, JPEG, 8, 32773, 32946])
/** Entries in one directory; real files have a few dozen. */
const MAX_ENTRIES = 1000
/** Photometric interpretations read straight to grey: 0 WhiteIsZero, 1 BlackIsZero. */
const GREY_PHOTOMETRICS = new Set([0, 1])
/** The decoder's inflater per byte of a Deflate strip: its chunks, their join, and what the collector has not yet freed (measured, bench/decode-cost.ts). */
const DEFLATE_STRIP_FACTOR = 3
/** A page whose decoding costs more than this has its garbage collected before the next page is decoded. */
const COLLECT_AFTER_BYTES = 32 * 1024 * 1024

interface Directory {
  offset: number
  /** Tag → [field type, count, offset of the values]. */
  entries: Map<number, { type: number; count: number; at: number }>
}

export interface TiffPages {
  count: number
  /** Decodes page `index` (0-based) as a greyscale raster; nothing of it is kept after. */
  decode(index: number): Raster
}

export function tiffPages(bytes: Uint8Array, limits: ReadLimits): TiffPages {
  const reader = new TiffReader(bytes)
  const directories = reader.chain(limits.maxPages * 2 + 2)
  const pages = reader.pages(directories)
  if (!pages.length) throw new ExtractionError('corrupt_document', 'The TIFF has no image.')
  checkPages(pages.length, limits)
  for (const page of pages) checkPixels(reader.first(page, 256, 0), reader.first(page, 257, 0), limits)
  const pixels = pages.map((page) => reader.pixels(page))
  checkDocumentPixels(sum(pixels), limits)
  const checks = new StripChecks()
  // The grey pages of the two pages before, one byte a pixel, may still be held while a page is
  // decoded: a value handed through `await` stays reachable from stale slots of the code that
  // awaited it until they are overwritten (measured, bench/decode-cost.ts; D395).
  const costs = pages.map((page, index) => reader.checkPage(page, limits, checks, (pixels[index - 1] ?? 0) + (pixels[index - 2] ?? 0)))
  // The decoder reads a private copy in which each directory ends the chain and leads nowhere else.
  const copy = bytes.slice()
  for (const directory of directories) reader.isolate(copy, directory)
  return {
    count: pages.length,
    decode(index) {
      // What reading the page before left is garbage by now: collected before this page is
      // decoded, and this page's rows and RGBA once it is grey, so that the pages of a document
      // never hold more than one page's cost, and the grey pages before, at once (D180, D395).
      const large = costs[index]! > COLLECT_AFTER_BYTES
      if (large && index > 0) Bun.gc(true)
      reader.writeUint32(copy, 4, pages[index]!.offset)
      // Maker notes are not parsed: they are directories of their own.
      const [ifd] = (UTIF.decode as (buffer: ArrayBuffer, options: object) => UTIF.IFD[])(copy.buffer, { parseMN: false, debug: false })
      if (!ifd) throw new ExtractionError('corrupt_document', 'The TIFF page could not be read.')
      UTIF.decodeImage(copy.buffer, ifd)
      const page = greyPage(ifd) ?? toGrey(UTIF.toRGBA8(ifd), ifd.width, ifd.height, 4)
      ;(ifd as { data?: unknown }).data = undefined
      if (large) Bun.gc(true)
      return { ...page, dpi: tiffDpi(ifd as Record<string, unknown>) }
    },
  }
}

/** The pixels of the document's largest page, its file's checks aside. */
export function tiffPagePixels(bytes: Uint8Array): number {
  const reader = new TiffReader(bytes)
  return Math.max(0, ...reader.pages(reader.chain(Number.MAX_SAFE_INTEGER)).map((page) => reader.pixels(page)))
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

class TiffReader {
  private readonly little: boolean
  private readonly view: DataView

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (bytes.length < 8) throw corrupt('is truncated')
    this.little = bytes[0] === 0x49
    if (this.u16(2) !== 42) throw corrupt('is not a classic TIFF (BigTIFF is not read)')
  }

  u16(at: number): number {
    return this.view.getUint16(at, this.little)
  }

  u32(at: number): number {
    return this.view.getUint32(at, this.little)
  }

  writeUint32(target: Uint8Array, at: number, value: number): void {
    new DataView(target.buffer, target.byteOffset, target.byteLength).setUint32(at, value, this.little)
  }

  /** The main chain of directories, each read and checked; a loop or more than `max` is refused. */
  chain(max: number): Directory[] {
    const directories: Directory[] = []
    const seen = new Set<number>()
    for (let offset = this.u32(4); offset !== 0; offset = this.u32(offset + 2 + this.u16(offset) * 12)) {
      if (seen.has(offset)) throw corrupt('has a chain of image directories that loops')
      if (directories.length >= max) throw corrupt(`has more than ${max} image directories`)
      seen.add(offset)
      directories.push(this.directory(offset))
    }
    return directories
  }

  private directory(offset: number): Directory {
    if (offset + 2 > this.bytes.length) throw corrupt('points outside the file')
    const count = this.u16(offset)
    if (count > MAX_ENTRIES || offset + 2 + count * 12 + 4 > this.bytes.length) throw corrupt('has an image directory outside the file')
    const entries: Directory['entries'] = new Map()
    for (let i = 0; i < count; i++) {
      const entry = offset + 2 + i * 12
      const [tag, type, valueCount] = [this.u16(entry), this.u16(entry + 2), this.u32(entry + 4)]
      const size = (TYPE_BYTES[type] ?? 0) * valueCount
      const at = size <= 4 ? entry + 8 : this.u32(entry + 8)
      // The decoder reads every value it is told of: they must all lie in the file.
      if (at + size > this.bytes.length) throw corrupt('has a field outside the file')
      entries.set(tag, { type, count: valueCount, at })
    }
    return { offset, entries }
  }

  /** The numbers of a field (SHORT or LONG), at most `max` of them. */
  values(directory: Directory, tag: number): number[] {
    const entry = directory.entries.get(tag)
    if (!entry || (entry.type !== 3 && entry.type !== 4)) return []
    const values: number[] = []
    for (let i = 0; i < entry.count; i++) values.push(entry.type === 3 ? this.u16(entry.at + i * 2) : this.u32(entry.at + i * 4))
    return values
  }

  first(directory: Directory, tag: number, fallback: number): number {
    return this.values(directory, tag)[0] ?? fallback
  }

  /** The directories that are pages: sub-images (thumbnails, reduced resolutions) are not. */
  pages(directories: Directory[]): Directory[] {
    return directories.filter((directory) => !(this.first(directory, 254, 0) & 1))
  }

  /** A page's pixels, as its directory gives its size. */
  pixels(page: Directory): number {
    return this.first(page, 256, 0) * this.first(page, 257, 0)
  }

  /**
   * Refuses a page whose decoding would exceed the budget, and gives what it costs: what is
   * `held` meanwhile, its rows as decoded, a strip or tile as the decoder's inflater holds it (or a
   * JPEG strip's coefficients and samples), then the grey page, with the RGBA copy the decoder
   * converts to unless the page is one-bit or eight-bit grey; a compression outside those of scans;
   * strips or tiles outside the file, more of them than the page has room for, or whose data
   * unpacks to more than their share of the page.
   */
  checkPage(page: Directory, limits: ReadLimits, checks: StripChecks, held: number): number {
    const width = this.first(page, 256, 0)
    const height = this.first(page, 257, 0)
    const bitsPerPixel = this.first(page, 258, 1) * this.first(page, 277, 1)
    const compression = this.first(page, 259, NONE)
    if (!SUPPORTED_COMPRESSIONS.has(compression)) throw corrupt(`uses a compression (${compression}) that is not read`)
    if (bitsPerPixel < 1 || bitsPerPixel > 128) throw corrupt('has an unknown pixel format')
    const rowBytes = Math.ceil((width * bitsPerPixel) / 8)
    const tiled = page.entries.has(322)
    const [partWidth, partHeight] = tiled
      ? [this.first(page, 322, 0), this.first(page, 323, 0)]
      : [width, Math.min(this.first(page, 278, height) || height, height)]
    if (!(partWidth > 0 && partHeight > 0)) throw corrupt('has tiles or strips without a size')
    const parts = tiled ? Math.ceil(width / partWidth) * Math.ceil(height / partHeight) : Math.ceil(height / partHeight)
    const offsets = this.values(page, tiled ? 324 : 273)
    const lengths = this.values(page, tiled ? 325 : 279)
    if (offsets.length > parts) throw corrupt('has more strips or tiles than its page holds')
    const partBytes = partHeight * Math.ceil((partWidth * bitsPerPixel) / 8)
    const grey = GREY_PHOTOMETRICS.has(this.first(page, 262, bitsPerPixel === 1 ? 0 : 2)) && [1, 8].includes(bitsPerPixel)
    let partCost = DEFLATE.has(compression) ? DEFLATE_STRIP_FACTOR * partBytes : 0
    offsets.forEach((offset, i) => {
      const length = lengths[i] ?? (compression === NONE ? partBytes : 0)
      if (offset + length > this.bytes.length) throw corrupt('has image data outside the file')
      const data = this.bytes.subarray(offset, offset + length)
      // The decoder inflates a strip whole, whatever it holds.
      if (DEFLATE.has(compression) && checks.inflatesPast(data, partBytes)) throw corrupt('holds more image data than its pages declare')
      // A JPEG strip is decoded at the size its own header gives, every coefficient kept.
      if (compression === JPEG) {
        const frame = jpegFrame(data)
        if (!frame) return
        if (frame.width * frame.height > partWidth * partHeight) throw corrupt('holds more image data than its pages declare')
        partCost = Math.max(partCost, jpegCoefficientBytes(frame) + frame.width * frame.height * frame.components.length)
      }
    })
    const cost = held + height * rowBytes + partCost + width * height * (grey ? 1 : 5)
    checkImageBytes(cost, limits)
    return cost
  }

  /** In `copy`, the directory ends the chain and its sub-directory fields lead nowhere. */
  isolate(copy: Uint8Array, directory: Directory): void {
    const target = new DataView(copy.buffer, copy.byteOffset, copy.byteLength)
    const count = this.u16(directory.offset)
    for (let i = 0; i < count; i++) {
      const entry = directory.offset + 2 + i * 12
      if (SUB_DIRECTORY_TAGS.has(this.u16(entry))) target.setUint16(entry, INERT_TAG, this.little)
    }
    target.setUint32(directory.offset + 2 + count * 12, 0, this.little)
  }
}

/**
 * The Deflate strips of a document inflated to check them, their output garbage at once: collected
 * whenever more than COLLECT_AFTER_BYTES of it may be waiting, so that checking many large
 * strips never holds more than one page's decoding would (D395).
 */
class StripChecks {
  private uncollected = 0

  inflatesPast(data: Uint8Array, limit: number): boolean {
    const past = inflatesPast(data, 'zlib', limit)
    // zlib gathers its output in chunks, then joins them: twice the strip at most.
    this.uncollected += 2 * limit
    if (this.uncollected > COLLECT_AFTER_BYTES) {
      Bun.gc(true)
      this.uncollected = 0
    }
    return past
  }
}

/**
 * A one-bit or eight-bit grey page straight from its rows, the values UTIF.toRGBA8 then toGrey
 * give (white is zero or black is zero, one sample a pixel), without the RGBA between them;
 * undefined for any other kind of page.
 */
function greyPage(ifd: UTIF.IFD): Raster | undefined {
  const tags = ifd as unknown as Record<string, number[] | undefined>
  const bits = tags.t258?.[0] ?? 1
  const samples = tags.t277?.[0] ?? tags.t258?.length ?? 1
  const photometric = tags.t262?.[0] ?? (bits === 1 ? 0 : 2)
  const data = ifd.data as Uint8Array | undefined
  if (!data || samples !== 1 || !GREY_PHOTOMETRICS.has(photometric) || (bits !== 1 && bits !== 8)) return undefined
  const { width, height } = ifd
  const grey = new Uint8Array(width * height)
  const rowBytes = Math.ceil((bits * width) / 8)
  const whiteIsZero = photometric === 0
  for (let y = 0; y < height; y++) {
    const row = y * rowBytes
    const out = y * width
    for (let x = 0; x < width; x++) {
      const value = bits === 1 ? ((data[row + (x >> 3)]! >> (7 - (x & 7))) & 1) * 255 : data[row + x]!
      grey[out + x] = whiteIsZero ? 255 - value : value
    }
  }
  return { width, height, data: grey }
}

function corrupt(what: string): ExtractionError {
  return new ExtractionError('corrupt_document', `The TIFF ${what}.`)
}

/** XResolution (tag 282, a rational) in ResolutionUnit (tag 296: 2 inch, the default, 3 cm). */
function tiffDpi(tags: Record<string, unknown>): number | undefined {
  const resolution = (tags.t282 as number[][] | number[] | undefined)?.[0]
  const value = Array.isArray(resolution) ? resolution[0]! / (resolution[1] || 1) : resolution
  if (!value || !Number.isFinite(value)) return undefined
  const unit = (tags.t296 as number[] | undefined)?.[0] ?? 2
  return unit === 3 ? value * 2.54 : unit === 2 ? value : undefined
}
