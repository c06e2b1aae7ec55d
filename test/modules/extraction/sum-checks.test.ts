/**
 * Sums that agree (D282): each identity between answered amounts, for the catalog's keys and for
 * fields a user names, holds or is marked with which check broke, what the other answers imply
 * and what was given. The answers are written by the tests, as an engine would give them.
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { resolveField } from '../../../src/lib/fields/resolve'
import type { ResolvedType } from '../../../src/lib/fields/types'
import { type Answers, storedAnswers } from '../../../src/modules/extraction/answers'
import { checkSums } from '../../../src/modules/extraction/checks'
import { inProcessExtractor } from '../../../src/modules/extraction/extractor'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import { taskAnswers } from '../../helpers/answers'

/** The lexicons, one per language (D95). */
const LEXICON_DIR = join(import.meta.dir, '../../../data/lexicon')

const field = (key: string, type: ResolvedType = 'amount', label = key) => resolveField({ key, label, description: '', type })

function answers(values: Record<string, unknown>): Answers {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value, confidence: 0.9, page: 1, snippet: String(value) }]))
}

function checked(fields: ReturnType<typeof field>[], values: Record<string, unknown>) {
  const keys = fields.map((f) => f.key)
  const out = checkSums(fields, answers(values))
  return { out, meta: storedAnswers(keys, out).fieldsMeta }
}

describe('subtotal + tax = total', () => {
  const fields = [field('subtotal'), field('tax'), field('total')]

  test('agreeing amounts are marked so and carry no checks', () => {
    const { out, meta } = checked(fields, { subtotal: '198.00', tax: '37.62', total: '235.62' })
    expect(Object.values(out).map((a) => a.sums)).toEqual(['agree', 'agree', 'agree'])
    expect(meta.total!.checks).toBeUndefined()
  })

  test('the tax read as the subtotal breaks it: each amount says what the others imply', () => {
    const { meta } = checked(fields, { subtotal: '37.62', tax: '37.62', total: '235.62' })
    expect(meta.total!.checks).toEqual([{ check: 'subtotal_plus_tax', expected: '75.24', found: '235.62' }])
    expect(meta.subtotal!.checks).toEqual([{ check: 'subtotal_plus_tax', expected: '198.00', found: '37.62' }])
    expect(meta.tax!.checks).toEqual([{ check: 'subtotal_plus_tax', expected: '198.00', found: '37.62' }])
  })

  test('fields a user names take part by their words', () => {
    const named = [field('net_amount', 'amount', 'Net amount'), field('vat_amount', 'amount', 'VAT amount'), field('gross_amount', 'amount', 'Gross amount')]
    const { meta } = checked(named, { net_amount: '100.00', vat_amount: '19.00', gross_amount: '120.00' })
    expect(meta.gross_amount!.checks).toEqual([{ check: 'subtotal_plus_tax', expected: '119.00', found: '120.00' }])
  })

  test('a missing amount checks nothing', () => {
    const { out } = checked(fields, { subtotal: '100.00', tax: null, total: '120.00' })
    expect(Object.values(out).every((a) => a.sums === undefined)).toBe(true)
  })
})

describe('rate × base = tax', () => {
  const fields = [field('subtotal'), field('tax'), field('vat_rate', 'number', 'VAT rate')]

  test('19 % of the base is the tax', () => {
    const { out } = checked(fields, { subtotal: '198.00', tax: '37.62', vat_rate: 19 })
    expect(out.vat_rate!.sums).toBe('agree')
    expect(out.tax!.sums).toBe('agree')
  })

  test('a rate written as a fraction', () => {
    expect(checked(fields, { subtotal: '200.00', tax: '14.00', vat_rate: 0.07 }).out.tax!.sums).toBe('agree')
  })

  test('a tax that is not the rate of the base is marked', () => {
    const { meta } = checked(fields, { subtotal: '198.00', tax: '19.80', vat_rate: 19 })
    expect(meta.tax!.checks).toEqual([{ check: 'rate_times_base', expected: '37.62', found: '19.80' }])
    expect(meta.vat_rate!.checks).toEqual([{ check: 'rate_times_base', expected: '10.00', found: '19.00' }])
  })
})

