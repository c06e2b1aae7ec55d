/**
 * Knowing a catalog type when it is seen (issue 34, D240–D245): documents of every type, written
 * for the tests in the lexicons' languages, sent as text files and as PDFs, come back as their
 * type with a confidence; documents of none come back as null; an operator's own type, which
 * states no cues, is known by its name and its fields; and a long file is read only as far as its
 * first pages with text.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ClassifiableType } from '../../../src/modules/catalog/classification'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { classifyFile } from '../../../src/modules/extraction/classifier'
import { builtinClassifier } from '../../../src/modules/extraction/engines/builtin/classify'
import { detectMediaType, readDocument } from '../../../src/modules/extraction/readers'
import { DEFAULT_READ_LIMITS, MEDIA_TYPES, type ReadOptions } from '../../../src/modules/extraction/readers/types'
import { DELIVERY_NOTE_EN, SAMPLE_DOCUMENTS, type SampleDocument, sampleText, samplesPdf } from '../../helpers/documents'
import { tempDir } from '../../helpers/process'
import { TEST_DIALECT } from '../../helpers/database'

/** No database here: the PostgreSQL run of test/modules would only read the same documents again. */
const ON_POSTGRES = TEST_DIALECT === 'postgres'

const types = loadCatalog().classifiable()
const utf8 = (text: string) => new TextEncoder().encode(text)

async function classify(bytes: Uint8Array, catalog: readonly ClassifiableType[] = types) {
  return classifyFile(builtinClassifier, catalog, { content: bytes, mediaType: detectMediaType(bytes)!, limits: DEFAULT_READ_LIMITS })
}

const byType = new Map<string | null, SampleDocument[]>()
for (const document of SAMPLE_DOCUMENTS) byType.set(document.type, [...(byType.get(document.type) ?? []), document])
const catalogTypes = [...byType.keys()].filter((type): type is string => type !== null)

describe.skipIf(ON_POSTGRES)('every catalog type is known in three languages or more', () => {
  test('the documents written for the tests hold every catalog type, each in three languages or more', () => {
    expect(catalogTypes.sort()).toEqual(loadCatalog().slugs())
    for (const type of catalogTypes) expect(new Set(byType.get(type)!.map((document) => document.language)).size).toBeGreaterThanOrEqual(3)
    expect(new Set(SAMPLE_DOCUMENTS.map((document) => document.language))).toEqual(new Set(['da', 'de', 'en', 'es', 'fr', 'nl', 'pl']))
  })

  test.each(SAMPLE_DOCUMENTS.filter((document) => document.type).map((document) => [document.name, document] as const))(
    '%s, as a text file, is its type, surely',
    async (_, document) => {
      const { classification, pages } = await classify(utf8(sampleText(document)))
      expect(classification.documentType).toBe(document.type)
      expect(classification.confidence).toBeGreaterThanOrEqual(0.5)
      expect(classification.candidates[0]).toEqual({ documentType: document.type!, confidence: classification.confidence })
      expect(pages).toBe(document.pages.length)
    },
  )

  test.each(catalogTypes.map((type) => [type] as const))('%s, as PDFs in each of its languages, is its type', async (type) => {
    for (const document of byType.get(type)!) {
      const { classification } = await classify(await samplesPdf([document]))
      expect({ document: document.name, type: classification.documentType }).toEqual({ document: document.name, type })
    }
  })
})

describe.skipIf(ON_POSTGRES)('a document of no catalog type', () => {
  test.each(byType.get(null)!.map((document) => [document.name, document] as const))('%s is of none: null, with how sure that is', async (_, document) => {
    const { classification } = await classify(utf8(sampleText(document)))
    expect(classification.documentType).toBeNull()
    expect(classification.confidence).toBeGreaterThan(0)
    expect(classification.confidence).toBeLessThanOrEqual(1)
    // Every type it might be is less likely than none.
    for (const candidate of classification.candidates) expect(candidate.confidence).toBeLessThan(classification.confidence)
  })
})

describe.skipIf(ON_POSTGRES)('chances', () => {
  test('candidates are ranked, each a chance, and together no more than certain', async () => {
    const { classification } = await classify(utf8(sampleText(SAMPLE_DOCUMENTS.find((document) => document.name === 'purchase-order-en')!)))
    const chances = classification.candidates.map((candidate) => candidate.confidence)
    expect(chances).toEqual([...chances].sort((a, b) => b - a))
    expect(chances.every((chance) => chance >= 0.01 && chance <= 1)).toBe(true)
    expect(chances.reduce((sum, chance) => sum + chance, 0)).toBeLessThanOrEqual(1.001)
    // An order and an invoice print the same labels; the title tells them apart.
    expect(classification.documentType).toBe('purchase_order')
    expect(classification.candidates.find((candidate) => candidate.documentType === 'invoice')?.confidence ?? 0).toBeLessThan(0.1)
  })
})

