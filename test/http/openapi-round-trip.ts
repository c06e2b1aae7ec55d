/**
 * What an integrating developer writes with a client generated from /openapi.json (openapi-typescript
 * + openapi-fetch): create a schema, upload a document to extract with it, read the job. No casts:
 * the upload's `extract` part is typed as the object it is (D320). openapi-client.test.ts copies
 * this file beside freshly generated types, type-checks it there and runs it; `npm run typecheck`
 * checks it against the committed types (src/modules/console/ui/generated/api.ts).
 */
import createClient from 'openapi-fetch'
import type { paths } from '../../src/modules/console/ui/generated/api'

export async function roundTrip(fetch: (request: Request) => Promise<Response>, baseUrl: string, key: string) {
  const api = createClient<paths>({ baseUrl, fetch, headers: { authorization: `Bearer ${key}` } })

  const created = await api.POST('/api/v1/schemas', {
    body: {
      name: 'Invoices',
      fields: [
        { key: 'invoice_number', label: 'Invoice number', description: 'The invoice number as printed', required: true, type: 'text' },
        { key: 'total', label: 'Total', description: 'The total due', required: true, type: 'amount' },
      ],
    },
  })
  if (!created.data) throw new Error(`creating the schema: ${created.response.status} ${JSON.stringify(created.error)}`)
  const schema = created.data.schema

  const file = new File(['Invoice No.: INV-2041\nTotal: 1,250.00 EUR\n'], 'invoice.txt', { type: 'text/plain' })
  const extracted = await api.POST('/api/v1/extract', {
    body: { file, extract: { document_type: 'invoice', schema_id: schema.id } },
    // openapi-fetch sends JSON unless told otherwise; a multipart body is a FormData, `extract` as its JSON.
    bodySerializer(body) {
      const form = new FormData()
      form.set('file', body.file)
      form.set('extract', JSON.stringify(body.extract))
      return form
    },
  })
  if (!extracted.data) throw new Error(`extracting: ${extracted.response.status} ${JSON.stringify(extracted.error)}`)

  const read = await api.GET('/api/v1/jobs/{id}', { params: { path: { id: extracted.data.job.id } } })
  if (!read.data) throw new Error(`reading the job: ${read.response.status} ${JSON.stringify(read.error)}`)
  return { schema, extracted: { status: extracted.response.status, job: extracted.data.job }, read: read.data.job }
}
