/**
 * The shared normalisation layer (D90): one table per type, cases per language written for these
 * tests. Every engine's answer goes through it, so these tables say what a job's result holds.
 */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { normaliseAnswers, normaliseValue, parseEnum, parseNumber } from '../../../src/modules/extraction/normalise'
import { lexicons, legalFormsSource } from '../../../src/lib/lexicon'
import { LexiconError, parseLexiconFile } from '../../../src/lib/lexicon/lexicon-file'
import type { JobField } from '../../../src/lib/fields/model'
import { joined, split } from '../../helpers/answers'

type Typed = Pick<JobField, 'type' | 'values' | 'columns'>

const as =
  (type: Typed['type'], extra: Partial<Typed> = {}) =>
  (value: unknown) =>
    normaliseValue({ type, ...extra }, value)

describe('date → YYYY-MM-DD', () => {
  test.each([
    // ISO and numeric
    ['2026-03-03', '2026-03-03'],
    ['2026-03-03T10:15:00Z', '2026-03-03'],
    ['2026/3/3', '2026-03-03'],
    ['03.03.2026', '2026-03-03'],
    ['25/03/2026', '2026-03-25'],
    ['03/25/2026', '2026-03-25'],
    ['07/07/2026', '2026-07-07'],
    // English
    ['3 March 2026', '2026-03-03'],
    ['March 3, 2026', '2026-03-03'],
    ['Tuesday, 3rd of March, 2026', '2026-03-03'],
    ['03-Mar-2026', '2026-03-03'],
    ['Sept. 30, 2026', '2026-09-30'],
    // German
    ['3. März 2026', '2026-03-03'],
    ['3. Maerz 2026', null],
    ['12. Dez. 2025', '2025-12-12'],
    ['1. Jänner 2026', '2026-01-01'],
    ['am 14. Februar 2026', '2026-02-14'],
    // French
    ['3 mars 2026', '2026-03-03'],
    ['le 1er août 2026', '2026-08-01'],
    ['15 févr. 2026', '2026-02-15'],
    // Dutch
    ['3 maart 2026', '2026-03-03'],
    ['17 mei 2026', '2026-05-17'],
    ['9 okt 2026', '2026-10-09'],
    // Spanish
    ['3 de marzo de 2026', '2026-03-03'],
    ['20 de diciembre del 2026', '2026-12-20'],
    ['5 ene 2026', '2026-01-05'],
    // not one date
    ['03/05/2026', null],
    ['2026-02-30', null],
    ['next Friday', null],
    ['invoice 1234567 of 3 March 2026', null],
    ['', null],
    [20260303, null],
    [null, null],
  ])('%p → %p', (given, expected) => {
    expect(as('date')(given)).toBe(expected)
  })
})

describe('amount → decimal string with a dot, sign kept (D57)', () => {
  test.each([
    ['1234.50', '1234.50'],
    ['0.50', '0.50'],
    ['-7.67', '-7.67'],
    [1234.5, '1234.50'],
    [99, '99.00'],
    [0.125, '0.125'],
    // English
    ['EUR 1,234.50', '1234.50'],
    ['$1,234.50', '1234.50'],
    ['(12.00)', '-12.00'],
    ['£ 12,500', '12500'],
    // German, Dutch, Spanish: dot groups, comma decimals
    ['1.234,50 €', '1234.50'],
    ['€ 1.234,50', '1234.50'],
    ['-7,67', '-7.67'],
    ['12.500,00 EUR', '12500.00'],
    // French: spaces group
    ['10 000,00 EUR', '10000.00'],
    ['1\u202f234,50 €', '1234.50'],
    // Swiss apostrophes
    ["CHF 1'234.50", '1234.50'],
    // a total row: the last amount is the total
    ['Net 100,00 VAT 19,00 Total 119,00', '119.00'],
    // not an amount
    ['about a thousand', null],
    ['12 %', null],
    [Number.NaN, null],
    [true, null],
    [[12], null],
  ])('%p → %p', (given, expected) => {
    expect(as('amount')(given)).toBe(expected)
  })
})

