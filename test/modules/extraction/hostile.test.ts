/**
 * Hostile documents (D120): every decoder keeps to the budget known before it allocates. Each
 * guard is held on a small crafted file against limits made as small, and a document over the
 * budget fails its job with a documented code.
 */
import { describe, expect, spyOn, test } from 'bun:test'
import jpeg from 'jpeg-js'
import UTIF from 'utif2'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import { detectMediaType, readDocument } from '../../../src/modules/extraction/readers'
import { imagePages } from '../../../src/modules/extraction/readers/ocr/images'
import * as libvips from '../../../src/modules/extraction/readers/ocr/libvips'
import { DEFAULT_READ_LIMITS, MEDIA_TYPES, type ReadLimits } from '../../../src/modules/extraction/readers/types'
import { makeTestApp } from '../../helpers/app'
import {
  docxDeepNesting,
  docxHeaders,
  docxLyingSize,
  greyPage,
  jpegManyScans,
  pdf,
  pdfContentBomb,
  pdfDeepNesting,
  pdfWithImages,
  png,
  tiff,
  tiffLoop,
  tiffSharedStrip,
  zip,
  zipPart,
  zlibZeros,
} from '../../helpers/hostile'
import { renderPage, toJpeg, toPng, toTiff } from '../../helpers/images'

const MiB = 1024 * 1024

const limits = (overrides: Partial<ReadLimits> = {}): ReadLimits => ({ ...DEFAULT_READ_LIMITS, ...overrides })

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

describe('TIFF: image directories are walked with loop and count guards', () => {
  test("the issue's 38-byte TIFF, whose directory names itself as the next, is refused at once", async () => {
    const bytes = tiffLoop()
    expect(bytes.length).toBe(38)
    const error = await failure(bytes)
    expect(error.code).toBe('corrupt_document')
    expect(error.message).toBe('The TIFF has a chain of image directories that loops.')
  })

  test('a chain that loops back to its first directory later on is refused', async () => {
    const page = {
      fields: () => [
        { tag: 256, type: 4 as const, values: [1] },
        { tag: 257, type: 4 as const, values: [1] },
      ],
    }
    const error = await failure(tiff([page, page, { ...page, next: 'first' }]))
    expect(error.message).toBe('The TIFF has a chain of image directories that loops.')
  })

  test('a chain longer than the pages read (and their sub-images) is refused before its pages are looked at', async () => {
    const page = { fields: (at: (i: number) => number) => greyPage(4, 4, at(0), 16) }
    const error = await failure(
      tiff(
        Array.from({ length: 7 }, () => page),
        [new Uint8Array(16)],
      ),
      limits({ maxPages: 2 }),
    )
    expect(error).toMatchObject({ code: 'corrupt_document', message: 'The TIFF has more than 6 image directories.' })
  })

  test('a field whose values lie outside the file is refused (the decoder would read a billion of them)', async () => {
    const bytes = tiff([
      {
        fields: () => [
          { tag: 256, type: 4, values: [1] },
          { tag: 257, type: 4, values: [1] },
          { tag: 273, type: 4, values: [0, 0] },
        ],
      },
    ])
    // The strip offsets field now claims a billion values.
    const view = new DataView(bytes.buffer)
    const entry = 8 + 2 + 2 * 12
    expect(view.getUint16(entry, true)).toBe(273)
    view.setUint32(entry + 4, 1_000_000_000, true)
    expect((await failure(bytes)).message).toBe('The TIFF has a field outside the file.')
  })

  test("pages sharing one strip are counted page by page: the issue's 100 pages of 40 MP fail as document_too_large", async () => {
    const error = await failure(tiffSharedStrip(10, 100, 100), limits({ maxDocumentPixels: 50_000 }))
    expect(error).toMatchObject({
      code: 'document_too_large',
      message: "The document's page images hold 0.1 MP together; at most 0.1 MP are read per document (--max-document-megapixels).",
    })
  })

  test('a Deflate strip that inflates to more than its page is refused before the decoder inflates it', async () => {
    const strip = zlibZeros(4 * MiB)
    const error = await failure(tiff([{ fields: (at) => greyPage(100, 100, at(0), strip.length, 8) }], [strip]))
    expect(error).toMatchObject({ code: 'corrupt_document', message: 'The TIFF holds more image data than its pages declare.' })
  })

  test('a page whose decoding needs more than --max-decode-mb is image_too_large, before it is decoded', async () => {
    const decoded = spyOn(UTIF, 'decodeImage')
    try {
      const error = await failure(tiff([{ fields: (at) => greyPage(1000, 1000, at(0), 1) }], [new Uint8Array(1)]), limits({ maxDecodeBytes: MiB }))
      expect(error.code).toBe('image_too_large')
      // Its rows (1 MB) and the grey page (1 MB): an eight-bit grey page is read without the RGBA copy.
      expect(error.message).toBe('A page image of the document needs 2 MiB to decode; at most 1 MiB are used per document (--max-decode-mb).')
      expect(decoded).not.toHaveBeenCalled()
    } finally {
      decoded.mockRestore()
    }
  })

  test('a sub-directory field that points back at its page is not followed', async () => {
    const bytes = tiff([{ fields: (at) => [...greyPage(8, 8, at(0), 64), { tag: 330, type: 4, values: [8] }] }], [new Uint8Array(64).fill(255)])
    const pages = imagePages(bytes, MEDIA_TYPES.tiff, DEFAULT_READ_LIMITS)
    const page = await pages.decode(0)
    expect([page.width, page.height]).toEqual([8, 8])
  })

  test('pages are decoded one at a time, when each is asked for', async () => {
    const receipt = await renderPage({ lines: ['PAGE'] })
    const decoded = spyOn(UTIF, 'decodeImage')
    try {
      const pages = imagePages(toTiff([receipt, receipt, receipt]), MEDIA_TYPES.tiff, DEFAULT_READ_LIMITS)
      expect(pages.count).toBe(3)
      expect(decoded).toHaveBeenCalledTimes(0)
      const second = await pages.decode(1)
      expect(decoded).toHaveBeenCalledTimes(1)
      expect([second.width, second.height]).toEqual([receipt.width, receipt.height])
      expect(second.data).toEqual(receipt.data)
    } finally {
      decoded.mockRestore()
    }
  })
})

