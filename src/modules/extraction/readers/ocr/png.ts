/**
 * What a PNG will cost to decode, read from all of its chunks before the decoder sees it: the one
 * IHDR the decoder obeys (a second IHDR is not a PNG), and the image data inflated, which may hold
 * no more than the header's rows need.
 */
import { ExtractionError } from '../../errors'
import { inflatesPast } from '../inflate'
import { checkImageBytes, checkPixels } from '../limits'
import type { ReadLimits } from '../types'

const SIGNATURE_BYTES = 8
/** Samples per pixel of each PNG colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }

interface PngHeader {
  width: number
  height: number
  depth: number
  colourType: number
  interlaced: boolean
}

/**
 * Checks a PNG against the limits: every header chunk, the pixels, the memory its decoding takes
 * (the inflated rows twice, as the decoder gathers then joins them, its samples, and the grey
 * page), and that the image data inflates to no more than its rows.
 */
export function checkPng(bytes: Uint8Array, limits: ReadLimits): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let header: PngHeader | undefined
  const data: Uint8Array[] = []
  let at = SIGNATURE_BYTES
  while (at + 8 <= bytes.length) {
    const length = view.getUint32(at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    const start = at + 8
    if (start + length > bytes.length) throw new ExtractionError('corrupt_document', 'The PNG is truncated.')
    if (type === 'IHDR') {
      if (header || length < 13) throw new ExtractionError('corrupt_document', 'The PNG has more than one image header.')
      header = {
        width: view.getUint32(start),
        height: view.getUint32(start + 4),
        depth: bytes[start + 8]!,
        colourType: bytes[start + 9]!,
        interlaced: bytes[start + 12] === 1,
      }
      checkPixels(header.width, header.height, limits)
    } else if (type === 'IDAT') {
      if (!header) throw new ExtractionError('corrupt_document', 'The PNG has image data before its header.')
      data.push(bytes.subarray(start, start + length))
    } else if (type === 'IEND') break
    at = start + length + 4
  }
  if (!header) throw new ExtractionError('corrupt_document', 'The PNG has no image header.')
  const channels = CHANNELS[header.colourType]
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(header.depth)) throw new ExtractionError('corrupt_document', 'The PNG has an unknown pixel format.')
  const { width, height, depth } = header
  const rows = rowBytes(header, channels)
  const pixels = width * height
  const samples = pixels * channels * (depth === 16 ? 2 : 1)
  checkImageBytes(2 * rows + samples + (header.colourType === 3 ? pixels * 3 : 0) + pixels, limits)
  const joined = new Uint8Array(data.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of data) {
    joined.set(part, offset)
    offset += part.length
  }
  if (inflatesPast(joined, 'zlib', rows)) throw new ExtractionError('corrupt_document', 'The PNG holds more image data than its header declares.')
}

/** Bytes of the filtered rows the header declares, every Adam7 pass counted when interlaced. */
function rowBytes({ width, height, depth, interlaced }: PngHeader, channels: number): number {
  const line = (columns: number) => (columns > 0 ? 1 + Math.ceil((columns * channels * depth) / 8) : 0)
  if (!interlaced) return height * line(width)
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ] as const
  return passes.reduce((sum, [x0, y0, dx, dy]) => {
    const columns = Math.ceil((width - x0) / dx)
    const lines = Math.ceil((height - y0) / dy)
    return sum + (columns > 0 && lines > 0 ? lines * line(columns) : 0)
  }, 0)
}
