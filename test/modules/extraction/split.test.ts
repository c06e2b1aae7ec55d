/**
 * Files that hold several documents (issue 34, D246, D247): found by what people see — a title,
 * "page 1", a new number, a change of type, a total closed — each with its pages and its type, and
 * a document of several pages ("page 2 of 3", its number again, a sentence carried over, a blank
 * page) kept whole, with or without a letterhead that every document repeats.
 */
import { describe, expect, test } from 'bun:test'
import { DEFAULT_READ_LIMITS, MEDIA_TYPES } from '../../../src/modules/extraction/readers/types'
import { type SampleDocument, sample, sampleText, samplesPdf } from '../../helpers/documents'
import { TEST_DIALECT } from '../../helpers/database'
import { splitFile } from '../../helpers/split'

/** No database here: the PostgreSQL run of test/modules would only read the same documents again. */
const ON_POSTGRES = TEST_DIALECT === 'postgres'

async function split(documents: readonly SampleDocument[], limits = DEFAULT_READ_LIMITS) {
  const { documents: found } = await splitFile(await samplesPdf(documents), MEDIA_TYPES.pdf, limits)
  return found.map(({ firstPage, lastPage, classification }) => ({ pages: [firstPage, lastPage], type: classification.documentType }))
}

/** What a split must find: each document's pages, in order, and its type. */
function expected(documents: readonly SampleDocument[]) {
  let page = 1
  return documents.map((document) => {
    const range = { pages: [page, page + document.pages.length - 1], type: document.type }
    page += document.pages.length
    return range
  })
}

/** An invoice of one company: the same letterhead on every invoice, and on each of its pages. */
function companyInvoice(number: string, client: string, lines: [string, number][], pageBreakAfter?: number): SampleDocument {
  const letterhead = ['Kestrel Office Interiors Ltd', '9 Mill Lane, York YO1 7HU · VAT GB 384 2291 07']
  const rows = lines.map(([item, amount]) => `${item.padEnd(40)}${amount.toFixed(2).padStart(12)}`)
  const total = lines.reduce((sum, [, amount]) => sum + amount, 0)
  const closing = [
    '',
    `${''.padEnd(28)}Net          ${total.toFixed(2).padStart(12)}`,
    `${''.padEnd(28)}VAT 20%      ${(total * 0.2).toFixed(2).padStart(12)}`,
    `${''.padEnd(28)}Total Due    ${(total * 1.2).toFixed(2).padStart(12)}`,
    '',
    'Payment within 30 days to Sort Code 40-12-76, Account 10293847.',
  ]
  const head = [
    ...letterhead,
    '',
    'INVOICE',
    '',
    `Invoice No: ${number}        Date: 12/05/2025`,
    `Bill To: ${client}`,
    '',
    `${'Description'.padEnd(40)}${'Amount'.padStart(12)}`,
  ]
  if (pageBreakAfter === undefined) return { name: `invoice-${number}`, type: 'invoice', language: 'en', pages: [[...head, ...rows, ...closing]] }
  return {
    name: `invoice-${number}`,
    type: 'invoice',
    language: 'en',
    pages: [
      [...head, ...rows.slice(0, pageBreakAfter), '', 'continued', 'Page 1 of 2'],
      [
        ...letterhead,
        `Invoice No: ${number}`,
        '',
        `${'Description'.padEnd(40)}${'Amount'.padStart(12)}`,
        ...rows.slice(pageBreakAfter),
        ...closing,
        'Page 2 of 2',
      ],
    ],
  }
}

