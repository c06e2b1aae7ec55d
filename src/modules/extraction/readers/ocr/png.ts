/**
 * PNG → a grey page, decoded here (D122, D181). All of the file's chunks are read before anything
 * is decoded: the one IHDR (a second IHDR is not a PNG), the palette, the image data, the
 * resolution. Ancillary chunks are never decoded, so an ICC profile (iCCP) or compressed text
 * (zTXt, iTXt) that inflates to gigabytes costs nothing. The image data is inflated once, with
 * the rows the header declares as its ceiling, and each row is unfiltered and turned grey as it
 * comes: the decoding holds the inflated rows and the grey page, and nothing else of size.
 */
import { ExtractionError } from '../../errors'
import { inflate } from '../inflate'
import { checkImageBytes, checkPixels } from '../limits'
import type { ReadLimits } from '../types'
import type { Raster } from './raster'

const SIGNATURE_BYTES = 8
/** Samples per pixel of each PNG colour type, and the bit depths each allows. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] }
/** Adam7's passes: first column and row, then the step between columns and between rows. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const

interface PngHeader {
  width: number
  height: number
  depth: number
  colourType: number
  interlaced: boolean
}

/**
 * Checks a PNG against the limits and gives its decoder: the pixels, and the memory its decoding
 * takes (the inflated rows twice, as zlib gathers then joins them, the image data joined, and the
 * grey page); throws before anything is inflated.
 */
