/** Plain text and Markdown → page texts: a form feed starts a page; Markdown markup is thinned. */

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
  return text.split('\f').map((page) => page.replace(/[ \t]+$/gm, ''))
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

function isTableSeparator(line: string): boolean {
  return /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line) && line.includes('|')
}

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
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(/\s+#+\s*$/, '')
    .replace(/^\s{0,3}(?:>\s?)+/, '')
    .replace(/^\s{0,3}(?:[-*_]\s*){3,}$/, '')
}

function stripInline(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?!\w)/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)/g, '$1$2')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/<br\s*\/?>/gi, ' ')
}
