/**
 * The document-type catalog: GET /api/v1/document-types and GET /api/v1/fields?type=<slug>
 * (interface.md 2.3, 2.4, 4.6, 4.7, 7; D1, D16, D17), and the loader of built-in and operator
 * catalog files (D18).
 */
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readCatalogFiles } from '../../src/modules/catalog/embed-catalog'
import { CatalogError, loadCatalog } from '../../src/modules/catalog/service'
import { expectEnvelope, makeTestApp, type TestApp } from '../helpers/app'
import { tempDir as makeTempDir } from '../helpers/process'

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

// A new app for every test: the database of each is dropped after it.
let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})

/** The exact body of a 404 for an unknown slug (interface.md 4.7, 7; D1). */
function unknownTypeBody(slug: string, availableTypes = SLUGS) {
  return { error: `Unknown document type: "${slug}"`, code: 'unknown_document_type', available_types: availableTypes }
}

describe('GET /api/v1/document-types', () => {
  test('returns exactly the nine built-in slugs with the labels of interface.md, ordered by slug (D38)', async () => {
    const response = await t.call('GET', '/api/v1/document-types')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(Object.keys(response.body)).toEqual(['document_types'])
    const types = response.body.document_types as { slug: string; label: string; description: string }[]
    expect(types).toHaveLength(9)
    expect(types.map((type) => type.slug)).toEqual(SLUGS)
    for (const type of types) expect(type.label).toBe(BUILT_IN_TYPES[type.slug]!)
    expect(response.body).toEqual({
      document_types: SLUGS.map((slug) => ({ slug, label: BUILT_IN_TYPES[slug]!, description: expect.any(String) })),
    })
  })

  test('gives every entry only slug, label and a non-empty description', async () => {
    const response = await t.call('GET', '/api/v1/document-types')
    expect(response.body.document_types).toHaveLength(9)
    for (const type of response.body.document_types) {
      expect(Object.keys(type).sort()).toEqual(['description', 'label', 'slug'])
      expect(typeof type.description).toBe('string')
      expect(type.description.trim().length).toBeGreaterThan(0)
    }
  })
})