export function pngPage(bytes: Uint8Array, limits: ReadLimits): () => Raster {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let header: PngHeader | undefined
  let palette: Uint8Array | undefined
  let dpi: number | undefined
  const data: Uint8Array[] = []
  let at = SIGNATURE_BYTES
  while (at + 8 <= bytes.length) {
    const length = view.getUint32(at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    const start = at + 8
    if (start + length > bytes.length) throw corrupt('is truncated')
    if (type === 'IHDR') {
      if (header || length < 13) throw corrupt('has more than one image header')
      header = {
        width: view.getUint32(start),
        height: view.getUint32(start + 4),
        depth: bytes[start + 8]!,
        colourType: bytes[start + 9]!,
        interlaced: bytes[start + 12] === 1,
      }
      checkPixels(header.width, header.height, limits)
    } else if (type === 'IDAT') {
      if (!header) throw corrupt('has image data before its header')
      data.push(bytes.subarray(start, start + length))
    } else if (type === 'PLTE') palette = bytes.subarray(start, start + length - (length % 3))
    else if (type === 'pHYs' && length >= 9 && bytes[start + 8] === 1) {
      // Pixels per metre, as dots per inch.
      const perMetre = view.getUint32(start)
      if (perMetre > 0) dpi = Math.round(perMetre * 0.0254)
    } else if (type === 'IEND') break
    at = start + length + 4
  }
  if (!header) throw corrupt('has no image header')
  const channels = CHANNELS[header.colourType]
  if (channels === undefined || !DEPTHS[header.colourType]!.includes(header.depth)) throw corrupt('has an unknown pixel format')
  if (header.colourType === 3 && !palette) throw corrupt('has no palette')
  const rows = rowBytes(header, channels)
  const compressed = data.reduce((sum, part) => sum + part.length, 0)
  checkImageBytes(2 * rows + compressed + header.width * header.height, limits)
  return () => {
    const joined = new Uint8Array(compressed)
    let offset = 0
    for (const part of data) {
      joined.set(part, offset)
      offset += part.length
    }
    let inflated: Uint8Array
    try {
      inflated = inflate(joined, 'zlib', rows)
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw corrupt('holds more image data than its header declares')
      throw corrupt('has image data that cannot be inflated')
    }
    if (inflated.length < rows) throw corrupt('has less image data than its header declares')
    return { ...decodeRows(inflated, header, channels, palette), ...(dpi && { dpi }) }
  }
}

/** Bytes of the filtered rows the header declares, every Adam7 pass counted when interlaced. */
function rowBytes(header: PngHeader, channels: number): number {
  return passes(header).reduce((sum, pass) => sum + pass.lines * (1 + lineBytes(pass.columns, channels, header.depth)), 0)
}

function lineBytes(columns: number, channels: number, depth: number): number {
  return Math.ceil((columns * channels * depth) / 8)
}

/** The image as passes of rows: one pass, or Adam7's seven (those with no pixels left out). */
function passes({ width, height, interlaced }: PngHeader): { x0: number; y0: number; dx: number; dy: number; columns: number; lines: number }[] {
  if (!interlaced) return [{ x0: 0, y0: 0, dx: 1, dy: 1, columns: width, lines: height }]
  return ADAM7.map(([x0, y0, dx, dy]) => ({ x0, y0, dx, dy, columns: Math.ceil((width - x0) / dx), lines: Math.ceil((height - y0) / dy) })).filter(
    (pass) => pass.columns > 0 && pass.lines > 0,
  )
}

/**
 * The grey page: each row unfiltered into a line buffer (the row above kept for the filters
 * that use it), and its pixels turned grey as raster.ts's toGrey does (the same arithmetic, so
 * the page is the same to the byte): a luma of RGB, an alpha laid over white, samples scaled to
 * eight bits, a palette looked up.
 */
function decodeRows(inflated: Uint8Array, header: PngHeader, channels: number, palette: Uint8Array | undefined): Raster {
  const { width, height, depth, colourType } = header
  const grey = new Uint8Array(width * height)
  const bytesPerPixel = Math.max(1, (channels * depth) >> 3)
  const maxValue = colourType === 3 ? 255 : (1 << depth) - 1
  const scale = 255 / maxValue
  const paletteGrey = colourType === 3 ? greyPalette(palette!) : undefined
  const samples = new Float64Array(channels)
  let at = 0
  for (const pass of passes(header)) {
    const length = lineBytes(pass.columns, channels, depth)
    let previous = new Uint8Array(length)
    let line = new Uint8Array(length)
    for (let row = 0; row < pass.lines; row++) {
      unfilter(inflated[at]!, inflated.subarray(at + 1, at + 1 + length), line, previous, bytesPerPixel)
      at += 1 + length
      const y = pass.y0 + row * pass.dy
      for (let column = 0; column < pass.columns; column++) {
        const target = y * width + pass.x0 + column * pass.dx
        if (paletteGrey) {
          grey[target] = paletteGrey[sample(line, column, 0, 1, depth)]!
          continue
        }
        for (let c = 0; c < channels; c++) samples[c] = sample(line, column, c, channels, depth)
        grey[target] = toGreyPixel(samples, channels, scale)
      }
      ;[previous, line] = [line, previous]
    }
  }
  return { width, height, data: grey }
}

/** The `channel`th sample of a pixel in an unfiltered line, of any bit depth. */
function sample(line: Uint8Array, pixel: number, channel: number, channels: number, depth: number): number {
  const index = pixel * channels + channel
  if (depth === 8) return line[index]!
  if (depth === 16) return (line[index * 2]! << 8) | line[index * 2 + 1]!
  const bit = index * depth
  return (line[bit >> 3]! >> (8 - depth - (bit & 7))) & ((1 << depth) - 1)
}

/** One pixel as toGrey makes it (raster.ts): luma, scaled, alpha over white. */
function toGreyPixel(samples: Float64Array, channels: number, scale: number): number {
  let grey = channels >= 3 ? (samples[0]! * 299 + samples[1]! * 587 + samples[2]! * 114) / 1000 : samples[0]!
  grey *= scale
  if (channels === 2 || channels === 4) {
    const alpha = (samples[channels - 1]! * scale) / 255
    grey = grey * alpha + 255 * (1 - alpha)
  }
  return grey
}

/** The grey of each palette entry (an index past the palette is white). */
function greyPalette(palette: Uint8Array): Uint8Array {
  const table = new Uint8Array(256).fill(255)
  for (let i = 0; i * 3 + 2 < palette.length && i < 256; i++) table[i] = (palette[i * 3]! * 299 + palette[i * 3 + 1]! * 587 + palette[i * 3 + 2]! * 114) / 1000
  return table
}

/** Undoes a row's filter (none, sub, up, average, Paeth) into `line`, `previous` being the row above unfiltered. */
function unfilter(type: number, row: Uint8Array, line: Uint8Array, previous: Uint8Array, bytesPerPixel: number): void {
  const length = line.length
  switch (type) {
    case 0:
      line.set(row)
      return
    case 1:
      for (let i = 0; i < length; i++) line[i] = row[i]! + (i >= bytesPerPixel ? line[i - bytesPerPixel]! : 0)
      return
    case 2:
      for (let i = 0; i < length; i++) line[i] = row[i]! + previous[i]!
      return
    case 3:
      for (let i = 0; i < length; i++) line[i] = row[i]! + (((i >= bytesPerPixel ? line[i - bytesPerPixel]! : 0) + previous[i]!) >> 1)
      return
    case 4:
      for (let i = 0; i < length; i++) {
        const left = i >= bytesPerPixel ? line[i - bytesPerPixel]! : 0
        const up = previous[i]!
        const upLeft = i >= bytesPerPixel ? previous[i - bytesPerPixel]! : 0
        const estimate = left + up - upLeft
        const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)]
        line[i] = row[i]! + (toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft)
      }
      return
  }
  throw corrupt('has a row of an unknown filter')
}

function corrupt(what: string): ExtractionError {
  return new ExtractionError('corrupt_document', `The PNG ${what}.`)
}
