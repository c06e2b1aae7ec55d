/**
 * The page recognisers (D160): PaddleOCR's line detector and recogniser on ONNX Runtime, and the
 * mix of its detector with Tesseract's reading of each line, give Tesseract's words — text, box in
 * the image's pixels, confidence — and the pipeline picks one, falling back to Tesseract where
 * ONNX Runtime cannot be loaded. Every image is rendered by the test.
 */
import { beforeAll, describe, expect, setDefaultTimeout, spyOn, test } from 'bun:test'
import { readDocument } from '../../../src/modules/extraction/readers'
import * as onnx from '../../../src/modules/extraction/readers/ocr/onnx'
import * as paddle from '../../../src/modules/extraction/readers/ocr/paddle'
import { decode, detectLines } from '../../../src/modules/extraction/readers/ocr/paddle'
import type { Raster } from '../../../src/modules/extraction/readers/ocr/raster'
import { wordReader } from '../../../src/modules/extraction/readers/ocr/recognisers'
import * as tesseract from '../../../src/modules/extraction/readers/ocr/tesseract'
import type { OcrWord } from '../../../src/modules/extraction/readers/ocr/tesseract'
import { MEDIA_TYPES } from '../../../src/modules/extraction/readers/types'
import { renderPage, rotate, toPng, toTiff } from '../../helpers/images'

setDefaultTimeout(60_000)

const RECEIPT = ['GREEN VALLEY GROCER', 'Invoice No: GV-5521', 'Date: 21/06/2024', 'Apples        3   4.50', 'TOTAL          RM 27.80']
let receipt: Raster

beforeAll(async () => {
  receipt = await renderPage({ lines: RECEIPT }, 200)
})

/** The words of each line, joined with single spaces, in reading order. */
function lineTexts(words: OcrWord[]): string[] {
  const lines = new Map<string, OcrWord[]>()
  for (const word of words) lines.set(word.line, [...(lines.get(word.line) ?? []), word])
  return [...lines.values()].map((line) => line.map((word) => word.text).join(' '))
}

describe('PaddleOCR on ONNX Runtime', () => {
  test('finds each printed line, top to bottom, inside the page', async () => {
    const lines = await detectLines(receipt)
    // The item and total lines have a wide gap: each may be found as two lines.
    expect(lines.length).toBeGreaterThanOrEqual(RECEIPT.length)
    expect(lines.length).toBeLessThanOrEqual(RECEIPT.length + 3)
    for (const [index, line] of lines.entries()) {
      expect(line.cx).toBeGreaterThan(0)
      expect(line.cx).toBeLessThan(receipt.width)
      expect(line.score).toBeGreaterThan(0.6)
      if (index) expect(line.cy).toBeGreaterThanOrEqual(lines[index - 1]!.cy - line.height / 2)
    }
  })

  test("reads the page's words with their boxes in the image's pixels and confidences", async () => {
    const words = await wordReader('paddle').read(receipt, ['eng'])
    const text = lineTexts(words).join('\n')
    expect(text).toContain('GREEN VALLEY GROCER')
    expect(text).toContain('GV-5521')
    expect(text).toContain('21/06/2024')
    expect(text).toContain('27.80')
    const title = words.find((word) => word.text === 'GREEN')!
    const total = words.find((word) => word.text === '27.80')!
    expect(title.left).toBeLessThan(total.left)
    expect(title.top).toBeLessThan(total.top)
    for (const word of [title, total]) {
      expect(word.left).toBeGreaterThanOrEqual(0)
      expect(word.left + word.width).toBeLessThanOrEqual(receipt.width)
      expect(word.height).toBeGreaterThan(10)
      expect(word.confidence).toBeGreaterThan(50)
      expect(word.confidence).toBeLessThanOrEqual(100)
    }
    // "RM" and "27.80" are two words of one line, the first to the left of the second.
    const currency = words.find((word) => word.text === 'RM')!
    expect(currency.line).toBe(total.line)
    expect(currency.left + currency.width).toBeLessThanOrEqual(total.left + 2)
  })

  test('CTC decoding merges repeats, drops blanks, keeps a letter repeated across a blank, and notes a likely space', () => {
    // Classes: 0 blank, then the dictionary, the space last; steps "a a _ a _ b", the second blank maybe a space.
    const classes = 6625
    const steps = [1, 1, 0, 1, 0, 2]
    const probabilities = new Float32Array(steps.length * classes)
    steps.forEach((best, step) => (probabilities[step * classes + best] = 0.9))
    probabilities[4 * classes + classes - 1] = 0.08
    const read = decode(probabilities, steps.length, classes)
    expect(read.map((character) => character.step)).toEqual([0, 3, 5])
    expect(read[0]!.text).toBe(read[1]!.text)
    expect(read[0]!.probability).toBeCloseTo(0.9)
    expect(read.map((character) => character.spaceBefore)).toEqual([0, 0, expect.closeTo(0.08)])
  })
  test('a space read between characters squeezed together leaves a gap the layout reads as a space, not a column (D177)', () => {
    // "ABC DEF" at a pitch of five steps, the space squeezed into three: as the recogniser reads narrow receipt print.
    const at = (text: string, step: number, spaceBefore = 0) => ({ text, step, probability: 0.95, spaceBefore })
    const read = [at('A', 1), at('B', 6), at('C', 11), at(' ', 14, 0.9), at('D', 16), at('E', 21), at('F', 26)]
    const line = { cx: 400, cy: 20, length: 800, height: 24, angle: 0, score: 0.9 }
    const words = paddle.wordsOf(read, { line, data: new Float32Array(0), width: 200 }, 1, 'p.0')
    expect(words.map((word) => word.text)).toEqual(['ABC', 'DEF'])
    const [abc, def] = words as [OcrWord, OcrWord]
    // The layout reads a gap over 0.27 of the line's character width as a space, and one of 1.8 as a column.
    const characterWidth = (abc.width + def.width) / 6
    const gap = (def.left - (abc.left + abc.width)) / characterWidth
    expect(gap).toBeGreaterThan(0.4)
    expect(gap).toBeLessThan(1)
  })
})

