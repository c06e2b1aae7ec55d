/**
 * Fields a user names (D110–D114): matched to printed labels by the lexicons' vocabulary in every
 * language, read in every layout, by the shape their words ask for, on the side of the document
 * they name; null where nothing fits. Documents are written by the tests.
 */
import { describe, expect, test } from 'bun:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import type { ResolvedType } from '../../../src/lib/fields/types'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import type { JobField } from '../../../src/lib/fields/model'
import { split } from '../../helpers/answers'
import { lexicons } from '../../../src/lib/lexicon'
import { LexiconError, parseLexiconFile } from '../../../src/lib/lexicon/lexicon-file'
import { findShape, ibanChecksumHolds } from '../../../src/modules/extraction/normalise/shapes'
import { readDocument } from '../../../src/modules/extraction/readers'
import { makeTestApp } from '../../helpers/app'
import { resolveField } from '../../../src/lib/fields/resolve'
import { loadCatalog } from '../../../src/modules/catalog/service'

/** A field as a user names it: key, label, description and type. */
const named = (key: string, label: string, type: ResolvedType = 'text', description = ''): JobField => ({ key, label, description, type })

async function read(pages: string | string[], fields: JobField[]) {
  const document = { pages: Array.isArray(pages) ? pages : [pages] }
  return split(await builtinEngine.extract({ document, documentType: 'invoice', issuedBySeller: true, fields }))
}

async function values(pages: string | string[], fields: JobField[]) {
  return (await read(pages, fields)).values
}

