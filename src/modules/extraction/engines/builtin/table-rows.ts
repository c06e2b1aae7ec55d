/**
 * The rows of a printed table (D116), read under its header: a row starts at a line with a
 * number in the table's anchor column (the line amount) — or, in tables without one, at a line
 * that fills two columns or more; lines between rows that only hold text in the text columns
 * continue the row above (descriptions over several lines, article numbers, periods). Each
 * line's cells go to the columns they sit under (laid-out text keeps the page's columns, for PDFs
 * and OCR'd pages too). A total, subtotal or tax line ends the page's part of the table; the table
 * goes on after it, or on the next page, only with full rows again (a repeated header is skipped).
 */
import { findAmounts, moneyAmounts } from '../../normalise/amounts'
import { type Context, memo } from './context'
import type { Line } from './document'
import type { Header, PrintedColumn } from './table-columns'
import type { CellsOf, TableCell } from './table-geometry'
import { isHeaderLike } from './table-columns'
import { hasDigit, isLetter } from './text'
import { headsTaxBreakdown, isAmountRole } from './totals'

/** A row as read: the text of each printed column (by index), and the lines it was read from. */
export interface ReadRow {
  cells: Map<number, string>
  lines: Line[]
}

export interface RowPlan {
  header: Header
  columns: PrintedColumn[]
  /** Columns whose number starts a row (the line amount); empty when the table has none. */
  anchors: Set<number>
  /** Columns of text a continuation line adds to. */
  texts: Set<number>
  /** Columns of numbers other than the anchor (quantity, unit price …). */
  numbers: Set<number>
  cellsOf: CellsOf
}

/** Lines after the last row with no row before the table is taken to have ended. */
const MAX_LINES_BETWEEN_ROWS = 8
/** Lines at the top of a page (its letterhead, a repeated header) before the table's rows go on. */
const MAX_LINES_BEFORE_ROWS = 15

/** The rows under the header; `end` is the total line that ended the table, if one did. */
export function readTableRows(ctx: Context, plan: RowPlan): { rows: ReadRow[]; end: Line | undefined; repeats: Line[] } {
  const { doc } = ctx
  const rows: ReadRow[] = []
  /** The header printed again (on the next page): no table of its own. */
  const repeats: Line[] = []
  const headerTexts = plan.header.main.cells.map((cell) => cell.text).join('\u0000')
  /** The last row: continuation lines add to it. */
  let current: ReadRow | undefined
  /** A row's numbers waiting for its line amount on the next line. */
  let pending: ReadRow | undefined
  let sinceRow = 0
  let page = plan.header.last.page
  let closed = false
  let end: Line | undefined
  const running = runningLines(ctx)
  for (let index = plan.header.last.index + 1; index < doc.lines.length; index++) {
    const line = doc.lines[index]!
    if (line.page !== page) {
      page = line.page
      sinceRow = 0
      // A row may go on at the top of the next page; a closed part needs full rows to go on.
      if (closed) current = pending = undefined
    }
    const limit = rows.length === 0 || line.page !== current?.lines.at(-1)?.page ? MAX_LINES_BEFORE_ROWS : MAX_LINES_BETWEEN_ROWS
    if (sinceRow > limit) break
    if (line.cells.map((cell) => cell.text).join('\u0000') === headerTexts) {
      repeats.push(line)
      sinceRow = 0
      continue
    }
    // A tax breakdown under the items ("GST SUMMARY", then "SR  6  439.00  26.34") is a table of its own.
    if (rows.length && headsTaxBreakdown(line)) break
    const placed = place(plan.cellsOf(line), plan.columns)
    const kind = rowKind(plan, placed, rows, opensWithAmountLabel(ctx, line))
    // A total line ends the part; a full row that names a total ("Total care kit") is a row while the table is open.
    if (kind === 'sum' || ((kind !== 'full' || closed) && isTotalLine(ctx, line, placed, plan))) {
      end ??= line
      closed = true
      current = pending = undefined
      sinceRow++
      continue
    }
    if (kind === 'row' && pending && placed.every(([, column]) => !plan.numbers.has(column) || !pending!.cells.has(column))) {
      for (const [cell, column] of placed) append(pending, column, cell.text)
      pending.lines.push(line)
      rows.push(pending)
      current = pending
      pending = undefined
      sinceRow = 0
      continue
    }
    if (kind === 'pending') {
      if (!closed) pending = rowOf(line, placed)
      sinceRow++
      continue
    }
    if (kind === 'row' || kind === 'full') {
      if (closed && kind !== 'full') {
        sinceRow++
        continue
      }
      closed = false
      end = undefined
      pending = undefined
      current = rowOf(line, placed)
      rows.push(current)
      sinceRow = 0
      continue
    }
    if (rows.length && isHeaderLike(line)) break
    sinceRow++
    // A letterhead or footer printed on every page is no part of a row.
    if (running.has(runningKey(line))) continue
    const target = pending ?? current
    if (!target || closed) continue
    // A continuation: text alone, each cell starting within a text column; in a table without an
    // anchor, where every row is one line, only text indented under its column (a sub-line).
    const fits = placed.every(
      ([cell, column]) =>
        plan.texts.has(column) &&
        withinColumn(cell, column, plan.columns) &&
        !moneyAmounts(cell.text).length &&
        (plan.anchors.size > 0 || cell.start > plan.columns[column]!.start + 1),
    )
    if (!fits || !placed.length) continue
    for (const [cell, column] of placed) append(target, column, cell.text)
    target.lines.push(line)
    if (target === current) sinceRow = 0
  }
  return { rows, end, repeats }
}