describe('the cores a model run takes (D175)', () => {
  test('a job alone takes every core, up to four; jobs running side by side share them, one each at least', () => {
    const running = new Int32Array(new SharedArrayBuffer(4))
    try {
      onnx.shareRunningJobs(running)
      // No job counted yet (a reading outside the pool): alone.
      expect([1, 2, 8, 16].map((cores) => onnx.threadsForRun(cores))).toEqual([1, 2, 4, 4])
      Atomics.store(running, 0, 1)
      expect([1, 2, 8, 16].map((cores) => onnx.threadsForRun(cores))).toEqual([1, 2, 4, 4])
      Atomics.store(running, 0, 2)
      expect([1, 2, 8, 16].map((cores) => onnx.threadsForRun(cores))).toEqual([1, 1, 4, 4])
      Atomics.store(running, 0, 3)
      expect([2, 8].map((cores) => onnx.threadsForRun(cores))).toEqual([1, 2])
      // The operator's --ocr-threads bounds it, above four too.
      onnx.shareRunningJobs(running, 1)
      expect([2, 8].map((cores) => onnx.threadsForRun(cores))).toEqual([1, 1])
      Atomics.store(running, 0, 1)
      onnx.shareRunningJobs(running, 8)
      expect([2, 16].map((cores) => onnx.threadsForRun(cores))).toEqual([2, 8])
    } finally {
      onnx.shareRunningJobs(new Int32Array(new SharedArrayBuffer(4)))
    }
  })
})

describe('PaddleOCR lines read by Tesseract (the mix)', () => {
  test('reads each detected line, its words placed on the page', async () => {
    const words = await wordReader('mix').read(receipt, ['eng'])
    const text = lineTexts(words).join('\n')
    expect(text).toContain('GREEN VALLEY GROCER')
    expect(text).toContain('27.80')
    const total = words.find((word) => word.text === '27.80')!
    expect(total.left).toBeGreaterThan(receipt.width / 3)
    expect(total.top).toBeGreaterThan(receipt.height / 2)
    expect(total.top + total.height).toBeLessThanOrEqual(receipt.height)
  })
})

