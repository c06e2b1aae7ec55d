/**
 * The columns of a printed table (D115): a header row (with the short lines printed right above
 * or below it, as two-line headers are), what each of its columns holds by the lexicons' column
 * words, and which printed column answers each column a field declares.
 */
import type { ResolvedColumn } from '../../../../lib/fields/model'
import { moneyAmounts } from '../../normalise/amounts'
import { COLUMN_KINDS, type ColumnKind } from '../../../../lib/lexicon/lexicon-file'
import { columnWords } from '../../../../lib/lexicon'
import type { Doc, Line } from './document'
import type { CellsOf, Part, TableCell } from './table-geometry'
import { fold } from '../../../../lib/text'
import { hasDigit } from './text'

/** A column as printed: its header text, its span (table-geometry.ts), and what its words say it holds. */
export interface PrintedColumn {
  text: string
  start: number
  end: number
  /** The header's words with their spans, and whether they are all of one line (so that the cell may be split). */
  parts: Part[]
  single: boolean
  /** Column kinds its header names, each with the length of the longest word that named it. */
  kinds: Map<ColumnKind, number>
}

export interface Header {
  /** The header line with the most column words; rows are read below the lowest header line. */
  main: Line
  last: Line
  columns: PrintedColumn[]
}

/** Kinds that are one value read under different names: a line's amount may head "Amount", "Total", "Net" or "Gross". */
const FAMILY: Partial<Record<ColumnKind, string>> = { amount: 'amount', total: 'amount', net: 'amount', gross: 'amount' }
/** Kinds that name a column of numbers of their own: a header naming one of them as well is less likely another's. */
const VALUE_KINDS = new Set<ColumnKind>(['quantity', 'price', 'amount', 'total', 'net', 'gross', 'balance', 'debit', 'credit'])

const familyOf = (kind: ColumnKind) => FAMILY[kind] ?? kind

/** Every column word of every lexicon, folded into its words, by kind. */
const KIND_PHRASES: { kind: ColumnKind; words: string[]; length: number }[] = COLUMN_KINDS.flatMap((kind) =>
  columnWords(kind).map((word) => {
    const words = tokens(word.replaceAll('*', ''))
    return { kind, words, length: words.join('').length }
  }),
).filter((phrase) => phrase.words.length > 0)

