/**
 * Scans and photos (D22, D67): JPEG, PNG, TIFF and WebP images and the image pages of PDFs are
 * read by OCR inside the process, upright even when turned, with their words' positions; the
 * limits refuse what is too large before it is decoded. Every image is rendered by the tests.
 */
import { beforeAll, describe, expect, setDefaultTimeout, spyOn, test } from 'bun:test'
import { PDFDocument } from 'pdf-lib'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import { detectMediaType, readDocument as readWithAnyRecogniser } from '../../../src/modules/extraction/readers'
import { orient } from '../../../src/modules/extraction/readers/ocr/images'
import { mendCurrencyMarks, mendLabelWord } from '../../../src/modules/extraction/readers/ocr/lexicon'
import { modelShown } from '../../../src/modules/extraction/readers/ocr/language'
import { blankRowNear, flattenBackground, type Raster, rows } from '../../../src/modules/extraction/readers/ocr/raster'
import * as tesseract from '../../../src/modules/extraction/readers/ocr/tesseract'
import { DEFAULT_READ_LIMITS, MEDIA_TYPES, type MediaType, type ReadOptions } from '../../../src/modules/extraction/readers/types'
import { imagePdf, renderPage, renderPages, rotate, toJpeg, toPng, toTiff, toWebp } from '../../helpers/images'

setDefaultTimeout(60_000)

const RECEIPT = ['BLUE HARBOUR CAFE', 'Receipt No: R-2291', 'Date: 14/03/2024', 'Latte        2   9.00', 'TOTAL          RM 18.50']
let receipt: Raster

beforeAll(async () => {
  receipt = await renderPage({ lines: RECEIPT })
})

/**
 * The pipeline around Tesseract: languages, doubt and turns are counted on its recognise
 * (PaddleOCR's reading, the default for English pages: recognisers.test.ts, D160).
 */
const readDocument = (bytes: Uint8Array, mediaType: MediaType, options: ReadOptions = { limits: DEFAULT_READ_LIMITS }) =>
  readWithAnyRecogniser(bytes, mediaType, { ...options, recogniser: 'tesseract' })

/** Collapsed lines of a page: OCR lays columns out with runs of spaces. */
const linesOf = (page: string) => page.split('\n').map((line) => line.replace(/\s+/g, ' ').trim())

async function readError(bytes: Uint8Array, options?: ReadOptions): Promise<ExtractionError> {
  try {
    await readDocument(bytes, detectMediaType(bytes)!, options)
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return error as ExtractionError
  }
  throw new Error('expected the document to be rejected')
}

const limits = (overrides: Partial<typeof DEFAULT_READ_LIMITS>): ReadOptions => ({ limits: { ...DEFAULT_READ_LIMITS, ...overrides } })
/** What the built-in engine asks for: doubtful pages read a second time. */
const twice: ReadOptions = { limits: DEFAULT_READ_LIMITS, readTwice: true }

/**
 * Recognition spied on, its first `readings` (every one when not given) coming back as faint print
 * reads: every word at half its confidence. Restore it when done.
 */
function readFaintly(readings = Number.POSITIVE_INFINITY) {
  const real = tesseract.recognise
  const reads = spyOn(tesseract, 'recognise')
  reads.mockImplementation(async (raster, languages, band) => {
    const words = await real(raster, languages, band)
    return reads.mock.calls.length <= readings ? words.map((word) => ({ ...word, confidence: word.confidence / 2 })) : words
  })
  return reads
}

