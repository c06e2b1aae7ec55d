/**
 * Learning from reviews (issue 32, D260–D270): one reviewed document teaches a sender's layout, and
 * the sender's next documents are read with it first — moved and scaled, with a longer table —
 * while a sender alike in layout but not the same is not; a later review replaces what it
 * contradicts, a forgotten layout reads nothing, and what a person always writes is a constant.
 * The invoices are PDFs made here; the general reading is a fake engine that makes the mistakes a
 * reviewer corrects (it answers the subtotal as the total and reads no table).
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import type { JobField } from '../../../src/lib/fields/model'
import { type Answers, storedAnswers } from '../../../src/modules/extraction/answers'
import type { Engine } from '../../../src/modules/extraction/engines/types'
import { inProcessExtractor } from '../../../src/modules/extraction/extractor'
import { type Candidate, LayoutIndex, LayoutStore } from '../../../src/modules/extraction/learning/layout-index'
import type { LearnedLayout } from '../../../src/modules/extraction/learning/layout'
import { CONSTANT_MATCH, matches, similarity } from '../../../src/modules/extraction/learning/fingerprint'
import { learnLayout, type ReadAnswer } from '../../../src/modules/extraction/learning/learn'
import { withLearnedLayouts } from '../../../src/modules/extraction/learning/read'
import { ownKeys } from '../../../src/modules/extraction/learning/words'
import { readDocument } from '../../../src/modules/extraction/readers'
import type { Raster } from '../../../src/modules/extraction/readers/ocr/raster'
import { DEFAULT_READ_LIMITS, type DocumentText, MEDIA_TYPES } from '../../../src/modules/extraction/readers/types'
import { renderPage, toPng } from '../../helpers/images'
import { taskAnswers } from '../../helpers/answers'

// One test reads scans through OCR.
setDefaultTimeout(120_000)

interface Sender {
  name: string
  street: string
  registration: string
  footer: string
}

interface Invoice {
  number: string
  /** Printed day first: 14/11/2026. */
  date: string
  items: [description: string, quantity: number, amount: string][]
  /** Rows printed under the total: a rounding line and the rounded total, what was paid. */
  after?: [label: string, value: string][]
}

/** Where the page is printed: moved (points) and scaled, as a scan laid askew or a photo taken closer. */
interface Placement {
  dx: number
  dy: number
  scale: number
}

const NORTHWIND: Sender = {
  name: 'NORTHWIND OFFICE SUPPLY LTD',
  street: '12 HARBOUR ROAD, LEEDS LS1 4AB',
  registration: 'COMPANY NO 04512377',
  footer: 'GOODS REMAIN NORTHWIND PROPERTY UNTIL PAID',
}
/** The same template as Northwind's: another shop that bought the same invoicing software. */
const SOUTHWIND: Sender = {
  name: 'SOUTHWIND PAPER TRADERS LTD',
  street: '7 QUAYSIDE, BRISTOL BS1 5TX',
  registration: 'COMPANY NO 09981264',
  footer: 'GOODS REMAIN SOUTHWIND PROPERTY UNTIL PAID',
}

const AS_PRINTED: Placement = { dx: 0, dy: 0, scale: 1 }

const money = (value: number) => value.toFixed(2)
const subtotalOf = (invoice: Invoice) => invoice.items.reduce((sum, [, , amount]) => sum + Number(amount), 0)
const totalOf = (invoice: Invoice) => money(subtotalOf(invoice) * 1.2)

/** An invoice of the sender's template as a one-page PDF with a text layer. */
async function invoicePdf(sender: Sender, invoice: Invoice, placement: Placement = AS_PRINTED): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const page = pdf.addPage([595, 842])
  const font = await pdf.embedFont(StandardFonts.Courier)
  const { dx, dy, scale } = placement
  const text = (value: string, x: number, y: number, size = 10) =>
    page.drawText(value, { x: dx + x * scale, y: 842 - (dy + y * scale), size: size * scale, font })
  text(sender.name, 40, 50, 14)
  text(sender.street, 40, 68)
  text(sender.registration, 40, 82)
  text('TAX INVOICE', 240, 120, 12)
  text(`Invoice No: ${invoice.number}`, 40, 150)
  text(`Date: ${invoice.date}`, 330, 150)
  text('Description', 40, 185)
  text('Qty', 300, 185)
  text('Amount', 400, 185)
  let y = 203
  for (const [description, quantity, amount] of invoice.items) {
    text(description, 40, y)
    text(String(quantity), 300, y)
    text(amount.padStart(8), 400, y)
    y += 16
  }
  const subtotal = subtotalOf(invoice)
  for (const [label, value] of [
    ['Subtotal', money(subtotal)],
    ['VAT 20%', money(subtotal * 0.2)],
    ['Total', totalOf(invoice)],
    ...(invoice.after ?? []),
  ] as const) {
    y += 16
    text(label, 300, y)
    text(value.padStart(8), 400, y)
  }
  text(sender.footer, 40, y + 40)
  text('Thank you for your business', 40, y + 54)
  return pdf.save()
}

