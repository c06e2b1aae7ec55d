/**
 * DOCX → page texts. Reads word/document.xml (and the page headers, which often carry an
 * invoice's letterhead): paragraphs become lines, table rows become lines with their cells
 * separated by tabs, and page breaks — explicit or the ones Word recorded when it last laid the
 * document out — start a new page.
 */
import { strFromU8 } from 'fflate'
import { ExtractionError } from '../errors'
import { checkInflatedBytes, checkParts, collectingGarbage } from './limits'
import type { ReadLimits } from './types'
import { decodeEntities } from './xml'
import { MAX_ZIP_ENTRIES, readZipEntry, zipEntries } from './zip'

/** Page headers read: Word makes a few per section; more is not a document. */
const MAX_HEADER_PARTS = 64

const TOKEN = /<(\/?)([A-Za-z_][\w.-]*:?[\w.-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|<!\[CDATA\[([\s\S]*?)\]\]>|<[?!][^>]*>|([^<]+)/g

const isTextPart = (name: string) => name === 'word/document.xml' || /^word\/header\d*\.xml$/.test(name)

/**
 * Reads the text of a DOCX; throws ExtractionError('corrupt_document') when it cannot, and
 * ('document_too_large') when its entries, its header parts or their inflated size together pass
 * the limits (D120), judged from the central directory before anything is inflated.
 */
export function readDocx(bytes: Uint8Array, limits: ReadLimits): string[] {
  const entries = zipEntries(bytes)
  if (!Array.isArray(entries)) {
    if (entries.refused === 'too_many_entries') checkParts(entries.count ?? Number.POSITIVE_INFINITY, MAX_ZIP_ENTRIES, 'Entries in the DOCX archive')
    throw new ExtractionError('corrupt_document', 'The DOCX archive could not be unpacked: its directory is unreadable.')
  }
  const parts = entries.filter((entry) => isTextPart(entry.name))
  checkParts(parts.length - 1, MAX_HEADER_PARTS, 'Page headers in the DOCX')
  checkInflatedBytes(
    parts.reduce((sum, part) => sum + part.size, 0),
    limits,
    'The DOCX’s text parts inflate to',
  )
  let files: Record<string, Uint8Array>
  try {
    files = Object.fromEntries(parts.map((part) => [part.name, readZipEntry(bytes, part)]))
  } catch (error) {
    throw new ExtractionError('corrupt_document', `The DOCX archive could not be unpacked: ${(error as Error).message}`)
  }
  const main = files['word/document.xml']
  if (!main) throw new ExtractionError('corrupt_document', 'The DOCX has no word/document.xml part.')
  let pages: string[]
  try {
    pages = wordXmlToPages(strFromU8(main))
    const headers = Object.keys(files)
      .filter((name) => name.startsWith('word/header'))
      .sort()
      .map((name) => wordXmlToPages(strFromU8(files[name]!)).join('\n').trim())
      .filter(Boolean)
    if (headers.length) pages[0] = [...new Set(headers)].join('\n') + '\n' + (pages[0] ?? '')
  } catch (error) {
    throw new ExtractionError('corrupt_document', `The DOCX text could not be read: ${(error as Error).message}`)
  }
  return pages
}

/** Walks WordprocessingML and collects lines per page. */
function wordXmlToPages(xml: string): string[] {
  if (!/<w:(?:document|hdr|ftr|body)\b/.test(xml)) throw new Error('not WordprocessingML')
  const pages: string[][] = [[]]
  let paragraph = ''
  let row: string[] | null = null
  let cell: string[] | null = null
  let tableDepth = 0
  let inText = false
  let pageHasText = false

  const newPage = () => {
    // Word often records a rendered break right after an explicit one: only break once.
    if (!pageHasText) return
    flushParagraph()
    pages.push([])
    pageHasText = false
  }
  const flushParagraph = () => {
    const text = paragraph.replace(/[ \u00a0]+/g, ' ').trim()
    paragraph = ''
    if (cell) {
      if (text) cell.push(text)
    } else {
      pages[pages.length - 1]!.push(text)
    }
  }

  const pieceRead = collectingGarbage()
  for (const match of xml.matchAll(TOKEN)) {
    pieceRead()
    const [, closing, name, attrs = '', selfClosing, cdata, text] = match
    if (text !== undefined || cdata !== undefined) {
      if (inText) {
        const value = cdata ?? decodeEntities(text!)
        paragraph += value
        if (value.trim()) pageHasText = true
      }
      continue
    }
    if (!name) continue
    switch (name) {
      case 'w:t':
        inText = !closing && !selfClosing
        break
      case 'w:tab':
        if (!closing) paragraph += '\t'
        break
      case 'w:br':
      case 'w:cr':
        if (closing) break
        if (/w:type="page"/.test(attrs)) newPage()
        else paragraph += '\n'
        break
      case 'w:lastRenderedPageBreak':
        newPage()
        break
      case 'w:p':
        if (closing || selfClosing) flushParagraph()
        break
      case 'w:tbl':
        tableDepth += closing ? -1 : selfClosing ? 0 : 1
        break
      case 'w:tr':
        if (tableDepth > 1) break
        if (!closing && !selfClosing) row = []
        else if (row) {
          const line = row.join('\t').replace(/\s+$/, '')
          if (line.trim()) pages[pages.length - 1]!.push(line)
          row = null
        }
        break
      case 'w:tc':
        if (tableDepth > 1) break
        if (!closing && !selfClosing) cell = []
        else if (cell) {
          flushParagraph()
          row?.push(cell.join(' ').replace(/\s+/g, ' ').trim())
          cell = null
        }
        break
    }
  }
  flushParagraph()
  return pages.map((lines) =>
    lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  )
}
