/**
 * JSON Schema both ways (D96, D97): the schema of a job's result, validated against real results of
 * both kinds of engine answer, and schemas created from a JSON Schema written for another tool.
 */
import { describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { createSchema, expectEnvelope, expectValidation, field, makeTestApp } from '../helpers/app'

const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }))

const TYPED = [
  field('total', { type: 'amount', required: true }),
  field('issued', { type: 'date' }),
  field('status', { type: 'enum', values: ['open', 'paid'] }),
  field('paid', { type: 'boolean' }),
  field('tags', { type: 'list' }),
  field('lines', { type: 'table', columns: [{ key: 'item' }, { key: 'price', type: 'amount' }] }),
  field('pages', { type: 'number' }),
  field('currency', { type: 'currency' }),
  field('supplier'),
]

describe('GET /api/v1/schemas/:id/json-schema (D96)', () => {
  test('describes the result: one nullable property per field by its type, every key required', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'Typed invoices', fields: TYPED })
    const response = await t.call('GET', `/api/v1/schemas/${schema.id}/json-schema`)
    expect(response.status).toBe(200)
    const body = response.body
    expect(body).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Typed invoices',
      type: 'object',
      additionalProperties: false,
      required: TYPED.map((f) => f.key),
    })
    expect(body.properties.total).toEqual({
      title: 'Label of total',
      description: 'What total is',
      anyOf: [{ type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$', description: 'Decimal with a dot, sign kept: "1234.50".' }, { type: 'null' }],
    })
    expect(body.properties.issued.anyOf[0]).toEqual({ type: 'string', format: 'date' })
    expect(body.properties.status.anyOf[0]).toEqual({ enum: ['open', 'paid'] })
    expect(body.properties.paid.anyOf[0]).toEqual({ type: 'boolean' })
    expect(body.properties.tags.anyOf[0]).toEqual({ type: 'array', items: { type: 'string' }, minItems: 1 })
    expect(body.properties.lines.anyOf[0].items).toMatchObject({ type: 'object', additionalProperties: false, required: ['item', 'price'] })
    expect(body.properties.pages.anyOf[0]).toEqual({ type: 'number' })
    expect(body.properties.currency.anyOf[0]).toEqual({ type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' })
    // `auto`: typed as at job creation (here inferred as text).
    expect(body.properties.supplier.anyOf[0]).toEqual({ type: 'string' })

    const validate = ajv.compile(body)
    const result = {
      total: '1234.50',
      issued: '2026-03-03',
      status: 'paid',
      paid: true,
      tags: ['a'],
      lines: [{ item: 'Widget', price: null }],
      pages: 2,
      currency: 'EUR',
      supplier: null,
    }
    expect(validate(result)).toBe(true)
    expect(validate({ ...result, total: '1.234,50' })).toBe(false)
    expect(validate({ ...result, status: 'cancelled' })).toBe(false)
    expect(validate({ ...result, extra: 1 })).toBe(false)
    const { issued: _, ...missing } = result
    expect(validate(missing)).toBe(false)
  })

  test("a job's real result validates against it, and auto fields follow the document type's catalog when it is given", async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: [field('total'), field('date'), field('status', { type: 'enum', values: ['open'] })] })
    const plain = (await t.call('GET', `/api/v1/schemas/${schema.id}/json-schema`)).body
    const invoice = (await t.call('GET', `/api/v1/schemas/${schema.id}/json-schema?document_type=invoice`)).body
    expect(plain.properties.total.anyOf[0].type).toBe('string')
    expect(invoice.properties.date.anyOf[0]).toEqual({ type: 'string', format: 'date' })

    const form = new FormData()
    form.set('file', new File(['ACME\nDate: 3. März 2026\nTotal: 1.234,50 €\nStatus: open\n'], 'a.txt'))
    form.set('extract', JSON.stringify({ document_type: 'invoice', schema_id: schema.id }))
    const job = (await t.call('POST', '/api/v1/extract', { body: form })).body.job
    expect(job.result).toEqual({ total: '1234.50', date: '2026-03-03', status: 'open' })
    expect(ajv.compile(invoice)(job.result)).toBe(true)
  })

  test('a soft-deleted schema still has one (D11); unknown IDs, other accounts and unknown document types are 404', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'x', fields: [field('a')] })
    await t.call('DELETE', `/api/v1/schemas/${schema.id}`)
    expect((await t.call('GET', `/api/v1/schemas/${schema.id}/json-schema`)).status).toBe(200)
    expectEnvelope(await t.call('GET', '/api/v1/schemas/sch_nope/json-schema'), 404, 'not_found')
    expectEnvelope(await t.call('GET', `/api/v1/schemas/${schema.id}/json-schema`, { key: t.keyB.key }), 404, 'not_found')
    const unknown = await t.call('GET', `/api/v1/schemas/${schema.id}/json-schema?document_type=nope`)
    expectEnvelope(unknown, 404, 'unknown_document_type', 'Unknown document type: "nope"')
    expect(unknown.body.available_types).toContain('invoice')
  })
})

