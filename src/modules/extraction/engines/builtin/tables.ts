/**
 * Tables (line items, bank bookings, lab results, prescriptions …; D115–D117). Any table field
 * is read the same way, whatever its key: every header-like line of the document is a candidate
 * header; the field's declared columns are matched to its printed columns (by their names and by
 * the lexicons' column words), its rows are read under it (table-rows.ts), and the candidate that
 * answers most of the declared columns with rows — near a printed label of the field, if any —
 * is the table. Without declared columns a table's printed headers name its cells.
 */
import type { ResolvedColumn } from '../../../../lib/fields/model'
import { findAmounts, parseNumber } from '../../normalise/amounts'
import type { ColumnKind } from '../../../../lib/lexicon/lexicon-file'
import { type Answer, atEachEnd, type Context, type Plan, type TableCheck } from './context'
import { datesIn } from './dates'
import type { Doc, Line } from './document'
import { hitsOf } from './generic'
import { assignColumns, type Header, headerAt, isHeaderLike, type PrintedColumn, splitByValues, squash, type Wanted, wantedOf } from './table-columns'
import { type CellsOf, tableGeometry } from './table-geometry'
import { type ReadRow, readTableRows, type RowPlan } from './table-rows'
import { trimEndWhere } from './text'
import { TABLE, TABLE_CHOICE } from './weights'

/** Kinds whose column holds text that a continuation line adds to. */
const TEXT_KINDS = new Set<ColumnKind>(['description', 'code', 'position', 'test', 'medication', 'directions'])

interface Candidate {
  header: Header
  columns: PrintedColumn[]
  /** Per declared column, its printed column. */
  assigned: (number | undefined)[]
  rows: ReadRow[]
  end: Line | undefined
  score: number
  /** The header printed again further on: the same table. */
  repeats: Line[]
}

export function tableAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const wanted = (plan.spec.columns ?? []).map(wantedOf)
  const ownNames = new Set(wanted.flatMap((want) => want.names))
  const named = (text: string) => ownNames.has(squash(text))
  const labelLines = new Set(hitsOf(plan, ctx).map((hit) => hit.line.index))
  const cellsOf = tableGeometry(ctx.doc)
  let best: Candidate | undefined
  const seen = new Set<number>()
  // Of more than a thousand header-like lines, those at the ends of the document are read (D393):
  // each is read with the rows under it, and a page can print its header again, not a thousand times.
  for (const line of atEachEnd(ctx.doc.lines.filter((each) => isHeaderLike(each, named)))) {
    if (seen.has(line.index)) continue
    const candidate = readCandidate(ctx, line, wanted, labelLines, cellsOf)
    if (!candidate) continue
    for (let index = candidate.header.main.index; index <= candidate.header.last.index; index++) seen.add(index)
    // The header printed again is read with it, rows or none: each read anew made a document of
    // such lines cost their square (D392).
    for (const repeat of candidate.repeats) seen.add(repeat.index)
    if (!candidate.rows.length) continue
    if (!best || candidate.score > best.score + 1e-9) best = candidate
  }
  if (!best) return undefined
  const value = wanted.length ? declaredRows(best, wanted, ctx.doc) : printedRows(best)
  if (!value.length) return undefined
  const check = crossCheck(ctx, best, wanted)
  return { value, confidence: confidenceOf(value.length, check), line: best.header.main, table_check: check }
}

function readCandidate(ctx: Context, line: Line, wanted: Wanted[], labelLines: Set<number>, cellsOf: CellsOf): Candidate | undefined {
  const header = headerAt(ctx.doc, line, cellsOf)
  const below = ctx.doc.lines.slice(header.last.index + 1, header.last.index + 13).filter((next) => findAmounts(next.raw).length > 0)
  const columns = splitByValues(header.columns, below.map(cellsOf))
  const assigned = assignColumns(wanted, columns)
  const matched = assigned.filter((column) => column !== undefined).length
  if (wanted.length && matched < Math.min(2, wanted.length)) return undefined
  const rowPlan = planRows(header, columns, wanted, assigned, cellsOf)
  const { rows, end, repeats } = readTableRows(ctx, rowPlan)
  // The field's own label on the header or a few lines above it says it is the field's table.
  let labelled = false
  for (let index = header.main.index - 3; index <= header.last.index; index++) if (labelLines.has(index)) labelled = true
  const named = wanted.length ? matched : columns.filter((column) => column.kinds.size > 0).length
  const score = named * TABLE_CHOICE.perColumn + (labelled ? TABLE_CHOICE.labelled : 0) + Math.min(rows.length, TABLE_CHOICE.rowsCounted) * TABLE_CHOICE.perRow
  return { header, columns, assigned, rows, end, score, repeats }
}

