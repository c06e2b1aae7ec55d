/**
 * A field and its answer, each declared once (D200). `Field` and `Column` say what a field is,
 * `FieldMeta` what a job says of an answer besides its value; every other form — what a client
 * sends, what a catalog file or a schema holds, a job's copy as the engines read it, an answer on
 * its way from an engine to the wire — is derived from them, here or in the module that uses it.
 * Written with Elysia's `t` (D201): its UnionEnum and Integer are what the OpenAPI document shows
 * and the validation messages name. The extraction processes' code takes only types from this file.
 */
import type { TObject, TProperties } from '@sinclair/typebox'
import { t } from 'elysia'
import { NOT_BLANK, Text } from '../text-type'
import {
  COLUMN_TYPES,
  FIELD_KEY_PATTERN,
  FIELD_TYPES,
  MAX_COLUMNS,
  MAX_DESCRIPTION_LENGTH,
  MAX_ENUM_VALUES,
  MAX_LABEL_LENGTH,
  type ResolvedType,
} from './types'

// ── Its parts ────────────────────────────────────────────────────────────────────────────────

const FieldKey = t.String({
  minLength: 1,
  maxLength: 64,
  pattern: FIELD_KEY_PATTERN,
  description: 'Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.',
  examples: ['invoice_number'],
})

const FieldLabel = Text({ minLength: 1, maxLength: MAX_LABEL_LENGTH, pattern: NOT_BLANK, examples: ['Invoice Number'] })
const FieldDescription = Text({ maxLength: MAX_DESCRIPTION_LENGTH, examples: ['Identifier of the invoice as printed.'] })

const FieldTypeSchema = t.UnionEnum(FIELD_TYPES, {
  description:
    'What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, ' +
    '`amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).',
  default: undefined,
})
const ColumnTypeSchema = t.UnionEnum(COLUMN_TYPES, { description: 'Type of the column: any field type but `table`.', default: undefined })

/** The allowed answers of an `enum` field (D88): non-blank, distinct. */
const EnumValues = t.Array(Text({ minLength: 1, maxLength: 100, pattern: NOT_BLANK }), {
  minItems: 1,
  maxItems: MAX_ENUM_VALUES,
  description: 'Only with `type: "enum"`: the allowed answers, distinct.',
  examples: [['paid', 'open', 'overdue']],
})

const STRICT = { additionalProperties: false } as const

// ── The field: two shapes declared ───────────────────────────────────────────────────────────

/** Declared: a column of a `table` field is a field of its own, one level deep (D88): no `required`, no nested table. */
export const Column = t.Object(
  { key: FieldKey, label: FieldLabel, description: FieldDescription, type: ColumnTypeSchema, values: t.Optional(EnumValues) },
  STRICT,
)

/** Declared: the field (D87) as a schema keeps it and the API answers it: every property present (D7), `values` and `columns` where they apply. */
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
  STRICT,
)

// ── Derived: what a client sends, what a catalog file holds ──────────────────────────────────

/**
 * `object` with some of its properties changed, in its own order: TypeBox's Composite would put
 * them last, and the OpenAPI document shows the order written.
 */
function alter<T extends TProperties, C extends TProperties>(object: TObject<T>, changes: C): TObject<Omit<T, keyof C> & C> {
  return t.Object(Object.fromEntries(Object.entries(object.properties).map(([key, schema]) => [key, changes[key] ?? schema])), STRICT) as never
}

/** A column as a client sends it: only its key is needed. */
export const ColumnInput = t.Composite([t.Pick(Column, ['key']), t.Partial(t.Omit(Column, ['key']))], STRICT)

/** A field as a client sends it: `description` ("") and `type` (`auto`) may be left out, `required` is a hint, columns as sent. */
export const FieldInput = alter(Field, {
  description: t.Optional(FieldDescription),
  required: t.Boolean({ description: 'Hint only: whether such documents typically carry the field.' }),
  type: t.Optional(FieldTypeSchema),
  columns: t.Optional(
    t.Array(ColumnInput, { minItems: 1, maxItems: MAX_COLUMNS, description: 'Only with `type: "table"`: the columns of each row, keys distinct.' }),
  ),
})

