/**
 * The built-in engine (D23): values found from labels in the usual layouts, normalised by kind
 * (dates, amounts, currencies in five languages), contract clauses, and null — never a guess of
 * the wrong kind — when the document does not say. Documents are written by the tests.
 */
import { describe, expect, test } from 'bun:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import type { JobField } from '../../../src/lib/fields/model'
import type { ResolvedType } from '../../../src/lib/fields/types'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { inferType } from '../../../src/lib/fields/concepts'
import { detectLanguage } from '../../../src/modules/extraction/engines/builtin/document'
import { resolveField } from '../../../src/lib/fields/resolve'
import { split } from '../../helpers/answers'

import { readDocument } from '../../../src/modules/extraction/readers'

/** An inline field as a caller sends it: label = key, a description, its type declared or inferred as at job creation. */
const inline = (key: string, description = key, type?: ResolvedType): JobField => ({
  key,
  label: key,
  description,
  type: type ?? inferType(key, key, description),
})

const catalog = loadCatalog()
const catalogFields = (type: string, keys?: string[]): JobField[] =>
  catalog
    .get(type)!
    .fields.filter((field) => !keys || keys.includes(field.key))
    // As a job holds them (D91): types resolved, a table with its default columns.
    .map((field) => ({ ...resolveField(field), ...(field.aliases ? { aliases: field.aliases } : {}) }))

async function extract(pages: string | string[], fields: JobField[], documentType = 'invoice') {
  const document = { pages: Array.isArray(pages) ? pages : [pages] }
  return split(await builtinEngine.extract({ document, documentType, issuedBySeller: catalog.get(documentType)?.issued_by_seller === true, fields }))
}

