/**
 * The one normalisation layer (D90): every engine's answer for a field passes through
 * `normaliseValue` with the field's resolved type, so the built-in engine and the language-model
 * engine give the same typed result (D57). Framework-free; knows nothing of either engine. A value
 * that does not fit its type is null (the job then answers confidence 0 for it).
 */
import type { JobField, ResolvedColumn } from '../../../lib/fields/model'
import { type Answers, answerOf, answersOf, NO_ANSWER } from '../answers'
import { parseAmount, parseNumber } from './amounts'
import { parseBoolean } from './booleans'
import { findCurrency } from './currency'
import { parseDate } from './dates'
import { collapse, fold } from '../../../lib/text'

export { parseAmount, parseNumber } from './amounts'
export { parseBoolean } from './booleans'
export { parseDate } from './dates'

/**
 * An engine's answers in the fields' types: every value normalised; one that does not fit its
 * type becomes no answer (D90). Keys are read as own properties only.
 */
export function normaliseAnswers(fields: readonly Pick<JobField, 'key' | 'type' | 'values' | 'columns'>[], answers: Answers): Answers {
  return answersOf(
    fields.map((field) => {
      const answer = answerOf(answers, field.key)
      const value = normaliseValue(field, answer.value)
      return [field.key, value === null ? NO_ANSWER : { ...answer, value }] as const
    }),
  )
}

type Cell = string | number | boolean | string[] | null
type Row = Record<string, Cell>

/** The value in the field's type (D57), or null when it is absent, empty or does not fit the type. */
export function normaliseValue(field: Pick<JobField, 'type' | 'values' | 'columns'>, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (field.type) {
    case 'text':
      return normaliseText(value)
    case 'number':
      return parseNumber(value)
    case 'amount':
      return parseAmount(value)
    case 'date':
      return typeof value === 'string' ? parseDate(value) : null
    case 'currency':
      if (typeof value !== 'string') return null
      return /^[A-Z]{3}$/.test(value.trim()) ? value.trim() : (findCurrency(value) ?? null)
    case 'boolean':
      return parseBoolean(value)
    case 'enum':
      return parseEnum(value, field.values ?? [])
    case 'list':
      return normaliseList(value)
    case 'table':
      return normaliseTable(value, field.columns)
  }
}

/** Text: a string (or a number as printed) with its whitespace collapsed. */
export function normaliseText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string') return null
  const text = collapse(value)
  return text === '' ? null : text
}

/**
 * One of the allowed values, as declared: the same text, else the same ignoring case, accents and
 * punctuation, else the one allowed value whose words the answer contains ("Status: paid").
 */
export function parseEnum(value: unknown, allowed: readonly string[]): string | null {
  if (typeof value === 'boolean' || typeof value === 'number') value = String(value)
  if (typeof value !== 'string') return null
  if (allowed.includes(value)) return value
  const key = (text: string) =>
    fold(text)
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
  const wanted = key(value)
  if (wanted === '') return null
  const keys = allowed.map(key)
  const same = allowed.filter((_, i) => keys[i] === wanted)
  if (same.length === 1) return same[0]!
  const padded = ` ${wanted} `
  const contained = allowed.filter((_, i) => keys[i] !== '' && padded.includes(` ${keys[i]} `))
  return contained.length === 1 ? contained[0]! : null
}

/** A list of strings: an array of texts, or one text of items separated by semicolons or new lines. */
export function normaliseList(value: unknown): string[] | null {
  let items: unknown[]
  if (Array.isArray(value)) items = value
  else if (typeof value === 'string') items = value.split(/\s*[;\n]\s*/)
  else return null
  if (!items.every((item) => typeof item === 'string' || typeof item === 'number')) return null
  const texts = items.map((item) => normaliseText(item)).filter((item): item is string => item !== null)
  return texts.length > 0 ? texts : null
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A table's rows from row objects or from `{columns: [name], rows: [[cell]]}`. */
function rowsOf(value: unknown): Record<string, unknown>[] | null {
  if (Array.isArray(value)) return value.every(isObject) ? value : null
  if (isObject(value) && Array.isArray(value.columns) && Array.isArray(value.rows)) {
    const columns = value.columns
    if (!columns.every((column) => typeof column === 'string' && column.trim() !== '')) return null
    if (!value.rows.every((row) => Array.isArray(row))) return null
    return (value.rows as unknown[][]).map((row) => Object.fromEntries(columns.map((column: string, index) => [column.trim(), row[index]])))
  }
  return null
}

/** A cell without declared columns: a text or a number, as given. */
function plainCell(value: unknown): Cell {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  return normaliseText(value)
}

const columnKey = (text: string) => fold(text).replace(/[^\p{L}\p{N}]+/gu, '')

type NamedCells = (readonly [name: string, cell: unknown])[]

/**
 * The entry of a row that holds a declared column: by key or label, ignoring case, accents and
 * punctuation ("Unit price" for `unit_price`), else a printed name that starts with either.
 * `names` are the column's folded key and label; `entries`, the row's folded names, made once per row.
 */
function cellFor(row: Record<string, unknown>, column: ResolvedColumn, names: string[], entries: () => NamedCells): unknown {
  if (Object.hasOwn(row, column.key)) return row[column.key]
  const exact = entries().find(([name]) => names.includes(name))
  if (exact) return exact[1]
  return entries().find(([name]) => name !== '' && names.some((wanted) => name.startsWith(wanted) || wanted.startsWith(name)))?.[1]
}

/**
 * Rows as objects. With declared columns every row has exactly those keys, each cell normalised
 * by its column's type (a cell that does not fit is null); rows without any value are dropped.
 */
export function normaliseTable(value: unknown, columns: ResolvedColumn[] | undefined): Row[] | null {
  const rows = rowsOf(value)
  if (!rows) return null
  const names = columns?.map((column) => [columnKey(column.key), columnKey(column.label)].filter(Boolean))
  const typed: Row[] = rows.map((row) => {
    if (!columns || !names) return Object.fromEntries(Object.entries(row).map(([name, cell]) => [name, plainCell(cell)]))
    let folded: NamedCells | undefined
    const entries = () => (folded ??= Object.entries(row).map(([name, cell]) => [columnKey(name), cell] as const))
    return Object.fromEntries(columns.map((column, i) => [column.key, normaliseValue(column, cellFor(row, column, names[i]!, entries)) as Cell]))
  })
  const filled = typed.filter((row) => Object.values(row).some((cell) => cell !== null))
  return filled.length > 0 ? filled : null
}