const read = (pdf: Uint8Array): Promise<DocumentText> => readDocument(pdf, MEDIA_TYPES.pdf)

const fields: JobField[] = [
  { key: 'company_name', label: 'Company name', description: 'Name of the company that issued the invoice', type: 'text' },
  { key: 'invoice_number', label: 'Invoice number', description: 'Invoice number', type: 'text' },
  { key: 'date', label: 'Date', description: 'Invoice date', type: 'date' },
  { key: 'total', label: 'Total', description: 'Grand total amount due, including tax', type: 'amount' },
  {
    key: 'line_items',
    label: 'Line items',
    description: 'The lines of the invoice',
    type: 'table',
    columns: [
      { key: 'description', label: 'Description', description: '', type: 'text' },
      { key: 'quantity', label: 'Quantity', description: '', type: 'number' },
      { key: 'amount', label: 'Amount', description: '', type: 'amount' },
    ],
  },
]

/**
 * The general reading: the name from the first line, the number and date from their labels, and
 * — the mistakes a reviewer corrects — the subtotal as the total and no table.
 */
const general: Engine = {
  name: 'fake',
  async extract({ document }) {
    const text = document.pages.join('\n')
    const lines = text.split('\n').map((line) => line.trim())
    const after = (label: RegExp) => label.exec(text)?.[1] ?? null
    const answer = (value: string | null) => ({ value, confidence: value === null ? 0 : 0.8, page: value === null ? null : 1, snippet: null })
    return {
      company_name: answer(lines.find(Boolean) ?? null),
      invoice_number: answer(after(/Invoice No: (\S+)/)),
      date: answer(after(/Date: (\S+)/)),
      total: answer(after(/Subtotal\s+(\S+)/)),
      line_items: answer(null),
    }
  },
}

async function extract(document: DocumentText, layouts?: LayoutStore, engine: Engine = general): Promise<Answers> {
  const task = { content: new Uint8Array([1]), mediaType: MEDIA_TYPES.pdf, documentType: 'invoice', issuedBySeller: true, fields, limits: DEFAULT_READ_LIMITS }
  const answers = taskAnswers(await inProcessExtractor(engine, { read: async () => document })(task))
  // As the job runner does (D274): the document as read, again with the account's layouts.
  return layouts ? withLearnedLayouts(document, fields, answers, layouts.source) : answers
}

/** What a job keeps of what was read, for the review: each value with its page and box. */
function readOf(answers: Answers): Record<string, ReadAnswer> {
  const { result, fieldsMeta } = storedAnswers(Object.keys(answers), answers)
  return Object.fromEntries(Object.keys(result).map((key) => [key, { value: result[key], page: fieldsMeta[key]!.page, bbox: fieldsMeta[key]!.bbox ?? null }]))
}

let now = Date.parse('2026-11-20T10:00:00Z')

/** A review of a job: the layout it teaches, stored in the account's layouts (updating the one the job was read with). */
function review(layouts: LayoutStore, job: string, document: DocumentText, answers: Answers, values: Record<string, unknown>): LearnedLayout {
  const readWith = Object.values(answers).find((answer) => answer.learned)?.learned?.layout
  const layout = learnLayout(
    { job, document, fields, values, read: readOf(answers) },
    { into: readWith ? layouts.get(readWith) : undefined, id: `lay_${job}`, now: new Date((now += 1000)).toISOString() },
  )
  layouts.put(layout)
  return layout
}

