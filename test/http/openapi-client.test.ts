/**
 * A client generated from /openapi.json with the real generator (openapi-typescript, programmatic
 * API) into a temporary folder, beside openapi-round-trip.ts: TypeScript finds no error there, and
 * the client creates a schema, extracts a multipart upload with it and reads the job from the
 * in-process app (D320). A string given as the `extract` part does not type-check, so the types
 * are the object's.
 */
import { expect, test } from 'bun:test'
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { BASE, makeTestApp } from '../helpers/app'
import { generateTypes } from '../helpers/openapi'
import { tempDir } from '../helpers/process'

const ROOT = join(import.meta.dir, '../..')

/** The diagnostics of each file, type-checked with the project's compiler options. */
function typeCheck(files: string[]): Record<string, string[]> {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  const program = ts.createProgram(files, options)
  const found: Record<string, string[]> = Object.fromEntries(files.map((file) => [file, []]))
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? 'program'
    found[file] = [...(found[file] ?? []), `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0]}`]
  }
  return found
}

const STRING_EXTRACT = `import createClient from 'openapi-fetch'
import type { paths } from './api'

const api = createClient<paths>({ baseUrl: 'http://localhost' })
export const sent = api.POST('/api/v1/extract', { body: { file: new Blob(['x']), extract: '{"document_type":"invoice"}' } })
`

test('a client generated from the document type-checks without casts and creates a schema, extracts an upload with it and reads the job', async () => {
  const t = await makeTestApp()
  const document = await t.call('GET', '/openapi.json', { key: null })
  const dir = tempDir('extractd-client-')
  try {
    await Bun.write(join(dir.path, 'api.ts'), await generateTypes(document.body))
    // The same code as in the repository, importing the types just generated.
    const roundTripSource = await Bun.file(join(import.meta.dir, 'openapi-round-trip.ts')).text()
    await Bun.write(join(dir.path, 'client.ts'), roundTripSource.replace("from '../../src/modules/console/ui/generated/api'", "from './api'"))
    await Bun.write(join(dir.path, 'string-extract.ts'), STRING_EXTRACT)
    symlinkSync(join(ROOT, 'node_modules'), join(dir.path, 'node_modules'))

    const client = join(dir.path, 'client.ts')
    const stringExtract = join(dir.path, 'string-extract.ts')
    const diagnostics = typeCheck([client, stringExtract])
    expect(diagnostics[client]).toEqual([])
    expect(diagnostics[stringExtract]).toEqual([expect.stringMatching(/^TS2322 Type 'string' is not assignable to type '\{/)])

    const { roundTrip } = (await import(client)) as typeof import('./openapi-round-trip')
    const { schema, extracted, read } = await roundTrip((request) => t.app.handle(request), BASE, t.keyA.key)
    expect(extracted.status).toBe(200)
    expect(extracted.job).toMatchObject({
      status: 'succeeded',
      document_type: 'invoice',
      schema_id: schema.id,
      schema_version: 1,
      file: { name: 'invoice.txt', media_type: 'text/plain' },
      result: { invoice_number: 'INV-2041', total: expect.anything() },
    })
    expect(extracted.job.fields.map((field) => field.key)).toEqual(['invoice_number', 'total'])
    expect(read).toEqual(extracted.job)
  } finally {
    dir.remove()
  }
}, 120_000)

test('the document describes the extract part as JSON with its schema, and says so in the encoding', async () => {
  const t = await makeTestApp()
  const document = (await t.call('GET', '/openapi.json', { key: null })).body
  const form = document.paths['/api/v1/extract'].post.requestBody.content['multipart/form-data']
  expect(form.encoding).toEqual({ extract: { contentType: 'application/json' } })
  expect(form.schema.required).toEqual(['file', 'extract'])
  expect(form.schema.properties.file).toMatchObject({ type: 'string', format: 'binary' })
  const extract = form.schema.properties.extract
  expect(extract).toMatchObject({ type: 'object', required: ['document_type'], additionalProperties: false })
  expect(Object.keys(extract.properties)).toEqual(['document_type', 'fields', 'schema_id', 'schema_version', 'review_threshold', 'split'])
  expect(extract.examples).toEqual([{ document_type: 'invoice', fields: { invoice_number: 'Invoice number as printed', total: 'Total due' } }])
  expect(extract.contentMediaType).toBeUndefined()
})

test('an extract part sent as the encoding says, with Content-Type: application/json, with or without a file name, is read as one sent as text', async () => {
  const t = await makeTestApp()
  const boundary = 'extractd-boundary'
  const body = [
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="invoice.txt"\r\nContent-Type: text/plain\r\n\r\nInvoice No.: INV-77\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="extract"\r\nContent-Type: application/json\r\n\r\n{"document_type":"invoice","fields":{"invoice_number":"Invoice number"}}\r\n`,
    `--${boundary}--\r\n`,
  ].join('')
  const response = await t.call('POST', '/api/v1/extract', { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
  expect(response.status).toBe(200)
  expect(response.body.job).toMatchObject({ status: 'succeeded', result: { invoice_number: 'INV-77' } })

  // As Swagger UI sends it: a Blob of type application/json, which arrives as a file part.
  const form = new FormData()
  form.set('file', new File(['Invoice No.: INV-78\n'], 'invoice.txt'))
  form.set('extract', new Blob([JSON.stringify({ document_type: 'invoice', fields: { invoice_number: 'Invoice number' } })], { type: 'application/json' }))
  const asFile = await t.call('POST', '/api/v1/extract', { body: form })
  expect(asFile.status).toBe(200)
  expect(asFile.body.job).toMatchObject({ status: 'succeeded', result: { invoice_number: 'INV-78' } })

  // Its JSON is checked as the text part's is, paths under /extract.
  const bad = new FormData()
  bad.set('file', new File(['Invoice No.: INV-79\n'], 'invoice.txt'))
  bad.set('extract', new Blob([JSON.stringify({ document_type: 'invoice', colour: 'red' })], { type: 'application/json' }))
  const refused = await t.call('POST', '/api/v1/extract', { body: bad })
  expect(refused.status).toBe(400)
  expect(refused.body).toMatchObject({ code: 'validation_failed', details: [{ path: '/extract/colour' }] })
})
