/**
 * What a field is (D87): the public `type` of a Field, shared by the wire models, the catalog,
 * the job's stored fields, both engines and the normalisation layer. Framework-free.
 */

/** Every type a client may declare; `auto` is resolved to one of the others when a job is created. */
export const FIELD_TYPES = ['auto', 'text', 'number', 'amount', 'date', 'currency', 'boolean', 'enum', 'list', 'table'] as const

export type FieldType = (typeof FIELD_TYPES)[number]

/** A type as a job holds it: never `auto`. */
export type ResolvedType = Exclude<FieldType, 'auto'>

/** Types a table column may have: anything but a nested table (D88). */
export const COLUMN_TYPES = ['auto', 'text', 'number', 'amount', 'date', 'currency', 'boolean', 'enum', 'list'] as const satisfies readonly Exclude<
  FieldType,
  'table'
>[]

export type ColumnType = (typeof COLUMN_TYPES)[number]

/** A column of a table field: a field of its own, one level deep. */
export interface Column {
  key: string
  label: string
  description: string
  type: ColumnType
  values?: string[]
}

/** The type part of a field: `values` only with `enum`, `columns` only with `table`. */
export interface Typed {
  type: FieldType
  values?: string[]
  columns?: Column[]
}

/** A field whose type is known (a job's field, an engine's input). */
export interface ResolvedTyped {
  type: ResolvedType
  values?: string[]
  columns?: ResolvedColumn[]
}

export interface ResolvedColumn extends Omit<Column, 'type'> {
  type: Exclude<ResolvedType, 'table'>
}

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value)
}

/** A column as a client may send it: only `key` is needed. */
export interface ColumnInput {
  key: string
  label?: string
  description?: string
  type?: ColumnType
  values?: string[]
}

/** A column in its stored and answered form: label defaults to the key, description to "", type to auto. */
export function toColumn(column: ColumnInput): Column {
  const type = column.type ?? 'auto'
  return {
    key: column.key,
    label: column.label ?? column.key,
    description: column.description ?? '',
    type,
    ...(type === 'enum' && column.values ? { values: column.values } : {}),
  }
}

/** The type part in its stored and answered form: `type` always, `values`/`columns` where they apply. */
export function typePart(field: { type?: FieldType; values?: string[]; columns?: ColumnInput[] }): Typed {
  const type = field.type ?? 'auto'
  return {
    type,
    ...(type === 'enum' && field.values ? { values: field.values } : {}),
    ...(type === 'table' && field.columns ? { columns: field.columns.map(toColumn) } : {}),
  }
}
