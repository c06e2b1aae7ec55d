/**
 * A table field learned from its reviewed rows (D267): the heading row over the rows, each
 * column's span across relative to it, the column every row prints a value in, and the words of
 * the row that ends the table. A later document's table is read between its heading and that row,
 * however many rows it has: a line with a value in the row's column starts a row, other lines add
 * their text to the row above.
 */
import type { JobField, ResolvedColumn } from '../../../lib/fields/model'
import { collapse } from '../../../lib/text'
import type { FieldAnswer } from '../answers'
import { normaliseValue } from '../normalise'
import { type DateOrder, dateOrderOf } from '../normalise/dates'
import { headingRun, labelRun } from './anchors'
import type { Anchor, TableField } from './layout'
import { anchorOn, bboxOf, boxOf, occurrences, textOf } from './place'
import { printings, typed } from './values'
import { type Page, pageOf, type Word } from './words'

type Row = Record<string, unknown>

/** Types a table's rows can be told apart by, the surest first: a row prints one in its own place (an amount, its line's). */
const ROW_TYPES = ['amount', 'date', 'number']
/** How sure rows read with a learned table are. */
const TABLE_CONFIDENCE = 0.9
/** Lines a learned table may run to when the row that ends it is not found. */
const MAX_TABLE_LINES = 200

export function learnTable(pages: Page[], field: JobField, raw: unknown, job: string): TableField | undefined {
  const columns = field.columns
  const rows = normaliseValue(field, raw) as Row[] | null
  if (!columns?.length || !rows?.length) return undefined
  // The column that starts rows: of a type rows are told apart by, a value in every row.
  const starts = columns
    .filter((column) => ROW_TYPES.includes(column.type) && rows.every((row) => row[column.key] !== null && row[column.key] !== undefined))
    .sort((a, b) => ROW_TYPES.indexOf(a.type) - ROW_TYPES.indexOf(b.type))
  for (const start of starts) {
    for (let page = 0; page < pages.length; page++) {
      const found = rowLines(pages[page]!, start, rows)
      if (found) return tableOf(pages[page]!, page, columns, start, rows, found, job)
    }
  }
  return undefined
}

/** The line of each row, top down, found by the row's value in the starting column; undefined unless every row is found in order. */
function rowLines(page: Page, start: ResolvedColumn, rows: Row[]): Word[][] | undefined {
  const single: Page[] = [page]
  const lines: Word[][] = []
  let below = Number.NEGATIVE_INFINITY
  for (const row of rows) {
    const next = printings(single, start.type, row[start.key])
      .map((printing) => printing.words)
      .filter((words) => words[0]!.line > below)
      .sort((a, b) => a[0]!.line - b[0]!.line)[0]
    if (!next) return undefined
    lines.push(next)
    below = next[0]!.line
  }
  return lines
}

function tableOf(
  page: Page,
  index: number,
  columns: ResolvedColumn[],
  start: ResolvedColumn,
  rows: Row[],
  starts: Word[][],
  job: string,
): TableField | undefined {
  const heading = headingRun(page, starts[0]!)
  const headWords = heading.length ? fullLine(page, heading[0]!.line) : undefined
  if (!headWords) return undefined
  const head = anchorFor(page, headWords)
  if (!head) return undefined
  const [originX] = boxOf(headWords)
  // Each column's span: the words of its values on their rows (and the lines that continue them).
  const lines = page.rows
  const spans = columns.flatMap((column) => {
    const found = rows.flatMap((row, i) => {
      const value = row[column.key]
      if (value === null || value === undefined) return []
      const first = starts[i]![0]!.line
      const last = i + 1 < starts.length ? starts[i + 1]![0]!.line - 1 : first + 2
      const near = [...lines.entries()].filter(([line]) => line >= first - 1 && line <= last).flatMap(([, words]) => words)
      const printed = printings([pageOf(page.lines, near)], column.type, value)[0]
      return printed ? [boxOf(printed.words)] : []
    })
    if (!found.length) return []
    return [
      { key: column.key, type: column.type, from: Math.min(...found.map((box) => box[0])) - originX, to: Math.max(...found.map((box) => box[2])) - originX },
    ]
  })
  if (!spans.some((span) => span.key === start.key)) return undefined
  // A text column reaches to the next column: a longer description than the reviewed ones is still its own.
  spans.sort((a, b) => a.from - b.from)
  spans.forEach((span, i) => {
    const next = spans[i + 1]
    if (span.type === 'text' && next && next.from - 1 > span.to) span.to = next.from - 1
  })
  const lastLine = starts[starts.length - 1]![0]!.line
  const after = [...lines.keys()].filter((line) => line > lastLine).sort((a, b) => a - b)
  // The row that ends the table: the first line under the last row whose words before its first number are a label.
  let end: string[] | undefined
  for (const line of after.slice(0, 4)) {
    const words = lines.get(line)!
    const number = words.find((word) => /\d/.test(word.key))
    const label = number ? labelRun(page, [number]) : []
    if (label.length) {
      end = label.map((word) => word.key)
      break
    }
  }
  const order = dateOrderOf(page.lines.join('\n'))
  return {
    how: 'table',
    type: 'table',
    job,
    page: index,
    head,
    ...(end ? { end } : {}),
    columns: spans,
    rowStart: start.key,
    ...(order ? { dateOrder: order } : {}),
  }
}

