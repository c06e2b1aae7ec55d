/** Wire schemas shared by every module: the error envelope, the answer of a deletion and the Field object. */
import { t } from 'elysia'
import { COLUMN_TYPES, FIELD_KEY_PATTERN, FIELD_TYPES, MAX_COLUMNS, MAX_DESCRIPTION_LENGTH, MAX_LABEL_LENGTH } from '../lib/fields/types'
import type { ErrorDetail } from './errors'
import { NOT_BLANK, Text } from './text'

export const ErrorEnvelope = t.Object(
  {
    error: t.String({ description: 'Human-readable message.' }),
    code: t.String({ description: 'Stable snake_case error code.', examples: ['validation_failed'] }),
    details: t.Optional(
      t.Array(t.Object({ path: t.String({ examples: ['/fields/3/key'] }), message: t.String() }), {
        description: 'Every offending location, for validation errors.',
      }),
    ),
    available_types: t.Optional(t.Array(t.String(), { description: 'All catalog slugs, for an unknown document type.' })),
    accepted_types: t.Optional(t.Array(t.String(), { description: 'Accepted media types, for an unsupported upload.' })),
  },
  { title: 'Error' },
)

/** What every DELETE answers. */
export const Deleted = t.Object({ ok: t.Literal(true) })

export const FieldKey = t.String({
  minLength: 1,
  maxLength: 64,
  pattern: FIELD_KEY_PATTERN,
  description: 'Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.',
  examples: ['invoice_number'],
})

export const FieldLabel = Text({ minLength: 1, maxLength: MAX_LABEL_LENGTH, pattern: NOT_BLANK, examples: ['Invoice Number'] })
export const FieldDescription = Text({ maxLength: MAX_DESCRIPTION_LENGTH, examples: ['Identifier of the invoice as printed.'] })

export const FieldTypeSchema = t.UnionEnum(FIELD_TYPES, {
  description:
    'What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, ' +
    '`amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).',
  default: undefined,
})
const ColumnTypeSchema = t.UnionEnum(COLUMN_TYPES, { description: 'Type of the column: any field type but `table`.', default: undefined })

export const MAX_ENUM_VALUES = 100

/** The allowed answers of an `enum` field (D88): non-blank, distinct. */
export const EnumValues = t.Array(Text({ minLength: 1, maxLength: 100, pattern: NOT_BLANK }), {
  minItems: 1,
  maxItems: MAX_ENUM_VALUES,
  description: 'Only with `type: "enum"`: the allowed answers, distinct.',
  examples: [['paid', 'open', 'overdue']],
})

/** A column of a `table` field as a client sends it: a field of its own, one level deep (D88). */
export const ColumnInput = t.Object(
  {
    key: FieldKey,
    label: t.Optional(FieldLabel),
    description: t.Optional(FieldDescription),
    type: t.Optional(ColumnTypeSchema),
    values: t.Optional(EnumValues),
  },
  { additionalProperties: false },
)

export const Column = t.Object(
  { key: FieldKey, label: FieldLabel, description: FieldDescription, type: ColumnTypeSchema, values: t.Optional(EnumValues) },
  { additionalProperties: false },
)

const ColumnsInput = t.Array(ColumnInput, {
  minItems: 1,
  maxItems: MAX_COLUMNS,
  description: 'Only with `type: "table"`: the columns of each row, keys distinct.',
})

/** A Field as a client sends it: `description` and `type` may be left out. */
export const FieldInput = t.Object(
  {
    key: FieldKey,
    label: FieldLabel,
    description: t.Optional(FieldDescription),
    required: t.Boolean({ description: 'Hint only: whether such documents typically carry the field.' }),
    type: t.Optional(FieldTypeSchema),
    values: t.Optional(EnumValues),
    columns: t.Optional(ColumnsInput),
  },
  { additionalProperties: false },
)

/** A Field as the service returns it: every property present (D7), `values`/`columns` where they apply. */
export const Field = t.Object(
  {
    key: FieldKey,
    label: FieldLabel,
    description: FieldDescription,
    required: t.Boolean(),
    type: FieldTypeSchema,
    values: t.Optional(EnumValues),
    columns: t.Optional(t.Array(Column)),
  },
  { additionalProperties: false },
)

export type ColumnInput = typeof ColumnInput.static
export type FieldInput = typeof FieldInput.static
export type Field = typeof Field.static

export function errorResponses<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelope])) as {
    [K in S[number]]: typeof ErrorEnvelope
  }
}

/** D9: field keys are the keys of the result JSON, so each may appear once. */
export function duplicateKeyDetails(fields: readonly { key: string }[], basePath = '/fields'): ErrorDetail[] {
  const firstIndex = new Map<string, number>()
  const details: ErrorDetail[] = []
  fields.forEach((field, index) => {
    const first = firstIndex.get(field.key)
    if (first === undefined) firstIndex.set(field.key, index)
    else
      details.push({
        path: `${basePath}/${index}/key`,
        message: `Duplicate field key "${field.key}": also at ${basePath}/${first}/key`,
      })
  })
  return details
}

interface TypedInput {
  type?: string
  values?: readonly string[]
  columns?: readonly ColumnInput[]
}

/**
 * D88: the rules a schema cannot state: `values` only with (and always with) `enum`, `columns`
 * only with `table`, distinct values and column keys. Paths as D32.
 */
export function typeRuleDetails(field: TypedInput, path: string): ErrorDetail[] {
  const details: ErrorDetail[] = []
  const type = field.type ?? 'auto'
  if (field.values !== undefined && type !== 'enum')
    details.push({ path: `${path}/values`, message: `values are only allowed with type "enum", not "${type}"` })
  if (type === 'enum' && field.values === undefined) details.push({ path: `${path}/values`, message: 'A field of type "enum" needs its allowed values' })
  field.values?.forEach((value, index) => {
    const first = field.values!.indexOf(value)
    if (first !== index) details.push({ path: `${path}/values/${index}`, message: `Duplicate value "${value}": also at ${path}/values/${first}` })
  })
  if (field.columns !== undefined && type !== 'table')
    details.push({ path: `${path}/columns`, message: `columns are only allowed with type "table", not "${type}"` })
  if (field.columns) {
    details.push(...duplicateKeyDetails(field.columns, `${path}/columns`))
    field.columns.forEach((column, index) => details.push(...typeRuleDetails(column, `${path}/columns/${index}`)))
  }
  return details
}

/** D9 and D88 for a list of fields sent under `basePath`. */
export function fieldListDetails(fields: readonly (TypedInput & { key: string })[], basePath = '/fields'): ErrorDetail[] {
  return [...duplicateKeyDetails(fields, basePath), ...fields.flatMap((field, index) => typeRuleDetails(field, `${basePath}/${index}`))]
}