const LINE_AMOUNT = new Set<ColumnKind>(['amount', 'total', 'net', 'gross'])
const has = (kinds: Iterable<ColumnKind>, wanted: Set<ColumnKind>) => [...kinds].some((kind) => wanted.has(kind))

/**
 * Which columns start rows, which hold numbers and which take continuation text. The line amount
 * anchors a row; a statement's debit and credit columns do when it prints no amount column, and
 * its balance only when it prints neither. A table without any of them has no anchor: a line that
 * fills two columns, one with a digit, is a row.
 */
function planRows(header: Header, columns: PrintedColumn[], wanted: Wanted[], assigned: (number | undefined)[], cellsOf: CellsOf): RowPlan {
  const declared = new Map<number, Wanted>()
  wanted.forEach((want, i) => {
    if (assigned[i] !== undefined) declared.set(assigned[i]!, want)
  })
  const kindsAt = (i: number): ColumnKind[] => {
    const want = declared.get(i)
    // A printed "price" column holds a price, whatever else its header names ("Nettopreis").
    return want ? (want.head ? [want.head] : []) : columns[i]!.kinds.has('price') ? [] : [...columns[i]!.kinds.keys()]
  }
  const mayAnchor = (i: number) =>
    wanted.length === 0 || declared.has(i) || wanted.some((want, k) => assigned[k] === undefined && want.head && LINE_AMOUNT.has(want.head))
  const indexes = columns.map((_, i) => i).filter(mayAnchor)
  let anchors = indexes.filter((i) => has(kindsAt(i), LINE_AMOUNT))
  if (!anchors.length) anchors = indexes.filter((i) => has(columns[i]!.kinds.keys(), new Set(['debit', 'credit'])))
  if (!anchors.length) anchors = indexes.filter((i) => has(kindsAt(i), new Set(['balance'])))
  const numbers = new Set<number>()
  const texts = new Set<number>()
  columns.forEach((column, i) => {
    if (anchors.includes(i)) return
    const want = declared.get(i)
    if (want ? ['number', 'amount', 'date'].includes(want.column.type) : has(column.kinds.keys(), new Set(['debit', 'credit', 'balance']))) numbers.add(i)
    else if (want || column.kinds.size === 0 || has(column.kinds.keys(), TEXT_KINDS)) texts.add(i)
  })
  return { header, columns, anchors: new Set(anchors), texts, numbers, cellsOf }
}

/** Rows with the declared columns' keys, each cell read as its column's type (the normalisation layer types it again, D90). */
function declaredRows(table: Candidate, wanted: Wanted[], doc: Doc): Record<string, unknown>[] {
  const debit = table.columns.findIndex((column) => column.kinds.has('debit'))
  const credit = table.columns.findIndex((column) => column.kinds.has('credit'))
  return table.rows.map((row) =>
    Object.fromEntries(
      wanted.map((want, i) => {
        const column = table.assigned[i]
        let text = column === undefined ? undefined : row.cells.get(column)
        // A statement printing debits and credits apart: the amount is the credit, or the debit made negative.
        if (column === undefined && want.head && LINE_AMOUNT.has(want.head) && debit >= 0 && credit >= 0) {
          const paidIn = row.cells.get(credit)
          const paidOut = row.cells.get(debit)
          text = paidIn ?? (paidOut === undefined ? undefined : negate(paidOut))
        }
        return [want.column.key, text === undefined ? null : cellValue(want.column, text, doc)]
      }),
    ),
  )
}

function negate(text: string): string {
  const amount = findAmounts(text).at(-1)
  if (!amount) return text
  return amount.value.startsWith('-') ? amount.value.slice(1) : `-${amount.value}`
}

/** Rows keyed by the printed headers, for a table field without declared columns. */
function printedRows(table: Candidate): Record<string, string>[] {
  const names = table.columns.map((column) => trimEndWhere(column.text, (char) => char === ':' || char === '.').trim())
  return table.rows
    .map((row) => Object.fromEntries([...row.cells].sort((a, b) => a[0] - b[0]).map(([column, text]) => [names[column]!, text])))
    .filter((row) => Object.keys(row).length >= 2)
}

