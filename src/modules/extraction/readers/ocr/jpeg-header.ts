/** The size a JPEG declares, read from its markers without decoding it. */

/** A JPEG's frame header (SOFn): its size, whether it is progressive, and each component's sampling. */
export interface JpegFrame {
  width: number
  height: number
  /** SOF2, SOF6, SOF10, SOF14: the image comes in several scans, and decoders keep every coefficient until the last. */
  progressive: boolean
  components: { horizontal: number; vertical: number }[]
}

/** The first frame header (SOFn) of JPEG data, when it has one. */
export function jpegFrame(bytes: Uint8Array): JpegFrame | undefined {
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
    if (isFrame) {
      const count = bytes[at + 9] ?? 0
      const components: JpegFrame['components'] = []
      for (let i = 0; i < count && at + 12 + i * 3 <= bytes.length; i++) {
        const factors = bytes[at + 11 + i * 3]!
        components.push({ horizontal: Math.max(1, factors >> 4), vertical: Math.max(1, factors & 0x0f) })
      }
      return {
        height: (bytes[at + 5]! << 8) | bytes[at + 6]!,
        width: (bytes[at + 7]! << 8) | bytes[at + 8]!,
        progressive: (marker & 0x03) === 0x02,
        components,
      }
    }
    at += 2 + length
  }
  return undefined
}

/** Width and height from the first frame header (SOFn) of JPEG data, when it has one. */
export function jpegFrameSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const frame = jpegFrame(bytes)
  return frame && { width: frame.width, height: frame.height }
}

/**
 * Bytes of every DCT coefficient of a frame (two each, 64 a block), blocks counted to whole MCUs
 * as decoders lay them out (D183): what libjpeg keeps of a progressive JPEG, and what PDF.js's and
 * jpeg-js's decoders keep of any JPEG, before the first pixel comes out.
 */
export function jpegCoefficientBytes({ width, height, components }: JpegFrame): number {
  const maxH = Math.max(1, ...components.map((c) => c.horizontal))
  const maxV = Math.max(1, ...components.map((c) => c.vertical))
  const mcusPerLine = Math.ceil(width / (8 * maxH))
  const mcusPerColumn = Math.ceil(height / (8 * maxV))
  return components.reduce((sum, c) => sum + mcusPerLine * c.horizontal * mcusPerColumn * c.vertical * 128, 0)
}

/**
 * Start-of-scan markers in JPEG data. Inside entropy-coded data a 0xFF byte is followed by 0x00
 * or a restart marker, so every 0xFF 0xDA is a scan (an EXIF thumbnail's included).
 */
export function jpegScanCount(bytes: Uint8Array): number {
  let scans = 0
  for (let at = bytes.indexOf(0xff); at !== -1 && at + 1 < bytes.length; at = bytes.indexOf(0xff, at + 1)) if (bytes[at + 1] === 0xda) scans++
  return scans
}
