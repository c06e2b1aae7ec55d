/**
 * Finding words again on another document of the same sender (D262): a row of words by their keys
 * (a misread letter forgiven), which of several such rows, and the words within a box. What
 * `learn.ts` measures and `read.ts` reads back, so both see the page alike.
 */
import type { BoundingBox } from '../../../lib/fields/model'
import { LETTER_MARKS } from '../normalise/currency'
import type { Anchor } from './layout'
import { type Box, isVariable, type Page, type Word } from './words'

/** Two keys are the same word: equal, or a word of five letters or more read with one letter wrong, missing or extra. */
export function sameKey(a: string, b: string): boolean {
  if (a === b) return true
  if (Math.min(a.length, b.length) < 5 || Math.abs(a.length - b.length) > 1) return false
  return editDistance(a, b, 1) <= 1
}

/** Rows of the distance table, reused: one document's comparisons allocate nothing. */
let previousRow = new Int32Array(64)
let currentRow = new Int32Array(64)

/** Levenshtein distance, stopping early once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  if (a === b) return 0
  if (previousRow.length <= b.length) {
    previousRow = new Int32Array(b.length + 1)
    currentRow = new Int32Array(b.length + 1)
  }
  for (let j = 0; j <= b.length; j++) previousRow[j] = j
  for (let i = 1; i <= a.length; i++) {
    currentRow[0] = i
    let least = i
    const char = a.charCodeAt(i - 1)
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previousRow[j]! + 1, currentRow[j - 1]! + 1, previousRow[j - 1]! + (char === b.charCodeAt(j - 1) ? 0 : 1))
      currentRow[j] = value
      if (value < least) least = value
    }
    if (least > limit) return limit + 1
    const swap = previousRow
    previousRow = currentRow
    currentRow = swap
  }
  return previousRow[b.length]!
}

export function boxOf(words: readonly Word[]): Box {
  return [
    Math.min(...words.map((word) => word.box[0])),
    Math.min(...words.map((word) => word.box[1])),
    Math.max(...words.map((word) => word.box[2])),
    Math.max(...words.map((word) => word.box[3])),
  ]
}

/** Currency marks written in letters, folded ("rm", "eur"): they stand between a label and its amount. */
const CURRENCY_MARKS = new Set([...LETTER_MARKS].map((mark) => mark.toLowerCase().replace(/[^a-z]/g, '')))

/** Words an anchor's words skip: numbers that change (a count, a rate) and currency marks. */
export function isSkipped(key: string): boolean {
  return isVariable(key) || CURRENCY_MARKS.has(key)
}

/**
 * Every row of the page that prints these keys one after the other (numbers and currency marks
 * between them skipped, as anchors skip them), top down: each as its words. The keys are compared
 * joined, a letter or two forgiven, so that a word a reader split or joined ("GS T", "TAXINVOICE")
 * is the same label.
 */
export function occurrences(page: Page, keys: readonly string[]): Word[][] {
  const found: Word[][] = []
  const wanted = keys.join('')
  if (!wanted) return found
  const forgiven = wanted.length >= 10 ? 2 : wanted.length >= 5 ? 1 : 0
  const first = keys[0]!
  for (const words of keys.every((key) => !isSkipped(key)) ? tellingRows(page) : page.rows.values()) {
    for (let i = 0; i < words.length; i++) {
      // A run starts where the label does: its first word begins as the label's does, or is it misread.
      const key = words[i]!.key
      if (key.charCodeAt(0) !== wanted.charCodeAt(0) && !sameKey(key, first)) continue
      let length = 0
      for (let j = i; j < words.length; j++) {
        length += words[j]!.key.length
        if (length > wanted.length + forgiven) break
        if (length < wanted.length - forgiven) continue
        const joined =
          j === i
            ? key
            : words
                .slice(i, j + 1)
                .map((word) => word.key)
                .join('')
        if (editDistance(joined, wanted, forgiven) <= forgiven) {
          found.push(words.slice(i, j + 1))
          i = j
          break
        }
      }
    }
  }
  return found.sort((a, b) => a[0]!.box[1] - b[0]!.box[1])
}

/** Each page's rows without the words anchors skip, made once. */
const telling = new WeakMap<Page, Word[][]>()

