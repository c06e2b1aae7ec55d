/**
 * Traces each value an engine found back to the words it came from, for any engine: the line of
 * its snippet on its page, and in that line the words that spell the value. Gives the value's box
 * on the page, and for recognised (OCR) text weighs the value's confidence by how well those words
 * were read: a value read from poorly recognised words is dropped rather than guessed.
 */
import { collapse, words } from './engines/builtin/text'
import { type ExtractionOutput, type FieldMeta, NO_VALUE } from './engines/types'
import type { PlacedWord } from './readers/layout'
import type { DocumentText } from './readers/types'

/** Below this OCR confidence (0–1) of its words a value is not trusted. */
export const MIN_OCR_CONFIDENCE = 0.6


export function locateValues(output: ExtractionOutput, document: DocumentText): ExtractionOutput {
  const lines = document.pages.map((page) => page.split('\n'))
  const located = Object.keys(output.values).map((key): [string, unknown, FieldMeta] => {
    const value = output.values[key]
    const found = (Object.hasOwn(output.meta, key) ? output.meta[key] : undefined) ?? NO_VALUE
    const layout = found.page === null ? undefined : document.layout?.[found.page - 1]
    const words = layout && found.snippet !== null ? wordsOf(value, found.snippet, lines[found.page! - 1] ?? [], layout.words) : []
    if (!words.length) return [key, value, { ...found, bbox: null }]
    const readConfidence = Math.min(...words.map((word) => word.confidence))
    if (readConfidence < MIN_OCR_CONFIDENCE) return [key, null, NO_VALUE]
    return [key, value, { ...found, confidence: round(found.confidence * Math.min(1, readConfidence + 0.05)), bbox: boxOf(words) }]
  })
  // fromEntries makes own properties even of keys such as `__proto__`.
  return {
    values: Object.fromEntries(located.map(([key, value]) => [key, value])),
    meta: Object.fromEntries(located.map(([key, , meta]) => [key, meta])),
  }
}

/** The words of the snippet's line that spell the value; the whole line when none does. */
function wordsOf(value: unknown, snippet: string, lines: string[], words: PlacedWord[]): PlacedWord[] {
  const wanted = collapse(snippet.replace(/^…|…$/g, ''))
  if (!wanted) return []
  const collapsed = lines.map(collapse)
  let line = collapsed.indexOf(wanted)
  if (line === -1) line = collapsed.findIndex((text) => text.includes(wanted))
  if (line === -1) return []
  const raw = lines[line]!
  const inLine = words.filter((word) => word.line === line)
  const spells = matcherOf(value)
  const spelling = inLine.filter((word) => spells(raw.slice(word.start, word.end)))
  return spelling.length ? spelling : inLine
}

type Matcher = (wordText: string) => boolean

/**
 * What a value looks like in print, as a test of one word: an amount's digits ("1234.50" is
 * printed "1,234.50", "1.234,50" or "1 234,50" over two words), a date's parts ("2026-03-01" is
 * printed "01.03.2026" or "1 March 2026"), else the value's words.
 */
function matcherOf(value: unknown): Matcher {
  if (value === null || value === undefined || typeof value === 'object') return () => false
  const text = String(value)
  if (/^-?\d+(?:\.\d+)?$/.test(text)) {
    const digits = text.replace(/\D/g, '')
    return (word) => {
      const own = word.replace(/\D/g, '')
      return own !== '' && digits.includes(own)
    }
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (date) {
    const [, year, month, day] = date as unknown as [string, string, string, string]
    const parts = new Set([year, year.slice(2), month, String(Number(month)), day, String(Number(day))])
    return (word) => (word.match(/\d+/g) ?? []).some((group) => parts.has(group))
  }
  const wanted = new Set(words(text))
  return (word) => words(word).some((piece) => wanted.has(piece))
}

function boxOf(words: PlacedWord[]): FieldMeta['bbox'] {
  const left = Math.min(...words.map((word) => word.box[0]))
  const top = Math.min(...words.map((word) => word.box[1]))
  const right = Math.max(...words.map((word) => word.box[2]))
  const bottom = Math.max(...words.map((word) => word.box[3]))
  return { left, top, width: round4(right - left), height: round4(bottom - top) }
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000
}
