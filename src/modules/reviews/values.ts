/**
 * A reviewed value, checked against its field's type and stored as `result` holds a value (D276):
 * dates as `YYYY-MM-DD`, amounts as numbers (or the decimal string `result` answers), numbers as
 * numbers, currencies as ISO 4217 codes, an enum's value as declared, lists as strings, tables as
 * arrays of rows keyed by the table's columns; null for no value. Anything else is a problem
 * naming the value's JSON pointer.
 */
import type { ErrorDetail } from '../../http/errors'
import type { JobField, ResolvedColumn } from '../../lib/fields/model'
import type { ResolvedType } from '../../lib/fields/types'
import { normaliseValue } from '../extraction/normalise'
import { parseDate } from '../extraction/normalise/dates'
import { pointerSegment } from '../../lib/text'

export type Checked = { ok: true; value: unknown } | { ok: false; details: ErrorDetail[] }

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/
const CURRENCY = /^[A-Z]{3}$/

/** A value of one of the field's types, at `path`: its stored form, or what is wrong with it. */
export function checkValue(field: Pick<JobField, 'type' | 'values' | 'columns'>, value: unknown, path: string): Checked {
  if (value === null) return { ok: true, value: null }
  const checked = field.type === 'table' ? checkTable(field.columns, value, path) : checkScalar(field.type, field.values, value, path)
  // Stored as the one normalisation layer types every answer (D90): `result` reads the same whoever gave the value.
  return checked.ok ? { ok: true, value: normaliseValue(field, checked.value) } : checked
}

function problem(path: string, message: string): Checked {
  return { ok: false, details: [{ path, message }] }
}

function checkScalar(type: Exclude<ResolvedType, 'table'>, values: readonly string[] | undefined, value: unknown, path: string): Checked {
  switch (type) {
    case 'text':
      if (typeof value !== 'string' || value.trim() === '') return problem(path, 'Expected a non-empty string, or null')
      return { ok: true, value }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return problem(path, 'Expected a number, or null')
      return { ok: true, value }
    case 'amount':
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value }
      // The decimal string `result` answers, as the number it is ("12.5" is stored as "12.50", like 12.5).
      if (typeof value === 'string' && DECIMAL.test(value))
        return { ok: true, value: Number.isSafeInteger(Math.round(Number(value) * 100)) ? Number(value) : value }
      return problem(path, 'Expected an amount: a number such as 1234.5, or null')
    case 'date':
      // As an answer's date is read (D94): a day of the calendar, 1900–2100, written as the answer writes it.
      if (typeof value !== 'string' || parseDate(value) !== value) return problem(path, 'Expected a date as YYYY-MM-DD (1900–2100), or null')
      return { ok: true, value }
    case 'currency':
      if (typeof value !== 'string' || !CURRENCY.test(value)) return problem(path, 'Expected an ISO 4217 currency code such as EUR, or null')
      return { ok: true, value }
    case 'boolean':
      if (typeof value !== 'boolean') return problem(path, 'Expected true or false, or null')
      return { ok: true, value }
    case 'enum':
      if (typeof value !== 'string' || !(values ?? []).includes(value)) return problem(path, `Expected one of ${(values ?? []).join(', ')}, or null`)
      return { ok: true, value }
    case 'list':
      if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === 'string' && item.trim() !== ''))
        return problem(path, 'Expected a non-empty array of non-empty strings, or null')
      return { ok: true, value }
  }
}

/** Rows of a table: objects whose keys are its columns (a column left out is null); a table without columns takes strings and numbers. */
function checkTable(columns: readonly ResolvedColumn[] | undefined, value: unknown, path: string): Checked {
  if (!Array.isArray(value) || value.length === 0) return problem(path, 'Expected a non-empty array of rows, or null')
  const details: ErrorDetail[] = []
  const rows = value.map((row, index) => {
    const at = `${path}/${index}`
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      details.push({ path: at, message: 'Expected a row: an object keyed by column' })
      return null
    }
    const cells = row as Record<string, unknown>
    if (!columns?.length) {
      for (const [key, cell] of Object.entries(cells))
        if (cell !== null && typeof cell !== 'string' && !(typeof cell === 'number' && Number.isFinite(cell)))
          details.push({ path: `${at}/${pointerSegment(key)}`, message: 'Expected a string, a number or null' })
      return cells
    }
    const known = new Set(columns.map((column) => column.key))
    for (const key of Object.keys(cells))
      if (!known.has(key)) details.push({ path: `${at}/${pointerSegment(key)}`, message: `Unknown column: expected one of ${[...known].join(', ')}` })
    return Object.fromEntries(
      columns.map((column) => {
        const checked: Checked = Object.hasOwn(cells, column.key)
          ? cells[column.key] === null
            ? { ok: true, value: null }
            : checkScalar(column.type, column.values, cells[column.key], `${at}/${pointerSegment(column.key)}`)
          : { ok: true, value: null }
        if (!checked.ok) details.push(...checked.details)
        return [column.key, checked.ok ? checked.value : null]
      }),
    )
  })
  return details.length ? { ok: false, details } : { ok: true, value: rows }
}
