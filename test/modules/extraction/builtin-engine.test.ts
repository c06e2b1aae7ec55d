/**
 * The built-in engine (D23): values found from labels in the usual layouts, normalised by kind
 * (dates, amounts, currencies in five languages), contract clauses, and null — never a guess of
 * the wrong kind — when the document does not say. Documents are written by the tests.
 */
import { describe, expect, test } from 'bun:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import type { FieldKind } from '../../../src/modules/catalog/model'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import type { ExtractionOutput, FieldSpec } from '../../../src/modules/extraction/engines/types'
import { readDocument } from '../../../src/modules/extraction/readers'

/** An inline field as a caller sends it: label = key, a description, no catalog kind. */
const inline = (key: string, description = key, kind?: FieldKind): FieldSpec => ({ key, label: key, description, kind })

const catalog = loadCatalog()
const catalogFields = (type: string, keys?: string[]): FieldSpec[] =>
  catalog
    .get(type)!
    .fields.filter((field) => !keys || keys.includes(field.key))
    .map(({ key, label, description, kind, aliases }) => ({ key, label, description, kind, aliases }))

async function extract(pages: string | string[], fields: FieldSpec[], documentType = 'invoice'): Promise<ExtractionOutput> {
  const document = { pages: Array.isArray(pages) ? pages : [pages] }
  return builtinEngine.extract({ document, documentType, fields })
}

async function values(pages: string | string[], fields: FieldSpec[], documentType = 'invoice') {
  return (await extract(pages, fields, documentType)).values
}

const invoiceFields = catalogFields('invoice')

describe('layouts', () => {
  test('reads "Label: value" pairs and reports confidence, page and snippet', async () => {
    const out = await extract(['Cover page', 'ACME Supplies Ltd\nInvoice No: INV-2024-001\nInvoice Date: 2024-03-14\nTotal: 1,250.00 EUR'], invoiceFields)
    expect(out.values).toMatchObject({ invoice_number: 'INV-2024-001', date: '2024-03-14', total: '1250.00', currency: 'EUR' })
    expect(out.meta.invoice_number).toEqual({ confidence: expect.any(Number), page: 2, snippet: 'Invoice No: INV-2024-001' })
    expect(out.meta.invoice_number!.confidence).toBeGreaterThan(0.5)
    expect(out.meta.invoice_number!.confidence).toBeLessThanOrEqual(1)
  })

  test('reads a value on the same line after a wide gap', async () => {
    const v = await values('Rechnungsnummer        30064443\nRechnungsdatum         7. Mai 2014', invoiceFields)
    expect(v).toMatchObject({ invoice_number: '30064443', date: '2014-05-07' })
  })

  test('reads a value printed below its label, in the same column', async () => {
    const text = [
      'Invoice Date:              Due Date:              Reference:',
      '03/20/2023                 04/04/2023             CUSTREF123',
      'Subtotal   $ 100.00',
      'Total      $ 110.00',
    ].join('\n')
    const v = await values(text, invoiceFields)
    expect(v).toMatchObject({ date: '2023-03-20', due_date: '2023-04-04', total: '110.00', currency: 'USD' })
  })

  test('reads a right-aligned value under a label that ends its line', async () => {
    const text = ['Lieferant GmbH                      RECHNUNG', '                                    Rechnungsnummer', '80333 München                                            471102'].join('\n')
    expect((await values(text, invoiceFields)).invoice_number).toBe('471102')
  })

  test('reads a simple table: header row, then values in the same columns', async () => {
    const text = [
      'Description              Qty     Unit Price      Amount',
      'Consulting services      10      120.00          1,200.00',
      'Travel expenses           1      80.00           80.00',
      'Total                                            1,280.00',
    ].join('\n')
    const v = await values(text, invoiceFields)
    expect(v.line_items).toEqual([
      { Description: 'Consulting services', Qty: '10', 'Unit Price': '120.00', Amount: '1,200.00' },
      { Description: 'Travel expenses', Qty: '1', 'Unit Price': '80.00', Amount: '80.00' },
    ])
    expect(v.total).toBe('1280.00')
  })

  test('takes the largest, final total rather than a subtotal or a tax total', async () => {
    const text = ['Subtotal          100.00', 'Total VAT 19%      19.00', 'Total             119.00', 'Cash              200.00', 'Change             81.00'].join('\n')
    expect(await values(text, invoiceFields)).toMatchObject({ subtotal: '100.00', tax: '19.00', total: '119.00' })
  })

  test('finds inline fields from their key when there is no catalog kind', async () => {
    const text = 'Order Date: 02.01.2024\nPO Number: PO-778\nNet weight: 12,5 kg'
    const v = await values(text, [inline('order_date'), inline('po_number', 'Purchase order number'), inline('net_weight', 'Weight in kg', 'number')])
    expect(v).toEqual({ order_date: '2024-01-02', po_number: 'PO-778', net_weight: 12.5 })
  })
})