/** A PDF page with text drawn at positions (x from the left, y from the top, in points). */
async function pdfWith(items: [text: string, x: number, y: number][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const page = pdf.addPage([595, 842])
  for (const [text, x, y] of items) page.drawText(text, { x, y: 842 - y, size: 10, font })
  return pdf.save()
}

// Valid IBANs (checksums computed by the ISO 7064 rule) and a copy with one digit changed.
const IBAN_DE = 'DE89370400440532013000'
const IBAN_FR = 'FR1420041010050500013M02606'
const IBAN_NL = 'NL91ABNA0417164300'
const IBAN_BAD = 'DE89370400440532013001'

describe("the issue's example, through the API as a user sends it", () => {
  const INVOICE = 'Northwind Traders Ltd\nInvoice No: 2026-031\nDelivered on: 05.03.2026\nStatus: PAID\nTotal: EUR 410.00\n'
  const FIELDS = {
    delivery_date: { label: 'Delivery date', description: 'Date the goods were delivered', type: 'date' },
    paid: { label: 'Paid', description: 'Whether the invoice is already paid', type: 'boolean' },
  }

  async function extractText(text: string) {
    const t = await makeTestApp()
    const form = new FormData()
    form.append('file', new Blob([text]), 'invoice.txt')
    form.append('extract', JSON.stringify({ document_type: 'invoice', fields: FIELDS }))
    const response = await t.call('POST', '/api/v1/extract', { body: form })
    expect(response.status).toBe(200)
    expect(response.body.job.status).toBe('succeeded')
    return response.body.job
  }

  test('a delivery date and a paid status answer 2026-03-05 and true', async () => {
    const job = await extractText(INVOICE)
    expect(job.result).toEqual({ delivery_date: '2026-03-05', paid: true })
    expect(job.fields_meta.delivery_date.snippet).toBe('Delivered on: 05.03.2026')
    expect(job.fields_meta.paid.snippet).toBe('Status: PAID')
  })

  test('an unpaid status answers false, and a document that says neither answers null', async () => {
    expect((await extractText(INVOICE.replace('PAID', 'UNPAID'))).result.paid).toBe(false)
    expect((await extractText('Northwind Traders Ltd\nInvoice No: 2026-031\nTotal: EUR 410.00\n')).result).toEqual({ delivery_date: null, paid: null })
  })
})

describe('labels matched by what the user wrote, in every lexicon language', () => {
  const DELIVERY = named('delivery_date', 'Delivery date', 'date', 'Date the goods were delivered')

  test.each([
    ['en', 'Date of delivery: 12 April 2026'],
    ['de', 'Lieferdatum: 12.04.2026'],
    ['de', 'Leistungs-Datum    12.04.2026'],
    ['fr', 'Date de livraison : 12/04/2026'],
    ['nl', 'Leverdatum: 12-04-2026'],
    ['es', 'Fecha de entrega: 12/04/2026'],
    ['pl', 'Data dostawy: 12.04.2026'],
    ['da', 'Leveringsdato: 12.04.2026'],
  ])('%s: "%s" is the delivery date', async (_language, line) => {
    expect((await values(`Invoice 17\nDate: 01.04.2026\n${line}\n`, [DELIVERY])).delivery_date).toBe('2026-04-12')
  })

  test('a key in camel case with digits, and word forms and abbreviations ("Order No.", "Bestell-Nr.", "#")', async () => {
    const fields = [named('poNumber2', 'PO number 2'), named('order_ref', 'Order ref')]
    expect(await values('Invoice\nOrder No.: PO-4471\n', fields)).toEqual({ poNumber2: 'PO-4471', order_ref: 'PO-4471' })
    expect((await values('Rechnung\nBestell-Nr.: B-99812\n', fields)).order_ref).toBe('B-99812')
    expect((await values('Invoice\nOrder #: 7731-A\n', fields)).order_ref).toBe('7731-A')
  })

  test("the key's words where its label is free text, the label's where the key is not made of known words", async () => {
    const fields = [named('bank_account', 'Account to pay into'), named('x1', 'Customer number')]
    const found = await values(`Kunden-Nr.: K-2291\nBankverbindung\nIBAN: ${IBAN_DE}\n`, fields)
    expect(found).toEqual({ bank_account: IBAN_DE, x1: 'K-2291' })
  })

  test('a key written as a compound is split into its words ("lieferdatum", "kundennummer")', async () => {
    const found = await values('Date of delivery: 12 April 2026\nCustomer No.: C-77\n', [
      named('lieferdatum', 'Lieferdatum', 'date'),
      named('kundennummer', 'Kundennummer'),
    ])
    expect(found).toEqual({ lieferdatum: '2026-04-12', kundennummer: 'C-77' })
  })

  test('a field whose words are not all known keeps to its own label and key, and finds nothing else', async () => {
    const found = await values('Lieferdatum: 12.04.2026\nWarehouse bay: 12\n', [
      named('warehouse_bay', 'Warehouse bay', 'number'),
      named('gizmo_date', 'Gizmo date', 'date'),
    ])
    expect(found).toEqual({ warehouse_bay: 12, gizmo_date: null })
  })
})

describe('keys and labels with words no lexicon knows', () => {
  const invoice = [
    'Nordwind Handel GmbH',
    'Rechnung Nr. 2026-117',
    'Versanddatum: 12.03.2026',
    'IBAN: DE89 3704 0044 0532 0130 00',
    'Gesamtbetrag: 119,00 EUR',
  ].join('\n')

  test('the known words name the field when one of them says what it is', async () => {
    expect(await values(invoice, [named('shipping_day', 'Ship date', 'date')])).toEqual({ shipping_day: '2026-03-12' })
  })

  test("the label's shape of value wins over a key that names none ('payee_account' labelled 'Payee IBAN')", async () => {
    expect(await values(invoice, [named('payee_account', 'Payee IBAN')])).toEqual({ payee_account: 'DE89370400440532013000' })
  })

  test('a field whose known words are only general ones reads nothing', async () => {
    expect(await values(invoice, [named('zorblat_number', 'Zorblat number'), named('flurb_date', 'Flurb date', 'date')])).toEqual({
      zorblat_number: null,
      flurb_date: null,
    })
  })
})

describe('layouts', () => {
  const fields = [named('delivery_date', 'Delivery date', 'date'), named('customer_number', 'Customer number'), named('order_number', 'Order number')]

  test('after a colon and after a gap on the same line (English, German)', async () => {
    expect(await values('Delivery date: 03/05/2026\nCustomer No.: C-100\nOrder number   PO-7781\n', fields)).toEqual({
      delivery_date: '2026-05-03',
      customer_number: 'C-100',
      order_number: 'PO-7781',
    })
    expect(await values('Lieferdatum        03.05.2026\nKundennummer       C-100\nBestellnummer      PO-7781\n', fields)).toEqual({
      delivery_date: '2026-05-03',
      customer_number: 'C-100',
      order_number: 'PO-7781',
    })
  })

  test('under the label (French)', async () => {
    const text = ['Facture F-2026-04', 'Date de livraison', '03/05/2026', 'Numéro client', 'C-100', 'N° de commande', 'PO-7781'].join('\n')
    expect(await values(text, fields)).toEqual({ delivery_date: '2026-05-03', customer_number: 'C-100', order_number: 'PO-7781' })
  })

  test('in a two-column key/value block beside an address (Dutch)', async () => {
    const text = [
      'Bakkerij de Vries B.V.                 Factuur',
      'Dorpsstraat 4                          Factuurnummer     2026-118',
      '1234 AB Utrecht                        Klantnummer       C-100',
      '                                       Leverdatum        03-05-2026',
      '                                       Ordernummer       PO-7781',
    ].join('\n')
    expect(await values(text, fields)).toEqual({ delivery_date: '2026-05-03', customer_number: 'C-100', order_number: 'PO-7781' })
  })

  test('in a header row over a row of values, right-aligned numbers included (Spanish)', async () => {
    const text = [
      'Factura 2026/55',
      'Fecha de entrega    Número de cliente    Número de pedido      Tipo IVA',
      '03/05/2026                      C-100              PO-7781           21',
    ].join('\n')
    const found = await values(text, [...fields, named('vat_rate', 'VAT rate', 'number')])
    expect(found).toEqual({ delivery_date: '2026-05-03', customer_number: 'C-100', order_number: 'PO-7781', vat_rate: 21 })
  })

  test('in a PDF with positions: a key/value block and a header row over values (Polish)', async () => {
    const pdf = await pdfWith([
      ['Faktura VAT nr 12/2026', 50, 60],
      ['Numer klienta', 320, 100],
      ['K-5521', 450, 100],
      ['Data dostawy', 320, 115],
      ['04.05.2026', 450, 115],
      ['Numer zamówienia', 50, 200],
      ['Stawka VAT', 250, 200],
      ['ZAM-4410', 50, 215],
      ['23%', 265, 215],
    ])
    const document = await readDocument(pdf, 'application/pdf')
    const fields = [
      named('customer_number', 'Customer number'),
      named('delivery_date', 'Delivery date', 'date'),
      named('order_number', 'Order number'),
      named('vat_rate', 'VAT rate', 'number'),
    ]
    const out = split(await builtinEngine.extract({ document, documentType: 'invoice', issuedBySeller: true, fields }))
    expect(out.values).toEqual({ customer_number: 'K-5521', delivery_date: '2026-05-04', order_number: 'ZAM-4410', vat_rate: 23 })
    expect(out.meta.customer_number!.page).toBe(1)
  })
})

describe('values recognised by their shape', () => {
  test('an IBAN needs its checksum; printed in groups it is answered without spaces', () => {
    for (const iban of [IBAN_DE, IBAN_FR, IBAN_NL]) expect(ibanChecksumHolds(iban)).toBe(true)
    expect(ibanChecksumHolds(IBAN_BAD)).toBe(false)
    expect(findShape('iban', 'IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX')?.value).toBe(IBAN_DE)
    expect(findShape('iban', `IBAN: ${IBAN_BAD}`)).toBeUndefined()
  })

  test("an OCR'd IBAN with a letter where a digit must stand is read when the checksum then holds", () => {
    // Check digits and a German account part are digits only: O, I, S, B … there are misread digits.
    expect(findShape('iban', 'IBAN-Nr.: DEB9 3704 0044 0532 0130 00')?.value).toBe(IBAN_DE)
    expect(findShape('iban', 'IBAN: DE89 37O4 OO44 O532 Ol3O OO')?.value).toBe(IBAN_DE)
    // A French account part may hold letters: they stay, and a misread the look-alikes do not mend gives nothing.
    expect(findShape('iban', 'FR14 2004 1010 0505 0001 3M02 606')?.value).toBe(IBAN_FR)
    expect(findShape('iban', 'IBAN: DE89 37O4 0044 0532 0130 0l')).toBeUndefined()
  })

  test("an IBAN's account part is as its country's registry entry writes it: digits, letters or either, each in its place", () => {
    // Words whose letters, taken for digits where a Faroese account has digits, happen to meet the checksum.
    expect(findShape('iban', 'Follow us on Twitter website')).toBeUndefined()
    expect(findShape('iban', 'FOLLOW US ON TWITTER WEBSITE')).toBeUndefined()
    // A French bank and branch code are digits: a look-alike letter there is mended, as in a German account.
    expect(findShape('iban', 'FR14 2OO4 1O1O 0505 0001 3M02 606')?.value).toBe(IBAN_FR)
  })

  test.each([
    ['bic', 'BIC: COBADEFFXXX', 'COBADEFFXXX'],
    ['bic', 'SWIFT GENODEF1M04 (Volksbank)', 'GENODEF1M04'],
    ['vat_id', 'USt-IdNr.: DE 123 456 789', 'DE123456789'],
    ['vat_id', 'TVA intracom. FR40303265045', 'FR40303265045'],
    ['vat_id', 'BTW NL123456789B01', 'NL123456789B01'],
    ['vat_id', 'NIP PL5260250274', 'PL5260250274'],
    ['vat_id', 'VAT ATU12345678 HRB 5', 'ATU12345678'],
    ['tax_number', 'Steuernr.: 201/113/40209', '201/113/40209'],
    ['phone', 'Tel.: +49 (0)30 1234-567', '+49 (0)30 1234-567'],
    ['email', 'E-Mail: rechnung@example-shop.de', 'rechnung@example-shop.de'],
    ['url', 'Web: https://example.org/impressum', 'https://example.org/impressum'],
    ['percent', '19 % MwSt', 19],
    ['percent', '5,5%', 5.5],
    ['identifier', 'RE-2026/0042 vom 3.5.', 'RE-2026/0042'],
  ] as const)('%s in "%s"', (shape, text, value) => {
    expect(findShape(shape, text)?.value).toBe(value)
  })

  test.each([
    ['vat_id', `IBAN ${IBAN_DE}`],
    ['phone', '05.03.2026'],
    ['phone', '1.234,56'],
    ['percent', '0,08'],
    ['identifier', 'Musterstraße'],
    ['identifier', '12.04.2026'],
    ['url', 'urn:cen.eu:en16931:2017'],
  ] as const)('no %s in "%s"', (shape, text) => {
    expect(findShape(shape, text)).toBeUndefined()
  })

  test('each field reads the shape its words ask for, and the label that stands for it', async () => {
    const text = [
      'Contoso SARL',
      'Tél. : +33 1 23 45 67 89',
      'Courriel : factures@contoso.example.fr',
      'Site web : www.contoso.example.fr',
      `IBAN : FR14 2004 1010 0505 0001 3M02 606`,
      'BIC : PSSTFRPPXXX',
      'N° TVA intracommunautaire : FR40303265045',
      'Taux de TVA : 20 %',
    ].join('\n')
    const fields = [
      named('phone', 'Phone'),
      named('email', 'E-mail'),
      named('website', 'Website'),
      named('iban', 'IBAN'),
      named('bic', 'BIC'),
      named('vat_id', 'VAT ID'),
      named('vat_rate', 'VAT rate', 'number'),
    ]
    expect(await values(text, fields)).toEqual({
      phone: '+33 1 23 45 67 89',
      email: 'factures@contoso.example.fr',
      website: 'www.contoso.example.fr',
      iban: IBAN_FR,
      bic: 'PSSTFRPPXXX',
      vat_id: 'FR40303265045',
      vat_rate: 20,
    })
  })

  test('an unmistakable shape is read without a label when it is the only one; two different ones give null', async () => {
    const field = [named('payee_iban', 'Payee IBAN')]
    expect((await values(`Please transfer the amount to ${IBAN_NL} within 14 days.`, field)).payee_iban).toBe(IBAN_NL)
    expect((await values(`Transfer to ${IBAN_NL} or to ${IBAN_DE}.`, field)).payee_iban).toBeNull()
    expect((await values(`Transfer to ${IBAN_BAD}.`, field)).payee_iban).toBeNull()
  })

  test('text that does not have the shape is no answer: null, not a guess', async () => {
    const found = await values('IBAN: see reverse\nVAT ID: pending\nDelivery date: on request\n', [
      named('iban', 'IBAN'),
      named('vat_id', 'VAT ID'),
      named('delivery_date', 'Delivery date', 'date'),
    ])
    expect(found).toEqual({ iban: null, vat_id: null, delivery_date: null })
  })
})

describe('parties: the side of the document a field names', () => {
  const TWO_BLOCKS = [
    'Lieferant                           Kunde',
    'Holzbau Krämer GmbH                 Muster AG',
    'Sägewerkstraße 7                    Kundenweg 88',
    '80333 München                       40235 Düsseldorf',
    'Deutschland                         Deutschland',
    'USt-IdNr.: DE123456789              USt-IdNr.: DE987654321',
  ].join('\n')

  test("seller's and buyer's VAT IDs and addresses, each from its own block", async () => {
    const fields = [
      named('seller_vat_id', 'Seller VAT ID'),
      named('buyer_vat_id', 'Buyer VAT ID'),
      named('supplier_street', 'Supplier street'),
      named('seller_postcode', 'Seller postcode'),
      named('seller_city', 'Seller city'),
      named('customer_city', 'Customer city'),
      named('customer_zip', 'Customer ZIP code'),
      named('customer_country', 'Customer country'),
    ]
    expect(await values(TWO_BLOCKS, fields)).toEqual({
      seller_vat_id: 'DE123456789',
      buyer_vat_id: 'DE987654321',
      supplier_street: 'Sägewerkstraße 7',
      seller_postcode: '80333',
      seller_city: 'München',
      customer_city: 'Düsseldorf',
      customer_zip: '40235',
      customer_country: 'Deutschland',
    })
  })

  test("a field naming no side takes an address only when the document has one; a side's field never takes the other side's", async () => {
    const fields = [named('city', 'City'), named('seller_vat_id', 'Seller VAT ID')]
    expect(await values(TWO_BLOCKS, fields)).toMatchObject({ city: null })
    const buyerOnly = 'Bill to:\nGlobex Ltd\n12 Main Street\nSpringfield, IL 62704\nVAT ID: GB123456789\n'
    expect(await values(buyerOnly, fields)).toEqual({ city: 'Springfield', seller_vat_id: null })
  })

  test("what no heading assigns is the seller's: a footer's VAT ID is no answer for the buyer's", async () => {
    const text = ['Invoice 2026-12', 'Bill to: Globex Ltd', 'Total: EUR 100.00', '', 'Initech GmbH · VAT ID: DE123456789 · IBAN ' + IBAN_DE].join('\n')
    const fields = [named('buyer_vat_id', 'Buyer VAT ID'), named('seller_vat_id', 'Seller VAT ID'), named('customer_iban', 'Customer IBAN')]
    expect(await values(text, fields)).toEqual({ buyer_vat_id: null, seller_vat_id: 'DE123456789', customer_iban: null })
  })

  test("the sender line over the envelope window is the seller's (French), the address under it the buyer's", async () => {
    const text = [
      'Boulangerie Martin SARL · 12 rue des Lilas · 75011 Paris',
      'Madame',
      'Claire Dubois',
      '4 avenue Foch',
      '69006 Lyon',
      'Facture n° 2026-77',
    ].join('\n')
    const fields = [
      named('code_postal_fournisseur', 'Code postal du fournisseur'),
      named('ville_client', 'Ville du client'),
      named('vendor_street', 'Vendor street'),
    ]
    expect(await values(text, fields)).toEqual({ code_postal_fournisseur: '75011', ville_client: 'Lyon', vendor_street: '12 rue des Lilas' })
  })

  test('general words name a field only inside its side\'s block ("Nummer" under "Käufer")', async () => {
    const text = ['Verkäufer:', 'Nummer: 549910', 'Muster GmbH', 'Käufer:', 'Nummer: 009420', 'Kunde AG'].join('\n')
    expect((await values(text, [named('customer_number', 'Customer number')])).customer_number).toBe('009420')
    expect((await values('Nummer: 009420\n', [named('customer_number', 'Customer number')])).customer_number).toBeNull()
  })
})

describe('address blocks as printed (D113)', () => {
  test("the window's address is the recipient's though the letterhead's lines run beside it (German)", async () => {
    const text = [
      '                                                      Holzbau Krämer GmbH',
      '                                                      Sägewerkstraße 7',
      '   Holzbau Krämer GmbH · Sägewerkstraße 7 · 80333 München',
      '   Muster AG',
      '                                                      Tel. 089 123456',
      '                                                      Fax 089 123457',
      '   Kundenweg 88',
      '                                                      info@holzbau.example',
      '                                                      www.holzbau.example',
      '   40235 Düsseldorf',
      '',
      'Rechnung Nr. 2026-77 vom 02.03.2026',
    ].join('\n')
    const fields = [named('customer_postcode', 'Customer postcode'), named('customer_street', 'Customer street'), named('seller_city', 'Seller city')]
    expect(await values(text, fields)).toEqual({ customer_postcode: '40235', customer_street: 'Kundenweg 88', seller_city: 'München' })
  })

  test("a party's block holds one address: a second one under its heading is not the party's (English)", async () => {
    const text = [
      'Bill to:',
      'Globex Ltd',
      '12 Main Street',
      'Springfield, IL 62704',
      'Policy schedule for vehicle 4471',
      'Initech Insurance',
      '400 Market Street',
      'Shelbyville, IL 62565',
    ].join('\n')
    expect(await values(text, [named('customer_city', 'Customer city'), named('customer_zip', 'Customer ZIP')])).toEqual({
      customer_city: 'Springfield',
      customer_zip: '62704',
    })
  })

  test('the word of a kind of value alone is its label ("Telefon" for a contact phone)', async () => {
    const text = ['Verkäufer:', 'Holzbau Krämer GmbH', 'Telefon: +49 89 1234 560', 'Käufer:', 'Muster AG'].join('\n')
    expect((await values(text, [named('contact_phone', 'Contact phone', 'text', "The seller's telephone")])).contact_phone).toBe('+49 89 1234 560')
  })
})

describe('null where the words do not fit (D173)', () => {
  const INVOICE = [
    'Verkäufer:',
    'Holzbau Krämer GmbH',
    'Sägewerkstraße 7',
    '80333 München',
    'Steuernummer: 143/245/67890',
    'Bankverbindung: IBAN DE89 3704 0044 0532 0130 00',
    'Rechnung Nr. 2026-77',
  ].join('\n')

  test('a general word that ends a longer label is not that label ("Steuernummer" is no seller number)', async () => {
    expect((await values(INVOICE, [named('seller_number', 'Seller number')])).seller_number).toBeNull()
  })

  test("an address part qualified beyond its party (ship-to) does not take another party's address", async () => {
    expect((await values(INVOICE, [named('ship_to_city', 'Ship-to city', 'text', 'City of the delivery address')])).ship_to_city).toBeNull()
    expect((await values(`${INVOICE}\nLieferort: Augsburg`, [named('delivery_city', 'Delivery city')])).delivery_city).toBe('Augsburg')
  })

  test("text that opens with another kind of value's word is not a name (a bank's name)", async () => {
    expect((await values(INVOICE, [named('bank_name', 'Bank', 'text', "Name of the seller's bank")])).bank_name).toBeNull()
    expect((await values(`${INVOICE}\nBank: Stadtsparkasse München`, [named('bank_name', 'Bank')])).bank_name).toBe('Stadtsparkasse München')
  })
})

describe('yes/no and enums', () => {
  const PAID = named('paid', 'Paid', 'boolean', 'Whether the invoice is already paid')

  test.each([
    ['Status: BEZAHLT', true],
    ['Statut : payée', true],
    ['Estado: pendiente', false],
    ['Status: betaald', true],
    ['☒ Paid', true],
    ['☐ Paid', false],
    ['[x] Zapłacono', true],
  ])('"%s" answers %s', async (line, expected) => {
    expect((await values(`Invoice 5\n${line}\nTotal 100.00\n`, [PAID])).paid).toBe(expected)
  })

  test('a document that says both answers null', async () => {
    expect((await values('Status: PAID\nPayment status: unpaid\n', [PAID])).paid).toBeNull()
  })

  test('an enum reads its value printed beside its label', async () => {
    const field = { ...named('payment_method', 'Payment method', 'enum'), values: ['transfer', 'card', 'cash'] }
    expect((await values('Zahlung per: card\nPayment method: card\n', [field])).payment_method).toBe('card')
  })
})

describe("the field's description (D171)", () => {
  const TWO_BLOCKS = [
    'Fournisseur                         Client',
    'Atelier Morel SARL                  Dupont & Fils',
    '12 rue des Lilas                    3 avenue Foch',
    '69003 Lyon                          75116 Paris',
    'N° TVA : FR40303265045              N° TVA : FR23334175221',
    'SIRET : 30326504500012',
  ].join('\n')

  test('names the party of a field whose key and label name none (French)', async () => {
    const fields = [
      named('zip', 'ZIP', 'text', "Postcode of the customer's address"),
      named('town', 'Town', 'text', 'Town where the supplier is based'),
      named('vat_no', 'VAT no.', 'text', 'VAT identification number of the client'),
    ]
    expect(await values(TWO_BLOCKS, fields)).toEqual({ zip: '75116', town: 'Lyon', vat_no: 'FR23334175221' })
    // Without a description no side is named: of two towns neither is the answer, and a VAT ID
    // on an invoice is its issuer's.
    const bare = [named('town', 'Town'), named('vat_no', 'VAT no.')]
    expect(await values(TWO_BLOCKS, bare)).toEqual({ town: null, vat_no: 'FR40303265045' })
  })

  test('narrows a broader name to the kind of value it describes, and stops at a negation (German)', async () => {
    const text = ['Holzbau Krämer GmbH', 'Steuernummer: 143/245/67890', 'USt-IdNr.: DE123456789', 'Rechnung Nr. 2026-77'].join('\n')
    const vat = named('supplier_tax_id', 'Supplier tax ID', 'text', "The supplier's VAT identification number")
    const taxNumber = named('supplier_tax_id', 'Supplier tax ID', 'text', "The supplier's national tax number, not the VAT ID")
    expect((await values(text, [vat])).supplier_tax_id).toBe('DE123456789')
    expect((await values(text, [taxNumber])).supplier_tax_id).toBe('143/245/67890')
  })

  test('says what a field is when its key and label are words no lexicon knows (Dutch)', async () => {
    const text = ['Bakkerij Visser BV', 'Factuurnummer: 2026-0412', 'Leverdatum: 14-04-2026', 'Te betalen: EUR 212,50'].join('\n')
    const fields = [named('f7', 'Field 7', 'date', 'Date the goods were delivered'), named('f8', 'Field 8', 'text', 'Something else entirely')]
    expect(await values(text, fields)).toEqual({ f7: '2026-04-14', f8: null })
  })

  test('a filler may open a form ("to pay"), and a debtor is the buyer (English, Spanish)', async () => {
    const english = ['Invoice total       1,190.00', 'Prepaid              -500.00', 'Total to pay           690.00', 'Debtor no.: 40-1177'].join('\n')
    const fields = [named('total_to_pay', 'Total to pay', 'amount'), named('debtor_number', 'Debtor no.')]
    expect(await values(english, fields)).toEqual({ total_to_pay: '690.00', debtor_number: '40-1177' })
    const spanish = ['Total factura       1.190,00', 'Anticipo              -500,00', 'Total a pagar          690,00', 'Nº deudor: 40-1177'].join('\n')
    expect(await values(spanish, fields)).toEqual({ total_to_pay: '690.00', debtor_number: '40-1177' })
  })

  test('a text field named by an order alone is its number ("PO", "Purchase order")', async () => {
    const text = ['Rechnung Nr. 2026-77', 'Bestell-Nr.: B-4711', 'Datum: 02.03.2026'].join('\n')
    expect(await values(text, [named('po', 'PO'), named('purchase_order', 'Purchase order')])).toEqual({ po: 'B-4711', purchase_order: 'B-4711' })
  })
})

describe('amounts named more closely than the catalog concept', () => {
  test('"amount due" is what remains after a prepayment, not the invoice total', async () => {
    const text = ['Rechnungssumme brutto       1.190,00', 'Anzahlung                   -500,00', 'Zahlbetrag                    690,00'].join('\n')
    expect((await values(text, [named('amount_due', 'Amount due', 'amount')])).amount_due).toBe('690.00')
    expect((await values(text, [named('total', 'Total', 'amount')])).total).toBe('1190.00')
  })

  test("a role's field says more than its role only by its name: the catalog's description is no field of taxes and numbers", async () => {
    const receipt = [
      'ITEM             QTY    U/P   AMOUNT',
      '030249           1     14.90   14.90 S',
      '03022            1     14.00   14.00 S',
      '                    SUB-TOTAL    27.27',
      '                    GST           1.64',
      '                    ROUNDING     -0.01',
      '  TOTAL                     28.90',
      'GST SUMMARY',
      'CODE           AMOUNT    %    TAX/AMT',
      'SR              27.27    6       1.64',
      '                  TAX TOTAL:     1.64',
    ].join('\n')
    const catalog = loadCatalog()
      .get('invoice')!
      .fields.filter((field) => ['subtotal', 'tax', 'total'].includes(field.key))
      .map((field) => resolveField(field, field))
    expect(catalog.find((field) => field.key === 'subtotal')!.description).toContain('before tax')
    expect(await values(receipt, catalog)).toEqual({ subtotal: '27.27', tax: '1.64', total: '28.90' })
    // The same description on a field named by words of its own still reads those words.
    const named_ = named('tax_total', 'Tax total', 'amount', 'Total before tax (net amount), as a decimal number')
    expect((await values(receipt, [named_])).tax_total).toBe('1.64')
  })

  test('an amount still to pay that no label of its own names is the total to pay', async () => {
    const text = 'Invoice 88\nNet 100.00\nVAT 19% 19.00\nTotal EUR 119.00\n'
    expect((await values(text, [named('outstanding_amount', 'Outstanding amount', 'amount')])).outstanding_amount).toBe('119.00')
  })
})

describe('the vocabulary is data of the lexicons, checked at build time', () => {
  test('every lexicon has a vocabulary whose groups share their ids with the English one', () => {
    const english = lexicons().find((lexicon) => lexicon.language === 'en')!
    for (const lexicon of lexicons()) {
      expect(Object.keys(lexicon.vocabulary.groups).length).toBeGreaterThan(10)
      for (const group of Object.keys(lexicon.vocabulary.groups)) expect(Object.keys(english.vocabulary.groups)).toContain(group)
    }
  })

  test.each([
    [{ vocabulary: undefined }, '/vocabulary: missing'],
    [{ vocabulary: { joiners: ['der'], opposites: [], broader: [], groups: {}, extra: 1 } }, '/vocabulary/extra: unknown property'],
    [{ vocabulary: { joiners: ['der'], opposites: [], broader: [], negations: [], groups: {} } }, '/vocabulary/negations: expected a non-empty array'],
    [
      { vocabulary: { joiners: ['der'], opposites: [['paid', 'nope']], broader: [], negations: ['nicht'], groups: { paid: ['bezahlt'] } } },
      '/vocabulary/opposites/0',
    ],
    [{ vocabulary: { joiners: ['der'], opposites: [], broader: [], negations: ['nicht'], groups: { Paid: ['bezahlt'] } } }, '/vocabulary/groups/Paid'],
    [
      { vocabulary: { joiners: ['der'], opposites: [], broader: [], negations: ['nicht'], groups: { paid: [] } } },
      '/vocabulary/groups/paid: expected a non-empty array',
    ],
  ])('a lexicon with %j fails, naming the path', (change, message) => {
    const valid = lexicons().find((lexicon) => lexicon.language === 'de')!
    const text = JSON.stringify({ ...valid, ...change })
    expect(() => parseLexiconFile({ file: 'data/lexicon/de.json', text })).toThrow(LexiconError)
    expect(() => parseLexiconFile({ file: 'data/lexicon/de.json', text })).toThrow(message)
  })
})

describe('a payment method names a means of payment (D397)', () => {
  const method = named('payment_method', 'Payment method')

  test('after its label, in any language, the means as printed', async () => {
    expect(await values('Invoice 7\nPayment method: Bank transfer\nTotal: 10.00', [method])).toEqual({ payment_method: 'Bank transfer' })
    expect(await values('Rechnung 7\nZahlungsart: Überweisung\nSumme: 10,00', [named('zahlungsart', 'Zahlungsart')])).toEqual({ zahlungsart: 'Überweisung' })
    expect(await values('Facture 7\nMode de règlement : virement\nTotal : 10,00', [named('mode_reglement', 'Mode de règlement')])).toEqual({
      mode_reglement: 'virement',
    })
  })

  test('a label that names only the payment, or a value that names no means, is no answer', async () => {
    expect(await values('TOTAL 12.40\nPAYMENT : 50.00\nCHANGE : 37.60', [method])).toEqual({ payment_method: null })
    expect(await values('TOTAL 12.40\nGST PAYABLE: 0.70', [method])).toEqual({ payment_method: null })
    expect(await values('Payment method: see below\nTotal: 10.00', [method])).toEqual({ payment_method: null })
  })

  test("a receipt's amount tendered names it, when it tenders with one means only", async () => {
    const answer = await read('SHOP\nTOTAL          12.40\nCASH           50.00\nCHANGE         37.60', [method])
    expect(answer.values).toEqual({ payment_method: 'CASH' })
    expect(answer.meta.payment_method!.confidence).toBeLessThan(0.95)
    expect(await values('TOTAL          12.40\nVISA           10.00\nCASH            2.40', [method])).toEqual({ payment_method: null })
    // "Cash" in running text, or without an amount beside it, tenders nothing.
    expect(await values('TOTAL 12.40\nNO CASH REFUND\nCASH', [method])).toEqual({ payment_method: null })
  })

  test("the catalog's invoice field reads a receipt's \"Pay by\", and no longer an invoice's payment terms", async () => {
    const field = loadCatalog()
      .get('invoice')!
      .fields.find((each) => each.key === 'payment_method')!
    const fields = [resolveField(field, field)]
    expect(await values('SHOP\nPAY BY: CASH\nTOTAL 12.40', fields)).toEqual({ payment_method: 'CASH' })
    expect(await values('Invoice 7\nPayment terms: 15 Days\nTotal: 10.00', fields)).toEqual({ payment_method: null })
  })
})
