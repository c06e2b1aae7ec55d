/**
 * Values traced to their words (D68): the box of the words that spell a value on its snippet's
 * line, for any engine; recognised words weigh the value's confidence, and a value read from
 * poorly recognised words is null. Layouts are written by hand here.
 */
import { describe, expect, test } from 'bun:test'
import type { Answers } from '../../../src/modules/extraction/answers'
import { joined, split } from '../../helpers/answers'
import { MIN_OCR_CONFIDENCE } from '../../../src/modules/extraction/confidence'
import { locateValues } from '../../../src/modules/extraction/locate'
import { layOut, type PositionedWord } from '../../../src/modules/extraction/readers/layout'
import type { DocumentText } from '../../../src/modules/extraction/readers/types'

/** Words on a 1000 × 1000 page, 10 units per character, one line per entry. */
function page(lines: [text: string, confidence: number][][]): DocumentText {
  const units: PositionedWord[][] = lines.map((words, row) => {
    let x = 100
    return words.map(([text, confidence]) => {
      const word = { text, x0: x, x1: x + text.length * 10, y0: 100 + row * 40, y1: 120 + row * 40, size: 20, confidence }
      x = word.x1 + (text.endsWith(':') ? 200 : 10)
      return word
    })
  })
  const { text, layout } = layOut(units, 1000, 1000)
  return { pages: [text], layout: [layout] }
}

const output = (values: Record<string, unknown>, snippets: Record<string, string>, confidence = 0.9): Answers =>
  joined({ values, meta: Object.fromEntries(Object.entries(snippets).map(([key, snippet]) => [key, { confidence, page: 1, snippet }])) })

/** The located answers, as a job stores them. */
const locate = (answers: Answers, document: DocumentText) => split(locateValues(answers, document))

