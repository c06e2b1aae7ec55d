/**
 * Fields declared `auto` (D91, D281): words for identifiers never make a field an amount, in any
 * lexicon's language, and a field whose inferred type finds no value of that type answers null
 * rather than a value of another kind. Documents are written by the tests.
 */
import { describe, expect, test } from 'bun:test'
import { inferType } from '../../../src/lib/fields/concepts'
import { resolveField } from '../../../src/lib/fields/resolve'
import { lexicons } from '../../../src/lib/lexicon'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { split } from '../../helpers/answers'

const auto = (key: string, label = key, description = '') => resolveField({ key, label, description, type: 'auto' })

async function read(text: string, keys: string[]) {
  const fields = keys.map((key) => auto(key))
  return split(await builtinEngine.extract({ document: { pages: [text] }, documentType: 'invoice', issuedBySeller: true, fields }))
}

describe('identifier words never infer an amount', () => {
  for (const key of ['vat_id', 'tax_id', 'vat_number', 'tax_no', 'iban', 'reference_code', 'price_code', 'fee_reference', 'amount_ref'])
    test(key, () => expect(inferType(key, key, '')).not.toBe('amount'))

  for (const lexicon of lexicons())
    test(`${lexicon.name}: each form of "number" and "iban" beside an amount word`, () => {
      const forms = [...(lexicon.vocabulary.groups.number ?? []), ...(lexicon.vocabulary.groups.iban ?? [])]
      expect(forms.length).toBeGreaterThan(0)
      for (const form of forms) expect([form, inferType('supplier_vat', `Supplier VAT ${form}`, '')]).not.toEqual([form, 'amount'])
    })

  test('amount words alone still infer an amount', () => {
    for (const key of ['vat', 'shipping_fee', 'unit_price', 'balance']) expect(inferType(key, key, '')).toBe('amount')
  })
})

describe('an inferred field answers its own kind or nothing', () => {
  const invoice = ['ACME GmbH', 'Tel. 030 1234567', 'USt-IdNr.: DE123456789', 'Subtotal 198.00', 'VAT 19 % 37.62', 'Total 235.62'].join('\n')

  test('vat_id reads the identifier, never a phone number or an amount', async () => {
    const { values, meta } = await read(invoice, ['vat_id'])
    expect(values.vat_id).toBe('DE123456789')
    expect(meta.vat_id!.snippet).toBe('USt-IdNr.: DE123456789')
  })

  test('an amount field whose label prints no amount answers null', async () => {
    const { values, meta } = await read(`${invoice}\nShipping fee: on request`, ['shipping_fee'])
    expect(values.shipping_fee).toBeNull()
    expect(meta.shipping_fee!.confidence).toBe(0)
  })

  test('a date field whose label prints no date answers null', async () => {
    const { values } = await read(`${invoice}\nDelivery date: to be agreed, Tel. 030 1234567`, ['delivery_date'])
    expect(values.delivery_date).toBeNull()
  })
})