describe('number → JSON number', () => {
  test.each([
    [3, 3],
    [2.5, 2.5],
    ['3', 3],
    ['2.5', 2.5],
    ['2,5', 2.5],
    // A bare number is read as JSON writes it: the dot is the decimal mark.
    ['1.234', 1.234],
    ['1.234,5', 1234.5],
    ['1,234', 1234],
    ['12 pages', 12],
    ['approximately twelve', null],
    // number words of every lexicon, as the first word of a text without digits
    ['twelve months', 12],
    ['Zwölf Monate', 12],
    ['null Tage', 0],
    ['null', null],
    ['douze', 12],
    ['drie jaar', 3],
    ['dos años', 2],
    ['dwanaście miesięcy', 12],
    [Number.POSITIVE_INFINITY, null],
    [false, null],
  ])('%p → %p', (given, expected) => {
    expect(as('number')(given)).toBe(expected)
  })
})

describe('currency → ISO 4217 code', () => {
  test.each([
    ['EUR', 'EUR'],
    ['€', 'EUR'],
    ['US$', 'USD'],
    ['£', 'GBP'],
    ['zł', 'PLN'],
    ['RM', 'MYR'],
    // names from every lexicon
    ['Euro', 'EUR'],
    ['US dollars', 'USD'],
    ['Schweizer Franken', 'CHF'],
    ['francs suisses', 'CHF'],
    ['dólares', 'USD'],
    ['euros', 'EUR'],
    ['pounds sterling', 'GBP'],
    ['money', null],
    [978, null],
  ])('%p → %p', (given, expected) => {
    expect(as('currency')(given)).toBe(expected)
  })
})

describe('boolean → true or false', () => {
  test.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['yes', true],
    ['No', false],
    ['true', true],
    ['x', true],
    ['☐', false],
    // German, French, Dutch, Spanish
    ['Ja', true],
    ['nein', false],
    ['oui', true],
    ['Non', false],
    ['nee', false],
    ['Sí', true],
    ['si', true],
    ['maybe', null],
    ['', null],
    [2, null],
  ])('%p → %p', (given, expected) => {
    expect(as('boolean')(given)).toBe(expected)
  })
})

describe('enum → one of the allowed values, as declared', () => {
  const values = ['Paid', 'Open', 'Partially paid']
  test.each([
    ['Paid', 'Paid'],
    ['paid', 'Paid'],
    ['OPEN', 'Open'],
    ['partially-paid', 'Partially paid'],
    ['Status: open', 'Open'],
    ['cancelled', null],
    ['', null],
    [['Paid'], null],
  ])('%p → %p', (given, expected) => {
    expect(as('enum', { values })(given)).toBe(expected)
  })

  test('an answer that contains two allowed values is none of them', () => {
    expect(parseEnum('paid or open', ['paid', 'open'])).toBeNull()
  })

  test('numbers and booleans match values written as text', () => {
    expect(parseEnum(2, ['1', '2'])).toBe('2')
    expect(parseEnum(true, ['true', 'false'])).toBe('true')
  })
})

describe('text and list', () => {
  test.each([
    ['  ACME   GmbH \n', 'ACME GmbH'],
    [42, '42'],
    ['   ', null],
    [{ name: 'x' }, null],
    [['a'], null],
  ])('text %p → %p', (given, expected) => {
    expect(as('text')(given)).toEqual(expected)
  })

  test.each([
    [
      ['Widget', ' Gadget '],
      ['Widget', 'Gadget'],
    ],
    [['Widget', '', '  '], ['Widget']],
    ['Widget; Gadget\nGizmo', ['Widget', 'Gadget', 'Gizmo']],
    [
      [1, 'two'],
      ['1', 'two'],
    ],
    [[], null],
    [['Widget', {}], null],
    [7, null],
  ])('list %p → %p', (given, expected) => {
    expect(as('list')(given)).toEqual(expected)
  })
})