describe('the tax breakdown adds up', () => {
  const fields = [field('vat_19', 'amount', 'VAT 19%'), field('vat_7', 'amount', 'VAT 7%'), field('total_vat', 'amount', 'Total VAT')]

  test('the parts add up to the whole', () => {
    const { out } = checked(fields, { vat_19: '19.00', vat_7: '3.50', total_vat: '22.50' })
    expect(out.total_vat!.sums).toBe('agree')
  })

  test('parts that do not add up are marked', () => {
    const { meta } = checked(fields, { vat_19: '19.00', vat_7: '3.50', total_vat: '25.50' })
    expect(meta.total_vat!.checks).toEqual([{ check: 'tax_breakdown', expected: '22.50', found: '25.50' }])
  })
})

describe('cash − change = paid', () => {
  test('against the total when no paid field is asked for', () => {
    const fields = [field('total'), field('cash', 'amount', 'Cash'), field('change', 'amount', 'Change')]
    expect(checked(fields, { total: '31.45', cash: '50.00', change: '18.55' }).out.total!.sums).toBe('agree')
    const { meta } = checked(fields, { total: '31.45', cash: '50.00', change: '13.55' })
    expect(meta.total!.checks).toEqual([{ check: 'cash_minus_change', expected: '36.45', found: '31.45' }])
  })

  test('against a paid field', () => {
    const fields = [field('cash_given', 'amount', 'Cash given'), field('change_due', 'amount', 'Change'), field('amount_paid', 'amount', 'Amount paid')]
    expect(checked(fields, { cash_given: '20.00', change_due: '4.10', amount_paid: '15.90' }).out.amount_paid!.sums).toBe('agree')
  })
})

/** A table field, and the answers with its lines adding up to `sum` (the engine's table check, D117). */
const table = resolveField({ key: 'line_items', label: 'Line items', description: '', type: 'table' })
const withLines = (values: Record<string, unknown>, sum: string): Answers => ({
  ...answers(values),
  line_items: {
    value: [{ description: 'A', amount: sum }],
    confidence: 0.9,
    page: 1,
    snippet: null,
    table_check: { lines_sum: sum, total: 'not_checked', rows: 'not_checked' },
  },
})

describe('the lines add up to the subtotal', () => {
  const fields = [field('subtotal'), table]

  test('agree', () => expect(checkSums(fields, withLines({ subtotal: '45.00' }, '45.00')).subtotal!.sums).toBe('agree'))

  test('a subtotal the lines do not add up to is marked', () => {
    const meta = storedAnswers(['subtotal', 'line_items'], checkSums(fields, withLines({ subtotal: '54.00' }, '45.00'))).fieldsMeta
    expect(meta.subtotal!.checks).toEqual([{ check: 'lines_sum', expected: '45.00', found: '54.00' }])
  })
})

describe('lines whose prices include the tax add up to the total (D407)', () => {
  const fields = [field('line_items', 'table'), field('subtotal'), field('tax'), field('total')]
  const withLines = (sum: string, values: Record<string, unknown>) => {
    const out = answers(values)
    out.line_items = { value: [], confidence: 0.9, page: 1, snippet: '', table_check: { lines_sum: sum, total: 'matches', rows: 'match' } }
    return storedAnswers(Object.keys(out), checkSums(fields, out)).fieldsMeta
  }

  test('equal to the total they agree, and the subtotal before tax is not flagged', () => {
    const meta = withLines('47.70', { subtotal: '45.00', tax: '2.70', total: '47.70' })
    expect([meta.line_items!.checks, meta.subtotal!.checks, meta.total!.checks]).toEqual([undefined, undefined, undefined])
  })

  test('equal to neither they break against the subtotal, as before', () => {
    const meta = withLines('95.40', { subtotal: '45.00', tax: '2.70', total: '47.70' })
    expect(meta.line_items!.checks).toEqual([{ check: 'lines_sum', expected: '45.00', found: '95.40' }])
    expect(meta.subtotal!.checks).toEqual([{ check: 'lines_sum', expected: '95.40', found: '45.00' }])
  })
})

