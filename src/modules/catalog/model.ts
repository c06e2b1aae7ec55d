/** The catalog: its file format under data/document-types/ and its wire shapes (interface.md 2.3–2.4). */
import { t } from 'elysia'
import { CUE_SIGNS } from './classification'
import { CatalogField, Field } from '../../lib/fields/model'
import { MAX_FIELDS } from '../../lib/fields/types'
import { NOT_BLANK, Text } from '../../lib/text-type'

export const SLUG_PATTERN = '^[a-z0-9_]{1,64}$'
const Slug = t.String({ pattern: SLUG_PATTERN, examples: ['invoice'] })

/** A word or phrase of a cue: text, with a `*` only at its start or end (it joins letters there, D241). */
const CueWords = t.Array(Text({ minLength: 1, maxLength: 100, pattern: '^\\*?[^*\\s](?:[^*]*[^*\\s])?\\*?$' }), { maxItems: 300 })

/** What says a document is of the type (D241); left out, it is derived from the label, description and fields. */
const Cues = t.Object(
  {
    titles: t.Array(CueWords.items, { minItems: 1, maxItems: 300 }),
    phrases: t.Optional(CueWords),
    signs: t.Optional(t.Array(t.Union(CUE_SIGNS.map((sign) => t.Literal(sign))), { uniqueItems: true })),
  },
  { additionalProperties: false },
)

/** One file of data/document-types/ (or of an operator's catalog directory). */
export const CatalogFile = t.Object(
  {
    slug: Slug,
    label: Text({ minLength: 1, maxLength: 100, pattern: NOT_BLANK }),
    description: Text({ maxLength: 300 }),
    /**
     * Documents of the type are issued by the seller to the buyer (D220): the letterhead, sender
     * line and footer name the seller, the address window the buyer, so the engine reads the
     * issuer and the recipient from them. Left out (a purchase order, issued by the buyer), they
     * are read from their own labels only. For the engine, never sent on the wire.
     */
    issued_by_seller: t.Optional(t.Boolean()),
    fields: t.Array(CatalogField, { minItems: 1, maxItems: MAX_FIELDS }),
    /** For the classifier, never sent on the wire. */
    cues: t.Optional(Cues),
  },
  { additionalProperties: false },
)

export type CatalogFile = typeof CatalogFile.static

/**
 * A document type as the server holds it: one file of the catalog, checked, with the keys of its
 * fields marked `required`. Its cues, or those derived from it when it gives none (D241), are made
 * with the first classification (catalog/service.ts).
 */
export type DocumentTypeEntry = CatalogFile & { suggestedKeys: string[] }

export const DocumentType = t.Object(
  {
    slug: Slug,
    label: t.String({ examples: ['Invoice'] }),
    description: t.String(),
  },
  { title: 'DocumentType' },
)

export const DocumentTypeList = t.Object({ document_types: t.Array(DocumentType) })

export const FieldsQuery = t.Object(
  { type: t.Optional(t.String({ description: 'A document type slug from GET /api/v1/document-types.', examples: ['invoice'] })) },
  { additionalProperties: true },
)

export const SuggestedFields = t.Object(
  {
    type: t.String({ examples: ['invoice'] }),
    label: t.String({ examples: ['Invoice'] }),
    description: t.String(),
    fields: t.Array(Field, { description: 'All available fields of the type.' }),
    suggested_keys: t.Array(t.String(), {
      description: 'Keys of exactly the fields whose `required` is true, in field order: a default selection.',
      examples: [['company_name', 'invoice_number', 'date', 'client_name', 'line_items', 'total']],
    }),
  },
  { title: 'SuggestedFields' },
)

export type DocumentType = typeof DocumentType.static
export type SuggestedFields = typeof SuggestedFields.static

/** A JSON Schema document (2020-12) of a job's `result` (D96). */
export const ResultJsonSchema = t.Record(t.String(), t.Unknown(), {
  title: 'ResultJsonSchema',
  description: 'A JSON Schema (2020-12) that the `result` of a succeeded job validates against.',
})
