/**
 * A PDF page that is one JPEG (D350–D353): a scan or a phone photo made a PDF is read by the photo
 * path, within the budget a JPEG file is read with, its words on the page as shown; whatever else a
 * crafted file makes of such a page, it is budgeted as PDF.js holds it, as before. The photo is made
 * here (a receipt laid on a dark table, encoded by libvips) and wrapped in PDFs written by hand.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import { detectMediaType, readDocument } from '../../../src/modules/extraction/readers'
import { cutPaper, type PaperFound, photoPoint } from '../../../src/modules/extraction/readers/ocr/paper'
import type { Quad } from '../../../src/modules/extraction/readers/ocr/perspective'
import { type Raster, rotate } from '../../../src/modules/extraction/readers/ocr/raster'
import { placedImage, shownPlacement } from '../../../src/modules/extraction/readers/pdf-photos'
import { DEFAULT_READ_LIMITS, MEDIA_TYPES, type ReadLimits } from '../../../src/modules/extraction/readers/types'
import { makeTestApp, type TestApp } from '../../helpers/app'
import { type ImagePage, imagePagesPdf, jpegClaiming, type PdfObject, pdfJpegClaiming } from '../../helpers/hostile'
import { imagePdf, renderPage, toPng } from '../../helpers/images'

setDefaultTimeout(60_000)

const MiB = 1024 * 1024
const RECEIPT = ['HARBOUR BOOKS LTD', 'Receipt No: HB-5521', 'Date: 21/06/2024', 'TOTAL            18.50']
const FIELDS = { document_type: 'invoice', fields: { invoice_number: 'Receipt number', date: 'Date', total: 'Total paid' } }
/** The photo: 3200 × 2400 pixels (7.7 MP, a photo: more than 3000 on its longest side), placed at 150 dpi. */
const PHOTO = { width: 3200, height: 2400, left: 975, top: 895 }
const PAGE: [number, number] = [(PHOTO.width * 72) / 150, (PHOTO.height * 72) / 150]
/**
 * A budget the photo path keeps to (the photo as decoded, four bytes a pixel: 30 MB) and PDF.js
 * does not (its samples, coefficients, RGBA copy and the grey page: 11 bytes a pixel, 81 MiB).
 */
const BUDGET = 48 * MiB
const limits = (overrides: Partial<ReadLimits> = {}): ReadLimits => ({ ...DEFAULT_READ_LIMITS, maxDecodeBytes: BUDGET, ...overrides })

let receipt: Raster
let photo: Raster
let jpeg: Uint8Array

beforeAll(async () => {
  receipt = await renderPage({ lines: RECEIPT }, 300)
  photo = onTable(receipt)
  jpeg = await encode(photo)
})

/** The receipt lying on a dark table, at PHOTO's place. */
function onTable(paper: Raster): Raster {
  const data = new Uint8Array(PHOTO.width * PHOTO.height)
  for (let y = 0; y < PHOTO.height; y++) for (let x = 0; x < PHOTO.width; x++) data[y * PHOTO.width + x] = 50 + ((x * 7 + y * 13) % 23)
  for (let y = 0; y < paper.height; y++) data.set(paper.data.subarray(y * paper.width, (y + 1) * paper.width), (PHOTO.top + y) * PHOTO.width + PHOTO.left)
  return { width: PHOTO.width, height: PHOTO.height, data }
}

async function encode(raster: Raster): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 1 } })
      .toColourspace('b-w')
      .jpeg({ quality: 85 })
      .toBuffer(),
  )
}

/** A JPEG's image object as img2pdf writes it; `dictionary` replaces what is given. */
function jpegImage(bytes: Uint8Array, [width, height]: [number, number], dictionary = `/Width ${width} /Height ${height} /Filter /DCTDecode`): PdfObject {
  return { dictionary: `<< /Type /XObject /Subtype /Image /ColorSpace /DeviceGray /BitsPerComponent 8 ${dictionary} >>`, stream: bytes }
}

/** A page the image covers, as img2pdf places it. */
const photoPage = (size: [number, number] = PAGE, rotate = 0): ImagePage => ({ content: `q ${size[0]} 0 0 ${size[1]} 0 0 cm /Im0 Do Q`, size, rotate })

const extract = (t: TestApp, bytes: Uint8Array) => extractFile(t, bytes, 'scan.pdf')

async function extractFile(t: TestApp, bytes: Uint8Array, name: string) {
  const form = new FormData()
  form.append('file', new Blob([bytes]), name)
  form.append('extract', JSON.stringify(FIELDS))
  const response = await t.call('POST', '/api/v1/extract', { body: form })
  expect(response.status).toBe(200)
  return response.body.job
}