/** A line's text as compared between pages: digits aside ("Page 1 of 2", "Page 2 of 2"). */
const runningKey = (line: Line) => line.text.replace(/\d+/g, '#')

/** Texts of lines printed on two pages or more: running headers and footers. */
function runningLines(ctx: Context): Set<string> {
  return memo(ctx, 'table-running-lines', () => {
    const pages = new Map<string, number>()
    const running = new Set<string>()
    for (const line of ctx.doc.lines) {
      const key = runningKey(line)
      const page = pages.get(key)
      if (page === undefined) pages.set(key, line.page)
      else if (page !== line.page) running.add(key)
    }
    return running
  })
}

function rowOf(line: Line, placed: [TableCell, number][]): ReadRow {
  const row: ReadRow = { cells: new Map(), lines: [line] }
  for (const [cell, column] of placed) append(row, column, cell.text)
  return row
}

function append(row: ReadRow, column: number, text: string): void {
  const before = row.cells.get(column)
  row.cells.set(column, before === undefined ? text : joinText(before, text))
}

/** A word broken at a hyphen over two lines ("Kfz-" + "Haftpflicht") joins without a space. */
function joinText(first: string, second: string): string {
  return first.endsWith('-') && isLetter(first.at(-2)) && isLetter(second[0]) ? `${first}${second}` : `${first} ${second}`
}

/**
 * A total, subtotal or tax label in the line's first cell, or outside the text columns of a line
 * without quantities or prices ("Subtotal 4.904,94" under the amounts): a sum or a tax, not a row.
 */
function isTotalLine(ctx: Context, line: Line, placed: [TableCell, number][], plan: RowPlan): boolean {
  const hits = (ctx.hitsByLine.get(line.index) ?? []).filter((hit) => isAmountRole(hit.entry.owner))
  if (!hits.length) return false
  if (hits.some((hit) => hit.start < line.cells[0]!.end)) return true
  if (placed.some(([, column]) => plan.numbers.has(column))) return false
  return hits.some((hit) => {
    const at = placed.find(([cell]) => hit.start >= cell.source.start && hit.start < cell.source.end)
    return at !== undefined && !plan.texts.has(at[1])
  })
}

/** Labels of amounts that are none of total, subtotal and tax: counts, discounts, charges. */
const OTHER_AMOUNTS: ReadonlySet<string> = new Set(['other_amount', 'allowance', 'charge'])

/** Does the line open with the label of an amount, a total's or any other's ("TOTAL QTY: 3 47.70")? */
function opensWithAmountLabel(ctx: Context, line: Line): boolean {
  return (ctx.hitsByLine.get(line.index) ?? []).some(
    (hit) => hit.start < line.cells[0]!.end && (isAmountRole(hit.entry.owner) || OTHER_AMOUNTS.has(hit.entry.owner)),
  )
}