describe('table → array of row objects', () => {
  const columns: Typed['columns'] = [
    { key: 'description', label: 'Description', description: '', type: 'text' },
    { key: 'unit_price', label: 'Unit price', description: '', type: 'amount' },
    { key: 'qty', label: 'Quantity', description: '', type: 'number' },
    { key: 'shipped', label: 'Shipped', description: '', type: 'date' },
  ]

  test('without columns: row objects or columns + rows, cells as texts and numbers, empty rows dropped', () => {
    expect(as('table')({ columns: ['a', 'b'], rows: [['x', 2], [null, ''], ['y']] })).toEqual([
      { a: 'x', b: 2 },
      { a: 'y', b: null },
    ])
    expect(as('table')([{ Item: ' Widget ', Preis: '1,50' }])).toEqual([{ Item: 'Widget', Preis: '1,50' }])
    expect(as('table')('Widget 1,50')).toBeNull()
    expect(as('table')([['Widget']])).toBeNull()
    expect(as('table')([])).toBeNull()
  })

  test('with columns: exactly the declared keys, found by key or printed label, each cell typed', () => {
    const rows = [
      { Description: 'Widget', 'Unit Price': '1.234,50 €', Quantity: '2', Shipped: '3. März 2026', Extra: 'dropped' },
      { description: 'Gadget', unit_price: 'free', qty: 'some' },
    ]
    expect(as('table', { columns })(rows)).toEqual([
      { description: 'Widget', unit_price: '1234.50', qty: 2, shipped: '2026-03-03' },
      { description: 'Gadget', unit_price: null, qty: null, shipped: null },
    ])
  })

  test('with columns: a printed name that starts with the key or label counts ("Unit price (EUR)"), others do not', () => {
    expect(as('table', { columns })([{ 'Unit price (EUR)': '3.00', Qty: '4', Versand: '2026-01-02' }])).toEqual([
      { description: null, unit_price: '3.00', qty: 4, shipped: null },
    ])
  })
})

describe('normaliseAnswers', () => {
  test('types every requested key, answers null with confidence 0 for a value that does not fit, ignores other keys', () => {
    const fields = [
      { key: 'total', type: 'amount' as const },
      { key: 'date', type: 'date' as const },
      { key: 'paid', type: 'boolean' as const },
      { key: '__proto__', type: 'text' as const },
    ]
    const meta = { confidence: 0.8, page: 1, snippet: 'x' }
    const output = split(
      normaliseAnswers(
        fields,
        joined({
          values: JSON.parse('{"total": "1.234,50 €", "date": "someday", "paid": "ja", "__proto__": "kept", "other": 1}'),
          meta: { total: meta, date: meta, paid: meta },
        }),
      ),
    )
    expect(output.values).toEqual(JSON.parse('{"total": "1234.50", "date": null, "paid": true, "__proto__": "kept"}'))
    expect(Object.keys(output.values)).toEqual(['total', 'date', 'paid', '__proto__'])
    expect(output.meta.total).toEqual(meta)
    expect(output.meta.date).toEqual({ confidence: 0, page: null, snippet: null })
    expect(output.meta.paid).toEqual(meta)
    expect(Object.getOwnPropertyDescriptor(output.meta, '__proto__')?.value).toEqual({ confidence: 0, page: null, snippet: null })
  })
})

