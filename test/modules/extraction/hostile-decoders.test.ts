/**
 * The second round of hostile files (issue 30, D180–D185, D187): what each decoder really takes is
 * known before it allocates. Each attack is made here a thousand times smaller and read against
 * limits made as small: the refusal names its code and the budget it needed, from the same
 * arithmetic the readers use; what is harmless is read.
 */
import { describe, expect, spyOn, test } from 'bun:test'
import sharp from 'sharp'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import { detectMediaType, readDocument } from '../../../src/modules/extraction/readers'
import * as inflater from '../../../src/modules/extraction/readers/inflate'
import { jpegCoefficientBytes, jpegFrame } from '../../../src/modules/extraction/readers/ocr/jpeg-header'
import { imagePages } from '../../../src/modules/extraction/readers/ocr/images'
import { DEFAULT_READ_LIMITS, MEDIA_TYPES, type ReadLimits } from '../../../src/modules/extraction/readers/types'
import {
  heicGrid,
  heifCodedImage,
  jpegProgressive,
  pdf,
  pdfContentBomb,
  pngWithCompressedChunk,
  STREAM_SPELLINGS,
  tiffSharedStrip,
  webpLossless,
  zlibZeros,
} from '../../helpers/hostile'

const MiB = 1024 * 1024
const limits = (overrides: Partial<ReadLimits> = {}): ReadLimits => ({ ...DEFAULT_READ_LIMITS, ...overrides })
const HEIC = new Uint8Array(await Bun.file(new URL('../../fixtures/example.heic', import.meta.url)).arrayBuffer())

/** The ExtractionError reading `bytes` ends with. */
async function failure(bytes: Uint8Array, readLimits: ReadLimits = DEFAULT_READ_LIMITS): Promise<ExtractionError> {
  const mediaType = detectMediaType(bytes)
  expect(mediaType).toBeDefined()
  try {
    await readDocument(bytes, mediaType!, { limits: readLimits })
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return error as ExtractionError
  }
  throw new Error('expected the document to be refused')
}

/** The refusal of an image over its budget, with the MiB it needed. */
const needs = (bytes: number, budget: number) =>
  `A page image of the document needs ${Math.ceil(bytes / MiB)} MiB to decode; at most ${budget} MiB are used per document (--max-decode-mb).`

describe('PNG: ancillary chunks are never inflated (D181)', () => {
  for (const type of ['iCCP', 'zTXt', 'iTXt'] as const)
    test(`a PNG whose ${type} chunk inflates to 64 MiB is read under a budget of 1 MiB, its image data inflated alone`, async () => {
      const inflated = spyOn(inflater, 'inflate')
      try {
        const pages = imagePages(pngWithCompressedChunk(type, 64 * MiB, 200, 100), MEDIA_TYPES.png, limits({ maxDecodeBytes: MiB }))
        const page = await pages.decode(0)
        expect([page.width, page.height]).toEqual([200, 100])
        expect(page.data.every((value) => value === 0)).toBe(true)
        // Once, for the image data, with its rows (a filter byte and 200 samples each) as the ceiling.
        expect(inflated).toHaveBeenCalledTimes(1)
        expect(inflated.mock.calls[0]![2]).toBe(100 * 201)
      } finally {
        inflated.mockRestore()
      }
    })

  test('a PNG is decoded to the grey its samples give, palettes of one bit and interlacing included', async () => {
    const rgb = new Uint8Array(60 * 20 * 3)
    for (let i = 0; i < 60 * 20; i++) rgb.fill(i % 7 < 3 ? 0 : 255, i * 3, i * 3 + 3)
    const raw = { raw: { width: 60, height: 20, channels: 3 as const } }
    for (const encoded of [
      await sharp(rgb, raw).png().toBuffer(),
      await sharp(rgb, raw).png({ progressive: true }).toBuffer(),
      await sharp(rgb, raw).png({ palette: true, colours: 2 }).toBuffer(),
      await sharp(rgb, raw).png({ palette: true, colours: 2, progressive: true }).toBuffer(),
    ]) {
      const page = await imagePages(new Uint8Array(encoded), MEDIA_TYPES.png, DEFAULT_READ_LIMITS).decode(0)
      expect(Array.from(page.data.subarray(0, 14))).toEqual([0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255])
    }
  })

  test('the budget counts the inflated rows twice, the image data and the grey page', async () => {
    const bytes = pngWithCompressedChunk('iCCP', 1000, 1000, 1000)
    // Rows of a filter byte and 1000 samples, twice; the grey page; the compressed data (~1 KB).
    const idat = bytes.length - 1000
    expect((await failure(bytes, limits({ maxDecodeBytes: MiB }))).message).toBe(needs(2 * 1000 * 1001 + 1000 * 1000 + idat, 1))
  })
})