describe('images are documents', () => {
  test('JPEG, PNG, TIFF and WebP are recognised from their bytes', async () => {
    expect(detectMediaType(toJpeg(receipt))).toBe(MEDIA_TYPES.jpeg)
    expect(detectMediaType(toPng(receipt))).toBe(MEDIA_TYPES.png)
    expect(detectMediaType(toTiff([receipt]))).toBe(MEDIA_TYPES.tiff)
    expect(detectMediaType(await toWebp(receipt))).toBe(MEDIA_TYPES.webp)
  })

  test.each([
    ['JPEG', () => toJpeg(receipt)],
    ['PNG', () => toPng(receipt)],
    ['WebP', () => toWebp(receipt)],
  ])('a %s receipt is read line by line, with its columns kept apart', async (_, encode) => {
    const bytes = await encode()
    const document = await readDocument(bytes, detectMediaType(bytes)!)
    expect(document.pages).toHaveLength(1)
    expect(linesOf(document.pages[0]!)).toEqual(RECEIPT.map((line) => line.replace(/\s+/g, ' ')))
    // The amount stands in its own column: two or more spaces before it.
    expect(document.pages[0]).toMatch(/TOTAL {2,}RM 18\.50/)
  })

  test('each frame of a TIFF is a page, in order, and progress is reported per page', async () => {
    const [first, second] = await renderPages([{ lines: ['PAGE ONE', 'Invoice No: A-52'] }, { lines: ['PAGE TWO', 'Total: 7.25'] }])
    const progress: [number, number][] = []
    const document = await readDocument(toTiff([first!, second!]), MEDIA_TYPES.tiff, {
      limits: DEFAULT_READ_LIMITS,
      onPage: (done, total) => progress.push([done, total]),
    })
    expect(document.pages.map(linesOf)).toEqual([
      ['PAGE ONE', 'Invoice No: A-52'],
      ['PAGE TWO', 'Total: 7.25'],
    ])
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ])
  })

  test('a German document is read in German from its top on, and its later pages with the German model only', async () => {
    const german = (title: string) => ({
      lines: [
        title,
        'Rechnungsnummer: 2024-117',
        'Lieferung für Müller und Söhne',
        'Die Rechnung ist zahlbar innerhalb von 14 Tagen',
        'Gesamtbetrag: 1.250,00 EUR',
      ],
    })
    const [first, second] = await renderPages([german('Rechnung vom 14.03.2024'), german('Rechnung Seite 2')])
    const reads = spyOn(tesseract, 'recognise')
    try {
      const document = await readDocument(toTiff([first!, second!]), MEDIA_TYPES.tiff)
      expect(document.pages.map((page) => linesOf(page)[2])).toEqual(['Lieferung für Müller und Söhne', 'Lieferung für Müller und Söhne'])
      // Page one: its top in English, where German shows, then the page in German; page two: German at once.
      expect(reads.mock.calls.map(([, languages, band]) => [languages.join('+'), band ? 'top' : 'page'])).toEqual([
        ['eng', 'top'],
        ['deu', 'page'],
        ['deu', 'page'],
      ])
      expect(reads.mock.calls[0]![2]!.top).toBe(0)
    } finally {
      reads.mockRestore()
    }
  })

  test('an English page is read once in English after its top', async () => {
    const reads = spyOn(tesseract, 'recognise')
    try {
      const document = await readDocument(toPng(receipt), MEDIA_TYPES.png)
      expect(linesOf(document.pages[0]!)).toContain('BLUE HARBOUR CAFE')
      expect(reads.mock.calls.map(([, languages, band]) => [languages.join('+'), band ? 'top' : 'page'])).toEqual([
        ['eng', 'top'],
        ['eng', 'page'],
      ])
    } finally {
      reads.mockRestore()
    }
  })

  test('a page read with doubt is read again a size larger, and the surer reading is kept', async () => {
    // Its top and the page read faintly; the page a size larger as printed.
    const reads = readFaintly(2)
    try {
      const document = await readDocument(toPng(receipt), MEDIA_TYPES.png)
      expect(reads.mock.calls.map(([, languages, band]) => [languages.join('+'), band ? 'top' : 'page'])).toEqual([
        ['eng', 'top'],
        ['eng', 'page'],
        ['eng', 'page'],
      ])
      const [, [first], [larger]] = reads.mock.calls as unknown as [unknown, [Raster], [Raster]]
      expect(larger.width).toBe(Math.round(receipt.width * 3 * 1.25))
      expect(first.width).toBe(Math.round(receipt.width * 3))
      // The larger reading is kept: its words carry their own confidences, not the halved ones.
      const lines = document.pages[0]!.split('\n')
      const title = document.layout![0]!.words.find((word) => lines[word.line]!.slice(word.start, word.end) === 'BLUE')!
      expect(title.confidence).toBeGreaterThan(0.6)
      expect(linesOf(document.pages[0]!)).toContain('BLUE HARBOUR CAFE')
    } finally {
      reads.mockRestore()
    }
  })

  test('a page still doubtful is also read a second time, larger again, and the document carries both readings', async () => {
    const reads = readFaintly()
    try {
      const document = await readDocument(toPng(receipt), MEDIA_TYPES.png, twice)
      const widths = (reads.mock.calls as unknown as [Raster][]).slice(1).map(([raster]) => raster.width)
      expect(widths).toEqual([3, 3 * 1.25, 3 * 1.6].map((factor) => Math.round(receipt.width * factor)))
      expect(linesOf(document.pages[0]!)).toContain('BLUE HARBOUR CAFE')
      expect(linesOf(document.secondReading!.pages[0]!)).toContain('BLUE HARBOUR CAFE')
      expect(document.secondReading!.layout![0]!.words.length).toBeGreaterThan(10)
      expect(document.secondReading!.secondReading).toBeUndefined()
    } finally {
      reads.mockRestore()
    }
  })

  test('a page turned a quarter and read with doubt is read the second time upright', async () => {
    const reads = readFaintly()
    try {
      const document = await readDocument(toPng(rotate(receipt, 90)), MEDIA_TYPES.png, twice)
      expect(linesOf(document.pages[0]!)).toContain('BLUE HARBOUR CAFE')
      expect(linesOf(document.secondReading!.pages[0]!)).toContain('BLUE HARBOUR CAFE')
    } finally {
      reads.mockRestore()
    }
  })

  test('a doubtful page is read a second time only for an engine that answers from both readings', async () => {
    const reads = readFaintly()
    try {
      const document = await readDocument(toPng(receipt), MEDIA_TYPES.png)
      expect(document.secondReading).toBeUndefined()
      // Its top, the page, and the page a quarter larger: no reading 1.6 times larger.
      expect(reads.mock.calls).toHaveLength(3)
    } finally {
      reads.mockRestore()
    }
  })

  test('a page read with confidence has no second reading', async () => {
    const document = await readDocument(toPng(receipt), MEDIA_TYPES.png, twice)
    expect(document.secondReading).toBeUndefined()
  })

  test('a page turned a quarter or upside down is read upright', async () => {
    const page = await renderPage({ lines: ['NORTHWIND TRADERS LIMITED', 'Invoice Number: NW-4471', 'Invoice Date: 02/05/2024', 'Amount Due: 1,250.00 EUR'] })
    for (const degrees of [90, 180] as const) {
      const document = await readDocument(toPng(rotate(page, degrees)), MEDIA_TYPES.png)
      const text = linesOf(document.pages[0]!).join('\n')
      expect(text).toContain('Invoice Number: NW-4471')
      expect(text).toContain('Amount Due: 1,250.00 EUR')
    }
  })

  test('words keep their boxes on the page and OCR confidences below 1', async () => {
    const document = await readDocument(toPng(receipt), MEDIA_TYPES.png)
    const words = document.layout![0]!.words
    const lines = document.pages[0]!.split('\n')
    const wordAt = (text: string) => words.find((word) => lines[word.line]!.slice(word.start, word.end) === text)!
    const title = wordAt('BLUE')
    const total = wordAt('18.50')
    // Fractions of the page: the title near the top-left, the total lower and to the right.
    for (const value of [...title.box, ...total.box]) expect(value).toBeGreaterThanOrEqual(0)
    for (const value of [...title.box, ...total.box]) expect(value).toBeLessThanOrEqual(1)
    expect(title.box[1]).toBeLessThan(total.box[1])
    expect(title.box[0]).toBeLessThan(total.box[0])
    expect(total.box[2]).toBeGreaterThan(total.box[0])
    expect(title.confidence).toBeGreaterThan(0.5)
    expect(title.confidence).toBeLessThanOrEqual(1)
  })
})

