/**
 * The types a field may have (D87) and its limits (D88): plain constants, shared by the models
 * (model.ts), the engines in the extraction processes and the console in the browser, none of
 * which needs more to know them. Framework-free.
 */

/** Every type a client may declare; `auto` is resolved to one of the others when a job is created. */
export const FIELD_TYPES = ['auto', 'text', 'number', 'amount', 'date', 'currency', 'boolean', 'enum', 'list', 'table'] as const

export type FieldType = (typeof FIELD_TYPES)[number]

/** A type as a job holds it: never `auto`. */
export type ResolvedType = Exclude<FieldType, 'auto'>

export const RESOLVED_TYPES = FIELD_TYPES.filter((type): type is ResolvedType => type !== 'auto')

/** Types a table column may have: anything but a nested table (D88). */
export const COLUMN_TYPES = ['auto', 'text', 'number', 'amount', 'date', 'currency', 'boolean', 'enum', 'list'] as const satisfies readonly Exclude<
  FieldType,
  'table'
>[]

/** How many fields a schema or a request may have, and columns a table field (D88). */
export const MAX_FIELDS = 50
export const MAX_COLUMNS = 50
/** What a field key may be made of. */
export const FIELD_KEY_PATTERN = '^[A-Za-z0-9_]+$'
/** The longest label and description of a field, in code points. */
export const MAX_LABEL_LENGTH = 100
export const MAX_DESCRIPTION_LENGTH = 300
/** How many values an `enum` field may allow. */
export const MAX_ENUM_VALUES = 100

/** The confidence under which a value needs a person, when neither the schema nor the request sets one (D284). */
export const DEFAULT_REVIEW_THRESHOLD = 0.95

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value)
}