/** The reviewed values of an invoice: all of them right. */
function truthOf(sender: Sender, invoice: Invoice): Record<string, unknown> {
  const [day, month, year] = invoice.date.split('/')
  return {
    company_name: sender.name,
    invoice_number: invoice.number,
    date: `${year}-${month}-${day}`,
    total: Number(totalOf(invoice)),
    line_items: invoice.items.map(([description, quantity, amount]) => ({ description, quantity, amount: Number(amount) })),
  }
}

const first: Invoice = {
  number: 'NW-2026-0417',
  date: '14/11/2026',
  items: [
    ['Printer paper A4', 10, '45.00'],
    ['Toner cartridge', 2, '118.00'],
  ],
}
const second: Invoice = {
  number: 'NW-2026-0502',
  date: '03/12/2026',
  items: [
    ['Stapler heavy duty', 1, '24.50'],
    ['Envelopes C5 box', 4, '31.60'],
  ],
}
const longer: Invoice = {
  number: 'NW-2026-0611',
  date: '21/12/2026',
  items: [
    ['Printer paper A4', 20, '90.00'],
    ['Toner cartridge', 1, '59.00'],
    ['Ring binders', 12, '30.00'],
    ['Whiteboard markers', 6, '8.40'],
    ['Desk organiser', 2, '27.80'],
    ['Sticky notes', 24, '19.20'],
  ],
}

/** Goods none of the invoices above lists: with another branch's lines, an invoice that matches its sender's layout loosely. */
const otherGoods: Invoice = {
  number: 'NW-2026-0702',
  date: '08/01/2027',
  items: [
    ['Whiteboard markers', 6, '8.40'],
    ['Desk organiser', 2, '27.80'],
  ],
}

/** A store that learned Northwind's first invoice, reviewed right. */
async function taughtNorthwind(): Promise<{ layouts: LayoutStore; layout: LearnedLayout }> {
  const layouts = new LayoutStore()
  const document = await read(await invoicePdf(NORTHWIND, first))
  const answers = await extract(document, layouts)
  return { layouts, layout: review(layouts, 'job_1', document, answers, truthOf(NORTHWIND, first)) }
}

describe('a reviewed document teaches its sender', () => {
  test('the values it is printed with are learned where they are printed, the corrected ones marked so', async () => {
    const { layout } = await taughtNorthwind()
    expect(layout.id).toBe('lay_job_1')
    expect(layout.fields.total).toMatchObject({ how: 'printed', job: 'job_1', value: '195.60', corrected: true })
    expect(layout.fields.date).toMatchObject({ how: 'printed', value: '2026-11-14', corrected: false, dateOrder: 'dmy' })
    expect(layout.fields.company_name).toMatchObject({ how: 'printed', value: NORTHWIND.name })
    expect(layout.fields.line_items).toMatchObject({ how: 'table', job: 'job_1', rowStart: 'amount' })
    // The sender's own words tell it, not the template's labels.
    const marks = layout.fingerprint.marks.map((mark) => mark.key)
    expect(marks).toEqual(expect.arrayContaining(['northwind', 'harbour', 'leeds', '04512377']))
    expect(marks).not.toEqual(expect.arrayContaining(['invoice', 'total', 'description']))
  })

  test('its next invoice, moved on the page and printed larger, is read where the review placed its values', async () => {
    const { layouts } = await taughtNorthwind()
    const next = await read(await invoicePdf(NORTHWIND, second, { dx: 35, dy: 60, scale: 1.25 }))
    const answers = await extract(next, layouts)
    const { result, fieldsMeta } = storedAnswers(Object.keys(answers), answers)
    expect(result).toMatchObject({ company_name: NORTHWIND.name, invoice_number: 'NW-2026-0502', date: '2026-12-03', total: '67.32' })
    // The corrected total comes from the layout, which says which review taught it; the number the
    // general reading got right stays its answer; the date it cannot tell (3 December or 12 March?)
    // is read day first, as the reviewed one was printed.
    expect(fieldsMeta.total!.learned).toEqual({ layout: 'lay_job_1', job: 'job_1', how: 'printed' })
    expect(fieldsMeta.invoice_number!.learned).toBeUndefined()
    expect(fieldsMeta.date!.learned).toEqual({ layout: 'lay_job_1', job: 'job_1', how: 'printed' })
    expect(storedAnswers(['date'], await extract(next)).result.date).toBeNull()
    // Where the learned total is printed on the moved page.
    expect(fieldsMeta.total!.bbox!.left).toBeGreaterThan(0.72)
    expect(fieldsMeta.total!.page).toBe(1)
    // Without the layout, the general reading's mistake is back.
    expect(storedAnswers(['total'], await extract(next)).result.total).toBe('56.10')
  })

  test('a longer table is read whole, and the total moved down with it', async () => {
    const { layouts } = await taughtNorthwind()
    const answers = await extract(await read(await invoicePdf(NORTHWIND, longer)), layouts)
    const { result, fieldsMeta } = storedAnswers(Object.keys(answers), answers)
    expect(result.line_items).toEqual(longer.items.map(([description, quantity, amount]) => ({ description, quantity, amount })))
    expect(fieldsMeta.line_items!.learned).toEqual({ layout: 'lay_job_1', job: 'job_1', how: 'table' })
    expect(result.total).toBe(totalOf(longer))
  })
})