describe('PDF pages without a text layer', () => {
  test('an image-only PDF is read by OCR', async () => {
    const pdf = await imagePdf([{ jpeg: toJpeg(receipt) }])
    const document = await readDocument(pdf, MEDIA_TYPES.pdf)
    expect(linesOf(document.pages[0]!)).toEqual(RECEIPT.map((line) => line.replace(/\s+/g, ' ')))
  })

  test("a doubtful scanned page's second reading keeps the PDF's other pages and its words' places on the page", async () => {
    const pdf = await imagePdf([{ text: { lines: ['Cover letter with a text layer'] } }, { png: toPng(receipt) }])
    const reads = readFaintly()
    try {
      const document = await readDocument(pdf, MEDIA_TYPES.pdf, twice)
      const second = document.secondReading!
      expect(second.pages[0]).toBe(document.pages[0]!)
      expect(second.layout![0]).toEqual(document.layout![0]!)
      expect(linesOf(second.pages[1]!)).toContain('BLUE HARBOUR CAFE')
      // The same word on the page, from both readings: boxes as fractions of the page, a few thousandths apart.
      const boxOf = (reading: typeof document, text: string) => {
        const lines = reading.pages[1]!.split('\n')
        return reading.layout![1]!.words.find((word) => lines[word.line]!.slice(word.start, word.end) === text)!.box
      }
      const [first, again] = [boxOf(document, 'HARBOUR'), boxOf(second, 'HARBOUR')]
      for (const [index, value] of first.entries()) expect(Math.abs(value - again[index]!)).toBeLessThan(0.01)
    } finally {
      reads.mockRestore()
    }
  })

  test('a mixed PDF: text pages keep their text layer, scanned pages are recognised', async () => {
    const pdf = await imagePdf([{ text: { lines: ['Cover letter with a text layer'] } }, { png: toPng(receipt) }])
    const document = await readDocument(pdf, MEDIA_TYPES.pdf)
    expect(document.pages).toHaveLength(2)
    expect(linesOf(document.pages[0]!)).toEqual(['Cover letter with a text layer'])
    expect(linesOf(document.pages[1]!)).toContain('Receipt No: R-2291')
    // Text-layer words are certain; recognised words carry their OCR confidence.
    expect(document.layout![0]!.words.every((word) => word.confidence === 1)).toBe(true)
    expect(document.layout![1]!.words.some((word) => word.confidence < 1)).toBe(true)
  })

  test('a scanned page after a text page is read at once in the language the text page shows', async () => {
    const german = ['Rechnung vom 14.03.2024', 'Lieferung für Müller und Söhne', 'Die Rechnung ist zahlbar innerhalb von 14 Tagen']
    const pdf = await imagePdf([{ text: { lines: german } }, { png: toPng(await renderPage({ lines: german })) }])
    const reads = spyOn(tesseract, 'recognise')
    try {
      const document = await readDocument(pdf, MEDIA_TYPES.pdf)
      expect(linesOf(document.pages[1]!)).toContain('Lieferung für Müller und Söhne')
      // No top read in English first: the text page before it already shows German.
      expect(reads.mock.calls.map(([, languages, band]) => [languages.join('+'), band ? 'top' : 'page'])).toEqual([['deu', 'page']])
    } finally {
      reads.mockRestore()
    }
  })
})

