/**
 * Plain text and Markdown → page texts: a form feed starts a page; Markdown markup is thinned.
 * Linear in the text (D186): no expression here scans further than the next character that could
 * end what it matches, and an inline span (emphasis, a link) is at most a few hundred characters.
 */

const UTF8 = new TextDecoder('utf-8')

/**
 * The text of a document in UTF-8, as the text, Markdown and HTML readers take it: invalid bytes
 * become U+FFFD, and a leading byte-order mark goes (the decoder drops one, the replace a second).
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return UTF8.decode(bytes).replace(/^\uFEFF/, '')
}

/** Decodes UTF-8 (BOM stripped, CRLF normalised) and splits pages at form feeds. */
export function readText(bytes: Uint8Array): string[] {
  const text = decodeUtf8(bytes).replace(/\r\n?/g, '\n')
  return text.split('\f').map((page) => page.split('\n').map(trimSpacesAndTabs).join('\n'))
}

/** A line without its trailing spaces and tabs (a loop: `/[ \t]+$/` rescans a long run from each of its characters). */
export function trimSpacesAndTabs(line: string): string {
  let end = line.length
  while (end > 0 && (line.charCodeAt(end - 1) === 0x20 || line.charCodeAt(end - 1) === 0x09)) end--
  return end === line.length ? line : line.slice(0, end)
}

/**
 * Reads Markdown as text with the markup lightly removed: heading hashes, emphasis, link and
 * image syntax, fences and blockquote marks go; table rows stay rows with tab-separated cells
 * (their |---| separator line is dropped), list markers stay.
 */
export function readMarkdown(bytes: Uint8Array): string[] {
  return readText(bytes).map((page) => {
    let inFence = false
    const lines: string[] = []
    for (const line of page.split('\n')) {
      if (/^\s{0,3}(?:```|~~~)/.test(line)) {
        inFence = !inFence
        continue
      }
      if (inFence) {
        lines.push(line)
        continue
      }
      if (isTableSeparator(line)) continue
      lines.push(stripInline(tableRow(line) ?? stripBlock(line)))
    }
    return lines.join('\n')
  })
}

/** A table's |---|:---:| line: cells of three dashes or more (maybe aligned with colons) between pipes. */
function isTableSeparator(line: string): boolean {
  return tableSeparatorCells(line) >= 1
}

/** Cells of a table separator line (0 when it is none), found cell by cell. */
export function tableSeparatorCells(line: string): number {
  const trimmed = line.trim()
  if (!trimmed.includes('|')) return 0
  const inner = trimmed.slice(trimmed.startsWith('|') ? 1 : 0, trimmed.length - (trimmed.endsWith('|') && trimmed.length > 1 ? 1 : 0))
  const cells = inner.split('|')
  return cells.every((cell) => SEPARATOR_CELL.test(cell)) ? cells.length : 0
}

const SEPARATOR_CELL = /^\s*:?-{3,}:?\s*$/

/** "| a | b |" → "a\tb"; undefined for lines that are not table rows. */
function tableRow(line: string): string | undefined {
  const trimmed = line.trim()
  if (!trimmed.startsWith('|') || trimmed.length < 3) return undefined
  const cells = trimmed
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
  return cells.map((cell) => cell.trim().replace(/\\\|/g, '|')).join('\t')
}

function stripBlock(line: string): string {
  return withoutClosingHashes(line.replace(/^\s{0,3}#{1,6}\s+/, ''))
    .replace(/^\s{0,3}(?:>\s?)+/, '')
    .replace(/^\s{0,3}(?:[-*_]\s*){3,}$/, '')
}

/** A heading's closing hashes gone ("Title ##" → "Title"), found from the line's end. */
function withoutClosingHashes(line: string): string {
  const end = line.trimEnd()
  let hashes = end.length
  while (hashes > 0 && end[hashes - 1] === '#') hashes--
  if (hashes === end.length || hashes === 0 || !/\s/.test(end[hashes - 1]!)) return line
  return end.slice(0, hashes).trimEnd()
}

/** Longest emphasis or strikethrough span stripped: a real one is a few words (D186). */
function stripInline(line: string): string {
  return line
    .replace(/!\[([^\][]{0,500})\]\([^()]{0,2000}\)/g, '$1')
    .replace(/\[([^\][]{1,500})\]\([^()]{0,2000}\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.{1,300}?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?!\w)/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)/g, '$1$2')
    .replace(/~~(?=\S)(.{1,300}?)(?<=\S)~~/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/<br\s*\/?>/gi, ' ')
}