describe('a learned total and a rounding line the taught invoice did not print (D361)', () => {
  const rounded = (invoice: Invoice, after: [string, string][]): Invoice => ({ ...invoice, after })
  const totalRead = async (layouts: LayoutStore, invoice: Invoice) => {
    const answers = await extract(await read(await invoicePdf(NORTHWIND, invoice, { dx: 20, dy: 30, scale: 1.1 })), layouts)
    return { total: storedAnswers(['total'], answers).result.total, learned: answers.total!.learned }
  }

  test('gives way to the rounded total printed after the rounding line, signed or not, whatever the words', async () => {
    const { layouts } = await taughtNorthwind()
    // 67.32 is the second invoice's total; its rounding line brings it to the nearest 5 cents, 67.30.
    expect(totalOf(second)).toBe('67.32')
    const learned = { layout: 'lay_job_1', job: 'job_1', how: 'printed' } as const
    const cases: [after: [string, string][], total: string][] = [
      [
        [
          ['Rounding Adj', '-0.02'],
          ['Total Rounded', '67.30'],
        ],
        '67.30',
      ],
      // Unsigned, and in words the lexicons do not hold: the arithmetic tells it.
      [
        [
          ['Arrondi', '0.02'],
          ['Net a payer', '67.30'],
        ],
        '67.30',
      ],
      [
        [
          ['Afrunding', '-0,02'],
          ['I alt', '67,30'],
        ],
        '67.30',
      ],
      // An adjustment printed without the zero before its mark, as tills print cents.
      [
        [
          ['Rounding Adj', ',02'],
          ['Rounded', '67.30'],
        ],
        '67.30',
      ],
      // To a whole unit, where a rounding line names itself (in any of the lexicons' languages).
      [
        [
          ['Rundung', '-0,32'],
          ['Gesamt', '67,00'],
        ],
        '67.00',
      ],
    ]
    for (const [after, total] of cases) expect([after, await totalRead(layouts, rounded(second, after))]).toEqual([after, { total, learned }])
    // Without the rounding line, the learned place answers as before.
    expect(await totalRead(layouts, second)).toEqual({ total: '67.32', learned })
  })

  test('the general reading’s total, right on the taught invoice, gives way alike', async () => {
    // A general reading that reads the first "Total" right, and says on which line, but knows no rounding.
    const totalFirst: Engine = {
      name: 'fake-total',
      async extract({ document }) {
        const lines = document.pages[0]!.split('\n')
        const line = lines.findIndex((text) => /^\s*Total\s+\S+\s*$/.test(text))
        const total = line < 0 ? null : lines[line]!.trim().split(/\s+/)[1]!
        return { total: { value: total, confidence: 0.8, page: total === null ? null : 1, snippet: null, ...(total === null ? {} : { line }) } }
      },
    }
    const layouts = new LayoutStore()
    const document = await read(await invoicePdf(NORTHWIND, first))
    const answers = await extract(document, layouts, totalFirst)
    expect(review(layouts, 'job_1', document, answers, truthOf(NORTHWIND, first)).fields.total).toMatchObject({ how: 'printed', corrected: false })
    const next = await read(
      await invoicePdf(
        NORTHWIND,
        rounded(second, [
          ['Afrunding', '-0,02'],
          ['At betale', '67,30'],
        ]),
      ),
    )
    expect((await extract(next, undefined, totalFirst)).total!.value).toBe('67.32')
    expect(await extract(next, layouts, totalFirst)).toMatchObject({ total: { value: '67.30', learned: { layout: 'lay_job_1', how: 'printed' } } })
    // Without a rounding line, the general reading's total stands, unchanged.
    const plain = await read(await invoicePdf(NORTHWIND, second))
    expect((await extract(plain, layouts, totalFirst)).total).toEqual((await extract(plain, undefined, totalFirst)).total)
  })

  test('keeps the learned total where the arithmetic is not a rounding', async () => {
    const { layouts } = await taughtNorthwind()
    const cases: [string, string][][] = [
      // What was paid, then the change: the small amount after the larger.
      [
        ['Paid', '67.35'],
        ['Change', '0.03'],
      ],
      // A small amount, then one it makes that is no rounder than the total.
      [
        ['Discount', '0.02'],
        ['To pay', '67.34'],
      ],
      // Rounded further than half a coin.
      [
        ['Adjustment', '-0.07'],
        ['To pay', '67.25'],
      ],
      // A whole unit and a tax that make the total, on a row that names no rounding.
      [
        ['VAT', '0.32'],
        ['Net', '67.00'],
      ],
      // A breakdown of net and tax: two amounts on a row are no rounding line.
      [
        ['Net and VAT', '67.00   0.32'],
        ['Tax summary', '67.00   0.32'],
      ],
    ]
    for (const after of cases) expect([after, (await totalRead(layouts, rounded(second, after))).total]).toEqual([after, '67.32'])
  })

  test('a total the person chose above a rounding line stays the unrounded one on the next invoice', async () => {
    const layouts = new LayoutStore()
    const taught = rounded(second, [
      ['Rounding Adj', '-0.02'],
      ['Total Rounded', '67.30'],
    ])
    const document = await read(await invoicePdf(NORTHWIND, taught))
    const layout = review(layouts, 'job_1', document, await extract(document, layouts), truthOf(NORTHWIND, taught))
    expect(layout.fields.total).toMatchObject({ how: 'printed', value: '67.32', unrounded: true })
    // 281.28, rounded to 281.25 on the longer invoice: the person's choice holds.
    expect(totalOf(longer)).toBe('281.28')
    expect(
      (
        await totalRead(
          layouts,
          rounded(longer, [
            ['Rounding Adj', '-0.03'],
            ['Total Rounded', '281.25'],
          ]),
        )
      ).total,
    ).toBe('281.28')
  })
})