describe('GET /api/v1/fields/json-schema?type= (D96)', () => {
  test('every field of the type is a property, the suggested keys are required, a default job validates', async () => {
    const t = await makeTestApp()
    const response = await t.call('GET', '/api/v1/fields/json-schema?type=invoice')
    expect(response.status).toBe(200)
    const suggested = (await t.call('GET', '/api/v1/fields?type=invoice')).body
    expect(Object.keys(response.body.properties)).toEqual(suggested.fields.map((f: { key: string }) => f.key))
    expect(response.body.required).toEqual(suggested.suggested_keys)
    expect(response.body.title).toBe('Invoice')
    expect(response.body.properties.total.anyOf[0].type).toBe('string')
    expect(response.body.properties.line_items.anyOf[0].type).toBe('array')

    const form = new FormData()
    form.set('file', new File(['ACME GmbH\nInvoice No.: 17\nDate: 2026-03-03\nTotal: 12,00 EUR\n'], 'a.txt'))
    form.set('extract', JSON.stringify({ document_type: 'invoice' }))
    const job = (await t.call('POST', '/api/v1/extract', { body: form })).body.job
    expect(job.status).toBe('succeeded')
    const validate = ajv.compile(response.body)
    expect(validate(job.result)).toBe(true)
  })

  test('the type parameter behaves as on /fields: absent is 400, unknown is 404 with available_types', async () => {
    const t = await makeTestApp()
    expectEnvelope(await t.call('GET', '/api/v1/fields/json-schema'), 400, 'missing_parameter', 'Missing required query param: type')
    const unknown = await t.call('GET', '/api/v1/fields/json-schema?type=nope')
    expectEnvelope(unknown, 404, 'unknown_document_type', 'Unknown document type: "nope"')
  })
})