function tellingRows(page: Page): Word[][] {
  let rows = telling.get(page)
  if (!rows) telling.set(page, (rows = [...page.rows.values()].map((row) => row.filter((word) => !isSkipped(word.key)))))
  return rows
}

/**
 * The row an anchor stands for on a page: the same one of as many rows as were learned, else the
 * one at the nearest height (a longer table moves the rows under it; a shorter receipt has fewer).
 */
export function anchorOn(page: Page, anchor: Anchor): Word[] | undefined {
  const rows = occurrences(page, anchor.keys)
  if (!rows.length) return undefined
  if (rows.length === anchor.of) return rows[anchor.nth]
  const { top, height } = page.extent
  let best = rows[0]!
  for (const row of rows) if (Math.abs((row[0]!.box[1] - top) / height - anchor.at) < Math.abs((best[0]!.box[1] - top) / height - anchor.at)) best = row
  return best
}

/** Where the value an anchor points to should be, given where the anchor is. */
export function predictedBox(anchorWords: readonly Word[], anchor: Anchor): Box {
  const [x0, y0] = boxOf(anchorWords)
  const [dx0, dy0, dx1, dy1] = anchor.offset
  return [x0 + dx0, y0 + dy0, x0 + dx1, y0 + dy1]
}

/** Where some words are on their page as the job answers it (fractions of the page's width and height); null on a text page. */
export function bboxOf(page: Page, words: readonly Word[]): BoundingBox | null {
  if (!page.scale || !words.length) return null
  const [x0, y0, x1, y1] = boxOf(words)
  const round = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000
  const left = round(x0 * page.scale.x)
  const top = round(y0 * page.scale.y)
  return { left, top, width: round(x1 * page.scale.x - left), height: round(y1 * page.scale.y - top) }
}

/** A run of words close together on one line: one cell of a row. */
export interface Cell {
  words: Word[]
  box: Box
}

/** Words further apart than this (character widths) are in different cells. */
const CELL_GAP = 2

/** The words of the page that lie in a box (their centres, with some give around it), as cells. */
export function cellsNear(lines: Map<number, Word[]>, box: Box, exclude: ReadonlySet<Word> = new Set()): Cell[] {
  const [x0, y0, x1, y1] = box
  // Values grow and shrink (14.90 after 8.70; a longer name): the box gives way across more than down.
  const acrossGive = Math.max(2, 0.3 * (x1 - x0))
  const downGive = 0.6
  const cells: Cell[] = []
  for (const words of lines.values()) {
    // A row well above or below the box has none of its words (a row's words share a height, within a text height).
    const first = words[0]!
    if (first.box[1] > y1 + downGive + 2 || first.box[3] < y0 - downGive - 2) continue
    let current: Word[] = []
    const close = () => {
      if (current.length) cells.push({ words: current, box: boxOf(current) })
      current = []
    }
    for (const word of words) {
      const cy = (word.box[1] + word.box[3]) / 2
      const inside = !exclude.has(word) && cy >= y0 - downGive && cy <= y1 + downGive && word.box[2] >= x0 - acrossGive && word.box[0] <= x1 + acrossGive
      if (!inside) {
        close()
        continue
      }
      const last = current[current.length - 1]
      if (last && word.box[0] - last.box[2] > CELL_GAP) close()
      current.push(word)
    }
    close()
  }
  const cx = (x0 + x1) / 2
  const cy = (y0 + y1) / 2
  const distance = (cell: Cell) => Math.abs((cell.box[0] + cell.box[2]) / 2 - cx) + 2 * Math.abs((cell.box[1] + cell.box[3]) / 2 - cy)
  return cells.sort((a, b) => distance(a) - distance(b))
}

/** The printed text of some words of a page: each line's span from its first word to its last, lines joined by a space. */
export function textOf(page: Page, words: readonly Word[]): string {
  const byLine = new Map<number, { start: number; end: number }>()
  for (const word of words) {
    const span = byLine.get(word.line)
    byLine.set(word.line, span ? { start: Math.min(span.start, word.start), end: Math.max(span.end, word.end) } : { start: word.start, end: word.end })
  }
  return [...byLine.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([line, span]) => (page.lines[line] ?? '').slice(span.start, span.end))
    .join(' ')
}