describe('a scanned receipt', () => {
  /** A receipt whose total is its items and a paper bag's 0.10. */
  const receipt = (number: string, date: string, items: [string, string][]) => ({
    lines: [
      'HARBOUR BOOKS LTD',
      '21 QUAY STREET, WHITBY YO22 4DE',
      `Receipt No: ${number}`,
      `Date: ${date}`,
      ...items.map(([item, amount]) => `${item.padEnd(24)}${amount.padStart(8)}`),
      `SUBTOTAL${money(items.reduce((sum, [, amount]) => sum + Number(amount), 0)).padStart(24)}`,
      `PAPER BAG${'0.10'.padStart(23)}`,
      `TOTAL PAID${money(items.reduce((sum, [, amount]) => sum + Number(amount), 0.1)).padStart(22)}`,
      'THANK YOU FOR READING WITH US',
    ],
    width: 320,
  })

  /** The page moved on a larger white sheet: a scan laid askew in the scanner's corner. */
  function moved(page: Raster, left: number, top: number): Raster {
    const width = page.width + left + 40
    const height = page.height + top + 40
    const data = new Uint8Array(width * height).fill(255)
    for (let y = 0; y < page.height; y++) data.set(page.data.subarray(y * page.width, (y + 1) * page.width), (top + y) * width + left)
    return { width, height, data }
  }

  test('scanned at another resolution and moved on the page, the next receipt is read where the review placed its values', async () => {
    const fields: JobField[] = [
      { key: 'company_name', label: 'Company name', description: 'Name of the shop', type: 'text' },
      { key: 'total', label: 'Total', description: 'Total paid', type: 'amount' },
    ]
    const scan = async (page: Raster) => readDocument(toPng(page), MEDIA_TYPES.png)
    const one = await scan(
      await renderPage(
        receipt('HB-5521', '21/06/2024', [
          ['Atlas of the North', '24.00'],
          ['Sea charts', '12.50'],
        ]),
        150,
      ),
    )
    const layouts = new LayoutStore()
    // The general reading takes the subtotal for the total; the reviewer writes the shop as they always do.
    const reading: Engine = {
      name: 'fake',
      async extract({ document }) {
        const subtotal = /SUBTOTAL\s+(\S+)/.exec(document.pages.join('\n'))?.[1] ?? null
        return {
          company_name: { value: null, confidence: 0, page: null, snippet: null },
          total: { value: subtotal, confidence: 0.8, page: 1, snippet: null },
        }
      },
    }
    const extractScan = async (document: DocumentText) =>
      withLearnedLayouts(
        document,
        fields,
        taskAnswers(
          await inProcessExtractor(reading, { read: async () => document })({
            content: new Uint8Array([1]),
            mediaType: MEDIA_TYPES.png,
            documentType: 'invoice',
            issuedBySeller: true,
            fields,
            limits: DEFAULT_READ_LIMITS,
          }),
        ),
        layouts.source,
      )
    layouts.put(
      learnLayout(
        { job: 'job_scan', document: one, fields, values: { company_name: 'Harbour Books', total: 36.6 }, read: readOf(await extractScan(one)) },
        { id: 'lay_scan', now: new Date().toISOString() },
      ),
    )
    const two = await scan(
      moved(
        await renderPage(
          receipt('HB-5604', '02/07/2024', [
            ['Lighthouses', '18.00'],
            ['Tide tables 2025', '6.20'],
            ['Postcards', '3.00'],
          ]),
          200,
        ),
        120,
        90,
      ),
    )
    const answers = await extractScan(two)
    expect(answers.total).toMatchObject({ value: '27.30', learned: { layout: 'lay_scan', job: 'job_scan', how: 'printed' } })
    // The shop's name found where it is printed, answered as the reviewer writes it.
    expect(answers.company_name).toMatchObject({ value: 'Harbour Books', page: 1, learned: { layout: 'lay_scan', how: 'printed' } })
  })
})

