/**
 * The document as the engine reads it: lines with their page, split into cells at wide gaps
 * (two or more spaces, or a tab), with each cell's column span so that a value printed below a
 * label can be found in the same column. Plus what is judged once per document: the order of
 * day and month in its numeric dates (from the dates it shows, else from its language).
 */
import type { DocumentText } from '../../readers/types'
import { dateOrderOf } from '../../normalise/dates'
import { lexicons } from '../../../../lib/lexicon'
import { collapse, fold } from '../../../../lib/text'
import { letterWords } from './text'

export interface Cell {
  text: string
  /** Column span in the line (characters; tabs count as one). */
  start: number
  end: number
}

export interface Line {
  /** Position in the document, from 0. */
  index: number
  /** 1-based page. */
  page: number
  /** 0-based line of its page's text: where the reader's word positions of the line are (tables, D116). */
  row: number
  /** The line as read, trimmed at the end. */
  raw: string
  /** Trimmed, whitespace collapsed: what snippets show. */
  text: string
  cells: Cell[]
}

export interface Doc {
  lines: Line[]
  /** All text, lines joined with "\n" (for clause searches across line breaks). */
  text: string
  /** Order of day and month in numeric dates, and whether the document shows it or it is a guess. */
  dateOrder: 'dmy' | 'mdy'
  dateOrderSure: boolean
  /** The language whose common words the text holds most (D95), or 'other'. */
  language: Language
  /** The reader's word positions, per page (PDFs and images; tables read their columns by them, D116). */
  layout?: DocumentText['layout']
}

/** Builds the engine's view of a document once; every field resolver reads from it. */
export function buildDoc(document: DocumentText): Doc {
  const lines: Line[] = []
  document.pages.forEach((page, pageIndex) => {
    page.split('\n').forEach((line, row) => {
      const raw = line.trimEnd()
      if (raw) lines.push({ index: lines.length, page: pageIndex + 1, row, raw, text: collapse(raw), cells: splitCells(raw) })
    })
  })
  const text = lines.map((line) => line.text).join('\n')
  const shown = dateOrderOf(text)
  const language = detectLanguage(text)
  const fallback = defaultDateOrder(language, text)
  return {
    lines,
    text,
    dateOrder: shown ?? fallback.order,
    dateOrderSure: shown !== undefined || fallback.sure,
    language,
    ...(document.layout ? { layout: document.layout } : {}),
  }
}

/** A run of text without tabs or double spaces. */
const CELL = /[^\t ]+(?: [^\t ]+)*/g

/** Cells of a line: runs of text separated by a tab or by two or more spaces. */
function splitCells(raw: string): Cell[] {
  const cells: Cell[] = []
  for (const m of raw.matchAll(CELL)) cells.push({ text: m[0], start: m.index!, end: m.index! + m[0].length })
  return cells
}

/** A lexicon's language code (D95), or 'other' when no language's common words stand out. */
export type Language = string

/** Each lexicon's common words as compared: folded like the text. */
const COMMON_WORDS = lexicons().map((lexicon) => ({ language: lexicon.language, words: lexicon.common_words.map(fold) }))

/** The language with the most of its common words in the text (OCR uses it to pick a model too). */
export function detectLanguage(text: string): Language {
  const counts = new Map<string, number>()
  for (const word of letterWords(fold(text.slice(0, 20000)))) counts.set(word, (counts.get(word) ?? 0) + 1)
  let best: Language = 'other'
  let bestScore = 0
  for (const { language, words } of COMMON_WORDS) {
    const score = words.reduce((sum, word) => sum + Math.min(counts.get(word) ?? 0, 20), 0)
    if (score > bestScore) {
      best = language
      bestScore = score
    }
  }
  return bestScore >= 2 ? best : 'other'
}

/**
 * Without an unambiguous date, numeric dates are day-first (as in most of the world and in all
 * of German, French, Dutch and Spanish). English is the exception: dollar amounts suggest the US
 * order; currencies of day-first countries (€, £, RM, ₹ …) confirm day-first.
 */
function defaultDateOrder(language: Language, text: string): { order: 'dmy' | 'mdy'; sure: boolean } {
  if (language !== 'en' && language !== 'other') return { order: 'dmy', sure: true }
  const dayFirstMoney = (text.match(/[€£₹]|\b(?:EUR|GBP|AUD|NZD|SGD|MYR|INR|ZAR|RM|Rs)\b|\bRM\s?\d|\bGST\b|\bVAT\b/g) ?? []).length
  const dollars = (text.match(/\$\s?\d|\bUSD\b/g) ?? []).length
  if (dollars && !dayFirstMoney) return { order: 'mdy', sure: false }
  // A "$" or two among many "RM" and "GST" is an "S" or a "5" misread by OCR, not a dollar.
  return { order: 'dmy', sure: dayFirstMoney > 0 && dayFirstMoney >= 3 * dollars && dollars <= 2 }
}

/** The document as one string (each line followed by a space, or a line break) with the line of every offset. */
export interface Flat {
  text: string
  lineAt: (offset: number) => Line | undefined
}

export function flatten(doc: Doc, maxChars = Infinity, separator: ' ' | '\n' = ' '): Flat {
  const starts: number[] = []
  let text = ''
  for (const line of doc.lines) {
    if (text.length >= maxChars) break
    starts.push(text.length)
    text += line.text + separator
  }
  const lineAt = (offset: number) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (starts[mid]! <= offset) low = mid
      else high = mid - 1
    }
    return doc.lines[low]
  }
  return { text, lineAt }
}
