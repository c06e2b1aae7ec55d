import { test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { builtinEngine } from '../src/modules/extraction/engines/builtin'
import { split } from './helpers/answers'
import { loadCatalog } from '../src/modules/catalog/service'
import { resolveField } from '../src/lib/fields/resolve'
test('rc', async () => {
  const field = loadCatalog().get('invoice')!.fields.find((f) => f.key === 'client_name')!
  for (const n of ['422', '093', '330']) {
    const text = readFileSync(`/work/shared/eval/dev/sroie/sroie_${n}.txt`, 'utf8')
    const out = split(await builtinEngine.extract({ document: { pages: [text] }, documentType: 'invoice', issuedBySeller: true, fields: [resolveField(field, field)] }))
    console.log(n, JSON.stringify(out.values), JSON.stringify(out.meta.client_name))
  }
})