describe('senders alike in layout', () => {
  const southwind: Invoice = { number: 'SW-88120', date: '05/12/2026', items: [['Kraft paper roll', 3, '42.00']] }

  test("another sender's invoice of the same template is not read with the layout", async () => {
    const { layouts } = await taughtNorthwind()
    const document = await read(await invoicePdf(SOUTHWIND, southwind))
    const answers = await extract(document, layouts)
    expect(Object.values(answers).some((answer) => answer.learned)).toBe(false)
    expect(answers).toEqual(await extract(document))
  })

  test('each sender taught is read with its own layout', async () => {
    const { layouts } = await taughtNorthwind()
    const document = await read(await invoicePdf(SOUTHWIND, southwind))
    review(layouts, 'job_2', document, await extract(document, layouts), { ...truthOf(SOUTHWIND, southwind), company_name: 'Southwind Stationers' })
    expect(layouts.size).toBe(2)
    const north = await extract(await read(await invoicePdf(NORTHWIND, second)), layouts)
    const south = await extract(await read(await invoicePdf(SOUTHWIND, { ...southwind, number: 'SW-88305' })), layouts)
    expect(north.total!.learned?.layout).toBe('lay_job_1')
    expect(south.total!.learned?.layout).toBe('lay_job_2')
    expect(north.company_name!.value).toBe(NORTHWIND.name)
    expect(south.company_name).toMatchObject({ value: 'Southwind Stationers', learned: { layout: 'lay_job_2', job: 'job_2', how: 'constant' } })
  })
})

describe('what reviews say over time', () => {
  test('a review that contradicts an earlier one replaces what it contradicts, and keeps the rest', async () => {
    const layouts = new LayoutStore()
    const one = await read(await invoicePdf(NORTHWIND, first))
    // A first reviewer takes the VAT for the total.
    review(layouts, 'job_1', one, await extract(one, layouts), { ...truthOf(NORTHWIND, first), total: 32.6 })
    const two = await read(await invoicePdf(NORTHWIND, second))
    const read2 = await extract(two, layouts)
    expect(read2.total).toMatchObject({ value: '11.22', learned: { job: 'job_1' } })
    // The next review of a document read with the layout puts it right: the same layout, updated.
    const updated = review(layouts, 'job_2', two, read2, { total: Number(totalOf(second)) })
    expect(updated.id).toBe('lay_job_1')
    expect(layouts.size).toBe(1)
    expect(updated.fields.total).toMatchObject({ job: 'job_2', value: '67.32' })
    const three = await extract(await read(await invoicePdf(NORTHWIND, longer)), layouts)
    expect(three.total).toMatchObject({ value: totalOf(longer), learned: { layout: 'lay_job_1', job: 'job_2', how: 'printed' } })
    // What the second review did not name is still what the first taught.
    expect(three.line_items!.learned?.job).toBe('job_1')
  })

  test('a forgotten layout reads nothing: the next invoice is read as if it had never been taught', async () => {
    const { layouts, layout } = await taughtNorthwind()
    const next = await read(await invoicePdf(NORTHWIND, second))
    expect((await extract(next, layouts)).total!.learned).toBeDefined()
    expect(layouts.remove(layout.id)).toBe(true)
    const answers = await extract(next, layouts)
    expect(answers).toEqual(await extract(next))
    expect(answers.total!.value).toBe('56.10')
  })
})