/**
 * What a line is: a row ('full' when it fills every number column too, so that it may open the
 * table again after a subtotal); 'pending' when it prints a row's numbers but not its anchor's;
 * 'sum' when its anchor is the sum of the rows above: without quantities or prices (a subtotal or
 * a carry-over), or under an amount's label, even of one row ("TOTAL QTY: 3 47.70" repeats the
 * only item's amount, D406); else nothing.
 */
function rowKind(plan: RowPlan, placed: [TableCell, number][], rows: ReadRow[], labelled: boolean): 'full' | 'row' | 'pending' | 'sum' | undefined {
  const filled = new Set(placed.map(([, column]) => column))
  const numbers = placed.filter(([cell, column]) => plan.numbers.has(column) && hasDigit(cell.text)).length
  let anchored: boolean
  if (plan.anchors.size) {
    const anchor = placed.find(([cell, column]) => plan.anchors.has(column) && findAmounts(cell.text).some((amount) => amount.moneyLike))
    if (!anchor) return numbers >= 2 ? 'pending' : undefined
    // Words may stand beside it ("Übertrag", "Carried forward"), but no other number.
    const onlyAmount = placed.every(([cell, column]) => column === anchor[1] || plan.texts.has(column) || !hasDigit(cell.text))
    if ((labelled ? rows.length >= 1 : onlyAmount && rows.length >= 2) && isSumOf(anchor[0].text, rows, anchor[1])) return 'sum'
    anchored = true
  } else {
    anchored = filled.size >= 2 && placed.some(([cell]) => hasDigit(cell.text))
  }
  if (!anchored) return undefined
  const full = plan.numbers.size ? [...plan.numbers].every((column) => filled.has(column)) : filled.size >= 3
  return full ? 'full' : 'row'
}

function isSumOf(text: string, rows: ReadRow[], column: number): boolean {
  const value = lastNumber(text)
  if (value === undefined) return false
  const sum = rows.reduce((total, row) => total + (lastNumber(row.cells.get(column) ?? '') ?? 0), 0)
  return Math.abs(sum - value) < 0.005
}

function lastNumber(text: string): number | undefined {
  return findAmounts(text).at(-1)?.number
}

/** A cell that starts within its column (text may run on to the right, as descriptions do; a line across the table starts before it). */
function withinColumn(cell: TableCell, column: number, columns: PrintedColumn[]): boolean {
  const own = columns[column]!
  const next = columns[column + 1]
  const previous = columns[column - 1]
  return cell.start >= Math.max(own.start - 3, previous ? previous.end : -Infinity) && cell.start < (next ? next.start : Infinity)
}

/** How far a cell sits from a column: minus their overlap when they overlap, else the gap between them. */
function distance(cell: TableCell, column: PrintedColumn): number {
  const overlap = Math.min(cell.end, column.end) - Math.max(cell.start, column.start)
  if (overlap > 0) return -overlap
  return Math.max(column.start - cell.end, cell.start - column.end)
}

/** Cost of a second cell in the same column. */
const SHARED_COLUMN = 6

/**
 * The column of each cell, in order: cells and columns both run left to right, so the cells are
 * aligned to the columns as a whole (a right-aligned number under a wide header next to it goes
 * to its own column, not the neighbour it overlaps).
 */
export function place(cells: TableCell[], columns: PrintedColumn[]): [TableCell, number][] {
  const n = cells.length
  const m = columns.length
  if (!n || !m) return []
  // cost[i][j]: best cost of cells 0..i with cell i in column j; from[i][j]: column of cell i-1.
  const cost: number[][] = cells.map(() => columns.map(() => Infinity))
  const from: number[][] = cells.map(() => columns.map(() => -1))
  for (let j = 0; j < m; j++) cost[0]![j] = distance(cells[0]!, columns[j]!)
  for (let i = 1; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const own = distance(cells[i]!, columns[j]!)
      for (let k = 0; k <= j; k++) {
        const value = cost[i - 1]![k]! + own + (k === j ? SHARED_COLUMN : 0)
        if (value < cost[i]![j]!) {
          cost[i]![j] = value
          from[i]![j] = k
        }
      }
    }
  }
  let j = cost[n - 1]!.indexOf(Math.min(...cost[n - 1]!))
  const out: [TableCell, number][] = []
  for (let i = n - 1; i >= 0; i--) {
    out.unshift([cells[i]!, j])
    j = from[i]![j]!
  }
  return out
}
