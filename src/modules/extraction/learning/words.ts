/**
 * A read document's printed words as the learning sees them (D260): each run of letters and digits
 * with its box in the page's own units — x in character widths, y in text heights — so that
 * offsets measured on one document hold on the next one of the same sender whatever the scan's
 * resolution or the distance a photo was taken from. Pages with a layout (PDFs, scans) give their
 * words' boxes; plain text pages are their own grid of characters and lines.
 */
import { lexicons } from '../../../lib/lexicon'
import { fold } from '../../../lib/text'
import { median, type PlacedWord } from '../readers/layout'
import type { DocumentText } from '../readers/types'

/** A box [x0, y0, x1, y1] in page units: character widths across, text heights down, from the page's top left. */
export type Box = [number, number, number, number]

export interface Word {
  /** 0-based page. */
  page: number
  /** 0-based line of the page's text. */
  line: number
  /** Character span in that line. */
  start: number
  end: number
  /** Folded letters and digits: what is compared. */
  key: string
  box: Box
  /** How surely the reader read it, 0–1 (1 for text). */
  confidence: number
}

export interface Page {
  /** Words in reading order: by line, then across. */
  words: Word[]
  /** The same words by line. */
  rows: Map<number, Word[]>
  /** The page's printed extent top to bottom, in its units: where a row is, as a share of it. */
  extent: { top: number; height: number }
  /** The page's lines of text (evidence and the text a value is read from). */
  lines: string[]
  /** A unit across and down as a share of the page's width and height; absent for a text page, which has no boxes. */
  scale?: { x: number; y: number }
}

/** Runs of letters and digits: "CO-REG:860671-D" is co, reg, 860671, d; spacing a reader adds or drops changes none of them. */
const RUN = /[\p{L}\p{N}]+/gu
const ASCII = /^[\x00-\x7f]*$/

/**
 * How far apart the lines of a plain text page are in text heights: about what a scanned
 * receipt's line pitch is, so that the same tolerances serve both.
 */
const TEXT_LINE_PITCH = 1.5

/** The document's words, page by page. */
export function pagesOf(document: DocumentText): Page[] {
  return document.pages.map((text, index) => {
    const lines = text.split('\n')
    const layout = document.layout?.[index]
    if (!layout?.words.length) return pageOf(lines, textWords(index, lines))
    const scale = unitsOf(layout.words)
    return { ...pageOf(lines, laidOutWords(index, lines, layout.words, scale)), scale }
  })
}

export function pageOf(lines: string[], words: Word[]): Page {
  const rows = new Map<number, Word[]>()
  let top = Number.POSITIVE_INFINITY
  let bottom = Number.NEGATIVE_INFINITY
  for (const word of words) {
    const row = rows.get(word.line)
    if (row) row.push(word)
    else rows.set(word.line, [word])
    top = Math.min(top, word.box[1])
    bottom = Math.max(bottom, word.box[3])
  }
  return { lines, words, rows, extent: words.length ? { top, height: Math.max(1, bottom - top) } : { top: 0, height: 1 } }
}

/** Letters and digits folded; plain ASCII (most documents) only needs lower case. */
export function keyOf(run: string): string {
  return ASCII.test(run) ? run.toLowerCase() : fold(run)
}

/** The keys of a text's words, as a page's words are keyed. */
export function keysOf(text: string): string[] {
  return [...text.matchAll(RUN)].map((run) => keyOf(run[0]))
}

/**
 * The words of a document that can tell its sender (its fingerprint's candidates), found from its
 * text alone: what the index is asked with, for every extraction of an account with layouts
 * (D268), so a page of plain ASCII is scanned by hand, each word made a string only when it may be one.
 */
