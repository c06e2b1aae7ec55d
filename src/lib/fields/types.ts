/**
 * What a field is (D87, D91): its public `type`, its columns, the field as a client, a schema or
 * the catalog gives it (`FieldInput`) and as a job holds it and every engine reads it (`Field`).
 * Shared by the wire models, the catalog, schemas, the job's stored fields, both engines and the
 * normalisation layer. Framework-free.
 */

/** Every type a client may declare; `auto` is resolved to one of the others when a job is created. */
export const FIELD_TYPES = ['auto', 'text', 'number', 'amount', 'date', 'currency', 'boolean', 'enum', 'list', 'table'] as const

export type FieldType = (typeof FIELD_TYPES)[number]

/** A type as a job holds it: never `auto`. */
export type ResolvedType = Exclude<FieldType, 'auto'>

export const RESOLVED_TYPES = FIELD_TYPES.filter((type): type is ResolvedType => type !== 'auto')

/** How many fields a schema or a request may have, and columns a table field (D88). */
export const MAX_FIELDS = 50
export const MAX_COLUMNS = 50
/** What a field key may be made of. */
export const FIELD_KEY_PATTERN = '^[A-Za-z0-9_]+$'
/** The longest label and description of a field, in code points. */
export const MAX_LABEL_LENGTH = 100
export const MAX_DESCRIPTION_LENGTH = 300

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

/** A field before its type is resolved: as a client sends it, a schema stores it or the catalog lists it. */
export interface FieldInput {
  key: string
  label: string
  description: string
  type?: FieldType
  values?: string[]
  columns?: ColumnInput[]
}

/** A field as a job holds it and every engine reads it: typed once when its job was created (D91). */
export interface Field extends ResolvedTyped {
  key: string
  label: string
  description: string
  /** Other printed labels of the field, from the catalog. */
  aliases?: string[]
}