describe('whole invoices in five languages', () => {
  const keys = ['company_name', 'invoice_number', 'date', 'due_date', 'client_name', 'subtotal', 'tax', 'total', 'currency']
  test.each([
    [
      'French',
      'Boulangerie Dupont SARL\n12 rue de la Paix, 75002 Paris\nFACTURE\nN° de facture : F-2024-118\nDate de facture : 3 avril 2024\n' +
        "Date d'échéance : 3 mai 2024\nFacturé à : Café du Coin\nTotal HT :        196,00 €\nTVA 5,5 % :        10,78 €\nTotal TTC :       206,78 €",
      ['Boulangerie Dupont SARL', 'F-2024-118', '2024-04-03', '2024-05-03', 'Café du Coin', '196.00', '10.78', '206.78', 'EUR'],
    ],
    [
      'Dutch',
      'Bakkerij de Vries B.V.\nKerkstraat 1, 1017 GC Amsterdam\nFactuurnummer: 2024-0042\nFactuurdatum: 12 januari 2024\n' +
        'Vervaldatum: 11 februari 2024\nKlant: Hotel Centraal\nSubtotaal        € 1.000,00\nBTW 21%          € 210,00\nTotaal           € 1.210,00',
      ['Bakkerij de Vries B.V.', '2024-0042', '2024-01-12', '2024-02-11', 'Hotel Centraal', '1000.00', '210.00', '1210.00', 'EUR'],
    ],
    [
      'Spanish',
      'Distribuciones García S.L.\nCalle Mayor 5, 28013 Madrid\nFactura nº: A-0098\nFecha de emisión: 5 de marzo de 2024\n' +
        'Fecha de vencimiento: 4/4/2024\nCliente: Restaurante El Sol\nBase imponible: 500,00 €\nIVA 21%: 105,00 €\nTotal a pagar: 605,00 €',
      ['Distribuciones García S.L.', 'A-0098', '2024-03-05', '2024-04-04', 'Restaurante El Sol', '500.00', '105.00', '605.00', 'EUR'],
    ],
    [
      'German',
      'Muster Handwerk GmbH · Industriestr. 3 · 70173 Stuttgart\nFrau\nErika Mustermann\nHauptstr. 1\n70000 Stuttgart\nRechnung Nr. 2024-17\n' +
        'Rechnungsdatum: 02.04.2024\nZahlbar bis: 16.04.2024\nNettobetrag: 1.000,00 EUR\nzzgl. 19% MwSt.: 190,00 EUR\nGesamtbetrag: 1.190,00 EUR',
      ['Muster Handwerk GmbH', '2024-17', '2024-04-02', '2024-04-16', 'Frau Erika Mustermann', '1000.00', '190.00', '1190.00', 'EUR'],
    ],
    [
      'English',
      'Globex Corporation\n742 Evergreen Terrace, Springfield\nINVOICE #10482\nDate: 04/05/2024\nPayment due: 05/05/2024\nBill To:\n' +
        'Initech LLC\n4120 Freidrich Lane\nSubtotal: $2,400.00\nSales Tax (8.25%): $198.00\nAmount Due: $2,598.00',
      ['Globex Corporation', '10482', '2024-04-05', '2024-05-05', 'Initech LLC', '2400.00', '198.00', '2598.00', 'USD'],
    ],
  ])('%s', async (_, text, expected) => {
    const v = await values(text, catalogFields('invoice', keys))
    expect(keys.map((key) => v[key])).toEqual(expected)
  })
})

