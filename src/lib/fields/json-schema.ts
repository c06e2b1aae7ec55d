/**
 * The JSON Schema (2020-12) of a job's `result` (D96): one property per field, typed as the shared
 * normalisation layer answers it (D57, D90), null allowed for every value (not found), every
 * requested key present. Framework-free.
 */
import type { JobField } from './model'

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema'

type JsonSchema = Record<string, unknown>

type Described = Omit<JobField, 'aliases'>

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] })

/** The schema of one value by its type, without null. */
function valueSchema(field: Described): JsonSchema {
  switch (field.type) {
    case 'text':
      return { type: 'string' }
    case 'number':
      return { type: 'number' }
    case 'amount':
      return { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$', description: 'Decimal with a dot, sign kept: "1234.50".' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'currency':
      return { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }
    case 'boolean':
      return { type: 'boolean' }
    case 'enum':
      return { enum: field.values ?? [] }
    case 'list':
      return { type: 'array', items: { type: 'string' }, minItems: 1 }
    case 'table':
      return {
        type: 'array',
        minItems: 1,
        items: field.columns?.length
          ? {
              type: 'object',
              additionalProperties: false,
              required: field.columns.map((column) => column.key),
              properties: Object.fromEntries(field.columns.map((column) => [column.key, property(column)])),
            }
          : { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] } },
      }
  }
}

function property(field: Described): JsonSchema {
  const annotations: JsonSchema = { title: field.label }
  if (field.description) annotations.description = field.description
  return { ...annotations, ...nullable(valueSchema(field)) }
}

/**
 * The schema of a result object. `required` names the keys always present: by default all (a job
 * answers every requested key, D57); a catalog type's schema requires only its suggested keys.
 */
export function resultJsonSchema(title: string, fields: Described[], required = fields.map((field) => field.key)): JsonSchema {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title,
    type: 'object',
    additionalProperties: false,
    required,
    properties: Object.fromEntries(fields.map((field) => [field.key, property(field)])),
  }
}