describe.skipIf(ON_POSTGRES)('a file of several documents', () => {
  test('two documents: an invoice and a contract', async () => {
    const documents = [sample('invoice-en'), sample('contract-de')]
    expect(await split(documents)).toEqual(expected(documents))
  })

  test('many documents of every kind, some of several pages, one of no catalog type', async () => {
    const documents = [
      sample('invoice-nl-two-pages'),
      sample('contract-en-three-pages'),
      sample('payslip-de'),
      sample('bank-statement-en'),
      sample('passport-fr'),
      sample('letter-en'),
      sample('lab-report-es'),
      sample('prescription-da'),
      sample('purchase-order-nl'),
      sample('consultation-en'),
      sample('receipt-es'),
    ]
    expect(await split(documents)).toEqual(expected(documents))
  })

  test('the documents of one sender, each with the same letterhead, are told apart by their numbers and totals', async () => {
    const documents = [
      companyInvoice('KOI-1041', 'Harrogate Dental Care', [
        ['Reception desk, oak veneer', 1840],
        ['Waiting room chairs (6)', 1116],
      ]),
      companyInvoice('KOI-1042', 'Ripon Library Trust', [['Shelving bays, steel', 2260]]),
      companyInvoice(
        'KOI-1043',
        'Selby Town Council',
        [
          ['Meeting table 3.2 m', 1490],
          ['Conference chairs (12)', 2148],
          ['Acoustic panels (8)', 960],
          ['Whiteboard 240 x 120', 310],
          ['Installation and removal of old furniture', 640],
        ],
        3,
      ),
      companyInvoice('KOI-1044', 'Thirsk Veterinary Surgery', [['Examination room cabinets', 1875]]),
    ]
    expect(await split(documents)).toEqual(expected(documents))
  })

  test('a text file of documents separated by form feeds is split the same way', async () => {
    const documents = [sample('payslip-en'), sample('payslip-es'), sample('minutes-de'), sample('lab-report-pl')]
    const text = new TextEncoder().encode(documents.map(sampleText).join('\n\f'))
    const { documents: found } = await splitFile(text, MEDIA_TYPES.text)
    expect(found.map(({ firstPage, lastPage, classification }) => ({ pages: [firstPage, lastPage], type: classification.documentType }))).toEqual(
      expected(documents),
    )
  })
})

describe.skipIf(ON_POSTGRES)('a document of several pages is not cut', () => {
  test.each(['contract-en-three-pages', 'invoice-nl-two-pages'])('%s alone is one document', async (name) => {
    expect(await split([sample(name)])).toEqual(expected([sample(name)]))
  })

  test('a blank page inside a document stays with it', async () => {
    const contract = sample('contract-en-three-pages')
    const withBlank: SampleDocument = { ...contract, pages: [contract.pages[0]!, [' '], ...contract.pages.slice(1)] }
    expect(await split([withBlank, sample('invoice-de')])).toEqual(expected([withBlank, sample('invoice-de')]))
  })

  test("each document found holds its own pages' reading, counted from its first page", async () => {
    const documents = [sample('invoice-en'), sample('contract-en-three-pages'), sample('payslip-fr')]
    const { documents: found, handed } = await splitFile(await samplesPdf(documents), MEDIA_TYPES.pdf)
    expect(found.map(({ firstPage, lastPage }) => [firstPage, lastPage])).toEqual([
      [1, 1],
      [2, 4],
      [5, 5],
    ])
    expect(handed.map((document) => document.pages.length)).toEqual([1, 3, 1])
    expect(handed[1]!.pages[0]).toContain('MUTUAL NON-DISCLOSURE AGREEMENT')
    expect(handed[1]!.layout).toHaveLength(3)
    expect(handed[2]!.pages[0]).toContain('BULLETIN DE PAIE')
  })
})

describe.skipIf(ON_POSTGRES)('a bundle of 200 pages', () => {
  test('is split whole into its 120 documents (its text and word positions only are held)', async () => {
    const set = [sample('invoice-en'), sample('contract-en-three-pages'), sample('payslip-en')]
    const documents = Array.from({ length: 40 }, () => set).flat()
    const found = await split(documents, { ...DEFAULT_READ_LIMITS, maxPages: 200 })
    expect(found).toHaveLength(120)
    expect(found).toEqual(expected(documents))
  }, 120_000)
})