async function failure(bytes: Uint8Array, readLimits: ReadLimits): Promise<ExtractionError> {
  try {
    await readDocument(bytes, detectMediaType(bytes)!, { limits: readLimits })
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return error as ExtractionError
  }
  throw new Error('expected the document to be refused')
}

/** "18.50" on the receipt's last line, as fractions of the page shown: x 0.49–0.54, y 0.54–0.56, with a margin. */
const TOTAL_BOX = { left: 0.47, top: 0.525, width: 0.09, height: 0.05 }

describe('a PDF page that is one JPEG is read by the photo path (D350)', () => {
  test("under a budget PDF.js would refuse it with, the job succeeds, and a box drawn on the page finds the photo's words there", async () => {
    const bytes = imagePagesPdf([jpegImage(jpeg, [PHOTO.width, PHOTO.height])], [photoPage()])
    // As PDF.js would hold it, the page image needs 59 MiB by its dictionary alone (81 with the JPEG's coefficients): the same
    // photo beside a line of text (not a page that is one JPEG) is refused, as before.
    const beside = imagePagesPdf(
      [jpegImage(jpeg, [PHOTO.width, PHOTO.height])],
      [{ ...photoPage(), content: `${photoPage().content} BT /F1 12 Tf 20 20 Td (Scanned by the front desk) Tj ET` }],
    )
    expect(await failure(beside, limits())).toMatchObject({
      code: 'image_too_large',
      message: 'A page image of the document needs 59 MiB to decode; at most 48 MiB are used per document (--max-decode-mb).',
    })

    const t = await makeTestApp({ readLimits: limits() })
    const job = await extract(t, bytes)
    expect(job.status).toBe('succeeded')
    expect(job.result).toEqual({ invoice_number: 'HB-5521', date: '2024-06-21', total: '18.50' })
    // The receipt lies in the middle of the photo, the photo fills the page: its total is there on the page.
    const region = await t.call('POST', `/api/v1/jobs/${job.id}/region`, { body: { key: 'total', page: 1, box: TOTAL_BOX } })
    expect(region.status).toBe(200)
    expect(region.body.region).toMatchObject({ text: '18.50', value: '18.50' })
  })

  test('a page shown turned (/Rotate 90, as img2pdf writes a phone photo stored sideways) is read upright, its words where the page shows them', async () => {
    // Stored a quarter turn anticlockwise; the page turns it a quarter clockwise.
    const sideways = await encode(rotate(photo, 270))
    const size: [number, number] = [PAGE[1], PAGE[0]]
    const bytes = imagePagesPdf([jpegImage(sideways, [PHOTO.height, PHOTO.width])], [photoPage(size, 90)])
    const t = await makeTestApp({ readLimits: limits() })
    const job = await extract(t, bytes)
    expect(job.result).toEqual({ invoice_number: 'HB-5521', date: '2024-06-21', total: '18.50' })
    const region = await t.call('POST', `/api/v1/jobs/${job.id}/region`, { body: { key: 'total', page: 1, box: TOTAL_BOX } })
    expect(region.body.region).toMatchObject({ text: '18.50', value: '18.50' })
  })

  test('the same photo sent as a JPEG file has its words on the photo as shown, not on the paper cut out of it (D401)', async () => {
    const t = await makeTestApp({ readLimits: limits() })
    const job = await extractFile(t, jpeg, 'IMG_0042.jpg')
    expect(job.result).toEqual({ invoice_number: 'HB-5521', date: '2024-06-21', total: '18.50' })
    // The value's highlight lies on the photo where the receipt prints it, every side of it.
    const { bbox } = job.fields_meta.total
    expect(bbox.left).toBeGreaterThan(TOTAL_BOX.left)
    expect(bbox.top).toBeGreaterThan(TOTAL_BOX.top)
    expect(bbox.left + bbox.width).toBeLessThan(TOTAL_BOX.left + TOTAL_BOX.width)
    expect(bbox.top + bbox.height).toBeLessThan(TOTAL_BOX.top + TOTAL_BOX.height)
    const region = await t.call('POST', `/api/v1/jobs/${job.id}/region`, { body: { key: 'total', page: 1, box: TOTAL_BOX } })
    expect(region.body.region).toMatchObject({ text: '18.50', value: '18.50' })
  })

  test('a JPEG file stored sideways, which OCR reads turned upright, has its words where the stored image shows them (D401)', async () => {
    // Turned a quarter anticlockwise, a point (x, y) of the upright photo is at (y, 1 − x).
    const sideways = await encode(rotate(photo, 270))
    const t = await makeTestApp({ readLimits: limits() })
    const job = await extractFile(t, sideways, 'IMG_0043.jpg')
    expect(job.result).toEqual({ invoice_number: 'HB-5521', date: '2024-06-21', total: '18.50' })
    const box = { left: TOTAL_BOX.top, top: 1 - TOTAL_BOX.left - TOTAL_BOX.width, width: TOTAL_BOX.height, height: TOTAL_BOX.width }
    const region = await t.call('POST', `/api/v1/jobs/${job.id}/region`, { body: { key: 'total', page: 1, box } })
    expect(region.body.region).toMatchObject({ text: '18.50', value: '18.50' })
  })

  test('a mixed PDF (pdf-lib, object streams): a text page, a page that is one JPEG and a PNG scan are each read their way', async () => {
    const bytes = await imagePdf([{ text: { lines: ['Cover letter with a text layer'] } }, { jpeg }, { png: toPng(receipt) }])
    const document = await readDocument(bytes, MEDIA_TYPES.pdf, { limits: limits() })
    expect(document.pages).toHaveLength(3)
    expect(document.pages[0]!.trim()).toBe('Cover letter with a text layer')
    for (const page of [1, 2]) expect(document.pages[page]!).toContain('Receipt No: HB-5521')
    // Under a budget PDF.js would refuse its JPEG with (81 MiB), the JPEG page reads word for word as the JPEG sent alone.
    const alone = await readDocument(jpeg, MEDIA_TYPES.jpeg, { limits: limits() })
    expect(document.pages[1]).toBe(alone.pages[0]!)
    // The photo page's words sit where the receipt lies in the photo; the scan's fill its page.
    const total = (page: number) => {
      const lines = document.pages[page]!.split('\n')
      return document.layout![page]!.words.find((word) => lines[word.line]!.slice(word.start, word.end) === '18.50')!.box
    }
    const [x0, y0, x1, y1] = total(1)
    expect(x0).toBeGreaterThan(TOTAL_BOX.left)
    expect(x1).toBeLessThan(TOTAL_BOX.left + TOTAL_BOX.width)
    expect(y0).toBeGreaterThan(TOTAL_BOX.top)
    expect(y1).toBeLessThan(TOTAL_BOX.top + TOTAL_BOX.height)
    expect(total(2)[1]).toBeGreaterThan(0.6)
  })
})

