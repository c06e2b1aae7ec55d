/**
 * How the catalog knows its types when it sees them (issue 34, D241): every built-in file states
 * its cues; a file's cues are checked like the rest of it; an operator's type that states none gets
 * them from its label (in every lexicon language the lexicons know its name in), its description
 * and its fields; and cues never reach the wire.
 */
import { describe, expect, test } from 'bun:test'
import { CUE_SIGNS } from '../../src/modules/catalog/classification'
import { readCatalogFiles } from '../../src/modules/catalog/embed-catalog'
import { CatalogError, loadCatalog } from '../../src/modules/catalog/service'
import { makeTestApp } from '../helpers/app'

const field = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  label: key.replace(/_/g, ' '),
  description: `The ${key}.`,
  required: true,
  ...extra,
})

function fileOf(slug: string, extra: Record<string, unknown> = {}) {
  return {
    file: `data/document-types/${slug}.json`,
    text: JSON.stringify({ slug, label: 'Delivery Note', description: 'Delivery notes.', fields: [field('number')], ...extra }),
  }
}

function loadError(extra: Record<string, unknown>): string {
  try {
    loadCatalog({ builtIns: [fileOf('delivery_note', extra)] })
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError)
    return (error as Error).message
  }
  throw new Error('expected the file to be refused')
}

describe('the built-in types', () => {
  test('each states titles, phrases and the signs of its build', () => {
    for (const { text, file } of readCatalogFiles()) {
      const { cues } = JSON.parse(text) as { cues?: { titles: string[]; phrases: string[]; signs: string[] } }
      expect({ file, titles: cues?.titles.length ?? 0 }).toEqual({ file, titles: expect.any(Number) })
      expect(cues!.titles.length).toBeGreaterThanOrEqual(8)
      expect(cues!.phrases.length).toBeGreaterThanOrEqual(10)
      for (const sign of cues!.signs) expect(CUE_SIGNS).toContain(sign as (typeof CUE_SIGNS)[number])
    }
  })

  test('the catalog holds them as the classifier reads them: cues, and fields typed with their aliases', () => {
    const invoice = loadCatalog()
      .classifiable()
      .find((type) => type.slug === 'invoice')!
    expect(invoice.cues.titles).toContain('Rechnung')
    expect(invoice.cues.signs).toEqual(['total', 'item_table'])
    expect(invoice.fields.find((candidate) => candidate.key === 'total')).toMatchObject({ type: 'amount', aliases: expect.arrayContaining(['Gesamtbetrag']) })
  })
})

describe("a file's cues are checked", () => {
  test.each([
    [{ cues: { titles: [] } }, '/cues/titles'],
    [{ cues: { titles: ['Lie*ferschein'] } }, '/cues/titles/0'],
    [{ cues: { titles: [' Lieferschein'] } }, '/cues/titles/0'],
    [{ cues: { titles: ['Lieferschein'], signs: ['stamp'] } }, '/cues/signs/0'],
    [{ cues: { titles: ['Lieferschein'], weights: [1] } }, '/cues'],
  ])('%j is refused at %s', (extra, path) => {
    expect(loadError(extra)).toContain(`data/document-types/delivery_note.json: ${path}`)
  })

  test('titles and phrases may join letters at their ends, as the lexicons do', () => {
    const catalog = loadCatalog({
      builtIns: [fileOf('delivery_note', { cues: { titles: ['*lieferschein'], phrases: ['geliefert*'], signs: ['item_table'] } })],
    })
    expect(catalog.classifiable().find((type) => type.slug === 'delivery_note')!.cues).toEqual({
      titles: ['*lieferschein'],
      phrases: ['geliefert*'],
      signs: ['item_table'],
    })
  })
})

describe('a type without cues gets them from what it says of itself', () => {
  const catalog = loadCatalog({
    builtIns: [
      fileOf('delivery_note', {
        label: 'Delivery Note / Packing Slip',
        description: 'Delivery notes, packing slips and Lieferscheine, which list what was delivered with the goods.',
        fields: [
          field('delivery_number'),
          field('items', { type: 'table', columns: [{ key: 'description' }, { key: 'amount', type: 'amount' }] }),
          field('total', { type: 'amount' }),
        ],
      }),
    ],
  })
  const { cues } = catalog.classifiable().find((type) => type.slug === 'delivery_note')!

  test('titles: its label and the label’s parts, in every lexicon language the lexicons name them in', () => {
    expect(cues.titles).toEqual(
      expect.arrayContaining(['Delivery Note / Packing Slip', 'Delivery Note', 'packing slip', 'Lieferschein', 'bon de livraison', 'pakbon', 'følgeseddel']),
    )
  })

  test('phrases: the short items of its description', () => {
    expect(cues.phrases).toEqual(expect.arrayContaining(['Delivery notes', 'packing slips', 'Lieferscheine']))
    expect(cues.phrases).toHaveLength(3)
  })

  test('signs: a total among its amounts, a table of amounts', () => {
    expect(cues.signs.sort()).toEqual(['item_table', 'total'])
  })
})

test('cues never reach the wire', async () => {
  const app = await makeTestApp()
  for (const path of ['/api/v1/document-types', '/api/v1/fields?type=invoice', '/api/v1/fields/json-schema?type=invoice']) {
    const response = await app.call('GET', path)
    expect(response.status).toBe(200)
    expect(response.text).not.toContain('cues')
    expect(response.text).not.toContain('Kassenbon')
  }
})
