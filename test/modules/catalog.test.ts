/**
 * The document-type catalog: GET /api/v1/document-types and GET /api/v1/fields?type=<slug>
 * (interface.md 2.3, 2.4, 4.6, 4.7, 7; D1, D16, D17), and the loader of built-in and operator
 * catalog files (D18).
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CatalogError, builtInFiles, loadCatalog } from '../../src/modules/catalog/service'
import { expectEnvelope, makeTestApp } from '../helpers/app'

const BUILT_IN_TYPES: Record<string, string> = {
  invoice: 'Invoice',
  medical_consultation: 'Medical Consultation',
  medical_lab_report: 'Medical Lab Report',
  medical_prescription: 'Medical Prescription',
  contract: 'Contract / Agreement',
  bank_statement: 'Bank Statement',
  payslip: 'Payslip / Salary Slip',
  passport: 'Passport',
  purchase_order: 'Purchase Order',
}
const SLUGS = Object.keys(BUILT_IN_TYPES).sort()

const INVOICE_KEYS = [
  'company_name',
  'invoice_number',
  'date',
  'due_date',
  'client_name',
  'line_items',
  'subtotal',
  'tax',
  'total',
  'currency',
  'payment_method',
  'bank_details',
]
const INVOICE_SUGGESTED = ['company_name', 'invoice_number', 'date', 'client_name', 'line_items', 'total']

const FIELD_KEY = /^[A-Za-z0-9_]{1,64}$/

function codePoints(value: string): number {
  return [...value].length
}

const t = makeTestApp()

describe('GET /api/v1/document-types', () => {
  test('returns exactly the nine built-in slugs with the labels of interface.md', async () => {
    const response = await t.call('GET', '/api/v1/document-types')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(Object.keys(response.body)).toEqual(['document_types'])
    const types = response.body.document_types as { slug: string; label: string; description: string }[]
    expect(types).toHaveLength(9)
    expect(types.map((type) => type.slug).sort()).toEqual(SLUGS)
    for (const type of types) expect(type.label).toBe(BUILT_IN_TYPES[type.slug]!)
  })

  test('gives every entry only slug, label and a non-empty description', async () => {
    const response = await t.call('GET', '/api/v1/document-types')
    for (const type of response.body.document_types) {
      expect(Object.keys(type).sort()).toEqual(['description', 'label', 'slug'])
      expect(typeof type.description).toBe('string')
      expect(type.description.trim().length).toBeGreaterThan(0)
    }
  })

  test('answers 401 "Invalid API key" without a key', async () => {
    const response = await t.call('GET', '/api/v1/document-types', { key: null })
    expectEnvelope(response, 401, 'invalid_api_key', 'Invalid API key')
    expect(response.body).toEqual({ error: 'Invalid API key', code: 'invalid_api_key' })
  })

  test('answers 401 "Invalid API key" with a wrong key', async () => {
    const response = await t.call('GET', '/api/v1/document-types', { key: 'not-a-real-key' })
    expect(response.body).toEqual({ error: 'Invalid API key', code: 'invalid_api_key' })
    expect(response.status).toBe(401)
  })
})

describe('GET /api/v1/fields?type=invoice', () => {
  test('returns the invoice type with its 12 keys in the stated order', async () => {
    const response = await t.call('GET', '/api/v1/fields?type=invoice')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(Object.keys(response.body).sort()).toEqual(['description', 'fields', 'label', 'suggested_keys', 'type'])
    expect(response.body.type).toBe('invoice')
    expect(response.body.label).toBe('Invoice')
    expect(response.body.fields.map((field: { key: string }) => field.key)).toEqual(INVOICE_KEYS)
  })

  test('suggests company_name, invoice_number, date, client_name, line_items, total in that order', async () => {
    const response = await t.call('GET', '/api/v1/fields?type=invoice')
    expect(response.body.suggested_keys).toEqual(INVOICE_SUGGESTED)
    const required = response.body.fields.filter((field: { required: boolean }) => field.required === true)
    expect(required.map((field: { key: string }) => field.key)).toEqual(INVOICE_SUGGESTED)
  })

  test('repeats the label and description of the document-types entry', async () => {
    const list = await t.call('GET', '/api/v1/document-types')
    const invoice = list.body.document_types.find((type: { slug: string }) => type.slug === 'invoice')
    const response = await t.call('GET', '/api/v1/fields?type=invoice')
    expect(response.body.label).toBe(invoice.label)
    expect(response.body.description).toBe(invoice.description)
  })

  test('answers 401 "Invalid API key" without a key', async () => {
    const response = await t.call('GET', '/api/v1/fields?type=invoice', { key: null })
    expectEnvelope(response, 401, 'invalid_api_key', 'Invalid API key')
    expect(response.body).toEqual({ error: 'Invalid API key', code: 'invalid_api_key' })
  })
})

describe.each(SLUGS)('GET /api/v1/fields?type=%s', (slug) => {
  test('returns the type with its label and a non-empty description', async () => {
    const response = await t.call('GET', `/api/v1/fields?type=${slug}`)
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['description', 'fields', 'label', 'suggested_keys', 'type'])
    expect(response.body.type).toBe(slug)
    expect(response.body.label).toBe(BUILT_IN_TYPES[slug]!)
    expect(response.body.description.trim().length).toBeGreaterThan(0)
  })

  test('offers 8 to 16 fields, each with exactly key, label, description and required', async () => {
    const { body } = await t.call('GET', `/api/v1/fields?type=${slug}`)
    expect(body.fields.length).toBeGreaterThanOrEqual(8)
    expect(body.fields.length).toBeLessThanOrEqual(16)
    for (const field of body.fields) {
      expect(Object.keys(field).sort()).toEqual(['description', 'key', 'label', 'required'])
      expect(field).not.toHaveProperty('aliases')
      expect(field).not.toHaveProperty('kind')
      expect(typeof field.required).toBe('boolean')
    }
  })

  test('gives unique, valid keys, labels within 100 and non-empty descriptions within 300 characters', async () => {
    const { body } = await t.call('GET', `/api/v1/fields?type=${slug}`)
    const keys = body.fields.map((field: { key: string }) => field.key)
    expect(new Set(keys).size).toBe(keys.length)
    for (const field of body.fields) {
      expect(field.key).toMatch(FIELD_KEY)
      expect(typeof field.label).toBe('string')
      expect(field.label.trim().length).toBeGreaterThan(0)
      expect(codePoints(field.label)).toBeLessThanOrEqual(100)
      expect(typeof field.description).toBe('string')
      expect(field.description.trim().length).toBeGreaterThan(0)
      expect(codePoints(field.description)).toBeLessThanOrEqual(300)
    }
  })

  test('suggests exactly the keys of the required fields, in field order', async () => {
    const { body } = await t.call('GET', `/api/v1/fields?type=${slug}`)
    const required = body.fields
      .filter((field: { required: boolean }) => field.required)
      .map((field: { key: string }) => field.key)
    expect(body.suggested_keys).toEqual(required)
    expect(body.suggested_keys.length).toBeGreaterThan(0)
  })
})

test('offers parties, effective_date, governing_law and term for the contract type', async () => {
  const { body } = await t.call('GET', '/api/v1/fields?type=contract')
  const keys = body.fields.map((field: { key: string }) => field.key)
  for (const key of ['parties', 'effective_date', 'governing_law', 'term']) expect(keys).toContain(key)
})

describe('GET /api/v1/fields errors', () => {
  const MISSING = { error: 'Missing required query param: type', code: 'missing_parameter' }

  test('returns 400 missing_parameter when type is absent', async () => {
    const response = await t.call('GET', '/api/v1/fields')
    expectEnvelope(response, 400, 'missing_parameter', 'Missing required query param: type')
    expect(response.body).toEqual(MISSING)
  })

  test('returns 400 missing_parameter when type is empty (D16)', async () => {
    const response = await t.call('GET', '/api/v1/fields?type=')
    expectEnvelope(response, 400, 'missing_parameter', 'Missing required query param: type')
    expect(response.body).toEqual(MISSING)
  })

  test('returns 400 missing_parameter when type is given without a value', async () => {
    const response = await t.call('GET', '/api/v1/fields?type')
    expectEnvelope(response, 400, 'missing_parameter', 'Missing required query param: type')
    expect(response.body).toEqual(MISSING)
  })

  test('returns 400 missing_parameter when only other query parameters are given', async () => {
    const response = await t.call('GET', '/api/v1/fields?Type=invoice&slug=invoice')
    expectEnvelope(response, 400, 'missing_parameter', 'Missing required query param: type')
    expect(response.body).toEqual(MISSING)
  })

  test('returns 404 with available_types for an unknown slug', async () => {
    const response = await t.call('GET', '/api/v1/fields?type=nope')
    expectEnvelope(response, 404, 'unknown_document_type', 'Unknown document type: "nope"')
    expect(Object.keys(response.body).sort()).toEqual(['available_types', 'code', 'error'])
    expect(response.body.error).toBe('Unknown document type: "nope"')
    expect([...response.body.available_types].sort()).toEqual(SLUGS)
    expect(response.body.available_types).toHaveLength(9)
  })

  test('matches slugs case-sensitively: Invoice is an unknown type (D16)', async () => {
    const response = await t.call('GET', '/api/v1/fields?type=Invoice')
    expectEnvelope(response, 404, 'unknown_document_type', 'Unknown document type: "Invoice"')
    expect([...response.body.available_types].sort()).toEqual(SLUGS)
  })

  test('does not trim the slug: " invoice" is an unknown type', async () => {
    const response = await t.call('GET', `/api/v1/fields?type=${encodeURIComponent(' invoice')}`)
    expectEnvelope(response, 404, 'unknown_document_type', 'Unknown document type: " invoice"')
  })

  const oddSlugs: [string, string][] = [
    ['double quotes', '"invoice"'],
    ['a single quote and backslash', "in'vo\\ice"],
    ['HTML', '<script>alert(1)</script>'],
    ['accented letters', 'facturé'],
    ['an emoji', 'invoice📄'],
    ['a right-to-left script', 'فاتورة'],
    ['a NUL and a newline', 'in\u0000vo\nice'],
    ['SQL', "invoice' OR '1'='1"],
    ['ampersands and equals signs', 'a&type=invoice'],
    ['a path traversal', '../../etc/passwd'],
    ['prototype names', '__proto__'],
    ['constructor', 'constructor'],
    ['10 000 characters', 'x'.repeat(10_000)],
  ]

  test.each(oddSlugs)('returns a 404 envelope, not a 5xx, for a slug with %s', async (_name, slug) => {
    const response = await t.call('GET', `/api/v1/fields?type=${encodeURIComponent(slug)}`)
    expectEnvelope(response, 404, 'unknown_document_type')
    expect(response.body.error).toBe(`Unknown document type: "${slug}"`)
    expect([...response.body.available_types].sort()).toEqual(SLUGS)
  })
})

describe('loadCatalog', () => {
  const tempDirs: string[] = []

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'extractd-catalog-test-'))
    tempDirs.push(dir)
    return dir
  }

  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
  })

  function typeFile(slug: string, overrides: Record<string, unknown> = {}) {
    return {
      slug,
      label: `Label of ${slug}`,
      description: `Documents of type ${slug}.`,
      fields: [
        { key: 'reference', label: 'Reference', description: 'The reference number.', required: true },
        { key: 'issued_on', label: 'Issued On', description: 'Date of issue.', required: false, kind: 'date' },
        { key: 'amount', label: 'Amount', description: 'Total amount.', required: true, aliases: ['Sum'] },
      ],
      ...overrides,
    }
  }

  function dirWith(files: Record<string, unknown>): string {
    const dir = tempDir()
    for (const [name, content] of Object.entries(files))
      writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2))
    return dir
  }

  function catalogError(load: () => unknown): CatalogError {
    try {
      load()
    } catch (error) {
      expect(error).toBeInstanceOf(CatalogError)
      return error as CatalogError
    }
    throw new Error('expected loadCatalog to throw a CatalogError')
  }

  test('loads the nine built-in types by default, ordered by slug', () => {
    const catalog = loadCatalog()
    expect(catalog.slugs()).toEqual(SLUGS)
    expect(catalog.list().map((entry) => entry.slug)).toEqual(SLUGS)
    expect(catalog.get('invoice')?.suggestedKeys).toEqual(INVOICE_SUGGESTED)
    expect(catalog.get('nope')).toBeUndefined()
  })

  test('builds the catalog only from the given builtIns', () => {
    const catalog = loadCatalog({ builtIns: [{ file: 'data/document-types/receipt.json', text: JSON.stringify(typeFile('receipt')) }] })
    expect(catalog.slugs()).toEqual(['receipt'])
    expect(catalog.get('receipt')?.suggestedKeys).toEqual(['reference', 'amount'])
  })

  test('an operator directory adds a new type and overrides a built-in one, visible through the API', async () => {
    const override = typeFile('invoice', {
      label: 'Supplier Invoice',
      description: 'Invoices as this operator defines them.',
      fields: [
        { key: 'supplier', label: 'Supplier', description: 'Who sent the invoice.', required: true, aliases: ['From'] },
        { key: 'invoice_total', label: 'Invoice Total', description: 'Amount due.', required: false, kind: 'amount' },
        { key: 'iban', label: 'IBAN', description: '', required: true },
      ],
    })
    const dir = dirWith({ 'receipt.json': typeFile('receipt'), 'invoice.json': override, 'README.txt': 'not a type' })
    const catalog = loadCatalog({ extraDir: dir })
    const slugs = [...SLUGS, 'receipt'].sort()
    expect(catalog.slugs()).toEqual(slugs)

    const app = makeTestApp({ catalog })

    const list = await app.call('GET', '/api/v1/document-types')
    expect(list.status).toBe(200)
    expect(list.body.document_types).toHaveLength(10)
    expect(list.body.document_types).toContainEqual({
      slug: 'receipt',
      label: 'Label of receipt',
      description: 'Documents of type receipt.',
    })
    expect(list.body.document_types).toContainEqual({
      slug: 'invoice',
      label: 'Supplier Invoice',
      description: 'Invoices as this operator defines them.',
    })

    const invoice = await app.call('GET', '/api/v1/fields?type=invoice')
    expect(invoice.status).toBe(200)
    expect(invoice.body).toEqual({
      type: 'invoice',
      label: 'Supplier Invoice',
      description: 'Invoices as this operator defines them.',
      fields: [
        { key: 'supplier', label: 'Supplier', description: 'Who sent the invoice.', required: true },
        { key: 'invoice_total', label: 'Invoice Total', description: 'Amount due.', required: false },
        { key: 'iban', label: 'IBAN', description: '', required: true },
      ],
      suggested_keys: ['supplier', 'iban'],
    })

    const receipt = await app.call('GET', '/api/v1/fields?type=receipt')
    expect(receipt.status).toBe(200)
    expect(receipt.body).toEqual({
      type: 'receipt',
      label: 'Label of receipt',
      description: 'Documents of type receipt.',
      fields: [
        { key: 'reference', label: 'Reference', description: 'The reference number.', required: true },
        { key: 'issued_on', label: 'Issued On', description: 'Date of issue.', required: false },
        { key: 'amount', label: 'Amount', description: 'Total amount.', required: true },
      ],
      suggested_keys: ['reference', 'amount'],
    })

    const unknown = await app.call('GET', '/api/v1/fields?type=nope')
    expectEnvelope(unknown, 404, 'unknown_document_type', 'Unknown document type: "nope"')
    expect([...unknown.body.available_types].sort()).toEqual(slugs)

    // The default catalog of other apps is untouched.
    const other = await t.call('GET', '/api/v1/fields?type=invoice')
    expect(other.body.label).toBe('Invoice')
  })

  test('an empty operator directory leaves the built-in catalog as it is', () => {
    const catalog = loadCatalog({ extraDir: tempDir() })
    expect(catalog.slugs()).toEqual(SLUGS)
  })

  test('throws a CatalogError naming the directory when it does not exist', () => {
    const missing = join(tempDir(), 'does-not-exist')
    const error = catalogError(() => loadCatalog({ extraDir: missing }))
    expect(error.message).toContain(missing)
  })

  test('throws a CatalogError naming the file for invalid JSON', () => {
    const dir = dirWith({ 'receipt.json': '{"slug": "receipt", "label": ' })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'receipt.json'))
    expect(error.message).toContain('JSON')
  })

  test('throws a CatalogError naming the file and /fields/0/key for a key with a dash', () => {
    const file = typeFile('receipt')
    ;(file.fields as { key: string }[])[0]!.key = 'reference-number'
    const dir = dirWith({ 'receipt.json': file })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'receipt.json'))
    expect(error.message).toContain('/fields/0/key')
  })

  test('throws a CatalogError naming the file and /label for a type without a label', () => {
    const { label: _label, ...file } = typeFile('receipt')
    const dir = dirWith({ 'receipt.json': file })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'receipt.json'))
    expect(error.message).toContain('/label')
    expect(error.message).not.toContain('/fields/')
  })

  test('throws a CatalogError naming the file and /fields/1/label for a field without a label', () => {
    const file = typeFile('receipt')
    delete (file.fields as { label?: string }[])[1]!.label
    const dir = dirWith({ 'receipt.json': file })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'receipt.json'))
    expect(error.message).toContain('/fields/1/label')
  })

  test('throws a CatalogError naming the file and the second position of a duplicate key', () => {
    const file = typeFile('receipt')
    ;(file.fields as { key: string }[])[2]!.key = 'reference'
    const dir = dirWith({ 'receipt.json': file })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'receipt.json'))
    expect(error.message).toContain('/fields/2/key')
    expect(error.message).toContain('reference')
  })

  test('throws a CatalogError naming the file and /slug when the file name does not match the slug', () => {
    const dir = dirWith({ 'bill.json': typeFile('receipt') })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'bill.json'))
    expect(error.message).toContain('/slug')
  })

  test('throws a CatalogError naming the file and the path of an unknown top-level property', () => {
    const dir = dirWith({ 'receipt.json': typeFile('receipt', { colour: 'blue' }) })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'receipt.json'))
    expect(error.message).toContain('/colour')
  })

  test('throws a CatalogError naming the file and the path of an unknown field property', () => {
    const file = typeFile('receipt')
    ;(file.fields as Record<string, unknown>[])[1]!.hint = 'unknown'
    const dir = dirWith({ 'receipt.json': file })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'receipt.json'))
    expect(error.message).toContain('/fields/1/hint')
  })

  test('throws a CatalogError for a bad file among good ones, so nothing half-loads', () => {
    const file = typeFile('zeta')
    ;(file.fields as { key: string }[])[0]!.key = 'bad-key'
    const dir = dirWith({ 'receipt.json': typeFile('receipt'), 'zeta.json': file })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'zeta.json'))
    expect(error.message).toContain('/fields/0/key')
  })

  test('throws a CatalogError naming a bad built-in file and the path', () => {
    const file = typeFile('receipt')
    ;(file.fields as { key: string }[])[0]!.key = 'has-dash'
    const error = catalogError(() =>
      loadCatalog({ builtIns: [{ file: 'data/document-types/receipt.json', text: JSON.stringify(file) }] }),
    )
    expect(error.message).toContain('data/document-types/receipt.json')
    expect(error.message).toContain('/fields/0/key')
  })

  test('the shipped built-in files all load on their own', () => {
    expect(builtInFiles.map((source) => source.file).sort()).toEqual(SLUGS.map((slug) => `data/document-types/${slug}.json`))
    expect(() => loadCatalog({ builtIns: builtInFiles })).not.toThrow()
  })

  test('a subdirectory inside the operator directory is not read as a type', () => {
    const dir = dirWith({ 'receipt.json': typeFile('receipt') })
    mkdirSync(join(dir, 'nested'))
    writeFileSync(join(dir, 'nested', 'bad.json'), '{')
    expect(loadCatalog({ extraDir: dir }).slugs()).toContain('receipt')
  })
})