describe('a crafted page is budgeted as before (D351)', () => {
  test('a JPEG whose header says more than its dictionary is budgeted as PDF.js holds it, the larger size', async () => {
    const bytes = imagePagesPdf([jpegImage(jpeg, [800, 600])], [photoPage()])
    expect(await failure(bytes, limits())).toMatchObject({ code: 'image_too_large', message: expect.stringContaining('needs 81 MiB to decode') })
  })

  test('a JPEG that declares a huge size is refused by the photo path from its header, before anything is decoded', async () => {
    // 12000 × 9000 (108 MP) claimed by a small file: shrunk on load a quarter (26 MiB), with the JPEG and the PDF's copies of its file.
    const claimed = jpegClaiming(jpeg, 12000, 9000)
    const bytes = imagePagesPdf([jpegImage(claimed, [12000, 9000])], [photoPage()])
    expect(await failure(bytes, limits({ maxDecodeBytes: 16 * MiB }))).toMatchObject({
      code: 'image_too_large',
      message: 'A page image of the document needs 29 MiB to decode; at most 16 MiB are used per document (--max-decode-mb).',
    })
  })

  test("a page's JPEG claiming more than a page may hold even shrunk on load is refused so, as the JPEG alone would be", async () => {
    expect(await failure(pdfJpegClaiming(60000, 60000), DEFAULT_READ_LIMITS)).toMatchObject({
      code: 'image_too_large',
      message: 'A page of the document is 7500 × 7500 pixels (56.3 MP); at most 40 MP are read per page (--max-page-megapixels).',
    })
  })

  test('a filter before DCT (Deflate, then the JPEG) is no JPEG page: PDF.js decodes it, and its budget applies', async () => {
    const bytes = imagePagesPdf(
      [jpegImage(deflateSync(jpeg), [PHOTO.width, PHOTO.height], `/Width ${PHOTO.width} /Height ${PHOTO.height} /Filter [/FlateDecode /DCTDecode]`)],
      [photoPage()],
    )
    // Measured from its dictionary before the chain is decoded, as any image is: its samples, the RGBA copy, the grey page.
    expect(await failure(bytes, limits())).toMatchObject({ code: 'image_too_large', message: expect.stringContaining('needs 59 MiB to decode') })
  })

  test('the JPEG of a photo page drawn again on a page PDF.js reads is left out there, not decoded', async () => {
    // Drawn over the whole page with a word of text: no page that is one JPEG, so PDF.js reads it, and would decode it.
    const copy: ImagePage = { ...photoPage(), content: `${photoPage().content} BT /F1 12 Tf 20 20 Td (Copy) Tj ET` }
    const bytes = imagePagesPdf([jpegImage(jpeg, [PHOTO.width, PHOTO.height])], [copy, photoPage()])
    const document = await readDocument(bytes, MEDIA_TYPES.pdf, { limits: limits() })
    // Decoded, its receipt would have been read on the first page as on the second.
    expect(document.pages[0]!.trim()).toBe('Copy')
    expect(document.pages[1]).toContain('Receipt No: HB-5521')
  })

  test('another image of the file as large as the JPEG is refused as before: PDF.js could not be kept from the one and let decode the other', async () => {
    // One bit a pixel: 5.4 bytes a pixel as PDF.js holds it, 40 MiB, within the budget on its own.
    const bits = {
      dictionary: `<< /Type /XObject /Subtype /Image /Width ${PHOTO.width} /Height ${PHOTO.height} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode >>`,
      stream: deflateSync(new Uint8Array((PHOTO.width / 8) * PHOTO.height).fill(255)),
    }
    const scan: ImagePage = { content: `q ${PAGE[0]} 0 0 ${PAGE[1]} 0 0 cm /Im1 Do Q`, size: PAGE }
    const bytes = imagePagesPdf([jpegImage(jpeg, [PHOTO.width, PHOTO.height]), bits], [photoPage(), scan])
    expect(await failure(bytes, limits())).toMatchObject({ code: 'image_too_large', message: expect.stringContaining('needs 59 MiB to decode') })
    // Alone, that scan is read as before.
    const alone = imagePagesPdf([bits], [{ ...scan, content: scan.content.replace('/Im1', '/Im0') }])
    expect((await failure(alone, limits())).code).toBe('no_text_layer')
  })
})

