/**
 * Media-type detection from the bytes alone (D21: `file.media_type` is what the service found,
 * never what the client claimed). Anything not recognised is undefined, which the caller turns
 * into a 415.
 */
import { tableSeparatorCells } from './text'
import { MEDIA_TYPES, type MediaType } from './types'
import { zipEntries } from './zip'

/** How far into a file the text checks look; enough to judge, cheap on a 20 MB upload. */
const SNIFF_BYTES = 64 * 1024

/** The type of a document judged from its content, or undefined when it is not one we read. */
export function detectMediaType(bytes: Uint8Array): MediaType | undefined {
  if (bytes.length === 0) return undefined
  if (isPdf(bytes)) return MEDIA_TYPES.pdf
  const image = imageType(bytes)
  if (image) return image
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return isDocx(bytes) ? MEDIA_TYPES.docx : undefined
  const text = decodeTextSniff(bytes)
  if (text === undefined) return undefined
  if (looksLikeHtml(text)) return MEDIA_TYPES.html
  return looksLikeMarkdown(text) ? MEDIA_TYPES.markdown : MEDIA_TYPES.text
}

function startsWith(bytes: Uint8Array, prefix: number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false
  return prefix.every((byte, i) => bytes[at + i] === byte)
}

/** Images by their signatures: JPEG, PNG, TIFF (either byte order), WebP (a RIFF container) and HEIC. */
function imageType(bytes: Uint8Array): MediaType | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return MEDIA_TYPES.jpeg
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return MEDIA_TYPES.png
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return MEDIA_TYPES.tiff
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return MEDIA_TYPES.webp
  if (isHeic(bytes)) return MEDIA_TYPES.heic
  return undefined
}

/** HEVC-coded HEIF brands (what phones save); AVIF and other HEIF codings are not read. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs'])

/** A HEIF file (an ISO media `ftyp` box first) whose major brand, or a compatible one, is HEVC-coded. */
function isHeic(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, [0x66, 0x74, 0x79, 0x70], 4)) return false
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0
  const end = Math.min(boxSize, bytes.length, 256)
  const brands: string[] = []
  for (let at = 8; at + 4 <= end; at += 4) if (at !== 12) brands.push(String.fromCharCode(...bytes.subarray(at, at + 4)))
  return brands.some((brand) => HEIC_BRANDS.has(brand))
}

/** `%PDF-` within the first KiB: the PDF spec tolerates a little junk before the header. */
function isPdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024))
  return head.startsWith('%PDF-') || /^[\s\S]{0,1019}%PDF-\d/.test(head)
}

/**
 * A ZIP is a DOCX when it holds the main WordprocessingML part; only its central directory is
 * read, and an archive of more entries than a document has is not one (D120).
 */
function isDocx(bytes: Uint8Array): boolean {
  const entries = zipEntries(bytes)
  return Array.isArray(entries) && entries.some((entry) => entry.name === 'word/document.xml')
}

/**
 * The first part of the file as text when it is plausibly UTF-8 text: valid UTF-8 (a sequence
 * cut at the sniff boundary is tolerated), no NUL bytes, and control characters other than
 * tab/CR/LF/FF rare. UTF-16 and binaries fail here.
 */
function decodeTextSniff(bytes: Uint8Array): string | undefined {
  let head = bytes.subarray(0, SNIFF_BYTES)
  if (head.includes(0)) return undefined
  if (bytes.length > SNIFF_BYTES) head = trimPartialUtf8(head)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head)
  } catch {
    return undefined
  }
  let controls = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) controls++
    else if (code === 0x7f) controls++
  }
  if (controls > Math.max(2, text.length * 0.01)) return undefined
  return text.replace(/^\uFEFF/, '')
}

/** Drops a multi-byte UTF-8 sequence that the sniff window cut in two. */
function trimPartialUtf8(bytes: Uint8Array): Uint8Array {
  let end = bytes.length
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back]!
    if ((byte & 0xc0) === 0x80) continue
    if (byte >= 0xc0) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2
      if (back < needed) end -= back
    }
    break
  }
  return bytes.subarray(0, end)
}

/** A common tag or a doctype opening a document, once its leading comments are passed. */
const HTML_TAG = /^<(?:!doctype\s+html|html|head|body|meta|title|link|div|p|table|h[1-6]|span|section|article|main|header|ul|ol|br|style|script)[\s>/]/i

/**
 * HTML when the text opens (after whitespace and comments) with a doctype or a common tag. The
 * comments are passed one by one (D186): an expression that skipped them all at once backtracked
 * exponentially over a text of empty comments, on the HTTP thread.
 */
function looksLikeHtml(text: string): boolean {
  let start = text.trimStart()
  while (start.startsWith('<!--')) {
    const end = start.indexOf('-->', 4)
    if (end === -1) return false
    start = start.slice(end + 3).trimStart()
  }
  if (HTML_TAG.test(start)) return true
  // An XML prolog followed by an XHTML root.
  return /^<\?xml[^>]{0,1000}>\s*(?:<!doctype\s+html|<html)[\s>]/i.test(start)
}

/**
 * Markdown when at least two signs of its structure appear (one heading or fenced block alone
 * counts double): plain text with a stray "#" or "- " stays text/plain. Every sign is looked for
 * line by line, with nothing that scans past the line or backtracks over it (D186).
 */
function looksLikeMarkdown(text: string): boolean {
  let score = 0
  if (/^#{1,6} \S/m.test(text)) score += 2
  if (/^(?:```|~~~)/m.test(text)) score += 2
  if (text.split('\n').some((line) => tableSeparatorCells(line) >= 2)) score += 2
  if (/\[[^\][\n]+\]\([^()\s]+\)/.test(text)) score += 1
  if (/^[ \t]{0,3}[-*+] \S/m.test(text)) score += 1
  if (/^[ \t]{0,3}\d{1,3}\. \S/m.test(text)) score += 1
  if (/\*\*\S[^*\n]*\S\*\*|__\S[^_\n]*\S__/.test(text)) score += 1
  if (/^> \S/m.test(text)) score += 1
  return score >= 2
}