describe('constant facts', () => {
  test('a name the person always writes otherwise than it is printed is answered as they write it', async () => {
    const layouts = new LayoutStore()
    const one = await read(await invoicePdf(NORTHWIND, first))
    const layout = review(layouts, 'job_1', one, await extract(one, layouts), { ...truthOf(NORTHWIND, first), company_name: 'Northwind Stationery' })
    expect(layout.fields.company_name).toEqual({ how: 'constant', type: 'text', job: 'job_1', value: 'Northwind Stationery' })
    const answers = await extract(await read(await invoicePdf(NORTHWIND, second, { dx: 20, dy: 10, scale: 0.9 })), layouts)
    const { result, fieldsMeta } = storedAnswers(Object.keys(answers), answers)
    expect(result.company_name).toBe('Northwind Stationery')
    expect(fieldsMeta.company_name).toMatchObject({ page: null, bbox: null, learned: { layout: 'lay_job_1', job: 'job_1', how: 'constant' } })
  })

  test('on a match too loose for a constant, it is answered where the general reading names the taught sender (D362)', async () => {
    const layouts = new LayoutStore()
    const one = await read(await invoicePdf(NORTHWIND, first))
    const layout = review(layouts, 'job_1', one, await extract(one, layouts), { ...truthOf(NORTHWIND, first), company_name: 'Northwind Stationery' })
    // Another branch: its own registration and footer, other goods.
    const branch: Sender = { ...NORTHWIND, registration: 'BRANCH NO 7731', footer: 'RETURNS ACCEPTED WITHIN THIRTY DAYS' }
    const document = await read(await invoicePdf(branch, otherGoods))
    const found = similarity(layout.fingerprint, ownKeys(document))
    expect(matches(found)).toBe(true)
    expect(found.score < CONSTANT_MATCH.score || found.head < CONSTANT_MATCH.head).toBe(true)
    const answers = await extract(document, layouts)
    expect(answers.company_name).toMatchObject({ value: 'Northwind Stationery', learned: { layout: 'lay_job_1', job: 'job_1', how: 'constant' } })
    // A document that matches as loosely but names another sender is answered as printed.
    const renamed = await read(await invoicePdf({ ...branch, registration: NORTHWIND.registration, name: 'NORTHGATE OFFICE SUPPLY LTD' }, otherGoods))
    expect(matches(similarity(layout.fingerprint, ownKeys(renamed)))).toBe(true)
    const other = (await extract(renamed, layouts)).company_name!
    expect([other.value, other.learned]).toEqual(['NORTHGATE OFFICE SUPPLY LTD', undefined])
  })

  test('on a match too loose for a constant, it is answered where the general reading reads it with a letter wrong (D362)', async () => {
    const layouts = new LayoutStore()
    const one = await read(await invoicePdf(NORTHWIND, first))
    const layout = review(layouts, 'job_1', one, await extract(one, layouts), { ...truthOf(NORTHWIND, first), company_name: 'Harbour Stationers' })
    expect(layout.fields.company_name).toMatchObject({ how: 'constant', value: 'Harbour Stationers' })
    // A branch that prints the name the person writes, read with a letter wrong; and one that prints another.
    const branch = (name: string): Sender => ({ ...NORTHWIND, name, footer: 'RETURNS ACCEPTED WITHIN THIRTY DAYS' })
    const misread = await read(await invoicePdf(branch('HARBOUR STATIONFRS'), otherGoods))
    const found = similarity(layout.fingerprint, ownKeys(misread))
    expect(matches(found) && found.score < CONSTANT_MATCH.score).toBe(true)
    expect((await extract(misread, layouts)).company_name).toMatchObject({ value: 'Harbour Stationers', learned: { how: 'constant' } })
    const another = (await extract(await read(await invoicePdf(branch('HARBOUR TRADING CO'), otherGoods)), layouts)).company_name!
    expect([another.value, another.learned]).toEqual(['HARBOUR TRADING CO', undefined])
  })

  test('the sender’s printed name, where its learned place finds nothing, is the reviewed one when the general reading misreads it (D362)', async () => {
    const { layouts, layout } = await taughtNorthwind()
    const name = layout.fields.company_name!
    expect(name).toMatchObject({ how: 'printed', value: NORTHWIND.name })
    // The place the name was learned at finds nothing on this page (as on a poor scan).
    layouts.put({ ...layout, fields: { ...layout.fields, company_name: { ...name, anchors: [] } as typeof name } })
    const document = await read(await invoicePdf(NORTHWIND, second))
    const reading = (company: string): Engine => ({
      name: 'fake-name',
      async extract() {
        return { company_name: { value: company, confidence: 0.8, page: 1, snippet: null } }
      },
    })
    expect((await extract(document, layouts, reading('NORTHWLND OFFLCE SUPPIY LTD'))).company_name).toMatchObject({
      value: NORTHWIND.name,
      learned: { layout: 'lay_job_1', how: 'printed' },
    })
    const other = (await extract(document, layouts, reading('NORTHWIND PAPER MILLS PLC'))).company_name!
    expect([other.value, other.learned]).toEqual(['NORTHWIND PAPER MILLS PLC', undefined])
  })

  test('a value the person says is not there is not answered for that sender, and says why', async () => {
    const layouts = new LayoutStore()
    const one = await read(await invoicePdf(NORTHWIND, first))
    review(layouts, 'job_1', one, await extract(one, layouts), { ...truthOf(NORTHWIND, first), invoice_number: null })
    const answers = await extract(await read(await invoicePdf(NORTHWIND, second)), layouts)
    const { result, fieldsMeta } = storedAnswers(Object.keys(answers), answers)
    expect(result.invoice_number).toBeNull()
    expect(fieldsMeta.invoice_number).toEqual({
      confidence: 0,
      page: null,
      needs_review: false,
      snippet: null,
      bbox: null,
      learned: { layout: 'lay_job_1', job: 'job_1', how: 'absent' },
    })
  })

  test('a date or an amount that is not printed is not made a constant', async () => {
    const layouts = new LayoutStore()
    const one = await read(await invoicePdf(NORTHWIND, first))
    const layout = review(layouts, 'job_1', one, await extract(one, layouts), { ...truthOf(NORTHWIND, first), total: 999.99, date: '2027-01-31' })
    expect(layout.fields.total).toBeUndefined()
    expect(layout.fields.date).toBeUndefined()
  })
})