describe('POST /api/v1/schemas with json_schema (D97)', () => {
  test('reads the subset: strings, dates, numbers, integers, booleans, enums, lists and tables; titles, descriptions and required', async () => {
    const t = await makeTestApp()
    const jsonSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Invoice',
      type: 'object',
      additionalProperties: false,
      required: ['total', 'number'],
      properties: {
        number: { type: 'string', title: 'Invoice number', description: 'As printed' },
        issued: { type: ['string', 'null'], format: 'date' },
        total: { type: 'number' },
        pages: { type: 'integer' },
        paid: { type: 'boolean' },
        status: { type: 'string', enum: ['open', 'paid', null] },
        kind: { enum: ['invoice', 'credit_note'] },
        tags: { type: 'array', items: { type: 'string' } },
        lines: {
          type: 'array',
          items: { type: 'object', required: ['item'], properties: { item: { type: 'string', title: 'Item' }, qty: { type: 'integer' } } },
        },
      },
    }
    const response = await t.call('POST', '/api/v1/schemas', { body: { name: 'From elsewhere', json_schema: jsonSchema } })
    expect(response.status).toBe(201)
    const fields = response.body.schema.fields
    expect(fields).toEqual([
      { key: 'number', label: 'Invoice number', description: 'As printed', required: true, type: 'text' },
      { key: 'issued', label: 'issued', description: '', required: false, type: 'date' },
      { key: 'total', label: 'total', description: '', required: true, type: 'number' },
      { key: 'pages', label: 'pages', description: '', required: false, type: 'number' },
      { key: 'paid', label: 'paid', description: '', required: false, type: 'boolean' },
      { key: 'status', label: 'status', description: '', required: false, type: 'enum', values: ['open', 'paid'] },
      { key: 'kind', label: 'kind', description: '', required: false, type: 'enum', values: ['invoice', 'credit_note'] },
      { key: 'tags', label: 'tags', description: '', required: false, type: 'list' },
      {
        key: 'lines',
        label: 'lines',
        description: '',
        required: false,
        type: 'table',
        columns: [
          { key: 'item', label: 'Item', description: '', type: 'text' },
          { key: 'qty', label: 'qty', description: '', type: 'number' },
        ],
      },
    ])
    expect((await t.call('GET', `/api/v1/schemas/${response.body.schema.id}`)).body.schema.fields).toEqual(fields)
  })

  test.each([
    [{ type: 'object', properties: { a: { type: 'string', pattern: '^x' } } }, ['/json_schema/properties/a/pattern']],
    [{ type: 'object', properties: { a: { type: 'string', format: 'email' } } }, ['/json_schema/properties/a/format']],
    [{ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } }, ['/json_schema/properties/a/type']],
    [{ type: 'object', properties: { a: { $ref: '#/$defs/x' } } }, ['/json_schema/properties/a/$ref', '/json_schema/properties/a/type']],
    [{ type: 'object', properties: { a: { type: ['string', 'number'] } } }, ['/json_schema/properties/a/type']],
    [{ type: 'object', properties: { a: { type: 'array', items: { type: 'array', items: { type: 'string' } } } } }, ['/json_schema/properties/a/items']],
    [
      {
        type: 'object',
        properties: {
          a: {
            type: 'array',
            items: { type: 'object', properties: { b: { type: 'array', items: { type: 'object', properties: { c: { type: 'string' } } } } } },
          },
        },
      },
      ['/json_schema/properties/a/items/properties/b/items'],
    ],
    [{ type: 'object', properties: { 'bad-key': { type: 'string' } } }, ['/json_schema/properties/bad-key']],
    [{ type: 'object', properties: { a: { type: 'string', title: 'x'.repeat(101) } } }, ['/json_schema/properties/a/title']],
    [{ type: 'object', properties: { a: { enum: [1, 2] } } }, ['/json_schema/properties/a/enum']],
    [{ type: 'array', properties: { a: { type: 'string' } } }, ['/json_schema/type']],
    [{ type: 'object', properties: {} }, ['/json_schema/properties']],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, ['/json_schema/required']],
    [{ type: 'object', properties: { a: { type: 'string' } }, oneOf: [] }, ['/json_schema/oneOf']],
    // The rules of `fields` hold for converted fields too: at most 100 enum values of at most 100 characters.
    [{ type: 'object', properties: { a: { enum: Array.from({ length: 101 }, (_, i) => `v${i}`) } } }, ['/json_schema/properties/a']],
    [{ type: 'object', properties: { a: { enum: ['x'.repeat(101)] } } }, ['/json_schema/properties/a']],
  ])('%j is 400 naming %j, nothing stored', async (jsonSchema, paths) => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/schemas', { body: { name: 'x', json_schema: jsonSchema } })
    expectValidation(response, paths)
    expect((await t.call('GET', '/api/v1/schemas')).body.schemas).toEqual([])
  })

  test("a schema's exported result schema is read back as the same fields: nullable values, amounts, currencies, tables with and without columns", async () => {
    const t = await makeTestApp()
    const fields = [
      ...TYPED.map((typed) => ({ ...typed, required: true })),
      field('note', { label: 'Note', description: 'Free text', required: true }),
      field('rows', { type: 'table', required: true }),
    ]
    const original = await createSchema(t, { name: 'Round trip', fields })
    const exported = await t.call('GET', `/api/v1/schemas/${original.id}/json-schema`)
    expect(exported.status).toBe(200)
    const imported = await t.call('POST', '/api/v1/schemas', { body: { name: 'Read back', json_schema: exported.body } })
    expect(imported.status).toBe(201)
    // An `auto` field is exported as the type it resolves to: text, for these keys.
    const resolved = (type: unknown) => (type === 'auto' ? 'text' : type)
    const typeOf = ({ key, label, description, type, values, columns, required }: Record<string, unknown>) => ({
      key,
      label,
      description,
      type: resolved(type),
      values,
      required,
      columns: (columns as Record<string, unknown>[] | undefined)?.map(({ key, type }) => ({ key, type: resolved(type) })),
    })
    expect(imported.body.schema.fields.map(typeOf)).toEqual(original.fields.map(typeOf))
  })

  test('fields and json_schema at once is 400 at /json_schema; json_schema must be an object', async () => {
    const t = await makeTestApp()
    const both = await t.call('POST', '/api/v1/schemas', {
      body: { name: 'x', fields: [field('a')], json_schema: { type: 'object', properties: { a: { type: 'string' } } } },
    })
    expectValidation(both, ['/json_schema'])
    expectValidation(await t.call('POST', '/api/v1/schemas', { body: { name: 'x', json_schema: [] } }), ['/json_schema'])
    expect((await t.call('GET', '/api/v1/schemas')).body.schemas).toEqual([])
  })
})