describe('PNG: every header chunk and the image data are checked', () => {
  test("the issue's PNG, a 1 × 1 header followed by a 20000 × 20000 one, is refused: a PNG has one header", async () => {
    const error = await failure(
      png([
        [1, 1],
        [3000, 3000],
      ]),
    )
    expect(error).toMatchObject({ code: 'corrupt_document', message: 'The PNG has more than one image header.' })
  })

  test('a small header with image data that inflates far past it (1000:1) is refused before decoding', async () => {
    const error = await failure(png([[100, 100]], 8 * MiB))
    expect(error).toMatchObject({ code: 'corrupt_document', message: 'The PNG holds more image data than its header declares.' })
  })

  test('a PNG within the pixel limit whose decoding needs more than --max-decode-mb is image_too_large', async () => {
    const bytes = toPng(await renderPage({ lines: ['A RECEIPT'] }))
    const error = await failure(bytes, limits({ maxDecodeBytes: 256 * 1024 }))
    expect(error.code).toBe('image_too_large')
    expect(error.message).toMatch(/^A page image of the document needs \d+ MiB to decode; at most 1 MiB are used per document \(--max-decode-mb\)\.$/)
  })

  test('a header over the pixel limit is image_too_large, as before', async () => {
    expect((await failure(png([[100, 100]]), limits({ maxPagePixels: 5_000 }))).code).toBe('image_too_large')
  })
})

describe('JPEG: the decoder keeps to the budget', () => {
  test('a JPEG whose decoding needs more than --max-decode-mb is image_too_large, measured before it is decoded', async () => {
    const bytes = toJpeg(await renderPage({ lines: ['A RECEIPT', 'TOTAL 9.00'] }, 300))
    const error = await failure(bytes, limits({ maxDecodeBytes: MiB }))
    expect(error).toMatchObject({
      code: 'image_too_large',
      message: 'A page image of the document needs 3 MiB to decode; at most 1 MiB are used per document (--max-decode-mb).',
    })
  })

  test('where libvips cannot be loaded, the built-in decoder keeps to the budget, measured before it is decoded', async () => {
    const unavailable = spyOn(libvips, 'sharpDecoder').mockImplementation(() => null)
    const decoded = spyOn(jpeg, 'decode')
    try {
      const bytes = toJpeg(await renderPage({ lines: ['A RECEIPT', 'TOTAL 9.00'] }, 300))
      const error = await failure(bytes, limits({ maxDecodeBytes: MiB }))
      // jpeg-js keeps every coefficient, 64 to an array: far more than libvips's 3 MiB.
      expect(error.code).toBe('image_too_large')
      expect(error.message).toMatch(/^A page image of the document needs (\d+) MiB to decode; at most 1 MiB are used per document \(--max-decode-mb\)\.$/)
      expect(Number(/needs (\d+) MiB/.exec(error.message)![1])).toBeGreaterThan(10)
      expect(decoded).not.toHaveBeenCalled()
    } finally {
      unavailable.mockRestore()
      decoded.mockRestore()
    }
  })
})

test('a JPEG of more scans than any photo has is refused before decoding (each scan is a pass over the image)', async () => {
  expect(await failure(jpegManyScans(64, 64, 101))).toMatchObject({ code: 'corrupt_document', message: 'The JPEG has 101 scans; at most 100 are read.' })
})