describe('limits (D67)', () => {
  test('a PDF with more pages than --max-pages is refused as too_many_pages', async () => {
    const pdf = await PDFDocument.create()
    for (let i = 0; i < 3; i++) pdf.addPage([200, 200]).drawText(`page ${i + 1} of three`, { x: 20, y: 100, size: 12 })
    const error = await readError(await pdf.save(), limits({ maxPages: 2 }))
    expect(error.code).toBe('too_many_pages')
    expect(error.message).toBe('The document has 3 pages; at most 2 are read (--max-pages).')
  })

  test('a TIFF with more frames than --max-pages is refused as too_many_pages', async () => {
    const error = await readError(toTiff([receipt, receipt, receipt]), limits({ maxPages: 2 }))
    expect(error.code).toBe('too_many_pages')
  })

  test('an image larger than the pixel limit is refused from its header, before decoding', async () => {
    // A PNG header claiming 100,000 × 100,000 pixels and no image data at all.
    const header = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0, 8, 0, 0, 0, 0,
    ])
    const error = await readError(header)
    expect(error.code).toBe('image_too_large')
    expect(error.message).toBe('A page of the document is 100000 × 100000 pixels (10000 MP); at most 40 MP are read per page (--max-page-megapixels).')
  })

  test('the pixel limit applies to JPEG, WebP and PDF page images too', async () => {
    const small = limits({ maxPagePixels: 10_000 })
    expect((await readError(toJpeg(receipt), small)).code).toBe('image_too_large')
    expect((await readError(await toWebp(receipt), small)).code).toBe('image_too_large')
    expect((await readError(await imagePdf([{ png: toPng(receipt) }]), small)).code).toBe('image_too_large')
  })

  test('a truncated or garbled image is corrupt_document', async () => {
    const jpeg = toJpeg(receipt)
    expect((await readError(jpeg.subarray(0, 200))).code).toBe('corrupt_document')
    const png = toPng(receipt)
    const garbled = png.slice()
    garbled.fill(7, 40)
    expect((await readError(garbled)).code).toBe('corrupt_document')
  })
})