describe('the index of an account’s layouts', () => {
  const fingerprint = (sender: number) => ({
    marks: [`shop${sender}`, `owner${sender}`, `street${sender % 97}`, 'thankyou', `reg${sender}`, `footer${sender}`].map((key, i) => ({
      key,
      head: i < 3,
      ...(i === 0 ? { name: true as const } : {}),
    })),
  })

  test('among 2,000 layouts a document finds its own first, and a forgotten one no more', () => {
    const index = new LayoutIndex()
    for (let sender = 0; sender < 2000; sender++) index.add(`lay_${sender}`, fingerprint(sender))
    const words = ['shop1234', 'owner1234', 'street70', 'thankyou', 'reg1234', 'footer1234', 'total']
    const found: Candidate[] = index.candidates(words)
    expect(found[0]).toEqual({ id: 'lay_1234', score: 1, head: 1, name: 1 })
    expect(index.remove('lay_1234')).toBe(true)
    expect(index.candidates(words).map((candidate) => candidate.id)).not.toContain('lay_1234')
    expect(index.size).toBe(1999)
  })

  test('a word every layout prints finds none of them', () => {
    const index = new LayoutIndex()
    for (let sender = 0; sender < 2000; sender++) index.add(`lay_${sender}`, fingerprint(sender))
    expect(index.candidates(['thankyou', 'total'])).toEqual([])
  })
})