export function ownKeys(document: DocumentText): Set<string> {
  const keys = new Set<string>()
  for (const page of document.pages) {
    if (!ASCII.test(page)) {
      for (const run of page.matchAll(RUN)) {
        const key = fold(run[0])
        if (isOwn(key)) keys.add(key)
      }
      continue
    }
    const text = page.toLowerCase()
    let i = 0
    while (i < text.length) {
      while (i < text.length && !isAsciiLetterOrDigit(text.charCodeAt(i))) i++
      const start = i
      let digits = 0
      for (; i < text.length; i++) {
        const code = text.charCodeAt(i)
        if (code >= 48 && code <= 57) digits++
        else if (code < 97 || code > 122) break
      }
      // As `isOwn` judges: a number shorter than an identifier, a word of two letters, a common word are not the sender's.
      if (digits ? digits < MIN_IDENTIFIER_DIGITS : i - start < 3) continue
      const key = text.slice(start, i)
      if (!isCommonWord(key)) keys.add(key)
    }
  }
  return keys
}

function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122)
}

function textWords(page: number, lines: string[]): Word[] {
  const words: Word[] = []
  lines.forEach((text, line) => {
    for (const run of text.matchAll(RUN)) {
      const start = run.index!
      const end = start + run[0].length
      words.push({ page, line, start, end, key: keyOf(run[0]), box: [start, line * TEXT_LINE_PITCH, end, line * TEXT_LINE_PITCH + 1], confidence: 1 })
    }
  })
  return words
}

/**
 * Words of a page with a layout: each placed word's runs, their boxes cut from the word's box by
 * their characters, in units of the page's median character width and text height.
 */
function laidOutWords(page: number, lines: string[], placed: PlacedWord[], scale: { x: number; y: number }): Word[] {
  const { x: charWidth, y: height } = scale
  const words: Word[] = []
  for (const word of placed) {
    const text = (lines[word.line] ?? '').slice(word.start, word.end)
    const length = Math.max(1, text.length)
    const [x0, y0, x1, y1] = word.box
    const across = (x1 - x0) / length
    for (const run of text.matchAll(RUN)) {
      const start = run.index!
      const end = start + run[0].length
      words.push({
        page,
        line: word.line,
        start: word.start + start,
        end: word.start + end,
        key: keyOf(run[0]),
        box: [(x0 + start * across) / charWidth, y0 / height, (x0 + end * across) / charWidth, y1 / height],
        confidence: word.confidence,
      })
    }
  }
  return words.sort((a, b) => a.line - b.line || a.box[0] - b.box[0])
}

/** The page's median character width and word height, as shares of its width and height. */
function unitsOf(placed: PlacedWord[]): { x: number; y: number } {
  const widths: number[] = []
  const heights: number[] = []
  for (const word of placed) {
    const length = word.end - word.start
    if (length >= 2 && word.box[2] > word.box[0]) widths.push((word.box[2] - word.box[0]) / length)
    if (word.box[3] > word.box[1]) heights.push(word.box[3] - word.box[1])
  }
  return { x: median(widths) || 0.01, y: median(heights) || 0.01 }
}

/** A word that changes from one document to the next of a sender: an amount, a date, a time, a count — any run of digits shorter than an identifier. */
export function isVariable(key: string): boolean {
  let digits = 0
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i)
    if (code >= 48 && code <= 57) digits++
  }
  return digits > 0 && digits < MIN_IDENTIFIER_DIGITS
}

/** Digits an identifier printed by a sender (a registration or tax number, a telephone number) has at least. */
const MIN_IDENTIFIER_DIGITS = 5

/**
 * Words any sender prints: every word of the lexicons (labels, column headings, month names, legal
 * forms, trade words, common words …), folded. They are landmarks of a layout but say nothing of
 * whose layout it is. Gathered at the first use, not as the server starts (~90 ms of CPU, D150).
 */
let commonWords: ReadonlySet<string> | undefined
function isCommonWord(key: string): boolean {
  commonWords ??= new Set(
    lexicons()
      .flatMap(({ language: _, name: __, ...lists }) => stringsIn(lists))
      .flatMap((text) => fold(text).match(RUN) ?? []),
  )
  return commonWords.has(key)
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn)
  return []
}

/** Whether a word can tell one sender from another: not a variable, not a common word, and more than two letters. */
export function isOwn(key: string): boolean {
  if (isVariable(key) || isCommonWord(key)) return false
  return /\d/.test(key) || key.length >= 3
}