describe.each(['/api/v1/document-types', '/api/v1/fields?type=invoice'])('GET %s', (path) => {
  test.each([
    ['without a key', null],
    ['with a wrong key', 'not-a-real-key'],
  ])('answers 401 "Invalid API key" %s', async (_, key) => {
    const response = await t.call('GET', path, { key })
    expectEnvelope(response, 401, 'invalid_api_key', 'Invalid API key')
    expect(response.body).toEqual({ error: 'Invalid API key', code: 'invalid_api_key' })
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

  test('offers 8 to 16 fields, each with exactly key, label, description, required and a declared type (D87), a table with its default columns (D115)', async () => {
    const { body } = await t.call('GET', `/api/v1/fields?type=${slug}`)
    expect(body.fields.length).toBeGreaterThanOrEqual(8)
    expect(body.fields.length).toBeLessThanOrEqual(16)
    for (const field of body.fields) {
      const keys = ['description', 'key', 'label', 'required', 'type', ...(field.type === 'table' ? ['columns'] : [])]
      expect(Object.keys(field).sort()).toEqual(keys.sort())
      if (field.type === 'table') for (const column of field.columns) expect(Object.keys(column).sort()).toEqual(['description', 'key', 'label', 'type'])
      expect(['text', 'number', 'amount', 'date', 'currency', 'list', 'table']).toContain(field.type)
      expect(field).not.toHaveProperty('aliases')
      expect(field).not.toHaveProperty('kind')
      expect(typeof field.required).toBe('boolean')
    }
  })

  test('gives unique, valid keys, labels within 100 and non-empty descriptions within 300 characters', async () => {
    const { body } = await t.call('GET', `/api/v1/fields?type=${slug}`)
    const keys = body.fields.map((field: { key: string }) => field.key)
    expect(keys.length).toBeGreaterThanOrEqual(8)
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
    const required = body.fields.filter((field: { required: boolean }) => field.required).map((field: { key: string }) => field.key)
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

  test.each([
    ['absent', ''],
    ['empty (D16)', '?type='],
    ['given without a value', '?type'],
    ['absent while other query parameters are given', '?Type=invoice&slug=invoice'],
  ])('returns 400 missing_parameter when type is %s', async (_, query) => {
    const response = await t.call('GET', `/api/v1/fields${query}`)
    expectEnvelope(response, 400, 'missing_parameter', 'Missing required query param: type')
    expect(response.body).toEqual(MISSING)
  })

  const unknownSlugs: [string, string][] = [
    ['an unknown slug', 'nope'],
    ['"Invoice": slugs are matched case-sensitively (D16)', 'Invoice'],
    ['" invoice": the slug is not trimmed', ' invoice'],
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

  test.each(unknownSlugs)('returns 404 with the exact message and available_types, not a 5xx, for %s', async (_name, slug) => {
    const response = await t.call('GET', `/api/v1/fields?type=${encodeURIComponent(slug)}`)
    expectEnvelope(response, 404, 'unknown_document_type', `Unknown document type: "${slug}"`)
    expect(response.body).toEqual(unknownTypeBody(slug))
    expect(response.body.available_types).toHaveLength(9)
  })
})

describe('loadCatalog', () => {
  const removals: (() => void)[] = []

  function tempDir(): string {
    const dir = makeTempDir('extractd-catalog-test-')
    removals.push(dir.remove)
    return dir.path
  }

  afterAll(() => {
    for (const remove of removals) remove()
  })

  function typeFile(slug: string, overrides: Record<string, unknown> = {}) {
    return {
      slug,
      label: `Label of ${slug}`,
      description: `Documents of type ${slug}.`,
      fields: [
        { key: 'reference', label: 'Reference', description: 'The reference number.', required: true },
        { key: 'issued_on', label: 'Issued On', description: 'Date of issue.', required: false, type: 'date' },
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

    const app = await makeTestApp({ catalog })

    const list = await app.call('GET', '/api/v1/document-types')
    expect(list.status).toBe(200)
    expect(list.body.document_types).toHaveLength(10)
    expect(list.body.document_types.map((type: { slug: string }) => type.slug)).toEqual(slugs)
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
        { key: 'supplier', label: 'Supplier', description: 'Who sent the invoice.', required: true, type: 'auto' },
        // `kind`, the old name of `type` in catalog files, is still read (D87).
        { key: 'invoice_total', label: 'Invoice Total', description: 'Amount due.', required: false, type: 'amount' },
        { key: 'iban', label: 'IBAN', description: '', required: true, type: 'auto' },
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
        { key: 'reference', label: 'Reference', description: 'The reference number.', required: true, type: 'auto' },
        { key: 'issued_on', label: 'Issued On', description: 'Date of issue.', required: false, type: 'date' },
        { key: 'amount', label: 'Amount', description: 'Total amount.', required: true, type: 'auto' },
      ],
      suggested_keys: ['reference', 'amount'],
    })

    const unknown = await app.call('GET', '/api/v1/fields?type=nope')
    expectEnvelope(unknown, 404, 'unknown_document_type', 'Unknown document type: "nope"')
    expect(unknown.body).toEqual(unknownTypeBody('nope', slugs))

    // The default catalog of other apps is untouched.
    const other = await t.call('GET', '/api/v1/fields?type=invoice')
    expect(other.body.label).toBe('Invoice')
  })

  test.each([
    [{ type: 'text', values: ['a'] }, '/fields/0/values: values are only allowed with type "enum"'],
    [{ type: 'enum' }, '/fields/0/values: A field of type "enum" needs its allowed values'],
    [{ type: 'table', columns: [{ key: 'a' }, { key: 'a' }] }, '/fields/0/columns/1/key'],
    [{ type: 'text', kind: 'text' }, '/fields/0/kind: give type only'],
    [{ type: 'colour' }, '/fields/0/type'],
  ])('a catalog field with %j stops the start, naming %p (D88)', (extra, message) => {
    const file = typeFile('receipt', { fields: [{ key: 'a', label: 'A', description: '', required: true, ...extra }] })
    const dir = dirWith({ 'receipt.json': file })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, 'receipt.json'))
    expect(error.message).toContain(message)
  })

  test('a type with the slug "auto" stops the start: it asks for the classifier (D250)', () => {
    const dir = dirWith({ 'auto.json': typeFile('auto') })
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toBe(`${join(dir, 'auto.json')}: /slug: "auto" asks for the classifier and cannot be a type's slug`)
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

  /** A valid type file changed by `change`. */
  function changed(slug: string, change: (file: { label?: string; fields: Record<string, unknown>[] }) => void) {
    const file = typeFile(slug) as unknown as { label?: string; fields: Record<string, unknown>[] }
    change(file)
    return file
  }

  const BAD_DIRECTORIES: { name: string; files: () => Record<string, unknown>; file: string; contains: string[]; lacks?: string[] }[] = [
    { name: 'the file for invalid JSON', files: () => ({ 'receipt.json': '{"slug": "receipt", "label": ' }), file: 'receipt.json', contains: ['JSON'] },
    {
      name: 'the file and /fields/0/key for a key with a dash',
      files: () => ({ 'receipt.json': changed('receipt', (file) => (file.fields[0]!.key = 'reference-number')) }),
      file: 'receipt.json',
      contains: ['/fields/0/key'],
    },
    {
      name: 'the file and /label for a type without a label',
      files: () => ({ 'receipt.json': changed('receipt', (file) => delete file.label) }),
      file: 'receipt.json',
      contains: ['/label'],
      lacks: ['/fields/'],
    },
    {
      name: 'the file and /fields/1/label for a field without a label',
      files: () => ({ 'receipt.json': changed('receipt', (file) => delete file.fields[1]!.label) }),
      file: 'receipt.json',
      contains: ['/fields/1/label'],
    },
    {
      name: 'the file and the second position of a duplicate key',
      files: () => ({ 'receipt.json': changed('receipt', (file) => (file.fields[2]!.key = 'reference')) }),
      file: 'receipt.json',
      contains: ['/fields/2/key', 'reference'],
    },
    {
      name: 'the file and /slug when the file name does not match the slug',
      files: () => ({ 'bill.json': typeFile('receipt') }),
      file: 'bill.json',
      contains: ['/slug'],
    },
    {
      name: 'the file and the path of an unknown top-level property',
      files: () => ({ 'receipt.json': typeFile('receipt', { colour: 'blue' }) }),
      file: 'receipt.json',
      contains: ['/colour'],
    },
    {
      name: 'the file and /issued_by_seller when it is not true or false (D220)',
      files: () => ({ 'receipt.json': typeFile('receipt', { issued_by_seller: 'yes' }) }),
      file: 'receipt.json',
      contains: ['/issued_by_seller'],
    },
    {
      name: 'the file and the path of an unknown field property',
      files: () => ({ 'receipt.json': changed('receipt', (file) => (file.fields[1]!.hint = 'unknown')) }),
      file: 'receipt.json',
      contains: ['/fields/1/hint'],
    },
    {
      name: 'a bad file among good ones, so nothing half-loads',
      files: () => ({ 'receipt.json': typeFile('receipt'), 'zeta.json': changed('zeta', (file) => (file.fields[0]!.key = 'bad-key')) }),
      file: 'zeta.json',
      contains: ['/fields/0/key'],
    },
  ]

  test.each(BAD_DIRECTORIES)('throws a CatalogError naming $name', ({ files, file, contains, lacks = [] }) => {
    const dir = dirWith(files())
    const error = catalogError(() => loadCatalog({ extraDir: dir }))
    expect(error.message).toContain(join(dir, file))
    for (const text of contains) expect(error.message).toContain(text)
    for (const text of lacks) expect(error.message).not.toContain(text)
  })

  test('throws a CatalogError naming a bad built-in file and the path', () => {
    const file = typeFile('receipt')
    ;(file.fields as { key: string }[])[0]!.key = 'has-dash'
    const error = catalogError(() => loadCatalog({ builtIns: [{ file: 'data/document-types/receipt.json', text: JSON.stringify(file) }] }))
    expect(error.message).toContain('data/document-types/receipt.json')
    expect(error.message).toContain('/fields/0/key')
  })

  test('the shipped built-in files all load on their own', () => {
    const builtInFiles = readCatalogFiles()
    expect(builtInFiles.map((source) => source.file).sort()).toEqual(SLUGS.map((slug) => `data/document-types/${slug}.json`))
    expect(() => loadCatalog({ builtIns: builtInFiles })).not.toThrow()
  })

  test('a subdirectory inside the operator directory is not read as a type', () => {
    const dir = dirWith({ 'receipt.json': typeFile('receipt') })
    mkdirSync(join(dir, 'nested'))
    writeFileSync(join(dir, 'nested', 'bad.json'), '{')
    expect(loadCatalog({ extraDir: dir }).slugs()).toContain('receipt')
    expect(loadCatalog({ extraDir: dir }).slugs()).toEqual([...SLUGS, 'receipt'].sort())
  })
})
