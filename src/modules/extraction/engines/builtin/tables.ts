/**
 * Tables (line items and the like): a header row whose cells name columns — one of them a label
 * of the field ("Description", "Artikel", "Désignation") — and the rows under it, each cell put in
 * the column it sits under. Rows end at a total line, at a long gap without amounts, or at the
 * page end; a line with only text under the first columns continues the row above.
 */
import { moneyAmounts } from '../../normalise/amounts'
import { COLUMN_KINDS } from '../../../../lib/lexicon/lexicon-file'
import { columnWords, wholeWords } from '../../../../lib/lexicon'
import { lineAmounts } from './amounts'
import type { Answer, Context, Plan } from './context'
import type { Cell, Line } from './document'
import { hitsOf } from './generic'
import { isAmountRole } from './totals'

/** Words that head the columns of item tables, besides the field's own labels: every column word of the lexicons (D95). */
const COLUMN_WORDS = wholeWords(COLUMN_KINDS.flatMap(columnWords))

interface Column {
  name: string
  start: number
  end: number
}

export function tableAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const headerLines = new Set(hitsOf(plan, ctx).map((hit) => hit.line.index))
  for (const index of [...headerLines].sort((a, b) => a - b)) {
    const header = ctx.doc.lines[index]!
    const columns = headerColumns(header)
    if (!columns) continue
    const rows = readRows(ctx, header, columns)
    if (rows.length) return { value: rows, confidence: rows.length > 1 ? 0.72 : 0.62, line: header }
  }
  return undefined
}

/** A header row: three or more short cells, most of them column words, none of them amounts. */
function headerColumns(line: Line): Column[] | undefined {
  const cells = line.cells
  if (cells.length < 3 || cells.some((cell) => moneyAmounts(cell.text).length)) return undefined
  const named = cells.filter((cell) => COLUMN_WORDS.test(cell.text)).length
  if (named < 2 || cells.some((cell) => cell.text.length > 40)) return undefined
  return cells.map((cell, i) => ({
    name: cell.text.replace(/[:.]+$/, ''),
    // A column reaches halfway to its neighbours: values are often centred or right-aligned.
    start: i === 0 ? -Infinity : (cells[i - 1]!.end + cell.start) / 2,
    end: i === cells.length - 1 ? Infinity : (cell.end + cells[i + 1]!.start) / 2,
  }))
}

function readRows(ctx: Context, header: Line, columns: Column[]): Record<string, string>[] {
  const rows: Record<string, string>[] = []
  const byIndex = header.raw.includes('\t')
  let gap = 0
  for (let index = header.index + 1; index < ctx.doc.lines.length; index++) {
    const line = ctx.doc.lines[index]!
    if (line.page !== header.page) break
    // A total, subtotal or tax line ends the items.
    const labels = ctx.hitsByLine.get(line.index) ?? []
    if (labels.some((hit) => isAmountRole(hit.entry.owner) && hit.start <= line.cells[0]!.start + 2)) break
    const hasAmount = lineAmounts(ctx, line).some((amount) => amount.moneyLike)
    if (!hasAmount) {
      const previous = rows[rows.length - 1]
      // Text under the first columns continues the previous row's description.
      if (previous && line.cells.length === 1 && gap === 0) {
        const column = byIndex ? columns[0]! : columnOf(columns, line.cells[0]!)
        previous[column.name] = `${previous[column.name] ?? ''} ${line.cells[0]!.text}`.trim()
        continue
      }
      if (++gap > 2) break
      continue
    }
    gap = 0
    const row: Record<string, string> = {}
    line.cells.forEach((cell, i) => {
      const column = byIndex ? columns[i] : columnOf(columns, cell)
      if (!column) return
      row[column.name] = row[column.name] ? `${row[column.name]} ${cell.text}` : cell.text
    })
    if (Object.keys(row).length >= 2) rows.push(row)
  }
  return rows
}

function columnOf(columns: Column[], cell: Cell): Column {
  const middle = (cell.start + cell.end) / 2
  return columns.find((column) => middle >= column.start && middle < column.end) ?? columns[columns.length - 1]!
}