describe('the lines against the total while no tax is answered (D380, D414)', () => {
  test('lines before a tax nobody read break nothing; lines equal to the total agree', () => {
    const fields = [field('tax'), field('total'), table]
    expect(checkSums(fields, withLines({ total: '8.70' }, '8.21')).total!.sums).toBeUndefined()
    expect(checkSums(fields, withLines({ total: '8.70' }, '8.70')).total!.sums).toBe('agree')
  })

  test('with no tax field asked for, no tax was read either: lines that are not the total break nothing, lines equal to it agree (D414)', () => {
    const fields = [field('total'), table]
    const meta = storedAnswers(['total', 'line_items'], checkSums(fields, withLines({ total: '8.70' }, '8.21'))).fieldsMeta
    expect([meta.total!.checks, meta.line_items!.checks]).toEqual([undefined, undefined])
    expect(checkSums(fields, withLines({ total: '8.70' }, '8.21')).total!.sums).toBeUndefined()
    expect(checkSums(fields, withLines({ total: '8.70' }, '8.70')).total!.sums).toBe('agree')
  })
})

/** A plain-text invoice read by the built-in engine for these fields, as a job reads it. */
const readInvoice = async (text: string, fields: ReturnType<typeof field>[]) =>
  taskAnswers(
    await inProcessExtractor(builtinEngine)({
      content: new TextEncoder().encode(text),
      mediaType: 'text/plain',
      documentType: 'invoice',
      issuedBySeller: true,
      fields,
      limits: DEFAULT_READ_LIMITS,
    }),
  )

describe('through the built-in engine', () => {
  const run = (text: string) => readInvoice(text, [field('subtotal'), field('tax'), field('total')])

  test('an invoice whose sums agree', async () => {
    const out = await run('ACME\nSubtotal      198.00\nVAT 19 %      37.62\nTotal      235.62')
    expect(Object.values(out).map((a) => [a.value, a.sums])).toEqual([
      ['198.00', 'agree'],
      ['37.62', 'agree'],
      ['235.62', 'agree'],
    ])
  })

  const sumsOf = (out: Awaited<ReturnType<typeof run>>) => Object.values(out).map((a) => [a.value, a.sums, a.checks])
  /** Subtotal, tax and total that agree, as `sumsOf` gives them. */
  const agreeing = (...values: string[]) => values.map((value) => [value, 'agree', undefined])

  test('a rounding line between the sum and the total is part of it (D405)', async () => {
    const receipt = (adjustment: string, total: string) =>
      `KEDAI MAKAN\n1  SUB TOTAL          7.00\n   GST 6%             0.42\n   ROUNDING ADJ      ${adjustment}\n   NET TOTAL          ${total}`
    expect(sumsOf(await run(receipt('-0.02', '7.40')))).toEqual(agreeing('7.00', '0.42', '7.40'))
    // A rounding that does not reconcile them is not counted: the sum breaks as printed.
    const [, , total] = Object.values(await run(receipt('-0.02', '7.50')))
    expect(total!.checks).toEqual([{ check: 'subtotal_plus_tax', expected: '7.42', found: '7.50' }])
  })

  test('charges printed between the subtotal and the total are part of the sum, in any language (D408)', async () => {
    const receipt = [
      'RESTORAN MAJU',
      'TOTAL (EXCLUDING GST):            35.60',
      'SERV. CHARGE (10%):                3.56',
      'GST PAYABLE:                       2.36',
      'TOTAL (INCLUSIVE OF GST):         41.52',
      'ROUNDING ADJ:                     -0.02',
      'TOTAL:                       41.50',
    ].join('\n')
    expect(sumsOf(await run(receipt))).toEqual(agreeing('35.60', '2.36', '41.50'))
    const rechnung = [
      'Holzbau Krämer GmbH',
      'Zwischensumme         100,00',
      'Versandkosten           5,90',
      'MwSt. 19 %             20,12',
      'Gesamtbetrag          126,02',
    ].join('\n')
    expect(sumsOf(await run(rechnung))).toEqual(agreeing('100.00', '20.12', '126.02'))
  })

  test('zero-rated supplies printed apart are part of the subtotal (D405)', async () => {
    const receipt = [
      'KEDAI RUNCIT',
      '          TOTAL 0% SUPPLIES:   23.83',
      ' TOTAL 6% SUPPLIES (EXCL. GST):  12.00',
      '                         GST:     0.72',
      '  TOTAL 6% SUPPLIES (INC. GST):  12.72',
      '            TOTAL 0% SUPPLIES:   23.83',
      '               TOTAL PAYABLE:    36.55',
    ].join('\n')
    expect(sumsOf(await run(receipt))).toEqual(agreeing('35.83', '0.72', '36.55'))
    // Supplies taxed at a rate above nothing are no such part: the taxed net alone is answered, and the sum breaks.
    expect(sumsOf(await run(receipt.replaceAll('TOTAL 0% SUPPLIES', 'TOTAL 8% SUPPLIES')))).toEqual([
      ['12.00', 'broken', [{ check: 'subtotal_plus_tax', expected: '35.83', found: '12.00' }]],
      ['0.72', 'broken', [{ check: 'subtotal_plus_tax', expected: '24.55', found: '0.72' }]],
      ['36.55', 'broken', [{ check: 'subtotal_plus_tax', expected: '12.72', found: '36.55' }]],
    ])
    // Two different totals of zero-rated supplies are no receipt's one part: neither is added.
    const [subtotal] = Object.values(await run(receipt.replace('TOTAL 0% SUPPLIES:   23.83', 'TOTAL 0% SUPPLIES:    5.00')))
    expect(subtotal!.value).toBe('12.00')
  })
})