describe('PDF: images and streams are measured before PDF.js decodes them', () => {
  test("the issue's PDF, one 20000 × 20000 Deflate image, is image_too_large before it is decoded", async () => {
    const error = await failure(pdfWithImages(20000, 20000), limits())
    expect(error.code).toBe('image_too_large')
    expect(error.message).toBe('A page of the document is 20000 × 20000 pixels (400 MP); at most 40 MP are read per page (--max-page-megapixels).')
  }, 20_000)

  test('an image within the pixel limit whose decoding needs more than --max-decode-mb is image_too_large', async () => {
    const error = await failure(pdfWithImages(1000, 1000), limits({ maxDecodeBytes: MiB }))
    // Its samples as PDF.js holds them (3 MB), the RGBA copy and the grey page (5 MB).
    expect(error.message).toBe('A page image of the document needs 8 MiB to decode; at most 1 MiB are used per document (--max-decode-mb).')
  })

  test('an image whose size the file gives by reference is measured as PDF.js resolves it', async () => {
    const bytes = pdf([
      { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
      { dictionary: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
      { dictionary: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 7 0 R >>' },
      {
        dictionary: '<< /Type /XObject /Subtype /Image /Width 5 0 R /Height 6 0 R /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode >>',
        stream: zlibZeros(300 * 300),
      },
      { dictionary: '300' },
      { dictionary: '300' },
      { dictionary: '<< >>', stream: new TextEncoder().encode('q 612 0 0 792 0 0 cm /Im0 Do Q') },
    ])
    expect(await failure(bytes, limits({ maxPagePixels: 50_000 }))).toMatchObject({
      code: 'image_too_large',
      message: 'A page of the document is 300 × 300 pixels (0.1 MP); at most 0.1 MP are read per page (--max-page-megapixels).',
    })
  })

  test('a content stream that inflates 1000:1 past the budget is document_too_large before PDF.js opens the file', async () => {
    const error = await failure(pdfContentBomb(8 * MiB), limits({ maxDecodeBytes: 4 * MiB }))
    expect(error).toMatchObject({
      code: 'document_too_large',
      message:
        'A stream of the PDF, as PDF.js holds it while reading it, takes more than 4 MiB when unpacked; at most 4 MiB are used per document (--max-decode-mb).',
    })
  })

  test('arrays nested past the stack are a corrupt document, not a crash', async () => {
    expect((await failure(pdfDeepNesting(100_000))).code).toBe('corrupt_document')
  })
})

describe('DOCX: parts and their inflated size are capped before anything is inflated', () => {
  test("the issue's DOCX, page headers that inflate past the budget together, is document_too_large", async () => {
    const error = await failure(docxHeaders(40, 200 * 1024), limits({ maxDecodeBytes: 4 * MiB }))
    expect(error).toMatchObject({
      code: 'document_too_large',
      message: 'The DOCX’s text parts inflate to more than 4 MiB when unpacked; at most 4 MiB are used per document (--max-decode-mb).',
    })
  })

  test('more page headers than a document has are document_too_large', async () => {
    const error = await failure(docxHeaders(65, 100))
    expect(error).toMatchObject({ code: 'document_too_large', message: 'Page headers in the DOCX: 65; at most 64 are read.' })
  })

  test('a part holding more than the size it declares is refused having inflated no more than that size', async () => {
    const error = await failure(docxLyingSize(64 * MiB, 1000))
    expect(error).toMatchObject({
      code: 'corrupt_document',
      message: 'The DOCX archive could not be unpacked: word/document.xml holds more than the size it declares',
    })
  })

  test('an archive of more entries than any document has is not taken for a DOCX', () => {
    const filler = zipPart('a', new Uint8Array(0))
    const bytes = zip([
      zipPart('word/document.xml', new TextEncoder().encode('<w:document/>')),
      ...Array.from({ length: 10_001 }, (_, i) => ({ ...filler, name: `f${i}` })),
    ])
    expect(detectMediaType(bytes)).toBeUndefined()
  })

  test('elements nested 100,000 deep are read as text, in linear time', async () => {
    const document = await readDocument(docxDeepNesting(100_000), MEDIA_TYPES.docx)
    expect(document.pages).toEqual(['deep'])
  })
})

describe('a job over the budget', () => {
  test('fails with document_too_large, and the server goes on', async () => {
    const t = await makeTestApp({ readLimits: limits({ maxDecodeBytes: 4 * MiB }) })
    const form = new FormData()
    form.append('file', new Blob([docxHeaders(40, 200 * 1024)]), 'letter.docx')
    form.append('extract', JSON.stringify({ document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }))
    const response = await t.call('POST', '/api/v1/extract', { body: form })
    expect(response.status).toBe(200)
    expect(response.body.job).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'document_too_large', message: expect.stringContaining('(--max-decode-mb)') },
    })
    expect((await t.call('GET', '/healthz', { key: null })).status).toBe(200)
  })
})
