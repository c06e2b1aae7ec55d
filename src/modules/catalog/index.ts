/** Routes of the read-only catalog: document types and their suggested fields. */
import { Elysia } from 'elysia'
import type { AuthPlugin } from '../../http/auth'
import { errors } from '../../http/errors'
import { jsonResponse } from '../../http/json'
import { errorResponses } from '../../http/models'
import { DocumentTypeList, FieldsQuery, SuggestedFields } from './model'
import { type Catalog, toDocumentType, toSuggestedFields, unknownDocumentType } from './service'

export function catalogModule({ catalog, auth }: { catalog: Catalog; auth: AuthPlugin }) {
  // The catalog does not change while the server runs, so its answers are serialised once (D65).
  const documentTypes = JSON.stringify({ document_types: catalog.list().map(toDocumentType) })
  const suggestedFields = new Map(catalog.list().map((entry) => [entry.slug, JSON.stringify(toSuggestedFields(entry))]))

  return new Elysia({ tags: ['Catalog'] })
    .use(auth)
    .get('/document-types', () => jsonResponse(documentTypes), {
      auth: true,
      response: { 200: DocumentTypeList, ...errorResponses(401) },
      detail: { operationId: 'listDocumentTypes', summary: 'List document types' },
    })
    .get(
      '/fields',
      ({ query }) => {
        const slug = query.type
        if (slug === undefined || slug === '') throw errors.missingParameter('type')
        const answer = suggestedFields.get(slug)
        if (answer === undefined) throw unknownDocumentType(catalog, slug)
        return jsonResponse(answer)
      },
      {
        auth: true,
        query: FieldsQuery,
        response: { 200: SuggestedFields, ...errorResponses(400, 401, 404) },
        detail: {
          operationId: 'getSuggestedFields',
          summary: 'Suggested fields of a document type',
          description: '`suggested_keys` are the keys of the fields marked `required`: a ready-made default selection.',
        },
      },
    )
}
