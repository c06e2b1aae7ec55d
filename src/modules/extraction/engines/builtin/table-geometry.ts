/**
 * Where a table's cells sit (D116): on pages the reader gave word positions for (PDFs, OCR'd
 * pages), by the words' x on the page, counted in widths of a character; elsewhere by their
 * character columns in the laid-out text. A bold or spaced-out header and its rows then line up
 * even where the laid-out text drifts from the page by a few characters.
 */
import type { PlacedWord } from '../../readers/layout'
import type { Cell, Doc, Line } from './document'

/** A word of a cell and its span. */
export interface Part {
  text: string
  start: number
  end: number
}

export interface TableCell extends Part {
  /** The cell in the line's text (character offsets, where label hits are). */
  source: Cell
  /** Its words, each with its span. */
  parts: Part[]
}

export type CellsOf = (line: Line) => TableCell[]

/** The cells of each line of the document, positioned once per line. */
export function tableGeometry(doc: Doc): CellsOf {
  const positions = doc.layout ? wordRows(doc.layout) : undefined
  const cache = new Map<number, TableCell[]>()
  return (line) => {
    let cells = cache.get(line.index)
    if (!cells) cache.set(line.index, (cells = positionedCells(line, positions)))
    return cells
  }
}

interface WordRows {
  rows: Map<string, PlacedWord[]>
  /** Median width of a character, as a fraction of the page's width. */
  unit: number
}

function wordRows(layout: NonNullable<Doc['layout']>): WordRows | undefined {
  const rows = new Map<string, PlacedWord[]>()
  const widths: number[] = []
  layout.forEach((page, index) => {
    for (const word of page?.words ?? []) {
      const key = `${index + 1}:${word.line}`
      const row = rows.get(key)
      if (row) row.push(word)
      else rows.set(key, [word])
      if (word.end - word.start >= 2 && word.box[2] > word.box[0]) widths.push((word.box[2] - word.box[0]) / (word.end - word.start))
    }
  })
  widths.sort((a, b) => a - b)
  const unit = widths[Math.floor(widths.length / 2)]
  return unit ? { rows, unit } : undefined
}

const TOKEN = /\S+/g

function positionedCells(line: Line, positions: WordRows | undefined): TableCell[] {
  const words = positions?.rows.get(`${line.page}:${line.row}`)
  const byChars = () =>
    line.cells.map((cell) => {
      const parts = [...cell.text.matchAll(TOKEN)].map((m) => ({ text: m[0], start: cell.start + m.index!, end: cell.start + m.index! + m[0].length }))
      return { text: cell.text, start: cell.start, end: cell.end, source: cell, parts }
    })
  if (!positions || !words?.length) return byChars()
  const cells: TableCell[] = []
  // Words and tokens both run left to right: one pass finds each token's word.
  let next = 0
  for (const cell of line.cells) {
    const parts: Part[] = []
    for (const m of cell.text.matchAll(TOKEN)) {
      const from = cell.start + m.index!
      const to = from + m[0].length
      // A run of the reader may hold several words: each word's x is read in proportion within it.
      while (next < words.length && words[next]!.end <= from) next++
      const word = words[next]
      if (!word || word.start > from) return byChars()
      const at = (offset: number) =>
        word.box[0] + ((word.box[2] - word.box[0]) * (Math.min(offset, word.end) - word.start)) / Math.max(1, word.end - word.start)
      parts.push({ text: m[0], start: at(from) / positions.unit, end: at(to) / positions.unit })
    }
    if (!parts.length) return byChars()
    cells.push({ text: cell.text, start: parts[0]!.start, end: Math.max(...parts.map((part) => part.end)), source: cell, parts })
  }
  return cells
}
