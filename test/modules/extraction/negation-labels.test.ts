/**
 * A label that says the amount is without tax ("ohne USt.", "hors TVA", "sin IVA", "excl. VAT")
 * names the amount before tax, never the tax (D280). Every excluding word of every lexicon is
 * tried, in a document written here with that lexicon's own tax and total labels.
 */
import { describe, expect, test } from 'bun:test'
import { lexicons } from '../../../src/lib/lexicon'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { resolveField } from '../../../src/lib/fields/resolve'
import { split } from '../../helpers/answers'

const fields = loadCatalog()
  .get('invoice')!
  .fields.filter((field) => ['subtotal', 'tax', 'total'].includes(field.key))
  .map((field) => ({ ...resolveField(field), ...(field.aliases ? { aliases: field.aliases } : {}) }))

async function amounts(text: string) {
  return split(await builtinEngine.extract({ document: { pages: [text] }, documentType: 'invoice', issuedBySeller: true, fields })).values
}

for (const lexicon of lexicons()) {
  // The lexicon's own shortest tax label ("USt", "TVA", "IVA") and its first total label.
  const tax = [...lexicon.labels.tax!].sort((a, b) => a.length - b.length)[0]!
  const total = lexicon.labels.total![0]!
  describe(`${lexicon.name}: ${tax}`, () => {
    for (const word of lexicon.excluding_tax) {
      test(`"… ${word} ${tax}" is the amount before tax, not the tax`, async () => {
        const text = ['ACME', `Summe ${word} ${tax}        200.00`, `${tax} 19 %        38.00`, `${total}        238.00`].join('\n')
        expect(await amounts(text)).toMatchObject({ subtotal: '200.00', tax: '38.00', total: '238.00' })
      })

      test(`"… ${word} ${tax}" alone is never read as the tax`, async () => {
        const text = ['ACME', `${total}        238.00`, `Summe ${word} ${tax}        200.00`].join('\n')
        const values = await amounts(text)
        expect(values.tax).toBeNull()
        expect(values.total).toBe('238.00')
      })
    }
  })
}