describe('misread label words', () => {
  test.each([
    ['Tota!', 'Total'],
    ['Totai:', 'Total:'],
    ['iotal', 'total'],
    ['AMOUNI', 'AMOUNT'],
    ['Roundinq', 'Rounding'],
    ['Rechnunq', 'Rechnung'],
  ])('%s is read as %s', (read, meant) => {
    expect(mendLabelWord(read)).toBe(meant)
  })

  test.each(['Total', 'TOTAL', 'Date', 'Dated', 'Latte', 'HARBOUR', '14/03/2024', 'R-2291'])('%s stays as it is', (word) => {
    expect(mendLabelWord(word)).toBeUndefined()
  })
})

describe('misread currency marks', () => {
  const words = (...texts: [string, string][]) => texts.map(([text, line]) => ({ text, line }))

  test('a short word one letter from a mark printed elsewhere on the page, before an amount, is that mark', () => {
    const page = words(['Visa', 'a'], ['RM', 'a'], ['86.00', 'a'], ['Total', 'b'], ['Ri', 'b'], ['86.00', 'b'], ['Gross', 'c'], ['ARM', 'c'], ['86.00', 'c'])
    expect(mendCurrencyMarks(page).map((word) => word.text)).toEqual(['Visa', 'RM', '86.00', 'Total', 'RM', '86.00', 'Gross', 'RM', '86.00'])
  })

  test('nothing changes without a mark on the page, away from an amount, or across lines', () => {
    expect(mendCurrencyMarks(words(['Total', 'a'], ['Ri', 'a'], ['86.00', 'a'])).map((word) => word.text)).toEqual(['Total', 'Ri', '86.00'])
    const page = words(['EUR', 'a'], ['10.00', 'a'], ['EUD', 'b'], ['paid', 'b'], ['EUX', 'c'], ['12', 'd'])
    expect(mendCurrencyMarks(page).map((word) => word.text)).toEqual(['EUR', '10.00', 'EUD', 'paid', 'EUX', '12'])
  })
})

