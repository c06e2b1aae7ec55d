/**
 * How a field gets the type a job reads it as (D91): declared, else for `auto` the catalog type of
 * the same key, else inferred from key, label and description as the built-in engine reads them.
 * Framework-free; used at job creation and for the JSON Schema of a schema's result (D96).
 */
import { type ColumnInput, type FieldType, type ResolvedColumn, type ResolvedTyped, toColumn } from '../../lib/field-types'
import type { CatalogField } from '../catalog/model'
import { inferType } from './engines/builtin/concepts'

export type TypedInput = { type?: FieldType; values?: string[]; columns?: ColumnInput[] }
export type FieldSource = { key: string; label: string; description: string } & TypedInput

/** A column in the job's form: `auto` resolved by inference, never to a nested table (D91). */
function resolveColumn(column: ColumnInput): ResolvedColumn {
  const { key, label, description, type, values } = toColumn(column)
  const inferred = type === 'auto' ? inferType(key, label, description) : type
  const resolved = inferred === 'table' ? 'list' : inferred
  return { key, label, description, type: resolved, ...(resolved === 'enum' && values ? { values } : {}) }
}

/**
 * A field's type as the job keeps it (D91): declared; else, for `auto`, the catalog's type of the
 * same key; else inferred from key, label and description as the built-in engine reads them.
 */
export function resolveType(field: FieldSource, catalogField: CatalogField | undefined): ResolvedTyped {
  let typed: TypedInput = field
  if ((field.type ?? 'auto') === 'auto' && catalogField?.type && catalogField.type !== 'auto') typed = catalogField
  const type = typed.type ?? 'auto'
  const resolved = type === 'auto' ? inferType(field.key, field.label, field.description) : type
  return {
    type: resolved,
    ...(resolved === 'enum' && typed.values ? { values: typed.values } : {}),
    ...(resolved === 'table' && typed.columns ? { columns: typed.columns.map(resolveColumn) } : {}),
  }
}