describe.skipIf(ON_POSTGRES)("an operator's own type (--catalog-dir)", () => {
  const dir = tempDir('extractd-classify-catalog-')
  afterAll(() => dir.remove())
  mkdirSync(join(dir.path, 'types'))
  writeFileSync(
    join(dir.path, 'types', 'delivery_note.json'),
    JSON.stringify({
      slug: 'delivery_note',
      label: 'Delivery Note',
      description: 'Delivery notes and packing slips sent with goods, listing what was delivered.',
      fields: [
        {
          key: 'delivery_note_number',
          label: 'Delivery Note Number',
          description: 'The number of the delivery note.',
          required: true,
          aliases: ['Lieferschein-Nr.', 'Bon de livraison n°'],
        },
        { key: 'order_number', label: 'Order Number', description: 'The order it delivers.', required: false },
        { key: 'delivery_date', label: 'Delivery Date', description: 'When the goods were delivered.', required: true },
        {
          key: 'items',
          label: 'Items',
          description: 'What was delivered.',
          required: true,
          type: 'table',
          columns: [{ key: 'description' }, { key: 'quantity', type: 'number' }],
        },
      ],
    }),
  )
  const withOwn = loadCatalog({ extraDir: join(dir.path, 'types') }).classifiable()

  const notes = [
    ['English', DELIVERY_NOTE_EN],
    [
      'German',
      [
        'Papierhaus Lindner GmbH',
        '',
        'Lieferschein',
        '',
        'Lieferschein-Nr.: 2025-8812',
        'Ihre Bestellung: 4500091',
        'Lieferdatum: 14.05.2025',
        '',
        'Artikel                       Menge',
        'Briefumschläge DL, 1000 Stück      3',
        'Ordner A4 breit                   20',
        '',
        'Ware erhalten: ____________',
      ],
    ],
    [
      'French',
      [
        'Fournitures Moreau SARL',
        '',
        'BON DE LIVRAISON',
        '',
        'Bon de livraison n° BL-30441',
        'Commande n° 8812',
        'Date de livraison : 21/03/2025',
        '',
        'Article                        Quantité',
        'Cahiers A4 96 pages                 50',
        'Stylos bille bleus                 200',
      ],
    ],
  ] as const

  test.each(notes.map(([language, lines]) => [language, lines] as const))('a delivery note in %s is the operator’s type', async (_, lines) => {
    const { classification } = await classify(utf8(lines.join('\n')), withOwn)
    expect(classification.documentType).toBe('delivery_note')
  })

  test('with the operator’s type in the catalog, the built-in types are still known', async () => {
    for (const name of ['invoice-de', 'purchase-order-en', 'payslip-fr']) {
      const document = SAMPLE_DOCUMENTS.find((candidate) => candidate.name === name)!
      const { classification } = await classify(utf8(sampleText(document)), withOwn)
      expect(classification.documentType).toBe(document.type)
    }
  })
})

describe.skipIf(ON_POSTGRES)('it reads no more of a file than it needs', () => {
  const contract = SAMPLE_DOCUMENTS.find((document) => document.name === 'contract-en-three-pages')!
  const invoice = SAMPLE_DOCUMENTS.find((document) => document.name === 'invoice-en')!
  const blank: SampleDocument = { name: 'blank', type: null, language: 'en', pages: [[' ']] }

  test('a 13-page PDF is classified from its first two pages, and its page count told', async () => {
    const pdf = await samplesPdf([invoice, contract, contract, contract, contract])
    let read: ReadOptions | undefined
    let pagesRead = 0
    const counting: typeof readDocument = async (bytes, mediaType, options) => {
      read = options
      const document = await readDocument(bytes, mediaType, options)
      pagesRead = document.pages.length
      return document
    }
    const { classification, pages } = await classifyFile(
      builtinClassifier,
      types,
      { content: pdf, mediaType: MEDIA_TYPES.pdf, limits: DEFAULT_READ_LIMITS },
      counting,
    )
    expect(read?.textPages).toBe(2)
    expect(pagesRead).toBe(2)
    expect(pages).toBe(13)
    expect(classification.documentType).toBe('invoice')
  })

  test('pages without text do not count: a blank first page is read past', async () => {
    const pdf = await samplesPdf([blank, contract])
    const document = await readDocument(pdf, MEDIA_TYPES.pdf, { limits: DEFAULT_READ_LIMITS, textPages: 2 })
    expect(document.pages).toHaveLength(3)
    expect(document.pageCount).toBe(4)
    const { classification } = await classify(pdf)
    expect(classification.documentType).toBe('contract')
  })

  test('a file read whole tells no separate page count, and the limits still count every page', async () => {
    const pdf = await samplesPdf([contract])
    expect((await readDocument(pdf, MEDIA_TYPES.pdf)).pageCount).toBeUndefined()
    const limited = { limits: { ...DEFAULT_READ_LIMITS, maxPages: 2 }, textPages: 1 }
    expect(readDocument(pdf, MEDIA_TYPES.pdf, limited)).rejects.toMatchObject({ code: 'too_many_pages' })
  })
})