describe('uneven paper', () => {
  /** The page under a shadow: darker and greyer towards the left, as a photo taken by a window. */
  const shaded = (page: Raster): Raster => ({
    ...page,
    data: page.data.map((value, i) => value * (0.35 + (0.6 * (i % page.width)) / page.width)),
  })

  test('the paper is evened out to white while ink keeps its contrast', () => {
    const page: Raster = { width: 400, height: 200, data: new Uint8Array(400 * 200).fill(250) }
    for (let y = 90; y < 110; y++) for (let x = 20; x < 380; x += 40) page.data.fill(20, y * 400 + x, y * 400 + x + 8)
    const flat = flattenBackground(shaded(page))
    const at = (x: number, y: number) => flat.data[y * flat.width + x]!
    for (const x of [5, 100, 200, 300, 395]) expect(at(x, 30)).toBeGreaterThanOrEqual(210)
    for (const x of [22, 102, 222, 342]) expect(at(x, 100)).toBeLessThanOrEqual(60)
  })

  test('a receipt photographed in a shadow is read', async () => {
    const { pages } = await readDocument(toPng(shaded(receipt)), MEDIA_TYPES.png)
    const lines = linesOf(pages[0]!)
    expect(lines).toContain('BLUE HARBOUR CAFE')
    expect(lines.some((line) => line.includes('18.50'))).toBe(true)
  })
})

describe('the top of a first page, read to see its language', () => {
  /** A white page with a line of text (striped ink) on each of the given row spans. */
  const page = (lines: [number, number][], rules = false): Raster => {
    const [width, height] = [1000, 400]
    const data = new Uint8Array(width * height).fill(255)
    for (const [top, bottom] of lines) for (let y = top; y < bottom; y++) for (let x = 10; x < 990; x += 3) data[y * width + x] = 0
    // A table's rules, two pixels wide, down the whole page.
    if (rules) for (let y = 0; y < height; y++) for (const x of [4, 5, 500, 501, 994, 995]) data[y * width + x] = 0
    return { width, height, data }
  }
  const lines: [number, number][] = [
    [20, 40],
    [60, 80],
    [100, 120],
    [140, 160],
  ]

  test('is cut in the gap between lines after a quarter of the ink', () => {
    const cut = blankRowNear(page(lines), 0.25)!
    expect(cut).toBeGreaterThan(40)
    expect(cut).toBeLessThan(60)
  })

  test("a table's rules crossing the gap do not hide it", () => {
    const cut = blankRowNear(page(lines, true), 0.25)!
    expect(cut).toBeGreaterThan(40)
    expect(cut).toBeLessThan(60)
  })

  test('a page without ink, or without a gap near the quarter, is not cut', () => {
    expect(blankRowNear(page([]), 0.25)).toBeUndefined()
    expect(blankRowNear(page([[0, 400]]), 0.25)).toBeUndefined()
  })

  test('a band is the rows it names', () => {
    const band = rows(page(lines), { top: 60, height: 20 })
    expect([band.width, band.height, band.data.length]).toEqual([1000, 20, 20_000])
    expect(band.data[10]).toBe(0)
  })

  test.each([
    ['Rechnung vom 14.03.2024 Kundennummer 88', 'deu'],
    ['Invoice number 2291 Bill to', 'eng'],
    ['Facture n° 12 du 14/03/2024 Montant', 'fra'],
    // Words several languages print tell none.
    ['Total Datum 14.03.2024', undefined],
    ['', undefined],
  ] as const)('%p shows the model %p', (text, model) => {
    expect(modelShown(text.split(' ').map((word) => ({ text: word })))).toBe(model)
  })
})

describe('EXIF orientation', () => {
  // A 3 × 2 image:  1 2 3
  //                 4 5 6
  const image: Raster = { width: 3, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6]) }
  test.each([
    [1, 3, [1, 2, 3, 4, 5, 6]],
    [2, 3, [3, 2, 1, 6, 5, 4]],
    [3, 3, [6, 5, 4, 3, 2, 1]],
    [4, 3, [4, 5, 6, 1, 2, 3]],
    [5, 2, [1, 4, 2, 5, 3, 6]],
    [6, 2, [4, 1, 5, 2, 6, 3]],
    [7, 2, [6, 3, 5, 2, 4, 1]],
    [8, 2, [3, 6, 2, 5, 1, 4]],
  ])('orientation %i is shown upright', (orientation, width, pixels) => {
    const shown = orient(image, orientation)
    expect(shown.width).toBe(width)
    expect([...shown.data]).toEqual(pixels)
  })
})
