/** The size a JPEG declares, read from its markers without decoding it. */

/** Width and height from the first frame header (SOFn) of JPEG data, when it has one. */
export function jpegFrameSize(bytes: Uint8Array): { width: number; height: number } | undefined {
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
  return undefined
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