describe('locateValues', () => {
  const invoice = page([
    [
      ['ACME', 1],
      ['Trading', 1],
      ['Ltd', 1],
    ],
    [
      ['Date:', 1],
      ['14.03.2024', 1],
    ],
    [
      ['Total:', 1],
      ['EUR', 1],
      ['1.234,50', 1],
    ],
  ])

  test('an amount, a date and a name get the box of the words that print them', () => {
    const located = locate(
      output(
        { total: '1234.50', date: '2024-03-14', company_name: 'ACME Trading Ltd' },
        { total: 'Total: EUR 1.234,50', date: 'Date: 14.03.2024', company_name: 'ACME Trading Ltd' },
      ),
      invoice,
    )
    expect(located.values).toEqual({ total: '1234.50', date: '2024-03-14', company_name: 'ACME Trading Ltd' })
    // "1.234,50" starts after "Total:" (60) + 200 gap + "EUR" (30) + 10 = x 400, 80 wide, on the third line.
    expect(located.meta.total).toEqual({ confidence: 0.9, page: 1, snippet: 'Total: EUR 1.234,50', bbox: { left: 0.4, top: 0.18, width: 0.08, height: 0.02 } })
    expect(located.meta.date!.bbox).toEqual({ left: 0.35, top: 0.14, width: 0.1, height: 0.02 })
    expect(located.meta.company_name!.bbox).toEqual({ left: 0.1, top: 0.1, width: 0.16, height: 0.02 })
  })

  test('a value not spelled on its line gets the whole line’s box', () => {
    const located = locate(output({ currency: 'EUR' }, { currency: 'Date: 14.03.2024' }), invoice)
    expect(located.meta.currency!.bbox).toEqual({ left: 0.1, top: 0.14, width: 0.35, height: 0.02 })
  })

  test('recognised words weigh the confidence; a value from poorly recognised words is null', () => {
    const scan = page([
      [
        ['Total:', 0.95],
        ['18.50', 0.8],
      ],
      [
        ['Date:', 0.9],
        ['O1/O3/2O24', MIN_OCR_CONFIDENCE - 0.1],
      ],
    ])
    const located = locate(output({ total: '18.50', date: '2024-03-01' }, { total: 'Total: 18.50', date: 'Date: O1/O3/2O24' }), scan)
    expect(located.values).toEqual({ total: '18.50', date: null })
    expect(located.meta.total!.confidence).toBe(0.77)
    expect(located.meta.date).toEqual({ confidence: 0, page: null, snippet: null, bbox: null })
  })

  test('a time beside a date, or a speck beside an amount, does not weigh the value', () => {
    const scan = page([
      [
        ['Date:', 0.95],
        ['09/01/2019', 0.9],
        ['8:01:11', 0.05],
        ['PM', 0.9],
      ],
      [
        ['TOTAL', 0.9],
        ['“4', 0.2],
        ['48.00', 0.9],
      ],
    ])
    const located = locate(output({ date: '2019-01-09', total: '48.00' }, { date: 'Date: 09/01/2019 8:01:11 PM', total: 'TOTAL “4 48.00' }), scan)
    expect(located.values).toEqual({ date: '2019-01-09', total: '48.00' })
    expect(located.meta.date!.bbox).toEqual({ left: 0.35, top: 0.1, width: 0.1, height: 0.02 })
  })

  test('an amount poorly read on its line holds when it is read clearly elsewhere on the page, not otherwise', () => {
    const lines: [string, number][][] = [
      [
        ['Total:', 0.95],
        ['RM20.00', 0.3],
      ],
      [
        ['Cash:', 0.95],
        ['RM20.00', 0.9],
      ],
    ]
    const given = output({ total: '20.00' }, { total: 'Total: RM20.00' })
    expect(locate(given, page(lines)).values.total).toBe('20.00')
    lines[1]![1]![1] = 0.4
    expect(locate(given, page(lines)).values.total).toBeNull()
    lines[1]![1] = ['RM200.00', 0.9]
    expect(locate(given, page(lines)).values.total).toBeNull()
  })

  test('an amount no word spells (a sum) is judged by the numbers of its line, not its label words', () => {
    const scan = page([
      [
        ['Total', 0.9],
        ['—', 0.1],
        ['14.64', 0.85],
      ],
    ])
    expect(locate(output({ total: '14.65' }, { total: 'Total — 14.64' }), scan).values.total).toBe('14.65')
    const misread = page([
      [
        ['Total', 0.9],
        ['14.6A', 0.3],
      ],
    ])
    expect(locate(output({ total: '14.65' }, { total: 'Total 14.6A' }), misread).values.total).toBeNull()
  })

  test('a name is judged by its own words, not by its legal form or a mark read as a word', () => {
    const lines: [string, number][][] = [
      [
        ['BOOK', 0.96],
        ['TA', 0.68],
        ['-K', 0.45],
        ['SDN', 0.96],
        ['BHD', 0.5],
      ],
    ]
    const given = output({ company_name: 'BOOK TA -K SDN BHD' }, { company_name: 'BOOK TA -K SDN BHD' })
    const located = locate(given, page(lines))
    expect(located.values.company_name).toBe('BOOK TA -K SDN BHD')
    expect(located.meta.company_name!.confidence).toBe(0.66)
    lines[0]![1] = ['TA', MIN_OCR_CONFIDENCE - 0.1]
    expect(locate(given, page(lines)).values.company_name).toBeNull()
  })

  test('a name the engine mended (a zero for an O, a word split in two) is boxed and judged by the words OCR read (D381)', () => {
    const lines: [string, number][][] = [
      [
        ['0ld', 0.97],
        ['Mill', 0.99],
        ['STAT', 0.99],
        ['IONERY', 0.6],
        ['Sdn', 1],
      ],
    ]
    const given = output({ company_name: 'Old Mill STATIONERY Sdn' }, { company_name: '0ld Mill STAT IONERY Sdn' })
    const located = locate(given, page(lines))
    expect(located.meta.company_name!.bbox).toEqual({ left: 0.1, top: 0.1, width: 0.24, height: 0.02 })
    // Judged by its worst-read word ("IONERY", 0.6), not dropped.
    expect(located.meta.company_name!.confidence).toBeCloseTo(0.59, 2)
  })

  test('a legal form the engine mended is boxed with the name and does not weigh its reading (D381)', () => {
    const lines: [string, number][][] = [
      [
        ['SUN', 0.99],
        ['SHAAS', 0.99],
        ['SDN', 0.99],
        ['BHO', 0.5],
      ],
    ]
    const given = output({ company_name: 'SUN SHAAS SDN BHD' }, { company_name: 'SUN SHAAS SDN BHO' })
    const located = locate(given, page(lines))
    expect(located.meta.company_name!.bbox).toEqual({ left: 0.1, top: 0.1, width: 0.17, height: 0.02 })
    expect(located.meta.company_name!.confidence).toBe(0.9)
    // "SUN" is the name's own word, though one letter off "Sdn": read poorly, it weighs the value.
    lines[0]![0] = ['SUN', 0.7]
    const doubtful = locate(given, page(lines)).meta.company_name!
    expect(doubtful.bbox).toEqual(located.meta.company_name!.bbox)
    expect(doubtful.confidence).toBeCloseTo(0.68, 2)
  })

  test('letters glued to a piece of a name are part of its word: a title in small capitals (D381)', () => {
    // "MUTUAL NON-DISCLOSURE" printed as a large capital and small ones, each its own word with no space between.
    const text = 'MUTUAL NON-DISCLOSURE, page 1'
    const pieces: [number, number][] = [
      [0, 1],
      [1, 6],
      [7, 8],
      [8, 10],
      [10, 12],
      [12, 21],
      [23, 27],
      [28, 29],
    ]
    const document: DocumentText = {
      pages: [text],
      layout: [{ words: pieces.map(([start, end]) => ({ line: 0, start, end, box: [start / 100, 0.1, end / 100, 0.12], confidence: 1 })) }],
    }
    const located = locate(output({ title: 'MUTUAL NON-DISCLOSURE' }, { title: text }), document)
    expect(located.meta.title!.bbox).toEqual({ left: 0, top: 0.1, width: 0.21, height: 0.02 })
  })

  test('an IBAN whose checksum holds is kept however poorly its words were read; another value is not', () => {
    const scan = page([
      [
        ['IBAN:', 0.9],
        ['DEB9', MIN_OCR_CONFIDENCE - 0.2],
        ['3704', 0.9],
        ['0044', 0.9],
        ['0532', 0.9],
        ['0130', 0.9],
        ['00', 0.9],
      ],
    ])
    const snippet = 'IBAN: DEB9 3704 0044 0532 0130 00'
    const located = locate(output({ iban: 'DE89370400440532013000', account: 'DEB9' }, { iban: snippet, account: snippet }), scan)
    expect(located.values).toEqual({ iban: 'DE89370400440532013000', account: null })
    expect(located.meta.iban!.confidence).toBe(0.9)
    expect(located.meta.iban!.bbox).not.toBeNull()
  })

  test('documents without positions, values without a page and keys like __proto__ pass through', () => {
    const text: DocumentText = { pages: ['Total: 5.00'] }
    const given = joined({
      values: JSON.parse('{"__proto__": "5.00", "total": null}'),
      meta: JSON.parse('{"__proto__": {"confidence": 0.8, "page": 1, "snippet": "Total: 5.00"}, "total": {"confidence": 0, "page": null, "snippet": null}}'),
    })
    const located = locate(given, text)
    expect(Object.keys(located.values)).toEqual(['__proto__', 'total'])
    expect(Object.getOwnPropertyDescriptor(located.values, '__proto__')?.value).toBe('5.00')
    expect(Object.getOwnPropertyDescriptor(located.meta, '__proto__')?.value).toEqual({ confidence: 0.8, page: 1, snippet: 'Total: 5.00', bbox: null })
    expect(located.meta.total).toEqual({ confidence: 0, page: null, snippet: null, bbox: null })
  })
})

