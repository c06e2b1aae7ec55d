/** Routes of the read-only catalog: document types and their suggested fields. */
import { Elysia } from 'elysia'
import type { AuthPlugin } from '../../http/auth'
import { errors } from '../../http/errors'
import { jsonResponse } from '../../http/json'
import { errorResponses } from '../../http/models'
import { resolveField } from '../../lib/fields/resolve'
import { resultJsonSchema } from '../../lib/fields/json-schema'
import { DocumentTypeList, FieldsQuery, ResultJsonSchema, SuggestedFields } from './model'
import { type Catalog, toDocumentType, toSuggestedFields, unknownDocumentType } from './service'

export function catalogModule({ catalog, auth }: { catalog: Catalog; auth: AuthPlugin }) {
  // The catalog does not change while the server runs, so its answers are serialised once (D65).
  const documentTypes = JSON.stringify({ document_types: catalog.list().map(toDocumentType) })
  const suggestedFields = new Map(catalog.list().map((entry) => [entry.slug, JSON.stringify(toSuggestedFields(entry))]))
  // D96: every field of the type a property, its suggested keys required (the result of a job without fields).
  const jsonSchemas = new Map(
    catalog.list().map((entry) => {
      const fields = entry.fields.map((field) => resolveField(field))
      return [entry.slug, JSON.stringify(resultJsonSchema(entry.label, fields, entry.suggestedKeys))]
    }),
  )
  const answerFor = (answers: Map<string, string>, slug: string | undefined) => {
    if (slug === undefined || slug === '') throw errors.missingParameter('type')
    const answer = answers.get(slug)
    if (answer === undefined) throw unknownDocumentType(catalog, slug)
    return jsonResponse(answer)
  }

  return new Elysia({ tags: ['Catalog'] })
    .use(auth)
    .get('/document-types', () => jsonResponse(documentTypes), {
      auth: true,
      response: { 200: DocumentTypeList, ...errorResponses(401) },
      detail: { operationId: 'listDocumentTypes', summary: 'List document types' },
    })
    .get('/fields', ({ query }) => answerFor(suggestedFields, query.type), {
      auth: true,
      query: FieldsQuery,
      response: { 200: SuggestedFields, ...errorResponses(400, 401, 404) },
      detail: {
        operationId: 'getSuggestedFields',
        summary: 'Suggested fields of a document type',
        description: '`suggested_keys` are the keys of the fields marked `required`: a ready-made default selection.',
      },
    })
    .get('/fields/json-schema', ({ query }) => answerFor(jsonSchemas, query.type), {
      auth: true,
      query: FieldsQuery,
      response: { 200: ResultJsonSchema, ...errorResponses(400, 401, 404) },
      detail: {
        operationId: 'getDocumentTypeJsonSchema',
        summary: "JSON Schema of a document type's results",
        description:
          'A JSON Schema (2020-12) of the `result` of a job of this type: every field of the type a property, typed as the job answers it, ' +
          'null allowed; the suggested keys required (a job without `fields` answers exactly those), others optional (D96).',
      },
    })
}