async function values(pages: string | string[], fields: JobField[], documentType = 'invoice') {
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

  test('a number broken after its hyphen or slash goes on; one that ends there does not take the next word', async () => {
    expect(await values('CORNER MART\nBILL#: V001- 515592 PAX(S): 2\nTOTAL 12.40', invoiceFields)).toMatchObject({ invoice_number: 'V001-515592' })
    expect(await values('CORNER MART\nInvoice No: 2024/ 0815\nTOTAL 12.40', invoiceFields)).toMatchObject({ invoice_number: '2024/0815' })
    expect(await values('CORNER MART\nInvoice No: INV-7 Table 4\nTOTAL 12.40', invoiceFields)).toMatchObject({ invoice_number: 'INV-7' })
  })

  test('reads a value on the same line after a wide gap', async () => {
    const v = await values('Rechnungsnummer        52817736\nRechnungsdatum         12. Mai 2021', invoiceFields)
    expect(v).toMatchObject({ invoice_number: '52817736', date: '2021-05-12' })
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
    const text = [
      'Holzbau Krämer GmbH                 RECHNUNG',
      '                                    Rechnungsnummer',
      '80333 München                                            583214',
    ].join('\n')
    expect((await values(text, invoiceFields)).invoice_number).toBe('583214')
  })

  test('reads a simple table: header row, then values in the same columns', async () => {
    const text = [
      'Description              Qty     Unit Price      Amount',
      'Consulting services      10      120.00          1,200.00',
      'Travel expenses           1      80.00           80.00',
      'Total                                            1,280.00',
    ].join('\n')
    const v = await values(text, invoiceFields)
    // The catalog's line items declare their columns (D115): cells come under those keys.
    expect(v.line_items).toEqual([
      { description: 'Consulting services', quantity: 10, unit_price: '120.00', amount: '1200.00' },
      { description: 'Travel expenses', quantity: 1, unit_price: '80.00', amount: '80.00' },
    ])
    expect(v.total).toBe('1280.00')
    // A table field without declared columns has the printed headers as keys.
    expect((await values(text, [inline('items', 'The items', 'table')])).items).toEqual([
      { Description: 'Consulting services', Qty: '10', 'Unit Price': '120.00', Amount: '1,200.00' },
      { Description: 'Travel expenses', Qty: '1', 'Unit Price': '80.00', Amount: '80.00' },
    ])
  })

  test('reads a table whose header has the column words of another language, accents or not ("Qté", "Prix")', async () => {
    const text = [
      'Désignation          Qté     Prix      Montant',
      'Pain de campagne     2       3,50      7,00',
      'Croissant            10      1,20      12,00',
    ].join('\n')
    expect((await values(text, invoiceFields)).line_items).toEqual([
      { description: 'Pain de campagne', quantity: 2, unit_price: '3.50', amount: '7.00' },
      { description: 'Croissant', quantity: 10, unit_price: '1.20', amount: '12.00' },
    ])
  })

  test('takes the largest, final total rather than a subtotal or a tax total', async () => {
    const text = [
      'Subtotal          100.00',
      'Total VAT 19%      19.00',
      'Total             119.00',
      'Cash              200.00',
      'Change             81.00',
    ].join('\n')
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
    ['Doc No: CS13066 = Date.31/01/2018', '2018-01-31'],
    ['Ref: 1.31/01/2018', null],
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

describe('invoice words of every lexicon: titles, number marks, date leads, periods, payment sentences (D95)', () => {
  const fields = [inline('invoice_number'), inline('date', 'Invoice date'), inline('due_date', 'Due date')]
  test.each([
    [
      'a Dutch title, its number and its date after "van"',
      'Creditnota nr. CN-7 van 5 maart 2024',
      { invoice_number: 'CN-7', date: '2024-03-05', due_date: null },
    ],
    ['a Danish title and its number', 'Kreditnota nr. 4711\nKøbenhavn', { invoice_number: '4711', date: null, due_date: null }],
    [
      'a Spanish period ("desde … hasta") is not the date of issue',
      'Servicio desde 01/01/2024 hasta 31/01/2024\nMadrid, 05/02/2024',
      { invoice_number: null, date: '2024-02-05', due_date: null },
    ],
    [
      'a Polish payment sentence gives the due date',
      'Płatne do dnia 15.04.2026 przelewem.',
      { invoice_number: null, date: '2026-04-15', due_date: '2026-04-15' },
    ],
    [
      'a Danish direct debit gives the due date',
      'Beløbet trækkes via Betalingsservice den 20.03.2026.',
      { invoice_number: null, date: '2026-03-20', due_date: '2026-03-20' },
    ],
    [
      "a Danish early-payment discount's deadline is not the due date",
      '2 % kontantrabat ved betaling senest 10.03.2026.\nBetaling senest 31.03.2026.',
      { invoice_number: null, date: '2026-03-10', due_date: '2026-03-31' },
    ],
  ])('%s', async (_, text, expected) => {
    expect(await values(text, fields)).toEqual(expected)
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

  const totals = [inline('total', 'Total amount'), inline('subtotal', 'Subtotal')]
  test.each([
    ['German', 'Gesamtbetrag ohne MwSt.: 100,00 EUR\nGesamtbetrag inkl. MwSt.: 119,00 EUR'],
    ['French', 'Total hors TVA : 100,00 EUR\nTotal TTC : 119,00 EUR'],
    ['Dutch', 'Totaal zonder btw: 100,00 EUR\nTotaal: 119,00 EUR'],
    ['Spanish', 'Total sin IVA: 100,00 EUR\nTotal con IVA: 119,00 EUR'],
    ['Danish', 'Total ekskl. moms: 100,00 kr\nTotal inkl. moms: 119,00 kr'],
  ])('%s: a word of the lexicon after a total makes it the amount before tax, or the final amount', async (_, text) => {
    expect(await values(text, totals)).toEqual({ total: '119.00', subtotal: '100.00' })
  })

  test('a total row under column headers of the lexicons gives subtotal, tax and total ("Nettowert", "Steuer", "Brutto")', async () => {
    const text = [
      'Pos   Artikel     Nettowert    Steuer    Brutto',
      '1     Beratung      100,00     19,00     119,00',
      'Gesamtbetrag        100,00     19,00     119,00',
    ].join('\n')
    expect(await values(text, [...totals, inline('tax', 'Tax')])).toEqual({ total: '119.00', subtotal: '100.00', tax: '19.00' })
  })

  test('the totals of a tax breakdown under its heading (Danish "Momsspecifikation") are not the total', async () => {
    const text = ['Total: 125,00 kr', '', 'Momsspecifikation', 'Total: 500,00 kr'].join('\n')
    expect((await values(text, totals)).total).toBe('125.00')
  })

  test('a total label after a joining word (Dutch "van") is part of a phrase, not the line\'s label', async () => {
    expect((await values('Totaal: 121,00 EUR\nBTW van het totaal: 21,00 EUR', totals)).total).toBe('121.00')
  })

  test('on a German receipt, what was paid less the change given ("Gegeben", "Rückgeld") picks the total', async () => {
    const text = [
      'Gesamtbetrag          17,50 EUR',
      'Gesamtbetrag brutto   20,00 EUR',
      'Gegeben               20,00 EUR',
      'Rückgeld               2,50 EUR',
    ].join('\n')
    expect((await values(text, totals)).total).toBe('17.50')
  })

  test('with no total label, the cash paid under its label, after its currency mark, is the total', async () => {
    const text = ['DPT.05      RM  149.00', 'DPT.04       RM  21.00', 'CASH', '  RM      170.00'].join('\n')
    expect((await values(text, totals)).total).toBe('170.00')
  })

  test('with no total label, a "net" amount that adds up the gross and the charges right above it is the total', async () => {
    const text = ['Gross Amt :      20.00', 'Service Tax :     1.00', 'GST (6%) :        1.26', 'Net Amt :        22.26'].join('\n')
    expect((await values(text, totals)).total).toBe('22.26')
    const rounded = ['SUBTOTAL (QTY 3)   RM12.38', 'ROUNDING           RM0.02', 'SUBTOTAL (QTY 3)   RM12.40'].join('\n')
    expect((await values(rounded, totals)).total).toBe('12.40')
    const apart = ['Gross Amt :      20.00', 'Service Tax :     1.00', 'Net Amt :        19.00'].join('\n')
    expect((await values(apart, totals)).total).toBeNull()
  })

  test('when no total label reads what was paid less the change, the line above the payment that prints it is the total', async () => {
    // "Tota1" is a misread label; the item line prints the amount the customer settled.
    const text = [
      'Widget      1     29.68     29.68',
      'Subtotal                  28.00',
      'Tota1 incl. tax           28.88',
      'Cash                      30.00',
      'Change                     0.32',
    ].join('\n')
    expect((await values(text, totals)).total).toBe('29.68')
  })

  test('a total a few cents off what was paid less the change is cash-rounded: the paid amount is the total', async () => {
    const text = ['Total (incl. tax)      48.16', 'Rounding adj.          -0.01', 'Cash                   50.00', 'Change                  1.85'].join('\n')
    expect((await values(text, totals)).total).toBe('48.15')
  })

  test('without a total label, a line after the subtotal and tax that prints their sum holds the total', async () => {
    const misread = ['Sub Total          RM 68.87', 'GST/TAX 6%         RM  4.13', 'TOza               RM 73.00', 'Thank you, please come again'].join('\n')
    expect((await values(misread, totals)).total).toBe('73.00')
    const notPrinted = ['Sub Total          RM 68.87', 'GST/TAX 6%         RM  4.13', 'Thank you, please come again'].join('\n')
    expect((await values(notPrinted, totals)).total).toBeNull()
    const printedAbove = ['Goods              RM 73.00', 'Sub Total          RM 68.87', 'GST/TAX 6%         RM  4.13'].join('\n')
    expect((await values(printedAbove, totals)).total).toBeNull()
  })

  test('without any total label, what was paid less the change is the total, or what was paid when no change is printed', async () => {
    const withChange = ['HEINEKEN 5 BTL     2 x 95.00', 'CASH :             200.00', 'CHANGE :            10.00'].join('\n')
    expect((await values(withChange, totals)).total).toBe('190.00')
    const cashChange = ['SUBTOTAL:           28.60', 'TLiRM               28.60', 'CASH               100.00', 'CASH CHANGE         71.40'].join('\n')
    expect((await values(cashChange, totals)).total).toBe('28.60')
    const exact = ['OPT.08 = RM 149.00', 'DPT.04 = RM  21.00', 'CASH', 'RM 170.00'].join('\n')
    expect((await values(exact, totals)).total).toBe('170.00')
    // A total label, even one whose amount disagrees, is not overruled by a payment that no line prints.
    const labelled = ['Total              12.00', 'Cash               50.00', 'Change             30.00'].join('\n')
    expect((await values(labelled, totals)).total).toBe('12.00')
  })

  test('a "service change" above the payment is no change given', async () => {
    const text = [
      'Subtotal           41.30',
      'Service change      4.60',
      'Total              45.43',
      'Cash               50.00',
      'Change              4.57',
    ].join('\n')
    expect((await values(text, totals)).total).toBe('45.43')
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
    expect(await values(text, catalogFields('invoice', ['company_name', 'client_name']))).toEqual({
      company_name: 'Northwind Traders GmbH',
      client_name: 'Contoso Ltd',
    })
  })

  test('the letterhead and the address window name the parties only of a type the seller issues (D220)', async () => {
    const text = ['Northwind Traders GmbH', 'Hauptstraße 5, 10115 Berlin', '', 'Contoso Ltd', '1 Market Street', 'Order No: 77'].join('\n')
    const fields = catalogFields('invoice', ['company_name'])
    const read = async (issuedBySeller: boolean) =>
      split(await builtinEngine.extract({ document: { pages: [text] }, documentType: 'order', issuedBySeller, fields })).values
    expect(await read(true)).toEqual({ company_name: 'Northwind Traders GmbH' })
    expect(await read(false)).toEqual({ company_name: null })
  })

  test('a receipt name wrapped before its trade word and legal form is one name; a brand above a company line is not joined', async () => {
    const wrapped = ['      GOLDEN LOTUS VEGETARIAN', '        RESTAURANT SDN BHD', '          (10956514-X)', '  12 JALAN SS2/11', 'TOTAL      RM 5.00'].join(
      '\n',
    )
    expect((await values(wrapped, catalogFields('invoice', ['company_name']))).company_name).toBe('GOLDEN LOTUS VEGETARIAN RESTAURANT SDN BHD')
    const brand = ['        MR. FIXIT', '    MR. FIXIT (M) SDN BHD', '  12 JALAN SS2/11', 'TOTAL      RM 5.00'].join('\n')
    expect((await values(brand, catalogFields('invoice', ['company_name']))).company_name).toBe('MR. FIXIT (M) SDN BHD')
  })

  test('a line of trade words only under a name says what the business is; the name above is the issuer', async () => {
    const text = ['        RED LANTERN', '       BISTRO & CAFE', '  12 JALAN SS2/11', 'TOTAL      RM 5.00'].join('\n')
    expect((await values(text, catalogFields('invoice', ['company_name']))).company_name).toBe('RED LANTERN')
  })

  test('a sender line above the address window gives both sides', async () => {
    const text = ['Nordwerk GmbH · Hafenweg 7 · 20457 Hamburg', 'Hanna Berg', 'Lindenallee 3', '50667 Köln', 'Rechnung Nr. 731 vom 23.06.2021'].join('\n')
    expect(await values(text, catalogFields('invoice', ['company_name', 'client_name', 'invoice_number', 'date']))).toEqual({
      company_name: 'Nordwerk GmbH',
      client_name: 'Hanna Berg',
      invoice_number: '731',
      date: '2021-06-23',
    })
  })

  test("a line of parts joined by dashes or bars is a sender line only when it reaches a postcode and city, no label's before it", async () => {
    const client = catalogFields('invoice', ['client_name'])
    // A shop's opening hours, and a cashier and a till, over the receipt's next line.
    const hours = ['   CORNER MART SDN BHD', '   OPENING HOURS', 'MON - FRI: 0900 HRS - 2200 HRS', 'SAT - SUN: 1000 HRS - 2300 HRS', 'TOTAL    12.40']
    expect(await values(hours.join('\n'), client)).toEqual({ client_name: null })
    const cashier = ['   CORNER MART SDN BHD', 'CASHIER: HANNA', 'BERG |TILL0042|', 'ITEM        QTY     RM', 'TOTAL    12.40']
    expect(await values(cashier.join('\n'), client)).toEqual({ client_name: null })
    // The sender line beside the letterhead's own column is still one.
    const beside = ['Nordwerk GmbH · Hafenweg 7 · 20457 Hamburg        Nordwerk GmbH', 'Hanna Berg', 'Lindenallee 3', '50667 Köln']
    expect(await values(beside.join('\n'), client)).toEqual({ client_name: 'Hanna Berg' })
  })

  test('a client\'s label with a possessive ("CUSTOMER\'S COPY") names no client', async () => {
    const client = catalogFields('invoice', ['client_name'])
    expect(await values(['CORNER MART SDN BHD', "CUSTOMER'S COPY", 'TOTAL    12.40'].join('\n'), client)).toEqual({ client_name: null })
    // As OCR may read it, the space lost.
    expect(await values(['CORNER MART SDN BHD', "CUSTOMER'SCOPY", 'TOTAL    12.40'].join('\n'), client)).toEqual({ client_name: null })
    expect(await values(['CORNER MART SDN BHD', "Customer's name: Hanna Berg", 'TOTAL    12.40'].join('\n'), client)).toEqual({ client_name: 'Hanna Berg' })
  })
})

describe('names, with the words of every lexicon (D95)', () => {
  const names = catalogFields('invoice', ['company_name', 'client_name'])
  const footer = [
    'Rechnung Nr. 5',
    ...Array.from({ length: 20 }, (_, i) => `${i + 1}   Holzlatte   10,00`),
    'Nordwerk Holzhandel',
    'Amtsgericht Hamburg HRB 12345',
  ]
  test.each([
    [
      'a Polish trade word makes the shop the issuer, not the mall above it',
      'Centrum Handlowe Arkadia\nApteka Zdrowie\nRazem: 23,50 zł',
      { company_name: 'Apteka Zdrowie', client_name: null },
    ],
    [
      'a Danish registration label is cut from the name',
      'Nordisk Træ ApS CVR 12345678\nFaktura nr. 55',
      { company_name: 'Nordisk Træ ApS', client_name: null },
    ],
    ['a Polish form of address opens the addressee', 'Pan\nJan Kowalski\nul. Polna 3', { company_name: null, client_name: 'Pan Jan Kowalski' }],
    [
      'a Spanish name label in an address block gives the name',
      'Cliente:\nNombre: Restaurante El Sol\nDirección: Calle Mayor 5',
      { company_name: null, client_name: 'Restaurante El Sol' },
    ],
    [
      'a Polish identifier label in an address block is passed over',
      'Nabywca:\nNIP 123-456-78-90\nKowalski i Syn',
      { company_name: null, client_name: 'Kowalski i Syn' },
    ],
    ['a German legal footer names the company on the line above it', footer.join('\n'), { company_name: 'Nordwerk Holzhandel', client_name: null }],
  ])('%s', async (_, text, expected) => {
    expect(await values(text, names)).toEqual(expected)
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

describe('contract and list words of every lexicon (D95)', () => {
  test('a Polish heading that names an agreement is the title', async () => {
    const text = 'UMOWA O ZACHOWANIU POUFNOŚCI\nzawarta w Warszawie.'
    expect(await values(text, catalogFields('contract', ['title']), 'contract')).toEqual({ title: 'UMOWA O ZACHOWANIU POUFNOŚCI' })
  })

  test('the parties follow the Polish "pomiędzy"', async () => {
    const text = 'Umowa zawarta pomiędzy Alfa S.A.; Beta S.A.'
    expect(await values(text, catalogFields('contract', ['parties']), 'contract')).toEqual({ parties: ['Alfa S.A.', 'Beta S.A.'] })
  })

  test('a list value splits at the Danish "og" as at commas', async () => {
    expect(await values('Farver: rød, grøn og blå', [inline('farver', 'Farver', 'list')])).toEqual({ farver: ['rød', 'grøn', 'blå'] })
  })
})

describe('contract parties', () => {
  const parties = catalogFields('contract', ['parties'])
  const partiesOf = async (text: string) => (await values(text, parties, 'contract')).parties

  test('skips only the codes of a filing header, even when its line has no gap before the title', async () => {
    const text = [
      'EX-10.4 7 d55501dex104.htm CONFIDENTIALITY AGMT',
      'CONFIDENTIALITY AGREEMENT',
      'This Confidentiality Agreement (the “Agreement”) is effective as of May 2, 2019 (the “Effective Date”) and is made by and between',
      'Orbitline Software Corporation, a Nevada corporation, (“Orbitline”) and Quillmark Corporation, an Ohio corporation (“Quillmark”).',
    ].join('\n')
    expect(await partiesOf(text)).toEqual(['Orbitline Software Corporation', 'Quillmark Corporation'])
  })

  test('a name ends at a legal form of any lexicon: Danish "ApS", a UK "plc" (D95)', async () => {
    const text = 'This Agreement is made between Nordhavn Logistik ApS, a Danish company (“Nordhavn”), and Thornley Foods plc, an English company (“Thornley”).'
    expect(await partiesOf(text)).toEqual(['Nordhavn Logistik ApS', 'Thornley Foods plc'])
  })

  test('reads names that start in lower case ("zenTRONix, Inc.")', async () => {
    const text = 'This Agreement is made on , 2021 by and between zenTRONix, Inc., a Texas corporation (the “Company”), and Ada Park (the “Consultant”).'
    expect(await partiesOf(text)).toEqual(['zenTRONix Inc.', 'Ada Park'])
  })

  test('an empty slot in a form is a party not named: "[NAME]", "(the “Employee”)", "and_____"', async () => {
    expect(
      await partiesOf('This Agreement is made between [EMPLOYEE NAME] (the “Employee”) and Larchmere Holdings, Inc. (“Larchmere”), an Oregon corporation.'),
    ).toEqual(['Larchmere Holdings Inc.'])
    expect(
      await partiesOf(
        'This Agreement dated as of , is by and between Tidewell Analytics, LLC, a Utah limited liability company (the “Company”), and (the “Executive”).',
      ),
    ).toEqual(['Tidewell Analytics LLC'])
    expect(
      await partiesOf(
        'This Agreement made as of ____________ is between Brightfen Labs, Inc., an Iowa corporation ("Brightfen"), and____________, a ________ (the "Receiving Party").',
      ),
    ).toEqual(['Brightfen Labs Inc.'])
  })

  test('"made … by X and Y", with a description listing who belongs to Y', async () => {
    const text =
      'THIS AGREEMENT is made the 3rd day of June, 2002 by CORVANT, INC. (the "OWNER") and PELLAM OPTICS, its OFFICERS, AGENTS and EMPLOYEES (the "RECIPIENT") so that the Owner may share its designs.'
    expect(await partiesOf(text)).toEqual(['CORVANT INC', 'PELLAM OPTICS'])
  })

  test('a name ends at the end of its sentence, and keeps "of …" written in capitals', async () => {
    expect(
      await partiesOf(
        'This Agreement is made on 9 April 2003 by and between Rockfall Data Partners and T. K. Ambers Enterprises. Both of them wish to cooperate.',
      ),
    ).toEqual(['Rockfall Data Partners', 'T. K. Ambers Enterprises'])
    expect(
      await partiesOf(
        'This Agreement is made between LOOMTEX, INC., an Ohio corporation (the “Supplier”) and HARBOR WEAVING CORPORATION OF NEW BEDFORD, a Maine company (the “Buyer”).',
      ),
    ).toEqual(['LOOMTEX INC', 'HARBOR WEAVING CORPORATION OF NEW BEDFORD'])
  })

  test('the parties of an agreement referred to are not answered, unless this document amends it', async () => {
    const reference =
      'Reference is made to the Cooperation Agreement of March 9, 2019 (the “Cooperation Agreement”), by and among Quarrystone Corporation (the “Company”), the Marlow Group and Jon Hale (the “Nominee”). The Nominee may receive board materials.'
    expect(await partiesOf(reference)).toBeNull()
    const amendment = [
      'FIRST AMENDMENT TO CONFIDENTIALITY AGREEMENT',
      'Reference is made to the Confidentiality Agreement of June 1, 2016 by and between Pollard Systems, Inc. (the “Company”) and Kestrel Capital LLC (“Kestrel”). The parties hereby amend it as set out below.',
    ].join('\n')
    expect(await partiesOf(amendment)).toEqual(['Pollard Systems Inc.', 'Kestrel Capital LLC'])
  })

  test('four or more names in one list are not answered: they are more often affiliates of one side', async () => {
    const text =
      'This Agreement is made by and among Alder One LLC, a Delaware limited liability company (“A1”), Alder Two LLC, a Delaware limited liability company (“A2”), Alder Three Inc., a Maryland corporation (“A3”), Alder Advisors LLC, a Delaware limited liability company (“AA”), and Bexley Corp. (the “Recipient”).'
    expect(await partiesOf(text)).toBeNull()
  })

  test('a letter: the side defined as the company and the side defined as "you", not its advisers', async () => {
    const text = [
      '2 September 2015',
      'Ms. Jo Reyes',
      'Chief Executive Officer',
      'Halvard, Inc.',
      'Dear Ms. Reyes:',
      'Pelican Diagnostics, Inc. (“Pelican” or the “Company”) has retained Greene Fisk & Co. (“GF”) as its adviser. The Company may furnish Halvard, Inc. (“Halvard” or “you”) with information about its business, and you agree as follows.',
    ].join('\n')
    expect(await partiesOf(text)).toEqual(['Pelican Diagnostics Inc.', 'Halvard Inc.'])
  })

  test('a letter: the addressee below the date, not the letterhead above it, and never the financial advisor', async () => {
    const text = [
      'Norrland Controls, Inc.',
      '88 Harbour Street',
      'Tacoma, WA 98402',
      '11 October 2016',
      'Bexhill Dynamics plc',
      '12 Mill Lane',
      'Dear Sirs:',
      'You are considering an investment in Norrland Controls, Inc. (the “Company”) and have asked for information. Our financial advisor, Morrow Securities LLC (the “Financial Advisor”), may provide it. You agree as follows.',
    ].join('\n')
    expect(await partiesOf(text)).toEqual(['Norrland Controls Inc.', 'Bexhill Dynamics plc'])
  })

  test('two organisations defined one after the other with "and", without "between"', async () => {
    const text =
      'MUTUAL NON-DISCLOSURE AGREEMENT The Trustees of Westmoor College, a charitable corporation of The State of Vermont (hereinafter called "WESTMOOR") and Calder Biosystems, Inc., with offices at 12 King Road, Leeds (hereinafter called "CALDER") each hold confidential data.'
    expect(await partiesOf(text)).toEqual(['The Trustees of Westmoor College', 'Calder Biosystems Inc.'])
  })

  test('an undertaking: the head of a group ("X and its affiliates, including Y"), not a label line above it', async () => {
    const text = [
      'Date: 4 May 2018',
      'Name: Nora Quint',
      'Elmstead Savings Bank and its affiliates, including Elmstead Financial Corporation and EN Advisory, Inc. (together “Elmstead”), offers you a position. As a condition of your employment, you agree to the following.',
      'Elmstead Savings Bank',
      'By: /s/ Carl Dunn',
      '/s/ Nora Quint',
    ].join('\n')
    expect(await partiesOf(text)).toEqual(['Elmstead Savings Bank', 'Nora Quint'])
  })

  test("a signatory's surname keeps its lower-case particles (D403)", async () => {
    const text = ['1. Confidentiality. The parties agree to keep information confidential.', 'By: /s/ G.J. Van der Ploeg', 'By: /s/ Ana de la Cruz'].join('\n')
    expect(await values(text, catalogFields('contract', ['signatories']), 'contract')).toEqual({ signatories: ['G.J. Van der Ploeg', 'Ana de la Cruz'] })
  })
})

describe('contract dates, terms and law: null rather than a weak reading', () => {
  const fields = catalogFields('contract', ['effective_date', 'governing_law', 'term'])
  const read = (text: string) => values(text, fields, 'contract')

  test('the date of another agreement is not the effective date; the letter date is', async () => {
    const text = [
      'June 3, 2019',
      'Dear Ana:',
      'This letter supersedes your prior consulting agreement dated March 1, 2017, which will end on signature.',
      'Sincerely,',
    ].join('\n')
    expect((await read(text)).effective_date).toBe('2019-06-03')
    const other = 'This Agreement ends when the Services Agreement between the parties dated July 7, 2011 ends.'
    expect((await read(other)).effective_date).toBeNull()
  })

  test('signature blocks side by side: every "Date:" counts and the latest wins; "dated" in a sentence is no label', async () => {
    const text = [
      '1. Confidentiality. The parties agree to keep information confidential.',
      'By: /s/ A. Lee By: /s/ B. Kim',
      'Date: 3/2/11 Date: 3/19/11',
    ].join('\n')
    expect((await read(text)).effective_date).toBe('2011-03-19')
    const sentence = ['1. Scope. This Agreement covers the work under the Supply Agreement dated May 5, 2010.', 'By: /s/ A. Lee'].join('\n')
    expect((await read(sentence)).effective_date).toBeNull()
  })

  test('a survival period, a notice period, a renewal, or a deadline is not the term', async () => {
    const survival = await read(
      'The duties of each party under this Agreement shall survive for four (4) years after the expiration or termination of this Agreement.',
    )
    expect(survival.term).toBeNull()
    const fromDisclosure = await read(
      'The confidentiality obligations shall bind the Recipient for a period of seven (7) years from the date of each disclosure.',
    )
    expect(fromDisclosure.term).toBeNull()
    const notice = await read('Either party may terminate this Agreement at any time upon sixty (60) days prior written notice to the other.')
    expect(notice.term).toBeNull()
    const deadline = await read('This Agreement shall end at once if no information is exchanged within fifteen days of the Effective Date.')
    expect(deadline.term).toBeNull()
    const renewal = await read('After the Initial Term, this Agreement shall renew automatically for further one (1) year terms.')
    expect(renewal.term).toBeNull()
    const afterReturn = await read(
      'Notwithstanding the return of the Information, the Recipient shall remain bound by its confidentiality obligations for a period of three years from the date hereof.',
    )
    expect(afterReturn.term).toBeNull()
  })

  test("the agreement's own duration wins over a survival period in the same text", async () => {
    const text = [
      '9. Duration. This Agreement shall remain effective for two (2) years after the Effective Date unless terminated earlier by either party on ninety (90) days’ written notice.',
      'The duty of confidence shall survive any termination of this Agreement and shall continue in force for four (4) years thereafter.',
    ].join('\n')
    expect((await read(text)).term).toBe('2 years')
    expect(
      (await read('12. End. Apart from Section 6, which survives termination, this Agreement will end on the date three years after the date hereof.')).term,
    ).toBe('3 years')
    expect(
      (await read('4.2This Agreement takes effect on signature and shall automatically expire eighteen (18) months after such Effective Date.')).term,
    ).toBe('18 months')
  })

  test("obligations that run from the agreement's start give the term, with less confidence", async () => {
    const out = await extract(
      '3.1 Duration. The duties of the Recipient set out in this Section 3 shall end and have no further effect on the date that is four (4) years from the date hereof.',
      fields,
      'contract',
    )
    expect(out.values.term).toBe('4 years')
    expect(out.meta.term!.confidence).toBeLessThan(0.7)
    expect(
      (
        await read(
          '2. Each party agrees to abide by these undertakings of secrecy and non-disclosure for a period of three years from the date of this Agreement.',
        )
      ).term,
    ).toBe('3 years')
  })

  test('a "Term" heading followed by the duration itself gives the term', async () => {
    expect(
      (await read('4. Term. Two (2) years from the Effective Date.\n5. Governing Law. This Agreement is governed by the laws of the State of Ohio.')).term,
    ).toBe('2 years')
  })

  test('federal law named in passing is not the governing law; a state that "shall govern" is', async () => {
    const text = [
      '8. Exports. Technical data exchanged hereunder is subject to the export laws of the United States.',
      'This Agreement shall be interpreted under the laws of the State of Oregon.',
    ].join('\n')
    expect((await read(text)).governing_law).toBe('Oregon')
    expect((await read('All inventions shall be protected under United States law to the fullest extent.')).governing_law).toBeNull()
    expect((await read('K. Law. The law of the State of Ohio, U.S.A., excluding its conflict of laws rules, shall govern this Agreement.')).governing_law).toBe(
      'Ohio',
    )
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
    const out = split(await builtinEngine.extract({ document, documentType: 'invoice', issuedBySeller: true, fields: invoiceFields }))
    expect(out.values).toMatchObject({ company_name: 'Contoso Trading Ltd', invoice_number: 'INV-0099', date: '2024-03-14', total: '1020.00', currency: 'GBP' })
    expect(out.meta.total!.page).toBe(2)
  })
})

describe('declared types the built-in engine reads (D90, D95)', () => {
  test('a count written out, a yes/no and an enum, in the document language', async () => {
    const fields = [
      inline('seats', 'Number of seats', 'number'),
      inline('signed', 'Signed', 'boolean'),
      { ...inline('status', 'Status', 'enum'), values: ['aktiv', 'gekündigt'] },
    ]
    const found = await values('Vertrag\nSeats: zwölf\nSigned: Ja\nStatus: Aktiv\n', fields, 'contract')
    expect(found).toEqual({ seats: 12, signed: true, status: 'aktiv' })
    const none = await values('Vertrag\nSeats: viele\nSigned: vielleicht\nStatus: offen\n', fields, 'contract')
    expect(none).toEqual({ seats: null, signed: null, status: null })
  })
})

describe('the language of a document, by the common words of each lexicon (D95)', () => {
  test.each([
    ['en', 'The invoice for the services of May: the total amount is due.'],
    ['de', 'Bitte überweisen Sie den Betrag der Rechnung bis zum Monatsende.'],
    ['fr', 'Veuillez trouver la facture et le montant dû pour votre commande.'],
    ['nl', 'Het bedrag van de factuur is voor uw rekening.'],
    ['es', 'El importe de la factura es para el pago del pedido.'],
    ['pl', 'Faktura nie jest opłacona. Kwota do zapłaty: 120,00 zł, słownie: sto dwadzieścia złotych.'],
    ['da', 'Vi sender hermed faktura for ydelser i maj. Beløb og moms fremgår af betalingsbetingelserne.'],
    ['other', 'Lorem ipsum dolor sit amet'],
  ])('%s: %s', (language, text) => {
    expect(detectLanguage(text)).toBe(language)
  })
})

describe('labels from the lexicons (D95)', () => {
  test('every concept a lexicon labels is one the engine knows, and every concept has labels', async () => {
    const { CONCEPTS } = await import('../../../src/lib/fields/concepts')
    const { conceptLabels, labelledConcepts } = await import('../../../src/lib/lexicon')
    const known = CONCEPTS.map((concept) => concept.id)
    expect(labelledConcepts().filter((id) => !known.includes(id))).toEqual([])
    for (const concept of CONCEPTS) expect(conceptLabels(concept.id).length).toBeGreaterThan(0)
  })

  test('a label only the Polish lexicon holds finds its field', async () => {
    const found = await values('ACME Sp. z o.o.\nFaktura nr FV/2026/03/17\nData wystawienia: 3 marca 2026\n', [inline('invoice_number'), inline('date')])
    expect(found).toEqual({ invoice_number: 'FV/2026/03/17', date: '2026-03-03' })
  })
})