/**
 * A cell as its column's type: numbers as the normalisation layer reads them ("-5,0000 Stk." is
 * -5), an amount column's price without money marks ("1,0000" is 1.0000), dates in the document's
 * own order of day and month.
 */
function cellValue(column: ResolvedColumn, text: string, doc: Doc): unknown {
  if (column.type === 'date') return datesIn(text, doc)[0]?.iso ?? text
  if (column.type === 'number') return parseNumber(text) ?? text
  if (column.type === 'amount') {
    const amounts = findAmounts(text)
    const money = amounts.filter((amount) => amount.moneyLike)
    return (money.at(-1) ?? amounts.at(-1))?.value ?? text
  }
  return text
}

/** Each row's number in one kind of column: the declared column's, else the printed column naming the kind. */
function numbersIn(table: Candidate, wanted: Wanted[], test: (kinds: Set<ColumnKind>) => boolean): (number | undefined)[] {
  let column = wanted.findIndex((want, i) => table.assigned[i] !== undefined && test(want.kinds))
  column = column >= 0 ? table.assigned[column]! : table.columns.findIndex((printed) => test(new Set(printed.kinds.keys())))
  return table.rows.map((row) => (column < 0 ? undefined : findAmounts(row.cells.get(column) ?? '').at(-1)?.number))
}

const isAmount = (kinds: Set<ColumnKind>) => ['amount', 'total', 'net', 'gross'].some((kind) => kinds.has(kind as ColumnKind)) && !kinds.has('price')
const isPrice = (kinds: Set<ColumnKind>) => kinds.has('price') || kinds.has('rate')
const isQuantity = (kinds: Set<ColumnKind>) => kinds.has('quantity')

/**
 * The table checked against itself (D117): do the line amounts add up to an amount printed right
 * under the table (the net total, a subtotal), and does quantity × unit price give each line amount?
 */
function crossCheck(ctx: Context, table: Candidate, wanted: Wanted[]): TableCheck {
  const amounts = numbersIn(table, wanted, isAmount)
  const known = amounts.filter((amount): amount is number => amount !== undefined)
  let linesSum: string | null = null
  let total: TableCheck['total'] = 'not_checked'
  if (known.length) {
    const sum = Math.round(known.reduce((a, b) => a + b, 0) * 100) / 100
    linesSum = sum.toFixed(2)
    total = 'not_found'
    // From the line that ended the table, else from the line after the last row (never a row's own amount).
    const from = table.end?.index ?? table.rows.at(-1)!.lines.at(-1)!.index + 1
    for (const line of ctx.doc.lines.slice(from, from + 12)) {
      const printed = findAmounts(line.raw).filter((amount) => amount.moneyLike)
      if (printed.some((amount) => Math.abs(amount.number - sum) < 0.005)) {
        total = 'matches'
        break
      }
      if (printed.length && table.end && line.index === table.end.index) total = 'differs'
    }
  }
  let arithmetic: TableCheck['rows'] = 'not_checked'
  const quantities = numbersIn(table, wanted, isQuantity)
  const prices = numbersIn(table, wanted, isPrice)
  table.rows.forEach((_, i) => {
    const [quantity, price, amount] = [quantities[i], prices[i], amounts[i]]
    if (quantity === undefined || price === undefined || amount === undefined) return
    const agrees = Math.abs(Math.round(quantity * price * 100) / 100 - amount) <= 0.011
    if (!agrees) arithmetic = 'differ'
    else if (arithmetic === 'not_checked') arithmetic = 'match'
  })
  return { lines_sum: linesSum, total, rows: arithmetic }
}

/** Confidence of a table: more rows, a sum that matches a printed total and rows that add up make it surer (D117). */
function confidenceOf(rows: number, check: TableCheck): number {
  let confidence = rows > 1 ? TABLE.rows : TABLE.oneRow
  if (check.total === 'matches') confidence += TABLE.totalMatches
  else if (check.total === 'differs') confidence -= TABLE.totalDiffers
  if (check.rows === 'match') confidence += TABLE.rowsMatch
  else if (check.rows === 'differ') confidence -= TABLE.rowsDiffer
  return Math.min(TABLE.cap, confidence)
}