describe('dates in five languages', () => {
  const date = [inline('date', 'Invoice date')]
  test.each([
    ['Invoice Date: March 20, 2023', '2023-03-20'],
    ['Date: 20th March 2023', '2023-03-20'],
    ['Rechnungsdatum: 7. März 2024', '2024-03-07'],
    ['Datum: 01.02.2024', '2024-02-01'],
    ['Date de facture : 1er février 2024', '2024-02-01'],
    ['Date : 28/11/2022', '2022-11-28'],
    ['Factuurdatum: 29 maart 2014', '2014-03-29'],
    ['Fecha de factura: 5 de marzo de 2021', '2021-03-05'],
    ['Fecha: 12/08/2021', '2021-08-12'],
    ['Invoice date: 2024-07-01', '2024-07-01'],
  ])('%s', async (text, expected) => {
    expect((await values(text, date)).date).toBe(expected)
  })

  test('numeric dates follow the order the document shows elsewhere', async () => {
    const text = 'Invoice Date: 03/04/2023\nService period: 03/25/2023 - 03/31/2023'
    expect((await values(text, date)).date).toBe('2023-03-04')
    const dayFirst = 'Invoice Date: 03/04/2023\nDelivered: 25/03/2023'
    expect((await values(dayFirst, date)).date).toBe('2023-04-03')
  })
})

describe('amounts and currencies', () => {
  const total = [inline('total', 'Total amount'), inline('currency', 'Currency')]
  test.each([
    ['Gesamtbetrag: 1.234,56 €', '1234.56', 'EUR'],
    ['Total TTC : 10 000,00 EUR', '10000.00', 'EUR'],
    ['Total: $1,234.56', '1234.56', 'USD'],
    ['Totaal: € 4.904,94', '4904.94', 'EUR'],
    ['Importe total: 99,90 €', '99.90', 'EUR'],
    ['Total: -7,67 €', '-7.67', 'EUR'],
    ['Total: £12.00', '12.00', 'GBP'],
    ['Total: ¥1,200', '1200', 'JPY'],
    ['Total: CHF 45.50', '45.50', 'CHF'],
    ['TOTAL:   RM 9.00', '9.00', 'MYR'],
    ['Razem do zapłaty / Total: 316,83 zł', '316.83', 'PLN'],
    ['Totalt att betala / Total: 250,00 kr', '250.00', 'SEK'],
  ])('%s', async (text, amount, currency) => {
    expect(await values(text, total)).toEqual({ total: amount, currency })
  })

  test('the currency falls back on the symbols of amounts anywhere in the document', async () => {
    const text = 'Widget   2 x 5,00 €   10,00 €\nShipping            4,50 €'
    expect((await values(text, [inline('currency')])).currency).toBe('EUR')
  })
})

describe('nothing rather than a wrong value', () => {
  test('answers null for fields the document does not contain', async () => {
    const out = await extract('ACME Supplies Ltd\nThank you for your order.', [inline('invoice_number'), inline('due_date'), inline('total')])
    expect(out.values).toEqual({ invoice_number: null, due_date: null, total: null })
    expect(out.meta.total).toEqual({ confidence: 0, page: null, snippet: null })
  })

  test('a date field never takes an amount, an amount field never takes a date or a percentage', async () => {
    const text = 'Due Date: 150.00\nTotal: 14.03.2024\nTax: 19%'
    expect(await values(text, [inline('due_date'), inline('total'), inline('tax')])).toEqual({ due_date: null, total: null, tax: null })
  })

  test('a label inside running text is not a label', async () => {
    const text = 'We will contact you within 30 days after the invoice total is known.\nPayment terms are described in our conditions.'
    expect(await values(text, [inline('total'), inline('payment_terms')])).toEqual({ total: null, payment_terms: null })
  })
})