describe('table rows (D338)', () => {
  const table = page([
    [
      ['Item', 1],
      ['Qty', 1],
      ['Amount', 1],
    ],
    [
      ['Paper', 1],
      ['A4', 1],
      ['10', 1],
      ['45.00', 1],
    ],
    [
      ['(recycled,', 1],
      ['white)', 1],
    ],
    [
      ['Toner', 1],
      ['2', 1],
      ['118.00', 1],
    ],
    [
      ['Total:', 1],
      ['163.00', 1],
    ],
  ])
  const rows = [
    { item: 'Paper A4', qty: 10, amount: '45.00' },
    { item: 'Stapler', qty: 1, amount: '9.99' },
    { item: 'Toner', qty: 2, amount: '118.00' },
  ]

  test('each row gets the box of its printed line and each cell the box of its words; a row not in print is null', () => {
    const located = locate(output({ lines: rows }, { lines: 'Item Qty Amount' }), table)
    const meta = located.meta.lines!
    expect(meta.bbox).toEqual({ left: 0.1, top: 0.1, width: 0.15, height: 0.02 })
    expect(meta.rows).toEqual([
      {
        page: 1,
        bbox: { left: 0.1, top: 0.14, width: 0.17, height: 0.02 },
        cells: {
          item: { left: 0.1, top: 0.14, width: 0.08, height: 0.02 },
          qty: { left: 0.19, top: 0.14, width: 0.02, height: 0.02 },
          amount: { left: 0.22, top: 0.14, width: 0.05, height: 0.02 },
        },
      },
      null,
      {
        page: 1,
        bbox: { left: 0.1, top: 0.22, width: 0.14, height: 0.02 },
        cells: {
          item: { left: 0.1, top: 0.22, width: 0.05, height: 0.02 },
          qty: { left: 0.16, top: 0.22, width: 0.01, height: 0.02 },
          amount: { left: 0.18, top: 0.22, width: 0.06, height: 0.02 },
        },
      },
    ])
  })

  test('a document without positions gives no rows', () => {
    const located = locate(output({ lines: rows }, { lines: 'Item Qty Amount' }), { pages: ['Item Qty Amount\nPaper A4 10 45.00'] })
    expect(located.meta.lines).toEqual({ confidence: 0.9, page: 1, snippet: 'Item Qty Amount', bbox: null })
  })
})
