/**
 * Finding printed labels and the values that go with them. Labels are matched on folded
 * letters and digits ("Rechnungs-Nr." = "Rechnungsnr"), at word boundaries, inside one cell. Of
 * overlapping labels the longest wins, so "Due Date" hides "Date" and "Subtotal" hides "Total".
 * A value is read after the label in its cell ("Date: 1 May"), in the next cell of the line
 * ("Date      1 May"), or below it in the same column ("Date" over "1 May").
 */
import type { Doc, Line } from './document'
import { hasDigit, isLetter, opensWithColon, trimValue } from './text'
import { isLetterOrDigit, squash } from '../../../../lib/text'

export interface LabelEntry {
  /** Folded letters/digits of the label. */
  squashed: string
  /** Who the label belongs to: a concept id, or `field:<key>` for a field's own labels. */
  owner: string
}

export interface LabelHit {
  line: Line
  cell: number
  /** Span of the label in the line's raw text. */
  start: number
  end: number
  entry: LabelEntry
}

export type How = 'inline' | 'right' | 'below'

export interface Candidate {
  text: string
  line: Line
  how: How
  hit: LabelHit
  /** Lines between the label and the value (0 on the same line). */
  distance: number
}

// The marks, and the letters that stand for two of them while squashing (a text may hold those too).
const MARKS = /[°º#%ǂǁ]/

/** Folded form of a label; '#', '%' and 'n°' stay meaningful ("Invoice #" is not "Invoice", "VAT %" is a rate). */
export function squashKeepingMarks(text: string): { chars: string; map: number[] } {
  // Most cells hold none of the marks: they are squashed as they are.
  if (!MARKS.test(text)) return squash(text)
  const prepared = text.replaceAll('°', 'o').replaceAll('º', 'o').replaceAll('#', 'ǂ').replaceAll('%', 'ǁ')
  const { chars, map } = squash(prepared)
  return { chars: chars.replaceAll('ǂ', '#').replaceAll('ǁ', '%'), map }
}

/** Finds every label of the vocabulary in the document, longest-first where they overlap. */
export function findLabels(doc: Doc, entries: LabelEntry[]): LabelHit[] {
  // Entries by their first two letters, and those longer by their first four: a position is
  // compared only with the few entries that start as it does, however many thousands there are.
  // Keys are two UTF-16 code units made one number: no string is cut per position read.
  const pairAt = (text: string, at: number) => text.charCodeAt(at) * 65536 + text.charCodeAt(at + 1)
  const byStart = new Map<number, { short: LabelEntry[]; long: Map<number, LabelEntry[]> }>()
  for (const entry of entries) {
    if (entry.squashed.length < 2) continue
    const key = pairAt(entry.squashed, 0)
    const bucket = byStart.get(key) ?? { short: [] as LabelEntry[], long: new Map<number, LabelEntry[]>() }
    if (entry.squashed.length < 4) bucket.short.push(entry)
    else {
      const longKey = pairAt(entry.squashed, 2)
      bucket.long.set(longKey, [...(bucket.long.get(longKey) ?? []), entry])
    }
    byStart.set(key, bucket)
  }
  const hits: LabelHit[] = []
  for (const line of doc.lines) {
    line.cells.forEach((cell, cellIndex) => {
      // Long paragraphs hold labels only in their first words ("Date: …" at the start of a
      // sentence); scanning whole clauses would turn prose into labels.
      const scanned = cell.text.length > 160 ? cell.text.slice(0, 60) : cell.text
      const { chars, map } = squashKeepingMarks(scanned)
      const found: LabelHit[] = []
      for (let i = 0; i < chars.length - 1; i++) {
        const bucket = byStart.get(pairAt(chars, i))
        if (!bucket) continue
        for (const list of [bucket.short, i + 3 < chars.length ? bucket.long.get(pairAt(chars, i + 2)) : undefined])
          for (const entry of list ?? []) {
            if (!chars.startsWith(entry.squashed, i)) continue
            const rawStart = map[i]!
            const rawEnd = map[i + entry.squashed.length - 1]! + 1
            if (!atBoundary(scanned, rawStart, rawEnd)) continue
            found.push({ line, cell: cellIndex, start: cell.start + rawStart, end: cell.start + rawEnd, entry })
          }
      }
      hits.push(...keepLongest(found))
    })
  }
  return hits
}

/** A label starts and ends at word edges; a hyphen inside a compound word is not an edge. */
function atBoundary(text: string, start: number, end: number): boolean {
  const before = text[start - 1]
  const after = text[end]
  if (isLetterOrDigit(before) || isLetterOrDigit(after)) return false
  if (before === '-' && isLetterOrDigit(text[start - 2])) return false
  if (after === '-' && isLetterOrDigit(text[end + 1])) return false
  if (before === '.' && isLetter(text[start - 2]) && isLetter(text[start])) return false
  return true
}

/** Of overlapping hits in a cell, a longer one hides a shorter one. */
function keepLongest(found: LabelHit[]): LabelHit[] {
  return found.filter(
    (hit) => !found.some((other) => other !== hit && other.start <= hit.start && other.end >= hit.end && other.end - other.start > hit.end - hit.start),
  )
}

/** One owner's hits, at most the first and the last `count` of them (D393: `READ_AT_EACH_END`). */
export function boundHits(hits: LabelHit[], count: number): LabelHit[] {
  const perOwner = new Map<string, number>()
  for (const hit of hits) perOwner.set(hit.entry.owner, (perOwner.get(hit.entry.owner) ?? 0) + 1)
  if ([...perOwner.values()].every((printed) => printed <= 2 * count)) return hits
  const seen = new Map<string, number>()
  return hits.filter((hit) => {
    const at = seen.get(hit.entry.owner) ?? 0
    seen.set(hit.entry.owner, at + 1)
    return at < count || at >= perOwner.get(hit.entry.owner)! - count
  })
}

/** Hits per line index, for quick "is there a label here" checks. */
export function indexHits(hits: LabelHit[]): Map<number, LabelHit[]> {
  const byLine = new Map<number, LabelHit[]>()
  for (const hit of hits) {
    const list = byLine.get(hit.line.index) ?? []
    list.push(hit)
    byLine.set(hit.line.index, list)
  }
  return byLine
}

/** How many lines below a label its value may be printed. */
const MAX_LINES_BELOW = 3

/**
 * The values that may belong to a label hit, nearest first: the rest of its cell, the
 * following cells of its line, and the cell below it in the same column.
 */
export function candidatesFor(hit: LabelHit, doc: Doc, hitsByLine: Map<number, LabelHit[]>): Candidate[] {
  const { line } = hit
  const candidates: Candidate[] = []
  const cell = line.cells[hit.cell]!
  const lineHits = hitsByLine.get(line.index) ?? []

  // The rest of the cell, up to the next label in it that has its own value ("No: 12 Date: 1.2.").
  const nextInCell = hitsInCell(lineHits, hit.cell).find((other) => other.start >= hit.end && opensWithColon(line.raw.slice(other.end, other.end + 3)))
  const inlineEnd = nextInCell ? nextInCell.start : cell.end
  const inline = trimValue(line.raw.slice(hit.end, inlineEnd))
  if (inline) candidates.push({ text: inline, line, how: 'inline', hit, distance: 0 })

  // The next cells of the line, until a cell that starts with another label. In a header row
  // (several short text cells: "Date  Time  No.") the values are below, not beside.
  if (!inline && !isHeaderRow(line)) {
    for (let i = hit.cell + 1; i < line.cells.length; i++) {
      const next = line.cells[i]!
      if (startsWithLabel(lineHits, i, next.start)) break
      const text = trimValue(next.text)
      if (text) candidates.push({ text, line, how: 'right', hit, distance: 0 })
    }
  }

  // Below, in the label's column, when nothing follows the label in its cell.
  if (!inline) candidates.push(...below(hit, doc, hitsByLine))
  return candidates
}

/** Whether each line is a header row, judged once: every label of a line of many cells asks. */
const headerRows = new WeakMap<Line, boolean>()

/** Three or more cells of short text without digits: the headings of a table's columns. */
export function isHeaderRow(line: Line): boolean {
  let header = headerRows.get(line)
  if (header === undefined) {
    header = line.cells.length >= 3 && line.cells.every((cell) => cell.text.length <= 25 && !hasDigit(cell.text))
    headerRows.set(line, header)
  }
  return header
}

/** A line's hits by cell, in order, grouped once per line: a line of many labels asks for each (D411). */
const hitsByCell = new WeakMap<LabelHit[], Map<number, LabelHit[]>>()

function hitsInCell(lineHits: LabelHit[], cellIndex: number): LabelHit[] {
  let byCell = hitsByCell.get(lineHits)
  if (!byCell) {
    byCell = new Map()
    for (const hit of [...lineHits].sort((a, b) => a.start - b.start)) {
      const inCell = byCell.get(hit.cell)
      if (inCell) inCell.push(hit)
      else byCell.set(hit.cell, [hit])
    }
    hitsByCell.set(lineHits, byCell)
  }
  return byCell.get(cellIndex) ?? []
}

function startsWithLabel(lineHits: LabelHit[], cellIndex: number, cellStart: number): boolean {
  return hitsInCell(lineHits, cellIndex).some((other) => other.start <= cellStart + 1)
}

/**
 * Cells under a label: on each of the next lines (same page), the cell that overlaps the label's
 * cell, or — when the label is the last thing on its line — the first cell to the right of where
 * it starts (right-aligned values under a left-aligned label).
 */
export function below(hit: LabelHit, doc: Doc, hitsByLine: Map<number, LabelHit[]>, maxLines = MAX_LINES_BELOW): Candidate[] {
  const { line } = hit
  const labelCell = line.cells[hit.cell]!
  const isLast = hit.cell === line.cells.length - 1
  const nextStart = line.cells[hit.cell + 1]?.start ?? Infinity
  const out: Candidate[] = []
  for (let offset = 1; offset <= maxLines; offset++) {
    const next = doc.lines[line.index + offset]
    if (!next || next.page !== line.page) break
    // Tab-separated rows (DOCX, HTML and Markdown tables) align by cell, not by column.
    const byIndex = line.raw.includes('\t') && next.raw.includes('\t') && next.cells.length === line.cells.length
    const cellIndex = byIndex ? hit.cell : next.cells.findIndex((cell) => cell.start < labelCell.end && cell.end > labelCell.start && cell.start < nextStart)
    let chosen = cellIndex
    if (chosen < 0 && isLast) chosen = next.cells.findIndex((cell) => cell.start >= labelCell.start - 1)
    if (chosen < 0) continue
    // Another label in that place ends the column: its values are not ours.
    const nextHits = hitsByLine.get(next.index) ?? []
    if (startsWithLabel(nextHits, chosen, next.cells[chosen]!.start)) break
    const text = trimValue(next.cells[chosen]!.text)
    if (text) out.push({ text, line: next, how: 'below', hit, distance: offset })
  }
  return out
}