/**
 * A field of a catalog file (D18): always described; its type may be left out or given by its
 * old name `kind` (D87); and the labels real documents print for it, for the engine only.
 */
export const CatalogField = t.Composite(
  [
    t.Omit(Field, ['type', 'values', 'columns']),
    t.Object({ type: t.Optional(FieldTypeSchema), kind: t.Optional(FieldTypeSchema) }),
    t.Pick(Field, ['values']),
    t.Object({ columns: t.Optional(t.Array(ColumnInput, { minItems: 1 })), aliases: t.Optional(t.Array(FieldLabel)) }),
  ],
  STRICT,
)

export type Column = typeof Column.static
export type Field = typeof Field.static
export type ColumnInput = typeof ColumnInput.static
export type FieldInput = typeof FieldInput.static
export type CatalogField = typeof CatalogField.static

// ── Derived: a job's field, as the engines read it ───────────────────────────────────────────

/** A column as a job holds it: typed once when the job was created (D91), never `auto`. */
export type ResolvedColumn = Omit<Column, 'type'> & { type: Exclude<Column['type'], 'auto'> }

/**
 * A field as a job holds it and every engine reads it (D20, D91): its type resolved once when the
 * job was created, the catalog's aliases along as further printed labels; `required` stays behind.
 */
export type JobField = Omit<Field, 'required' | 'type' | 'columns'> & { type: ResolvedType; columns?: ResolvedColumn[] } & Pick<CatalogField, 'aliases'>

// ── The answer: one shape declared ───────────────────────────────────────────────────────────

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()])

/** A box on a page, as the wire describes it (a value's, a table row's, a cell's: D338). */
export const BBox = t.Object(
  {
    left: t.Number({ minimum: 0, maximum: 1 }),
    top: t.Number({ minimum: 0, maximum: 1 }),
    width: t.Number({ minimum: 0, maximum: 1 }),
    height: t.Number({ minimum: 0, maximum: 1 }),
  },
  {
    description:
      "Where the value is printed on its page, as fractions of the page's width and height from its top-left corner; null for documents without positions (text, Markdown, HTML, DOCX).",
  },
)