/** A line's words up to eight, as an anchor's words. */
function fullLine(page: Page, line: number): Word[] | undefined {
  const words = page.words.filter((word) => word.line === line && !/\d/.test(word.key)).slice(0, 8)
  return words.length ? words : undefined
}

function anchorFor(page: Page, words: Word[]): Anchor | undefined {
  const keys = words.map((word) => word.key)
  const rows = occurrences(page, keys)
  const nth = rows.findIndex((row) => row[0] === words[0])
  if (nth < 0) return undefined
  const { top, height } = page.extent
  return { kind: 'above', keys, offset: [0, 0, 0, 0], nth, of: rows.length, at: (words[0]!.box[1] - top) / height }
}

/** A table read with a learned one: its rows between the heading row and the row that ends it. */
export function readTable(pages: Page[], field: JobField, learned: TableField): FieldAnswer | undefined {
  const page = pages[learned.page]
  if (!page) return undefined
  const lines = page.rows
  const head = anchorOn(page, learned.head)
  if (!head) return undefined
  const headLine = head[0]!.line
  const [originX] = boxOf(head)
  const endLine = learned.end ? occurrences(page, learned.end).find((row) => row[0]!.line > headLine)?.[0]?.line : undefined
  if (learned.end && endLine === undefined) return undefined
  const order: DateOrder = learned.dateOrder ?? dateOrderOf(page.lines.join('\n'))
  const types = new Map((field.columns ?? []).map((column) => [column.key, column]))
  const rows: Row[] = []
  const used: Word[] = []
  let current: Map<string, Word[]> | undefined
  const flush = () => {
    if (!current) return
    const row: Row = {}
    for (const { key } of field.columns ?? []) {
      const words = current.get(key)
      const column = types.get(key)
      row[key] = words && column ? typed(column, textOf(page, words), order) : null
    }
    if (Object.values(row).some((value) => value !== null)) rows.push(row)
    current = undefined
  }
  const body = [...lines.keys()].filter((line) => line > headLine && (endLine === undefined || line < endLine)).sort((a, b) => a - b)
  for (const line of body.slice(0, MAX_TABLE_LINES)) {
    const cells = new Map<string, Word[]>()
    for (const word of lines.get(line)!) {
      const x = (word.box[0] + word.box[2]) / 2 - originX
      const column = nearestColumn(learned.columns, x)
      if (!column) continue
      cells.set(column.key, [...(cells.get(column.key) ?? []), word])
    }
    const startWords = cells.get(learned.rowStart)
    const startColumn = types.get(learned.rowStart)
    const startsRow = startWords && startColumn && typed(startColumn, textOf(page, startWords), order) !== null
    if (startsRow) {
      flush()
      current = cells
    } else if (current) {
      // A line without a row's value continues the row above in its text columns.
      for (const [key, words] of cells) if (types.get(key)?.type === 'text') current.set(key, [...(current.get(key) ?? []), ...words])
    } else continue
    used.push(...[...cells.values()].flat())
  }
  flush()
  if (!rows.length) return undefined
  return {
    value: rows,
    confidence: TABLE_CONFIDENCE,
    page: learned.page + 1,
    snippet: collapse(page.lines[headLine] ?? ''),
    line: headLine,
    bbox: bboxOf(page, used),
  }
}

/** The column a word's centre falls in (give of two characters either side), the nearest of those. */
function nearestColumn(columns: TableField['columns'], x: number): TableField['columns'][number] | undefined {
  let best: TableField['columns'][number] | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const column of columns) {
    const distance = x < column.from ? column.from - x : x > column.to ? x - column.to : 0
    if (distance <= 2 && distance < bestDistance) {
      best = column
      bestDistance = distance
    }
  }
  return best
}
