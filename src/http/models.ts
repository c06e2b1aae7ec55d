/** Wire schemas shared by every module: the error envelope and the Field object. */
import { t } from 'elysia'
import type { ErrorDetail } from './errors'
import { NOT_BLANK, Text } from './text'

export const FIELD_KEY_PATTERN = '^[A-Za-z0-9_]+$'
export const MAX_FIELDS = 50

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

export const FieldKey = t.String({
  minLength: 1,
  maxLength: 64,
  pattern: FIELD_KEY_PATTERN,
  description: 'Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.',
  examples: ['invoice_number'],
})

export const FieldLabel = Text({ minLength: 1, maxLength: 100, pattern: NOT_BLANK, examples: ['Invoice Number'] })
export const FieldDescription = Text({ maxLength: 300, examples: ['Identifier of the invoice as printed.'] })

/** A Field as a client sends it: `description` may be left out. */
export const FieldInput = t.Object(
  {
    key: FieldKey,
    label: FieldLabel,
    description: t.Optional(FieldDescription),
    required: t.Boolean({ description: 'Hint only: whether such documents typically carry the field.' }),
  },
  { additionalProperties: false },
)

/** A Field as the service returns it: every property present (D7). */
export const Field = t.Object(
  { key: FieldKey, label: FieldLabel, description: FieldDescription, required: t.Boolean() },
  { additionalProperties: false },
)

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
    else details.push({
      path: `${basePath}/${index}/key`,
      message: `Duplicate field key "${field.key}": also at ${basePath}/${first}/key`,
    })
  })
  return details
}
