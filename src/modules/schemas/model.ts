/** The Schema resource on the wire (interface.md 2.1, D3–D9). */
import { t } from 'elysia'
import { Field, FieldInput } from '../../lib/fields/model'
import { MAX_FIELDS } from '../../lib/fields/types'
import { NOT_BLANK, Text } from '../../lib/text-type'

export const MAX_SCHEMAS_PER_ACCOUNT = 50

const Name = Text({ minLength: 1, maxLength: 100, pattern: NOT_BLANK, examples: ['Supplier invoices'] })
const Description = Text({ maxLength: 1000, examples: ['Fields we book from supplier invoices.'] })
const FieldsInput = t.Array(FieldInput, {
  maxItems: MAX_FIELDS,
  description: 'Extraction fields; keys must be unique within the schema.',
})

export const SchemaParams = t.Object({ id: t.String({ examples: ['sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p'] }) })

/** D97: a JSON Schema written for another tool, read instead of `fields`. */
const JsonSchemaInput = t.Record(t.String(), t.Unknown(), {
  description:
    'Instead of `fields`: a JSON Schema of an object whose properties become the fields (string, `format: "date"`, number, integer, ' +
    'boolean, enum, arrays of strings, arrays of objects; `title` → label, `required` → required). Anything else is 400 naming its path.',
  examples: [{ type: 'object', properties: { total: { type: 'number', title: 'Total' }, issued: { type: 'string', format: 'date' } }, required: ['total'] }],
})

/** D284: the confidence under which a value of the schema's jobs needs a person. */
const ReviewThreshold = t.Number({
  minimum: 0,
  maximum: 1,
  description: "The confidence under which a value of this schema's jobs needs a person (`needs_review`); 0.95 by default. Not versioned.",
  examples: [0.95],
})

export const CreateSchemaBody = t.Object(
  {
    name: Name,
    description: t.Optional(Description),
    fields: t.Optional(FieldsInput),
    json_schema: t.Optional(JsonSchemaInput),
    review_threshold: t.Optional(ReviewThreshold),
  },
  { additionalProperties: false },
)

export const JsonSchemaQuery = t.Object(
  {
    document_type: t.Optional(
      t.String({ description: 'Type `auto` fields as a job of this document type would (the catalog type of the same key).', examples: ['invoice'] }),
    ),
  },
  { additionalProperties: true },
)

/** A JSON Schema document (2020-12) of a job's `result` (D96). */
export const ResultJsonSchema = t.Record(t.String(), t.Unknown(), {
  title: 'ResultJsonSchema',
  description: 'A JSON Schema (2020-12) that every `result` of a succeeded job with these fields validates against.',
})

export const UpdateSchemaBody = t.Object(
  { name: t.Optional(Name), description: t.Optional(Description), fields: t.Optional(FieldsInput), review_threshold: t.Optional(ReviewThreshold) },
  {
    additionalProperties: false,
    description: 'Only the properties sent change; `fields` replaces the whole list; `review_threshold` alone makes no new version.',
  },
)

export const Schema = t.Object(
  {
    id: t.String({ examples: ['sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p'] }),
    name: t.String(),
    description: t.String(),
    fields: t.Array(Field),
    version: t.Integer({ minimum: 1, description: '1 at creation, one more on each change of name, description or fields.', examples: [3] }),
    is_active: t.Boolean({ description: 'false after soft delete.' }),
    review_threshold: ReviewThreshold,
    created_at: t.String({ format: 'date-time', examples: ['2026-11-21T19:08:00.000Z'] }),
    updated_at: t.String({ format: 'date-time', examples: ['2026-11-21T19:08:00.000Z'] }),
  },
  { title: 'Schema' },
)

export const SchemaVersion = t.Object(
  {
    schema_id: t.String({ examples: ['sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p'] }),
    version: t.Integer({ minimum: 1, examples: [3] }),
    name: t.String(),
    description: t.String(),
    fields: t.Array(Field),
    created_at: t.String({ format: 'date-time', description: 'When this version was made.', examples: ['2026-11-21T19:08:00.000Z'] }),
  },
  { title: 'SchemaVersion', description: 'What a schema held from one change to the next.' },
)

export const DEFAULT_VERSION_PAGE = 20
export const MAX_VERSION_PAGE = 100

export const VersionParams = t.Object({
  id: t.String({ examples: ['sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p'] }),
  version: t.String({ examples: ['2'] }),
})

export const VersionsQuery = t.Object(
  {
    limit: t.Optional(t.String({ pattern: '^[0-9]+$', description: `1–${MAX_VERSION_PAGE}, default ${DEFAULT_VERSION_PAGE}.`, examples: ['20'] })),
    starting_after: t.Optional(
      t.String({ pattern: '^[0-9]+$', description: 'A version number from the previous page: list the older versions.', examples: ['21'] }),
    ),
  },
  { additionalProperties: true },
)

export const SchemaVersionEnvelope = t.Object({ version: SchemaVersion })
export const SchemaVersionList = t.Object({ versions: t.Array(SchemaVersion), has_more: t.Boolean() })
export const SchemaEnvelope = t.Object({ schema: Schema })
export const SchemaList = t.Object({ schemas: t.Array(Schema) })

export type CreateSchemaBody = typeof CreateSchemaBody.static
export type UpdateSchemaBody = typeof UpdateSchemaBody.static
export type Schema = typeof Schema.static
export type SchemaVersion = typeof SchemaVersion.static