describe('names', () => {
  test('the issuer is the letterhead company and the client follows "Bill to"', async () => {
    const text = ['Northwind Traders GmbH', 'Hauptstraße 5, 10115 Berlin', '', 'Bill To:', 'Contoso Ltd', '1 Market Street', 'Invoice No: 77'].join('\n')
    expect(await values(text, catalogFields('invoice', ['company_name', 'client_name']))).toEqual({ company_name: 'Northwind Traders GmbH', client_name: 'Contoso Ltd' })
  })

  test('a sender line above the address window gives both sides', async () => {
    const text = ['Bei Spiel GmbH · Ecke 12 · 12345 Stadthausen', 'Theodor Est', 'Bahnstr. 42', '88802 Spielkreis', 'Rechnung Nr. 499 vom 19.05.2014'].join('\n')
    expect(await values(text, catalogFields('invoice', ['company_name', 'client_name', 'invoice_number', 'date']))).toEqual({
      company_name: 'Bei Spiel GmbH',
      client_name: 'Theodor Est',
      invoice_number: '499',
      date: '2014-05-19',
    })
  })
})

describe('contracts', () => {
  const contractFields = catalogFields('contract', ['parties', 'effective_date', 'governing_law', 'term'])

  test('reads parties, effective date, governing law and term from the usual clauses', async () => {
    const text = [
      'MUTUAL NON-DISCLOSURE AGREEMENT',
      'This Mutual Non-Disclosure Agreement (the “Agreement”) is made and entered into as of March 3, 2021 (the “Effective Date”)',
      'by and between Alpha Widgets, Inc., a Delaware corporation (“Alpha”), and Beta Systems LLC, a California limited liability',
      'company (“Beta”).',
      '1. Term. This Agreement shall remain in effect for a period of three (3) years from the Effective Date.',
      '2. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of New York,',
      'without regard to its conflict of laws principles.',
    ].join('\n')
    expect(await values(text, contractFields, 'contract')).toEqual({
      parties: ['Alpha Widgets Inc.', 'Beta Systems LLC'],
      effective_date: '2021-03-03',
      governing_law: 'New York',
      term: '3 years',
    })
  })

  test('a non-solicitation period is not the term, and no governing law clause means null', async () => {
    const text = [
      'This Agreement is dated as of 1 June 2020 between Gamma Ltd and Delta GmbH.',
      'For a period of one (1) year after the date hereof, neither party shall solicit the employees of the other.',
    ].join('\n')
    expect(await values(text, contractFields, 'contract')).toEqual({
      parties: ['Gamma Ltd', 'Delta GmbH'],
      effective_date: '2020-06-01',
      governing_law: null,
      term: null,
    })
  })
})

describe('through the readers', () => {
  test('reads a generated PDF invoice end to end, with page numbers', async () => {
    const pdf = await PDFDocument.create()
    const font = await pdf.embedFont(StandardFonts.Helvetica)
    pdf.addPage([595, 842]).drawText('Terms and conditions', { x: 50, y: 780, size: 11, font })
    const page = pdf.addPage([595, 842])
    const draw = (text: string, x: number, y: number) => page.drawText(text, { x, y, size: 11, font })
    draw('Contoso Trading Ltd', 50, 780)
    draw('Invoice number', 50, 740)
    draw('INV-0099', 250, 740)
    draw('Date', 50, 720)
    draw('14/03/2024', 250, 720)
    draw('Total due', 50, 700)
    draw('£ 1,020.00', 250, 700)
    const document = await readDocument(await pdf.save(), 'application/pdf')
    const out = await builtinEngine.extract({ document, documentType: 'invoice', fields: invoiceFields })
    expect(out.values).toMatchObject({ company_name: 'Contoso Trading Ltd', invoice_number: 'INV-0099', date: '2024-03-14', total: '1020.00', currency: 'GBP' })
    expect(out.meta.total!.page).toBe(2)
  })
})