function tokens(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

/**
 * Does a printed word stand for a word of the lexicon? The same word, or a compound that starts
 * or ends with it ("Nettopreis", "Artikelbezeichnung", "Einzelpreis"), for words of four letters or more.
 */
function wordMatches(printed: string, word: string): boolean {
  if (printed === word) return true
  return word.length >= 4 && printed.length > word.length && (printed.endsWith(word) || printed.startsWith(word))
}

const kindCache = new Map<string, Map<ColumnKind, number>>()

/** The column kinds a header text names, each with the length of its longest matching word. */
export function kindsOf(text: string): Map<ColumnKind, number> {
  const cached = kindCache.get(text)
  if (cached) return cached
  const printed = tokens(text)
  const kinds = new Map<ColumnKind, number>()
  for (const phrase of KIND_PHRASES) {
    const found =
      phrase.words.length === 1
        ? printed.some((token) => wordMatches(token, phrase.words[0]!))
        : printed.some((_, i) => phrase.words.every((word, k) => printed[i + k] === word))
    if (found && (kinds.get(phrase.kind) ?? 0) < phrase.length) kinds.set(phrase.kind, phrase.length)
  }
  if (kindCache.size > 5000) kindCache.clear()
  kindCache.set(text, kinds)
  return kinds
}

/** Could the line head a table: two or more short cells naming columns, no amounts, no long sentence. */
export function isHeaderLike(line: Line, extraNamed: (text: string) => boolean = () => false): boolean {
  if (line.cells.length < 2 || line.cells.some((cell) => cell.text.length > 48)) return false
  // Most cells with digits make a row of values, not a header (a cheap test before the others).
  if (line.cells.filter((cell) => hasDigit(cell.text)).length * 2 > line.cells.length) return false
  if (moneyAmounts(line.raw).length) return false
  const named = line.cells.filter((cell) => kindsOf(cell.text).size > 0 || extraNamed(cell.text)).length
  return named >= 2
}

/** A line printed right above or below a header that belongs to it: short cells of words, no digits ("Art.-Nr.", "(GTIN)", "einheit"). */
function isHeaderPart(line: Line, main: Line): boolean {
  return line.page === main.page && line.cells.length > 0 && line.cells.every((cell) => cell.text.length <= 24 && !hasDigit(cell.text))
}

/** The header around a header-like line: the line and the short lines right above and below it, merged into columns. */
export function headerAt(doc: Doc, main: Line, cellsOf: CellsOf): Header {
  const columns: PrintedColumn[] = cellsOf(main).map(columnOf)
  let last = main
  const above: Line[] = []
  for (let index = main.index - 1; index >= Math.max(0, main.index - 2); index--) {
    const line = doc.lines[index]!
    if (!isHeaderPart(line, main) || isHeaderLike(line)) break
    above.unshift(line)
  }
  const below: Line[] = []
  for (let index = main.index + 1; index < Math.min(doc.lines.length, main.index + 3); index++) {
    const line = doc.lines[index]!
    if (!isHeaderPart(line, main)) break
    below.push(line)
    last = line
  }
  for (const line of [...above].reverse()) mergeLine(columns, cellsOf(line), 'before')
  for (const line of below) mergeLine(columns, cellsOf(line), 'after')
  columns.sort((a, b) => a.start - b.start)
  for (const column of columns) column.kinds = kindsOf(column.text)
  return { main, last, columns }
}

/** Adds a header part's cells to the column they sit in (half of the narrower span overlapping), else as columns of their own. */
function columnOf(cell: TableCell): PrintedColumn {
  return { text: cell.text, start: cell.start, end: cell.end, parts: cell.parts, single: true, kinds: new Map() }
}

function mergeLine(columns: PrintedColumn[], cells: TableCell[], where: 'before' | 'after'): void {
  for (const cell of cells) {
    let best: PrintedColumn | undefined
    let bestOverlap = 0
    for (const column of columns) {
      const overlap = Math.min(cell.end, column.end) - Math.max(cell.start, column.start)
      if (overlap > bestOverlap) {
        best = column
        bestOverlap = overlap
      }
    }
    const narrower = best ? Math.min(best.end - best.start, cell.end - cell.start) : 0
    if (!best || bestOverlap * 2 < narrower) {
      columns.push(columnOf(cell))
      continue
    }
    best.text = where === 'before' ? joinHeader(cell.text, best.text) : joinHeader(best.text, cell.text)
    best.parts = where === 'before' ? [...cell.parts, ...best.parts] : [...best.parts, ...cell.parts]
    best.single = false
    best.start = Math.min(best.start, cell.start)
    best.end = Math.max(best.end, cell.end)
  }
}

/** Header words split over two lines: "Meng.-" + "einheit" is one word, "Preis/" + "Einheit" one name. */
function joinHeader(first: string, second: string): string {
  return /[-/]$/.test(first) ? `${first}${second}` : `${first} ${second}`
}

/**
 * Splits a printed header cell over two columns of values: "BTW Prijs incl. BTW" printed as one
 * cell above "21 %" and "€ 199,98". The cut is the space between its words nearest the gap between the values.
 */
export function splitByValues(columns: PrintedColumn[], rows: TableCell[][]): PrintedColumn[] {
  const out: PrintedColumn[] = []
  for (const column of columns) {
    let cut: number | undefined
    if (column.single && column.parts.length > 1) {
      for (const cells of rows) {
        const inside = cells.filter((cell) => cell.start >= column.start - 1 && cell.end <= column.end + 1)
        if (inside.length !== 2) continue
        const gap = (inside[0]!.end + inside[1]!.start) / 2
        let nearest = Infinity
        for (let i = 1; i < column.parts.length; i++) {
          const distance = Math.abs((column.parts[i - 1]!.end + column.parts[i]!.start) / 2 - gap)
          if (distance < nearest) {
            nearest = distance
            cut = i
          }
        }
        break
      }
    }
    if (cut === undefined) {
      out.push(column)
      continue
    }
    for (const parts of [column.parts.slice(0, cut), column.parts.slice(cut)]) {
      const text = parts.map((part) => part.text).join(' ')
      out.push({ text, start: parts[0]!.start, end: parts[parts.length - 1]!.end, parts, single: true, kinds: kindsOf(text) })
    }
  }
  return out
}

/** What a declared column asks for: the kinds its key and label name (the last word's kind is the head), and its names folded. */
export interface Wanted {
  column: ResolvedColumn
  head: ColumnKind | undefined
  kinds: Set<ColumnKind>
  names: string[]
}

export function wantedOf(column: ResolvedColumn): Wanted {
  const names = [column.key.replaceAll('_', ' '), column.label]
  let head: ColumnKind | undefined
  const kinds = new Set<ColumnKind>()
  for (const name of names) {
    const words = tokens(name)
    words.forEach((word, i) => {
      for (const [kind] of kindsOf(word)) {
        kinds.add(kind)
        if (i === words.length - 1 && !head) head = kind
      }
    })
    // A phrase of the lexicon ("Reference range", "Unit price") names its kind as a whole.
    for (const [kind] of kindsOf(name)) if (!kinds.has(kind)) kinds.add(kind)
  }
  if (!head && column.description) {
    const [first] = [...kindsOf(column.description)].sort((a, b) => b[1] - a[1])
    if (first) {
      head = first[0]
      kinds.add(first[0])
    }
  }
  head ??= [...kinds][0]
  return { column, head, kinds, names: names.map(squash).filter(Boolean) }
}

/** A header's or a column name's letters and digits, folded: how they are compared. */
export const squash = (text: string) => fold(text).replace(/[^\p{L}\p{N}]+/gu, '')

/**
 * How well a printed column answers a declared one: its own name printed scores highest; else
 * the head kind (or one of its family) must be named, and other kinds it asks for add, while a
 * header that also names a value of another kind ("Nettopreis" for an amount) scores less.
 */
export function matchScore(wanted: Wanted, printed: PrintedColumn): number {
  const name = squash(printed.text)
  if (name && wanted.names.includes(name)) return 10
  if (!wanted.head) return 0
  const headFamily = familyOf(wanted.head)
  if (![...printed.kinds.keys()].some((kind) => familyOf(kind) === headFamily)) return 0
  let score = 3
  for (const kind of printed.kinds.keys()) {
    if (familyOf(kind) === headFamily) continue
    if (wanted.kinds.has(kind)) score += 1
    else if (VALUE_KINDS.has(kind)) score -= 1
  }
  return score
}

/** Each declared column's printed column (index), the best pairs first; a printed column answers one declared column. */
export function assignColumns(wanted: Wanted[], printed: PrintedColumn[]): (number | undefined)[] {
  const pairs: { w: number; p: number; score: number }[] = []
  wanted.forEach((want, w) =>
    printed.forEach((column, p) => {
      const score = matchScore(want, column)
      if (score > 0) pairs.push({ w, p, score })
    }),
  )
  pairs.sort((a, b) => b.score - a.score || a.w - b.w || a.p - b.p)
  const chosen: (number | undefined)[] = wanted.map(() => undefined)
  const taken = new Set<number>()
  for (const { w, p } of pairs) {
    if (chosen[w] !== undefined || taken.has(p)) continue
    chosen[w] = p
    taken.add(p)
  }
  return chosen
}