describe("an engine's adjustment (D405)", () => {
  test('the rounding the engine read is counted in subtotal + tax = total; without it the sum breaks', () => {
    const fields = [field('subtotal'), field('tax'), field('total')]
    const values = answers({ subtotal: '7.00', tax: '0.42', total: '7.40' })
    const adjusted = checkSums(fields, { ...values, total: { ...values.total!, adjustment: -0.02 } })
    expect(Object.values(adjusted).map((a) => a.sums)).toEqual(['agree', 'agree', 'agree'])
    const plain = storedAnswers(['subtotal', 'tax', 'total'], checkSums(fields, values)).fieldsMeta
    expect(plain.total!.checks).toEqual([{ check: 'subtotal_plus_tax', expected: '7.42', found: '7.40' }])
    // Never stored: the job's meta holds no adjustment.
    expect(storedAnswers(['total'], adjusted).fieldsMeta.total).not.toHaveProperty('adjustment')
  })
})

describe("the engine's allowances and charges between the lines and the subtotal (D410)", () => {
  const fields = [field('subtotal'), table]

  test('the sum that closes the gap is counted; without one, or with none that closes it, the lines break as before', () => {
    const values = withLines({ subtotal: '448.99' }, '457.20')
    const adjusted = checkSums(fields, { ...values, subtotal: { ...values.subtotal!, lineAdjustments: [-5.1, -8.21] } })
    expect([adjusted.subtotal!.sums, adjusted.line_items!.sums]).toEqual(['agree', 'agree'])
    for (const lineAdjustments of [undefined, [-5.1]]) {
      const meta = storedAnswers(['subtotal', 'line_items'], checkSums(fields, { ...values, subtotal: { ...values.subtotal!, lineAdjustments } })).fieldsMeta
      expect(meta.subtotal!.checks).toEqual([{ check: 'lines_sum', expected: '457.20', found: '448.99' }])
      expect(meta.line_items!.checks).toEqual([{ check: 'lines_sum', expected: '448.99', found: '457.20' }])
    }
    // Never stored: the job's meta holds none of them.
    expect(storedAnswers(['subtotal'], adjusted).fieldsMeta.subtotal).not.toHaveProperty('lineAdjustments')
  })
})

