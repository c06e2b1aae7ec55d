/**
 * Tables (D115–D117): any table field finds its table by the columns it declares, whatever its
 * key; printed headers of every lexicon language answer declared columns; rows are read as
 * printed (descriptions over several lines, a table going on over a page break, ended by a total
 * or a carry-over); the rows are checked against the printed total, and the job's field meta says
 * how. Documents are written by the tests, sent through the API as a user sends them.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { resolveField } from '../../../src/lib/fields/resolve'
import type { JobField } from '../../../src/lib/fields/model'
import { storedAnswers } from '../../../src/modules/extraction/answers'
import { normaliseAnswers } from '../../../src/modules/extraction/normalise'
import { makeTestApp, type TestApp } from '../../helpers/app'
import { closeTestDatabases } from '../../helpers/database'
import { renderPage, toPng } from '../../helpers/images'

afterAll(closeTestDatabases)

const ITEM_COLUMNS = [
  { key: 'description', label: 'Description' },
  { key: 'quantity', label: 'Quantity', type: 'number' },
  { key: 'unit_price', label: 'Unit price', type: 'amount' },
  { key: 'amount', label: 'Amount', type: 'amount' },
]

/** A text PDF in a fixed-width font: each page's lines as written, so columns are where the spaces put them. */
async function pdfOf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Courier)
  for (const lines of pages) {
    const sheet = pdf.addPage([640, 842])
    lines.forEach((text, i) => sheet.drawText(text, { x: 30, y: 800 - i * 14, size: 9, font }))
  }
  return pdf.save()
}

