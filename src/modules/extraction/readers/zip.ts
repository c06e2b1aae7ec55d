/**
 * The entries of a ZIP archive (DOCX), read from its central directory without inflating
 * anything: names, the sizes the archive declares, and where their data is. A part is inflated
 * with its declared size as the ceiling, so these sizes bound what reading the parts costs.
 */
import { inflate } from './inflate'

/** Entries in an archive that is read at all: a DOCX has a few dozen. */
export const MAX_ZIP_ENTRIES = 10_000

export interface ZipEntry {
  name: string
  /** Declared size once inflated. */
  size: number
  /** 0 stored, 8 Deflate. */
  method: number
  compressedSize: number
  /** Offset of the entry's local header. */
  local: number
}

const END_OF_DIRECTORY = 0x06054b50
const ZIP64_LOCATOR = 0x07064b50
const ZIP64_END = 0x06064b50
const CENTRAL_HEADER = 0x02014b50
const CENTRAL_HEADER_BYTES = 46
const LOCAL_HEADER = 0x04034b50
const LOCAL_HEADER_BYTES = 30

/**
 * The archive's entries, or a reason it is not read: not a ZIP, a directory outside the file, or
 * more than MAX_ZIP_ENTRIES entries (a count checked before any entry is read).
 */
export function zipEntries(bytes: Uint8Array): ZipEntry[] | { refused: 'not_zip' | 'too_many_entries'; count?: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u16 = (at: number) => view.getUint16(at, true)
  const u32 = (at: number) => view.getUint32(at, true)
  let end = bytes.length - 22
  // The end record sits in the last 64 KiB (its comment is at most 65535 bytes).
  while (end >= 0 && bytes.length - end <= 65_557 && u32(end) !== END_OF_DIRECTORY) end--
  if (end < 0 || u32(end) !== END_OF_DIRECTORY) return { refused: 'not_zip' }
  let count = u16(end + 10)
  let directory = u32(end + 16)
  if (end >= 20 && u32(end - 20) === ZIP64_LOCATOR) {
    const zip64 = Number(view.getBigUint64(end - 12, true))
    if (zip64 + 56 > bytes.length || u32(zip64) !== ZIP64_END) return { refused: 'not_zip' }
    count = Number(view.getBigUint64(zip64 + 32, true))
    directory = Number(view.getBigUint64(zip64 + 48, true))
  }
  if (count > MAX_ZIP_ENTRIES) return { refused: 'too_many_entries', count }
  const entries: ZipEntry[] = []
  let at = directory
  for (let i = 0; i < count; i++) {
    if (at + CENTRAL_HEADER_BYTES > bytes.length || u32(at) !== CENTRAL_HEADER) return { refused: 'not_zip' }
    const nameLength = u16(at + 28)
    const next = at + CENTRAL_HEADER_BYTES + nameLength + u16(at + 30) + u16(at + 32)
    if (next > bytes.length) return { refused: 'not_zip' }
    // A ZIP64 size sits in the extra field; such a part is far past any budget anyway.
    const size = u32(at + 24) === 0xffffffff ? Number.POSITIVE_INFINITY : u32(at + 24)
    entries.push({
      name: new TextDecoder().decode(bytes.subarray(at + CENTRAL_HEADER_BYTES, at + CENTRAL_HEADER_BYTES + nameLength)),
      size,
      method: u16(at + 10),
      compressedSize: u32(at + 20),
      local: u32(at + 42),
    })
    at = next
  }
  return entries
}

/**
 * The entry's content, inflated to at most its declared size; throws when its data lies outside
 * the archive, uses another compression, or holds more than it declares.
 */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const { local } = entry
  if (local + LOCAL_HEADER_BYTES > bytes.length || view.getUint32(local, true) !== LOCAL_HEADER) throw new Error(`${entry.name} has no local header`)
  const start = local + LOCAL_HEADER_BYTES + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
  const data = bytes.subarray(start, start + entry.compressedSize)
  if (start + entry.compressedSize > bytes.length) throw new Error(`${entry.name} is truncated`)
  if (entry.method === 0) return data
  if (entry.method !== 8) throw new Error(`${entry.name} uses an unknown compression`)
  try {
    return inflate(data, 'raw', entry.size)
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new Error(`${entry.name} holds more than the size it declares`)
    throw new Error(`${entry.name} could not be inflated`)
  }
}