describe('PDF: every stream is measured however it is written (D182)', () => {
  for (const spelling of STREAM_SPELLINGS) {
    test(`a content stream that inflates past the budget, written ${spelling}, is document_too_large before PDF.js opens the file`, async () => {
      expect(await failure(pdfContentBomb(8 * MiB, spelling), limits({ maxDecodeBytes: 4 * MiB }))).toMatchObject({
        code: 'document_too_large',
        message:
          'A stream of the PDF, as PDF.js holds it while reading it, takes more than 4 MiB when unpacked; at most 4 MiB are used per document (--max-decode-mb).',
      })
    })
  }

  test('every one of those spellings is one PDF.js reads: within the budget, its text is read', async () => {
    for (const spelling of STREAM_SPELLINGS) {
      const document = await readDocument(pdfContentBomb(1000, spelling), MEDIA_TYPES.pdf)
      expect(document.pages[0]).toContain('Invoice 42')
    }
  })

  test('the streams of a PDF other than images are counted together, against twice the budget', async () => {
    // Ten pages, each a content stream of 3.4 MiB: each within a budget of 16 MiB (held 4.5 times over), together past 32 MiB.
    const stream = zlibZeros(3.4 * MiB, 0x20)
    const pages = Array.from({ length: 10 }, (_, i) => ({ dictionary: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${13 + i} 0 R >>` }))
    const bytes = pdf([
      { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
      { dictionary: `<< /Type /Pages /Kids [${pages.map((_, i) => `${3 + i} 0 R`).join(' ')}] /Count 10 >>` },
      ...pages,
      ...pages.map(() => ({ dictionary: '<< /Filter /FlateDecode >>', stream })),
    ])
    expect(await failure(bytes, limits({ maxDecodeBytes: 16 * MiB }))).toMatchObject({
      code: 'document_too_large',
      message: 'The streams of the PDF other than images unpack to more than 32 MiB together; at most twice --max-decode-mb are read per document.',
    })
  })
})

describe('JPEG: a progressive JPEG is budgeted with every coefficient of the full image (D183)', () => {
  test('a 2 MB-class progressive JPEG that shrinks on load still needs its coefficients, and says so', async () => {
    const bytes = jpegProgressive(8000, 8000, 1)
    const frame = jpegFrame(bytes)!
    expect(frame.progressive).toBe(true)
    // 1000 × 1000 blocks of 64 coefficients, two bytes each: 122 MiB, whatever the image shrinks to.
    expect(jpegCoefficientBytes(frame)).toBe(1000 * 1000 * 128)
    // Shrunk on load to 4000 × 4000 (what OCR needs): three channels and the grey page; the coefficients with a tenth more for libjpeg's rows.
    const expected = Math.ceil(1000 * 1000 * 128 * 1.1) + 4000 * 4000 * 4 + bytes.length
    expect(await failure(bytes, limits({ maxDecodeBytes: 64 * MiB }))).toMatchObject({ code: 'image_too_large', message: needs(expected, 64) })
  })

  test('a baseline JPEG of the same size is not charged for coefficients it never holds', async () => {
    const progressive = await failure(jpegProgressive(4000, 4000, 3), limits({ maxDecodeBytes: MiB }))
    const baselineBytes = new Uint8Array(
      await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer(),
    )
    const baseline = await failure(baselineBytes, limits({ maxDecodeBytes: MiB }))
    const mib = (error: ExtractionError) => Number(/needs (\d+) MiB/.exec(error.message)![1])
    // Colour 4:2:0: one and a half components' coefficients, 48 MB, on top of the 16 MB both take.
    expect(mib(progressive) - mib(baseline)).toBeGreaterThanOrEqual(48)
  })
})

describe('WebP: budgeted as libwebp in WebAssembly holds it (D185)', () => {
  test('a lossless WebP of a few hundred bytes costs 23 bytes a pixel, and is refused past the budget', async () => {
    const bytes = await webpLossless(2000, 2000)
    expect(bytes.length).toBeLessThan(2000)
    expect(await failure(bytes, limits({ maxDecodeBytes: 64 * MiB }))).toMatchObject({
      code: 'image_too_large',
      message: needs(2000 * 2000 * 23 + 2 * bytes.length, 64),
    })
  })

  test('a lossy WebP of the same size costs 11 bytes a pixel, and is read under that budget', async () => {
    const bytes = new Uint8Array(
      await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#fff' } })
        .webp()
        .toBuffer(),
    )
    const page = await imagePages(bytes, MEDIA_TYPES.webp, limits({ maxDecodeBytes: 64 * MiB })).decode(0)
    expect([page.width, page.height]).toEqual([2000, 2000])
  })
})

describe('HEIC: what the primary image is made of is read from the boxes before libheif decodes (D184)', () => {
  const tile = heifCodedImage(HEIC, 'smallest')
  const photo = heifCodedImage(HEIC)

  test('a grid of more tiles than a phone photo has is refused before any is decoded', async () => {
    expect(await failure(heicGrid(tile, 31, 32, 2000, 2000))).toMatchObject({
      code: 'image_too_large',
      message: 'The HEIF image is made of 992 coded images (tiles); at most 256 are decoded per page.',
    })
  })

  test('tiles holding more pixels than the page may are refused, even when the grid crops them to a small canvas', async () => {
    // Four 1280 × 854 tiles (4.4 MP) laid out for a canvas of 1000 × 1000.
    expect(await failure(heicGrid(photo, 2, 2, 1000, 1000), limits({ maxPagePixels: 2_000_000 }))).toMatchObject({
      code: 'image_too_large',
      message: 'The tiles of the HEIF image hold 4.4 MP; at most 2.5 MP are decoded per page (--max-page-megapixels).',
    })
  })

  test("a grid is budgeted with its tiles' planes, its canvas and what libheif gives back", async () => {
    const bytes = heicGrid(photo, 2, 2)
    const pixels = 2560 * 1708
    expect(await failure(bytes, limits({ maxDecodeBytes: 16 * MiB }))).toMatchObject({
      code: 'image_too_large',
      message: needs(Math.ceil(pixels * 1.5 + pixels * 1.5 + pixels * 12.5) + bytes.length, 16),
    })
  })

  test('a grid within the limits is decoded', async () => {
    const page = await imagePages(heicGrid(photo, 1, 1), MEDIA_TYPES.heic, DEFAULT_READ_LIMITS).decode(0)
    expect(page.width * page.height).toBeGreaterThan(0)
  })
})

describe('TIFF: the pages of a document are decoded one after another, within its budget and its time (D180, D187)', () => {
  test("the issue's 25 pages of 40 MP (the document limit) are refused up front: they would take longer than a job may run", async () => {
    expect(await failure(tiffSharedStrip(25, 8000, 5000))).toMatchObject({
      code: 'document_too_large',
      message: "The document's page images hold 1000 MP together, about 500 s of reading at 0.5 s a megapixel; a job may run 300 s (--job-timeout).",
    })
  })

  test("the time is the job's: 25 pages of 0.4 MP take about 5 s, within 6 s and not within 4 s", () => {
    const bytes = tiffSharedStrip(25, 800, 500)
    expect(imagePages(bytes, MEDIA_TYPES.tiff, limits({ maxReadSeconds: 6 })).count).toBe(25)
    expect(() => imagePages(bytes, MEDIA_TYPES.tiff, limits({ maxReadSeconds: 4 }))).toThrow(
      "The document's page images hold 10 MP together, about 5 s of reading at 0.5 s a megapixel; a job may run 4 s (--job-timeout).",
    )
  })

  test('a Deflate page is budgeted with its strip as the inflater holds it, three times', async () => {
    // Rows (1 MB), the strip inflated (3 MB), the grey page (1 MB): an eight-bit grey page has no RGBA copy.
    expect((await failure(tiffSharedStrip(1, 1000, 1000), limits({ maxDecodeBytes: MiB }))).message).toBe(needs(5_000_000, 1))
  })

  test('a page after others counts the grey pages of the two before it, which may still be held (D395)', async () => {
    // The first page takes 5 MB, the second 6 MB (the first's grey page held), the third and after 7 MB.
    const budget = (mebibytes: number) => limits({ maxDecodeBytes: mebibytes * MiB })
    expect((await failure(tiffSharedStrip(2, 1000, 1000), budget(5))).message).toBe(needs(6_000_000, 5))
    expect((await failure(tiffSharedStrip(4, 1000, 1000), budget(6))).message).toBe(needs(7_000_000, 6))
    expect(imagePages(tiffSharedStrip(4, 1000, 1000), MEDIA_TYPES.tiff, budget(7)).count).toBe(4)
  })

  test('pages are decoded each as asked, and each is the page its strip gives', async () => {
    const pages = imagePages(tiffSharedStrip(3, 300, 200), MEDIA_TYPES.tiff, DEFAULT_READ_LIMITS)
    for (let index = 0; index < pages.count; index++) {
      const page = await pages.decode(index)
      expect([page.width, page.height]).toEqual([300, 200])
    }
  })
})