async function extractJob(t: TestApp, file: { content: string | Uint8Array; name: string; type: string }, extract: unknown) {
  const form = new FormData()
  form.append('file', new Blob([file.content], { type: file.type }), file.name)
  form.append('extract', JSON.stringify(extract))
  const response = await t.call('POST', '/api/v1/extract', { body: form })
  expect([200, 202]).toContain(response.status)
  let job = response.body.job
  for (let i = 0; i < 200 && ['queued', 'running'].includes(job.status); i++) {
    await Bun.sleep(20)
    job = (await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job
  }
  expect(job.status).toBe('succeeded')
  return job
}

const text = (content: string) => ({ content, name: 'document.txt', type: 'text/plain' })
const pdf = (content: Uint8Array) => ({ content, name: 'document.pdf', type: 'application/pdf' })

/** The engine's typed answer for fields of a catalog type (as a job holds them), on a text document. */
async function catalogTable(documentType: string, key: string, pages: string[]) {
  const type = loadCatalog().get(documentType)!
  const field = type.fields.find((entry) => entry.key === key)!
  const spec: JobField = { ...resolveField(field), ...(field.aliases ? { aliases: field.aliases } : {}) }
  const output = storedAnswers(
    [key],
    normaliseAnswers(
      [spec],
      await builtinEngine.extract({ document: { pages }, documentType, issuedBySeller: type.issued_by_seller === true, fields: [spec] }),
    ),
  )
  return { rows: output.result[key], meta: output.fieldsMeta[key]! }
}

describe('any table field finds its table by its columns (D115)', () => {
  test('a field "items" on a plain text invoice: no label of the field printed, the rows under "Description  Qty  Amount"', async () => {
    const t = await makeTestApp()
    const invoice = [
      'Northwind Traders',
      'Invoice 2024-117',
      '',
      'Description               Qty        Amount',
      'Garden hose 25 m           2         39.80',
      'Brass nozzle               1          7.50',
      '',
      'Subtotal                             47.30',
      'Total                                47.30',
    ].join('\n')
    const job = await extractJob(t, text(invoice), {
      document_type: 'invoice',
      fields: {
        items: {
          type: 'table',
          columns: [
            { key: 'description', label: 'Description' },
            { key: 'qty', type: 'number' },
            { key: 'amount', type: 'amount' },
          ],
        },
      },
    })
    expect(job.result.items).toEqual([
      { description: 'Garden hose 25 m', qty: 2, amount: '39.80' },
      { description: 'Brass nozzle', qty: 1, amount: '7.50' },
    ])
    expect(job.fields_meta.items.table_check).toEqual({ lines_sum: '47.30', total: 'matches', rows: 'not_checked' })
    expect(job.fields_meta.items.confidence).toBeGreaterThanOrEqual(0.9)
    expect(job.fields_meta.items.page).toBe(1)
  })

  test('"positions" on a German PDF: two-line descriptions, an article number below, a carry-over at the page end, the header again on page 2, the net total ends it', async () => {
    const t = await makeTestApp()
    const page1 = [
      'Holzbau Krämer GmbH',
      'Rechnung Nr. 4711 vom 03.02.2025',
      '',
      'Pos  Bezeichnung                     Menge   Einzelpreis   Gesamtpreis',
      '1    Fichtenbalken 8x8 cm               12         14,50        174,00',
      '     gehobelt, 4 m',
      '     Art.-Nr. FB-88',
      '2    Schraubenset Edelstahl              3          9,90         29,70',
      '                                           Übertrag            203,70',
    ]
    const page2 = [
      'Holzbau Krämer GmbH                         Seite 2',
      'Pos  Bezeichnung                     Menge   Einzelpreis   Gesamtpreis',
      '3    Montage vor Ort                      4         55,00        220,00',
      '     (Stunden)',
      '',
      'Nettobetrag                                                    423,70',
      'USt. 19 %                                                       80,50',
      'Gesamtbetrag                                                   504,20',
    ]
    const job = await extractJob(t, pdf(await pdfOf([page1, page2])), {
      document_type: 'invoice',
      fields: { positions: { label: 'Positionen', type: 'table', columns: ITEM_COLUMNS } },
    })
    expect(job.result.positions).toEqual([
      { description: 'Fichtenbalken 8x8 cm gehobelt, 4 m Art.-Nr. FB-88', quantity: 12, unit_price: '14.50', amount: '174.00' },
      { description: 'Schraubenset Edelstahl', quantity: 3, unit_price: '9.90', amount: '29.70' },
      { description: 'Montage vor Ort (Stunden)', quantity: 4, unit_price: '55.00', amount: '220.00' },
    ])
    expect(job.fields_meta.positions.table_check).toEqual({ lines_sum: '423.70', total: 'matches', rows: 'match' })
    expect(job.fields_meta.positions.bbox).not.toBeNull()
  })

  test('a PDF whose header is set in small type: its laid-out text drifts from the page, the cells go by where the words are', async () => {
    const t = await makeTestApp()
    const doc = await PDFDocument.create()
    const bold = await doc.embedFont(StandardFonts.HelveticaBold)
    const regular = await doc.embedFont(StandardFonts.Helvetica)
    const sheet = doc.addPage([595, 842])
    const right = (text: string, x: number, y: number) => sheet.drawText(text, { x: x - regular.widthOfTextAtSize(text, 11), y, size: 11, font: regular })
    sheet.drawText('Sunrise Bakery Ltd', { x: 40, y: 790, size: 14, font: bold })
    // Small header words take fewer points per letter than the rows: in the laid-out text each one
    // is pushed right of where it is printed, past the values under the column before.
    const headers: [string, number][] = [
      ['Item description as supplied to the customer', 40],
      ['Quantity ordered', 185],
      ['Unit price excl. VAT', 250],
      ['Line total excl. VAT', 330],
    ]
    for (const [text, x] of headers) sheet.drawText(text, { x, y: 740, size: 5, font: bold })
    const rows = [
      ['Sourdough loaf', '12', '4.20', '50.40'],
      ['Cinnamon buns', '3', '9.90', '29.70'],
    ]
    rows.forEach(([item, quantity, price, total], i) => {
      const y = 720 - i * 18
      sheet.drawText(item!, { x: 40, y, size: 11, font: regular })
      right(quantity!, 225, y)
      right(price!, 300, y)
      right(total!, 380, y)
    })
    sheet.drawText('Net total', { x: 250, y: 670, size: 11, font: bold })
    right('80.10', 380, 670)
    const job = await extractJob(t, pdf(await doc.save()), { document_type: 'invoice', fields: { line_items: { type: 'table', columns: ITEM_COLUMNS } } })
    expect(job.result.line_items).toEqual([
      { description: 'Sourdough loaf', quantity: 12, unit_price: '4.20', amount: '50.40' },
      { description: 'Cinnamon buns', quantity: 3, unit_price: '9.90', amount: '29.70' },
    ])
    expect(job.fields_meta.line_items.table_check).toEqual({ lines_sum: '80.10', total: 'matches', rows: 'match' })
  })

  test("a scanned invoice (PNG, read by OCR): rows by the recognised words' positions, with their boxes", async () => {
    // Read by Tesseract: PaddleOCR reads this Courier line "Rope, 10)mmx50m" (D160).
    const t = await makeTestApp({ recogniser: 'tesseract' })
    const lines = [
      'BLUE HARBOUR SUPPLIES',
      'Invoice 8841',
      '',
      'Description            Qty   Unit Price     Amount',
      'Rope, 10 mm x 50 m       2        34.00      68.00',
      'Shackle, galvanised      6         3.50      21.00',
      '',
      'Subtotal                                     89.00',
    ]
    const png = toPng(await renderPage({ lines, width: 520, fontSize: 11 }, 200))
    const job = await extractJob(
      t,
      { content: png, name: 'scan.png', type: 'image/png' },
      { document_type: 'invoice', fields: { line_items: { type: 'table', columns: ITEM_COLUMNS } } },
    )
    expect(job.result.line_items).toEqual([
      { description: 'Rope, 10 mm x 50 m', quantity: 2, unit_price: '34.00', amount: '68.00' },
      { description: 'Shackle, galvanised', quantity: 6, unit_price: '3.50', amount: '21.00' },
    ])
    expect(job.fields_meta.line_items.table_check).toEqual({ lines_sum: '89.00', total: 'matches', rows: 'match' })
    expect(job.fields_meta.line_items.bbox).not.toBeNull()
  }, 60_000)

  test('French and Dutch headers answer the same declared columns ("Désignation  Quantité  Prix unitaire  Montant HT"; "Omschrijving  Aantal  Prijs  Bedrag")', async () => {
    const t = await makeTestApp()
    const french = [
      'Désignation              Quantité   Prix unitaire   Montant HT',
      'Bûches de chêne 1 stère      3          85,00          255,00',
      'Livraison                    1          40,00           40,00',
      'Total HT                                               295,00',
    ].join('\n')
    const dutch = [
      'Omschrijving             Aantal     Prijs      Bedrag',
      'Tulpenbollen (zak)           10      2,50       25,00',
      'Potgrond 40 l                 2      4,95        9,90',
      'Totaal                                          34,90',
    ].join('\n')
    const fields = { line_items: { type: 'table', columns: ITEM_COLUMNS } }
    const fr = await extractJob(t, text(french), { document_type: 'invoice', fields })
    const nl = await extractJob(t, text(dutch), { document_type: 'invoice', fields })
    expect(fr.result.line_items).toEqual([
      { description: 'Bûches de chêne 1 stère', quantity: 3, unit_price: '85.00', amount: '255.00' },
      { description: 'Livraison', quantity: 1, unit_price: '40.00', amount: '40.00' },
    ])
    expect(nl.result.line_items).toEqual([
      { description: 'Tulpenbollen (zak)', quantity: 10, unit_price: '2.50', amount: '25.00' },
      { description: 'Potgrond 40 l', quantity: 2, unit_price: '4.95', amount: '9.90' },
    ])
    expect(nl.fields_meta.line_items.table_check).toEqual({ lines_sum: '34.90', total: 'matches', rows: 'match' })
  })

  test('rows that do not add up to the printed total, or whose quantity × price is not their amount, lower the confidence and the meta says which', async () => {
    const t = await makeTestApp()
    const fields = { line_items: { type: 'table', columns: ITEM_COLUMNS } }
    const consistent = [
      'Item              Qty    Price     Amount',
      'Paper A4            5     4.00      20.00',
      'Toner               1    30.00      30.00',
      'Total                               50.00',
    ]
    const inconsistent = [
      'Item              Qty    Price     Amount',
      'Paper A4            5     4.00      21.00',
      'Toner               1    30.00      30.00',
      'Total                               55.00',
    ]
    const good = await extractJob(t, text(consistent.join('\n')), { document_type: 'invoice', fields })
    const bad = await extractJob(t, text(inconsistent.join('\n')), { document_type: 'invoice', fields })
    expect(good.fields_meta.line_items.table_check).toEqual({ lines_sum: '50.00', total: 'matches', rows: 'match' })
    expect(bad.fields_meta.line_items.table_check).toEqual({ lines_sum: '51.00', total: 'differs', rows: 'differ' })
    expect(bad.result.line_items).toHaveLength(2)
    expect(bad.fields_meta.line_items.confidence).toBeLessThan(good.fields_meta.line_items.confidence - 0.2)
  })

  test('a subtotal line between groups of rows ends only that part: full rows after it go on', async () => {
    const t = await makeTestApp()
    const invoice = [
      'Description                  Quantity    Unit Price      Amount',
      '--- Hardware ---',
      'USB cable                        2          5.00          10.00',
      'Subtotal                                                  10.00',
      '--- Services ---',
      'Setup                            1         45.00          45.00',
      'Subtotal                                                  45.00',
      'Total                                                     55.00',
    ].join('\n')
    const job = await extractJob(t, text(invoice), { document_type: 'invoice', fields: { line_items: { type: 'table', columns: ITEM_COLUMNS } } })
    expect(job.result.line_items.map((row: { description: string }) => row.description)).toEqual(['USB cable', 'Setup'])
  })

  test('a labelled line repeating the sum of the rows above is no row, even under one item ("TOTAL QTY: 3  47.70", D406)', async () => {
    const receipt = [
      'ITEM            QTY    S/PRICE  AMOUNT   TAX',
      '1476             3      15.90     47.70  SR',
      '25KG SIKA CREAM-88',
      '     TOTAL QTY:  3                 47.70',
      '      TOTAL SALES(EXCLUDING GST) :  45.00',
      '                     TOTAL GST :     2.70',
      '  TOTAL SALES(INCLUSIVE OF GST) :   47.70',
    ]
    const { rows, meta } = await catalogTable('invoice', 'line_items', [receipt.join('\n')])
    expect(rows).toEqual([{ description: '1476 25KG SIKA CREAM-88', quantity: 3, unit_price: '15.90', amount: '47.70' }])
    expect(meta.table_check).toEqual({ lines_sum: '47.70', total: 'matches', rows: 'match' })
    // A labelled line that is not the sum of the rows above stays a row of its own: a discount printed among the items.
    const discounted = [...receipt.slice(0, 3), 'DISCOUNT          1     -5.00     -5.00  SR', receipt[3]!.replace('47.70', '42.70'), ...receipt.slice(4)]
    const { rows: withDiscount, meta: checked } = await catalogTable('invoice', 'line_items', [discounted.join('\n')])
    expect(withDiscount).toEqual([expect.objectContaining({ amount: '47.70' }), expect.objectContaining({ quantity: 1, amount: '-5.00' })])
    expect(checked.table_check!.lines_sum).toBe('42.70')
  })

  test('a tax breakdown printed under the items is no part of their table ("GST SUMMARY", D413)', async () => {
    const receipt = [
      'ITEM            QTY    S/PRICE  AMOUNT   TAX',
      '1476             3      15.90     47.70  SR',
      '25KG SIKA CREAM-88',
      '1812             2      16.96     33.92  SR',
      "10'2X3",
      '     TOTAL QTY:  5                 81.62',
      '      TOTAL SALES(EXCLUDING GST) :  77.00',
      '                     TOTAL GST :     4.62',
      '  TOTAL SALES(INCLUSIVE OF GST) :   81.62',
      '                          CASH :   100.00',
      '   GST SUMMARY',
      '    TAX CODE    %    AMT(RM)   TAX(RM)',
      '    SR          6      77.00      4.62',
      '             TOTAL :   77.00      4.62',
      '   GOODS SOLD ARE NOT RETURNABLE, THANK YOU',
    ]
    const { rows, meta } = await catalogTable('invoice', 'line_items', [receipt.join('\n')])
    expect(rows).toEqual([
      { description: '1476 25KG SIKA CREAM-88', quantity: 3, unit_price: '15.90', amount: '47.70' },
      { description: "1812 10'2X3", quantity: 2, unit_price: '16.96', amount: '33.92' },
    ])
    expect(meta.table_check).toEqual({ lines_sum: '81.62', total: 'matches', rows: 'match' })
  })

  test('a table going on over a page break without its header printed again: the rows of the next page join it, its letterhead does not', async () => {
    const page1 = [
      'Studio Vento',
      'Fattura 12/2025',
      'Description                 Qty    Price     Amount',
      'Logo design                   1   400.00     400.00',
      '                                        Page 1 of 2',
    ]
    const page2 = [
      'Studio Vento',
      'Business cards (box)          4    25.00     100.00',
      'Letterheads, 500 sheets      1    60.00      60.00',
      'Net total                                  560.00',
    ]
    const spec: JobField = {
      key: 'items',
      label: 'items',
      description: '',
      type: 'table',
      columns: ITEM_COLUMNS.map((column) => ({ description: '', type: 'text', ...column }) as never),
    }
    const output = storedAnswers(
      ['items'],
      normaliseAnswers(
        [spec],
        await builtinEngine.extract({
          document: { pages: [page1.join('\n'), page2.join('\n')] },
          documentType: 'invoice',
          issuedBySeller: true,
          fields: [spec],
        }),
      ),
    )
    expect(output.result.items).toEqual([
      { description: 'Logo design', quantity: 1, unit_price: '400.00', amount: '400.00' },
      { description: 'Business cards (box)', quantity: 4, unit_price: '25.00', amount: '100.00' },
      { description: 'Letterheads, 500 sheets', quantity: 1, unit_price: '60.00', amount: '60.00' },
    ])
    expect(output.fieldsMeta.items!.table_check).toEqual({ lines_sum: '560.00', total: 'matches', rows: 'match' })
  })

  test('a document without a table answers null with confidence 0 and no check', async () => {
    const t = await makeTestApp()
    const job = await extractJob(t, text('Dear customer,\nthank you for your order of 3 May.\nTotal 12.00'), {
      document_type: 'invoice',
      fields: { line_items: { type: 'table', columns: ITEM_COLUMNS } },
    })
    expect(job.result.line_items).toBeNull()
    expect(job.fields_meta.line_items).toEqual({ confidence: 0, page: null, snippet: null, bbox: null, needs_review: false })
  })
})

describe("the catalog's other tables, by their default columns (D115)", () => {
  test('bank statement transactions: debits and credits printed apart give signed amounts; the opening balance is no booking', async () => {
    const { rows } = await catalogTable('bank_statement', 'transactions', [
      [
        'Account statement  01.03.2025 - 31.03.2025',
        'Date         Description                    Debit        Credit       Balance',
        '             Opening balance                                        1,200.00',
        '03/03/2025   Rent March                    850.00                     350.00',
        '10/03/2025   Salary ACME Ltd                          2,400.00      2,750.00',
        '15/03/2025   Card payment                   42.15                   2,707.85',
        '             Grocery store 118',
        '             Closing balance                                        2,707.85',
      ].join('\n'),
    ])
    expect(rows).toEqual([
      { date: '2025-03-03', description: 'Rent March', amount: '-850.00', balance: '350.00' },
      { date: '2025-03-10', description: 'Salary ACME Ltd', amount: '2400.00', balance: '2750.00' },
      { date: '2025-03-15', description: 'Card payment Grocery store 118', amount: '-42.15', balance: '2707.85' },
    ])
  })

  test('German bank statement with one signed amount column ("Buchungstag  Verwendungszweck  Betrag  Saldo")', async () => {
    const { rows } = await catalogTable('bank_statement', 'transactions', [
      [
        'Kontoauszug 3/2025',
        'Buchungstag   Verwendungszweck                 Betrag          Saldo',
        '04.03.2025    Miete März                      -850,00         350,00',
        '11.03.2025    Gehalt                         2.400,00       2.750,00',
      ].join('\n'),
    ])
    expect(rows).toEqual([
      { date: '2025-03-04', description: 'Miete März', amount: '-850.00', balance: '350.00' },
      { date: '2025-03-11', description: 'Gehalt', amount: '2400.00', balance: '2750.00' },
    ])
  })

  test('lab results: test, result, unit, reference range and flag, with no amount column', async () => {
    const { rows } = await catalogTable('medical_lab_report', 'test_results', [
      [
        'Patient: Jane Roe',
        'Test               Result     Units        Reference Range    Flag',
        'Hemoglobin         11.2       g/dL         12.0 - 16.0        L',
        'Leukocytes         7.4        10^9/L       4.0 - 10.0',
        'Potassium          5.6        mmol/L       3.5 - 5.1          H',
        '',
        'Validated by Dr. A. Smith',
      ].join('\n'),
    ])
    expect(rows).toEqual([
      { test_name: 'Hemoglobin', value: '11.2', unit: 'g/dL', reference_range: '12.0 - 16.0', abnormal_flag: 'L' },
      { test_name: 'Leukocytes', value: '7.4', unit: '10^9/L', reference_range: '4.0 - 10.0', abnormal_flag: null },
      { test_name: 'Potassium', value: '5.6', unit: 'mmol/L', reference_range: '3.5 - 5.1', abnormal_flag: 'H' },
    ])
  })

  test('German lab results ("Untersuchung  Ergebnis  Einheit  Referenzbereich")', async () => {
    const { rows } = await catalogTable('medical_lab_report', 'test_results', [
      [
        'Untersuchung       Ergebnis    Einheit    Referenzbereich',
        'Hämoglobin         13,9        g/dl       12,0 - 16,0',
        'Kalium             4,2         mmol/l     3,5 - 5,1',
      ].join('\n'),
    ])
    expect(rows).toEqual([
      { test_name: 'Hämoglobin', value: '13,9', unit: 'g/dl', reference_range: '12,0 - 16,0', abnormal_flag: null },
      { test_name: 'Kalium', value: '4,2', unit: 'mmol/l', reference_range: '3,5 - 5,1', abnormal_flag: null },
    ])
  })

  test('prescribed medications: name, strength, form, directions, quantity and refills', async () => {
    const { rows } = await catalogTable('medical_prescription', 'medications', [
      [
        'Dr. P. Meyer, General Practice',
        'Medication        Strength   Form       Directions                  Qty   Refills',
        'Amoxicillin       500 mg     capsule    1 capsule three times a day  21    0',
        'Ibuprofen         400 mg     tablet     1 tablet as needed           20    1',
      ].join('\n'),
    ])
    expect(rows).toEqual([
      { medication_name: 'Amoxicillin', strength: '500 mg', dosage_form: 'capsule', directions: '1 capsule three times a day', quantity: 21, refills: 0 },
      { medication_name: 'Ibuprofen', strength: '400 mg', dosage_form: 'tablet', directions: '1 tablet as needed', quantity: 20, refills: 1 },
    ])
  })

  test('purchase order lines: item code, description, quantity, unit, unit price and amount', async () => {
    const { rows, meta } = await catalogTable('purchase_order', 'line_items', [
      [
        'PURCHASE ORDER PO-5531',
        'Item No.    Description              Qty   Unit   Unit Price     Amount',
        'SKU-1001    Safety gloves, size L     50   pair        3.20     160.00',
        'SKU-2040    Hard hat, white           10   pcs        12.00     120.00',
        'Subtotal                                                        280.00',
      ].join('\n'),
    ])
    expect(rows).toEqual([
      { item_number: 'SKU-1001', description: 'Safety gloves, size L', quantity: 50, unit: 'pair', unit_price: '3.20', amount: '160.00' },
      { item_number: 'SKU-2040', description: 'Hard hat, white', quantity: 10, unit: 'pcs', unit_price: '12.00', amount: '120.00' },
    ])
    expect(meta.table_check).toEqual({ lines_sum: '280.00', total: 'matches', rows: 'match' })
  })

  test("a payslip's lines, asked for as a field of the user's own (Lohnart, Menge, Satz, Betrag)", async () => {
    const t = await makeTestApp()
    const payslip = [
      'Entgeltabrechnung März 2025',
      'Lohnart                  Menge       Satz        Betrag',
      'Gehalt                                         3.200,00',
      'Überstunden               6,00      25,00        150,00',
      'Lohnsteuer                                      -412,50',
      'Nettobezüge                                    2.937,50',
    ].join('\n')
    const job = await extractJob(t, text(payslip), {
      document_type: 'payslip',
      fields: {
        pay_lines: {
          type: 'table',
          columns: [
            { key: 'description', label: 'Description' },
            { key: 'quantity', type: 'number' },
            { key: 'rate', type: 'amount' },
            { key: 'amount', type: 'amount' },
          ],
        },
      },
    })
    expect(job.result.pay_lines).toEqual([
      { description: 'Gehalt', quantity: null, rate: null, amount: '3200.00' },
      { description: 'Überstunden', quantity: 6, rate: '25.00', amount: '150.00' },
      { description: 'Lohnsteuer', quantity: null, rate: null, amount: '-412.50' },
    ])
    expect(job.fields_meta.pay_lines.table_check.rows).toBe('match')
  })
})