describe('choosing the recogniser', () => {
  test('the operator names it (--ocr, read in config.ts); auto, the default, is PaddleOCR for English, Tesseract for the languages it has no letters for and for office pages', () => {
    expect(wordReader('mix').name).toBe('mix')
    expect(wordReader('tesseract').name).toBe('tesseract')
    expect(wordReader().name).toBe('paddle')
    expect(wordReader('auto', 'eng').name).toBe('paddle')
    expect(wordReader('auto', 'deu').name).toBe('tesseract')
    expect(wordReader('paddle', 'deu').name).toBe('paddle')
    // An office page (A4 at 150 dpi) is Tesseract's; a receipt's width, or a camera's 72 dpi, is no office page.
    const page = (width: number, dpi?: number): Raster => ({ width, height: width * 1.4, data: new Uint8Array(0), ...(dpi && { dpi }) })
    expect(wordReader('auto', undefined, page(1240, 150)).name).toBe('tesseract')
    expect(wordReader('auto', 'eng', page(1240, 150)).name).toBe('tesseract')
    expect(wordReader('auto', undefined, page(450, 150)).name).toBe('paddle')
    expect(wordReader('auto', undefined, page(3000, 72)).name).toBe('paddle')
    expect(wordReader('auto', undefined, page(3000)).name).toBe('paddle')
    expect(wordReader('paddle', undefined, page(1240, 150)).name).toBe('paddle')
  })

  test('an English document is read by PaddleOCR alone', async () => {
    const reads = spyOn(tesseract, 'recognise')
    try {
      const document = await readDocument(toPng(receipt), MEDIA_TYPES.png)
      const text = document.pages[0]!.replace(/ +/g, ' ')
      expect(text).toContain('GREEN VALLEY GROCER')
      expect(text).toContain('RM 27.80')
      expect(reads).not.toHaveBeenCalled()
    } finally {
      reads.mockRestore()
    }
  })

  test('an English page costs PaddleOCR one reading: its top, read first to see the language, is not read again', async () => {
    const detections = spyOn(paddle, 'detectLines')
    const readings = spyOn(paddle, 'readLines')
    try {
      const document = await readDocument(toPng(receipt), MEDIA_TYPES.png)
      expect(document.pages[0]).toContain('GREEN VALLEY GROCER')
      expect(detections).toHaveBeenCalledTimes(1)
      const detected = (await detections.mock.results[0]!.value) as paddle.TextLine[]
      expect(detected.length).toBeGreaterThanOrEqual(RECEIPT.length)
      // The top's lines, then the others: every detected line read once.
      expect(readings.mock.calls.length).toBe(2)
      expect(readings.mock.calls.flatMap(([, lines]) => lines)).toEqual(detected)
    } finally {
      detections.mockRestore()
      readings.mockRestore()
    }
  })

  test('a German first page, as its top read by PaddleOCR shows, is read by Tesseract with the German model, and so are the pages after it', async () => {
    const page = [
      'Rechnung Nr. 2024-117',
      'Rechnungsdatum: 12.03.2024',
      'Lieferung an: Müller Gärten GmbH',
      'Gesamtbetrag: 1.190,00 Euro',
      'Zahlbar innerhalb von 14 Tagen ohne Abzug',
    ]
    const reads = spyOn(tesseract, 'recognise')
    try {
      // Two frames of a TIFF of no stated size (a PDF page of A4 size would be an office page, Tesseract's from its top on).
      const scan = await renderPage({ lines: page, width: 420 }, 200)
      const document = await readDocument(toTiff([scan, scan]), MEDIA_TYPES.tiff)
      expect(document.pages[0]).toContain('Müller')
      expect(reads.mock.calls.map(([, languages]) => languages.join('+'))).toEqual(['deu', 'deu'])
    } finally {
      reads.mockRestore()
    }
  })

  test('without ONNX Runtime, PaddleOCR and the mix fall back to Tesseract, with a warning', () => {
    const missing = spyOn(onnx, 'onnxRuntime').mockReturnValue(null)
    const warn = spyOn(console, 'warn').mockImplementation(() => {})
    try {
      expect(wordReader('paddle').name).toBe('tesseract')
      expect(wordReader('mix').name).toBe('tesseract')
      expect(wordReader('tesseract').name).toBe('tesseract')
      // One warning for the operator, not one a page.
      expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
        expect.stringContaining('Pages are read with Tesseract alone: ONNX Runtime cannot be loaded'),
      ])
    } finally {
      missing.mockRestore()
      warn.mockRestore()
    }
  })
})

describe('PaddleOCR in the page pipeline', () => {
  test('a page turned upside down or a quarter is read upright', async () => {
    for (const degrees of [180, 90] as const) {
      const document = await readDocument(toPng(rotate(receipt, degrees)), MEDIA_TYPES.png)
      expect(document.pages[0]!.replace(/ +/g, ' ')).toContain('GREEN VALLEY GROCER')
    }
  })
})