describe('allowances and charges through the built-in engine (D410)', () => {
  const items = resolveField({
    key: 'line_items',
    label: 'Line items',
    description: '',
    type: 'table',
    columns: [
      { key: 'description', label: 'Description', type: 'text' },
      { key: 'quantity', label: 'Quantity', type: 'number' },
      { key: 'unit_price', label: 'Unit price', type: 'amount' },
      { key: 'amount', label: 'Amount', type: 'amount' },
    ],
  })
  const run = async (text: string) => {
    const out = await readInvoice(text, [items, field('subtotal'), field('tax'), field('total')])
    return storedAnswers(Object.keys(out), out)
  }
  const invoice = (between: string[], net: string) =>
    [
      'ACME Supplies Ltd',
      'Invoice 1001',
      'Description            Qty    Unit price      Amount',
      'Widget                   2         50.00      100.00',
      'Gadget                   1         80.00       80.00',
      'Subtotal                                      180.00',
      ...between,
      `Net amount                                    ${net}`,
      'VAT 20%                                        33.90',
      'Total                                         203.40',
    ].join('\n')

  test('a discount and a shipping cost printed above the net amount: the lines add up to it with them', async () => {
    const { result, fieldsMeta } = await run(
      invoice(['Discount 10%                                  -18.00', 'Shipping Cost                                   7.50'], '169.50'),
    )
    expect([result.subtotal, result.tax, result.total]).toEqual(['169.50', '33.90', '203.40'])
    expect((result.line_items as { amount: string }[]).map((row) => row.amount)).toEqual(['100.00', '80.00'])
    expect([fieldsMeta.line_items!.checks, fieldsMeta.subtotal!.checks, fieldsMeta.subtotal!.needs_review]).toEqual([undefined, undefined, false])
  })

  test('a discount that does not account for the difference explains nothing: the lines break against the net amount', async () => {
    const { result, fieldsMeta } = await run(
      invoice(['Discount 10%                                  -18.00', 'Shipping Cost                                   5.00'], '169.50'),
    )
    expect(result.subtotal).toBe('169.50')
    expect(fieldsMeta.subtotal!.checks).toEqual([{ check: 'lines_sum', expected: '180.00', found: '169.50' }])
    expect(fieldsMeta.subtotal!.needs_review).toBe(true)
  })

  test('a credit note whose allowance is printed without a sign: it brings the negative lines towards zero', async () => {
    const creditNote = [
      'Musterlieferant GmbH',
      'Gutschrift 471102',
      'Beschreibung           Menge    Einzelpreis      Betrag',
      'Zitronensäure             -5           1,00       -5,00',
      'Gelierzucker              -2           1,45       -2,90',
      'Positionssumme                                    -7,90',
      'Gesamtbetrag der Zuschläge                         0,00',
      'Gesamtbetrag der Abschläge                         0,23',
      'Rechnungssumme ohne USt.                          -7,67',
      'Steuerbetrag                                      -1,12',
      'Bruttosumme                                       -8,79',
    ].join('\n')
    const { result, fieldsMeta } = await run(creditNote)
    expect([result.subtotal, result.tax, result.total]).toEqual(['-7.67', '-1.12', '-8.79'])
    expect([fieldsMeta.line_items!.table_check?.lines_sum, fieldsMeta.line_items!.checks, fieldsMeta.subtotal!.checks]).toEqual(['-7.90', undefined, undefined])
    expect(fieldsMeta.subtotal!.needs_review).toBe(false)
  })
})

describe('an allowance between the subtotal and the total is part of the sum, in every lexicon (D410)', () => {
  const lexicons = readdirSync(LEXICON_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()

  test.each(lexicons)('%s', async (file) => {
    const { labels } = JSON.parse(readFileSync(join(LEXICON_DIR, file), 'utf8')) as { labels: Record<string, string[]> }
    const [subtotal, allowance, tax, total] = (['subtotal', 'allowance', 'tax', 'total'] as const).map((concept) => labels[concept]![0]!)
    const text = [`${subtotal}    100.00`, `${allowance}    -10.00`, `${tax}    18.00`, `${total}    108.00`].join('\n')
    const out = await readInvoice(`Firma\n${text}`, [field('subtotal'), field('tax'), field('total')])
    expect(Object.values(out).map((answer) => [answer.value, answer.sums])).toEqual([
      ['100.00', 'agree'],
      ['18.00', 'agree'],
      ['108.00', 'agree'],
    ])
  })
})