/** Declared: what a job says of an answer besides its value (D57, D68, D117), named as stored and answered from the engine on (D202). */
export const FieldMeta = t.Object({
  confidence: t.Number({ minimum: 0, maximum: 1 }),
  page: Nullable(t.Integer()),
  snippet: Nullable(t.String()),
  bbox: Nullable(BBox),
  rows: t.Optional(
    t.Array(
      Nullable(
        t.Object({
          page: t.Integer({ minimum: 1 }),
          bbox: BBox,
          cells: t.Record(t.String(), Nullable(BBox), { description: 'Column key → where that cell is printed; null where its words were not found.' }),
        }),
      ),
      {
        description:
          "A table's rows in order, each where it is printed (its line on the page) with its cells (D338); null for a row not found in print. Only tables of documents with positions have it.",
      },
    ),
  ),
  table_check: t.Optional(
    t.Object(
      {
        lines_sum: Nullable(t.String({ description: 'The sum of the line amounts, as a decimal string; null when the table has no amount column.' })),
        total: t.UnionEnum(['matches', 'differs', 'not_found', 'not_checked'], {
          description: 'Whether an amount printed right under the table (the net total, a subtotal) equals that sum.',
          default: undefined,
        }),
        rows: t.UnionEnum(['match', 'differ', 'not_checked'], {
          description: 'Whether quantity × unit price gives each line amount, where a row prints all three.',
          default: undefined,
        }),
      },
      { description: 'Only for a table field read by the built-in engine (D117): how its rows check out; its confidence says the same.' },
    ),
  ),
  checks: t.Optional(
    t.Array(
      t.Object({
        check: t.UnionEnum(['subtotal_plus_tax', 'lines_sum', 'rate_times_base', 'tax_breakdown', 'cash_minus_change'], { default: undefined }),
        expected: t.String({ description: 'What the other answers imply this value is, as a decimal string.' }),
        found: t.String({ description: 'The value given, as a decimal string.' }),
      }),
      { description: 'The sums between answers that this value breaks (D282); absent when it breaks none.' },
    ),
  ),
  needs_review: t.Optional(
    t.Boolean({
      description:
        'Whether a person should check the value: its confidence is under the review threshold, or it breaks a sum (D284). Absent in jobs stored before it.',
    }),
  ),
  learned: t.Optional(
    t.Object(
      {
        layout: t.String({ description: 'The learned layout (`GET /api/v1/layouts`).', examples: ['lay_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
        job: t.String({ description: 'The reviewed job that taught it.', examples: ['job_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
        how: t.UnionEnum(['printed', 'constant', 'absent', 'table'], {
          description:
            "`printed`: read where the review found it printed; `constant`: the value the sender always has; `absent`: the sender's documents have none; `table`: rows read under the learned heading.",
          default: undefined,
        }),
      },
      { description: "Only when the value was read with a layout the account learned from a review of the sender's documents (D266)." },
    ),
  ),
  corrected: t.Optional(t.Boolean({ description: 'Only after a review (D271): whether the reviewer changed the value the engine read.' })),
  read_value: t.Optional(t.Unknown({ description: 'Only after a review (D271): the value the engine read, null when it read none.' })),
})

export type FieldMeta = typeof FieldMeta.static
/** A box on a page as fractions (0–1) of the page's width and height, from its top-left corner. */
export type BoundingBox = NonNullable<FieldMeta['bbox']>
/** How a table's rows check out (D117). */
export type TableCheck = NonNullable<FieldMeta['table_check']>

// ── Its rules beyond the schemas, and its complete form ──────────────────────────────────────

/** A problem with the input at a JSON Pointer path, as the API's validation details give it (D1). */
export interface Problem {
  path: string
  message: string
}

/** D9: field keys are the keys of the result JSON, so each may appear once. */
export function duplicateKeyDetails(fields: readonly { key: string }[], basePath = '/fields'): Problem[] {
  const firstIndex = new Map<string, number>()
  const details: Problem[] = []
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

/** The type part of any form of a field or column, as the rules read it. */
type Typed = Pick<FieldInput, 'type' | 'values' | 'columns'>

/**
 * D88: the rules a schema cannot state: `values` only with (and always with) `enum`, `columns`
 * only with `table`, distinct values and column keys. Paths as D32.
 */
export function typeRuleDetails(field: Typed, path: string): Problem[] {
  const details: Problem[] = []
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
export function fieldListDetails(fields: readonly (Typed & Pick<FieldInput, 'key'>)[], basePath = '/fields'): Problem[] {
  return [...duplicateKeyDetails(fields, basePath), ...fields.flatMap((field, index) => typeRuleDetails(field, `${basePath}/${index}`))]
}

/** A column in its stored and answered form: label defaults to the key, description to "", type to `auto`. */
export function completeColumn(column: ColumnInput): Column {
  const type = column.type ?? 'auto'
  return {
    key: column.key,
    label: column.label ?? column.key,
    description: column.description ?? '',
    type,
    ...(type === 'enum' && column.values ? { values: column.values } : {}),
  }
}

/**
 * A field as a client or a catalog file gives it, in its stored and answered form (D7, D87):
 * description "" and type `auto` when left out, `values` and `columns` only where they apply.
 */
export function completeField(field: FieldInput | CatalogField): Field {
  const type = field.type ?? 'auto'
  return {
    key: field.key,
    label: field.label,
    description: field.description ?? '',
    required: field.required,
    type,
    ...(type === 'enum' && field.values ? { values: field.values } : {}),
    ...(type === 'table' && field.columns ? { columns: field.columns.map(completeColumn) } : {}),
  }
}