describe('what a page shows (D352)', () => {
  test('only q, Q, cm and one Do: anything else drawn and the page is not one image', () => {
    const encoder = new TextEncoder()
    expect(placedImage(encoder.encode('q 1 0 0 1 10 20 cm q 200 0 0 100 0 0 cm /Im0 Do Q Q'))).toEqual({ name: 'Im0', matrix: [200, 0, 0, 100, 10, 20] })
    for (const content of [
      '/Im0 Do /Im0 Do',
      'q 200 0 0 100 0 0 cm /Im0 Do Q 0 0 m 10 10 l S',
      'BT (a) Tj ET /Im0 Do',
      'q 1 0 0 cm /Im0 Do Q',
      'q 1 0 0 1 0 0 cm Q',
    ])
      expect(placedImage(encoder.encode(content))).toBeUndefined()
  })

  test("a point of the paper cut from a photo is found again where it lies in the photo: its box, or its corners' warp", () => {
    const photo: Raster = { width: 400, height: 300, data: new Uint8Array(400 * 300).fill(60) }
    const dot = { x: 200, y: 150 }
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) photo.data[(dot.y + dy) * photo.width + dot.x + dx] = 255
    const quad: Quad = [
      { x: 50, y: 40 },
      { x: 330, y: 60 },
      { x: 350, y: 260 },
      { x: 40, y: 240 },
    ]
    for (const paper of [
      { corners: quad, inset: 2 },
      { left: 30, top: 20, width: 300, height: 250 },
    ] as PaperFound[]) {
      const cut = cutPaper(photo, paper)
      const brightest = cut.data.indexOf(Math.max(...cut.data))
      const found = photoPoint(paper, { x: (brightest % cut.width) + 0.5, y: Math.floor(brightest / cut.width) + 0.5 })
      expect(Math.hypot(found.x - (dot.x + 0.5), found.y - (dot.y + 0.5))).toBeLessThan(1.5)
    }
  })

  test('an image is placed on the page as shown: its /Rotate, a cm that turns it; skewed or mirrored it is not read so', () => {
    const letter: [number, number, number, number] = [0, 0, 612, 792]
    expect(shownPlacement([612, 0, 0, 792, 0, 0], letter, 0)).toEqual({ turn: 0, box: { left: 0, top: 0, width: 1, height: 1 } })
    // Half the page, its top half: shown turned a quarter, it is the right half of the page shown.
    expect(shownPlacement([612, 0, 0, 396, 0, 396], letter, 90)).toEqual({ turn: 90, box: { left: 0.5, top: 0, width: 0.5, height: 1 } })
    // Rows running down the page: the image turned a quarter clockwise.
    expect(shownPlacement([0, -792, 612, 0, 0, 792], letter, 0)?.turn).toBe(90)
    expect(shownPlacement([612, 0, 100, 792, 0, 0], letter, 0)).toBeUndefined()
    expect(shownPlacement([-612, 0, 0, 792, 612, 0], letter, 0)).toBeUndefined()
  })
})