describe('lexicons (D95)', () => {
  test('seven languages, each with twelve months, yes and no words, currency names, legal forms, final totals and number words', () => {
    expect(lexicons().map((lexicon) => lexicon.language)).toEqual(['da', 'de', 'en', 'es', 'fr', 'nl', 'pl'])
    for (const lexicon of lexicons()) {
      expect(lexicon.months).toHaveLength(12)
      for (const list of [lexicon.yes, lexicon.no, lexicon.legal_forms, lexicon.final_totals]) expect(list.length).toBeGreaterThan(0)
      // Danish stops at zero: "en", "to" and "fire" are English and French words, not counts (D95).
      expect(lexicon.numbers.length).toBeGreaterThanOrEqual(lexicon.language === 'da' ? 1 : 11)
      expect(Object.keys(lexicon.currencies).length).toBeGreaterThan(0)
    }
  })

  test('Danish, added as one file, reads its dates and yes/no, and a value starting with "to" is no count', () => {
    expect(as('date')('17. marts 2026')).toBe('2026-03-17')
    expect(as('boolean')('nej')).toBe(false)
    expect(as('number')('to be confirmed')).toBeNull()
  })

  test('Polish, added as one file, reads its dates, yes/no and currency names', () => {
    expect(as('date')('3 marca 2026')).toBe('2026-03-03')
    expect(as('date')('15 października 2026')).toBe('2026-10-15')
    expect(as('boolean')('Tak')).toBe(true)
    expect(as('boolean')('nie')).toBe(false)
    expect(as('currency')('złotych')).toBe('PLN')
  })

  test('legal forms: one pattern from every lexicon, dots and spaces optional, longest first', () => {
    // A final dot is the one after the form, as the readers allow it.
    const pattern = new RegExp(`^(?:${legalFormsSource()})\\.?$`, 'i')
    for (const form of ['GmbH', 'S.A.R.L.', 'SARL', 's. a. r. l', 'Sdn. Bhd.', 'Sdn Bhd', 'B.V.', 'BV', 'Sp. z o.o.', 'Co.', 'e.K.'])
      expect(pattern.test(form)).toBe(true)
    for (const word of ['GmbHx', 'Bank', 'Total', 'Sdn Bhd Ltd']) expect(pattern.test(word)).toBe(false)
  })

  test("docs/development.md's example of a new language's file is a valid lexicon", async () => {
    const guide = await Bun.file(join(import.meta.dir, '../../../docs/development.md')).text()
    const section = guide.slice(guide.indexOf('## Adding a language'))
    const example = /```json\n([\s\S]*?)\n```/.exec(section)![1]!
    expect(parseLexiconFile({ file: 'data/lexicon/it.json', text: example }).language).toBe('it')
  })

  test.each([
    [{ language: 'it', name: 'Italiano' }, 'data/lexicon/it.json', '/months: expected 12 lists'],
    [{ language: 'IT' }, 'data/lexicon/IT.json', '/language'],
    [{ colour: 'x' }, 'data/lexicon/de.json', '/colour: unknown property'],
    [{ yes: [] }, 'data/lexicon/de.json', '/yes: expected a non-empty array'],
    [{ currencies: { euro: ['euro'] } }, 'data/lexicon/de.json', '/currencies/euro'],
    [{ labels: { total: [] } }, 'data/lexicon/de.json', '/labels/total: expected a non-empty array'],
    [{ labels: ['Total'] }, 'data/lexicon/de.json', '/labels: expected an object'],
    [{}, 'data/lexicon/fr.json', 'the file must be named de.json'],
    [{ excluding_tax: undefined }, 'data/lexicon/de.json', '/excluding_tax: missing'],
    [{ total_final: [] }, 'data/lexicon/de.json', '/total_final: expected a non-empty array'],
    [{ total_neutral: ['MwSt.'] }, 'data/lexicon/de.json', '/total_neutral/0: expected one word of letters'],
    [{ including_tax: ['in*kl'] }, 'data/lexicon/de.json', '/including_tax/0: a * may only stand at the start or end'],
    [{ yes: ['ja*'] }, 'data/lexicon/de.json', '/yes/0: a * may only stand'],
    [{ columns: { colour: ['Farbe'] } }, 'data/lexicon/de.json', '/columns/colour: unknown column kind'],
    [{ columns: { net: ['netto'] } }, 'data/lexicon/de.json', '/columns/description: missing'],
    [{ columns: ['Menge'] }, 'data/lexicon/de.json', '/columns: expected an object'],
  ])('a lexicon file with %j fails the build, naming the file and the path', (change, file, message) => {
    const valid = lexicons().find((lexicon) => lexicon.language === 'de')!
    const data: Record<string, unknown> = { ...valid, ...change }
    if (data.language === 'it') data.months = []
    expect(() => parseLexiconFile({ file, text: JSON.stringify(data) })).toThrow(LexiconError)
    expect(() => parseLexiconFile({ file, text: JSON.stringify(data) })).toThrow(message)
  })
})

describe('numbers with four decimals', () => {
  test('a group of thousands is exactly three digits: "-5,0000 Stk." is -5, "12,3456" is 12.3456, "1.234,5678" is 1234.5678', () => {
    expect(parseNumber('-5,0000 Stk.')).toBe(-5)
    expect(parseNumber('1,0000')).toBe(1)
    expect(parseNumber('12,3456 €')).toBe(12.3456)
    expect(parseNumber('1.234,5678')).toBe(1234.5678)
    expect(parseNumber('1.234 kg')).toBe(1234)
  })
})
