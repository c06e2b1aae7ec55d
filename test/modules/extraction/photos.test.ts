/**
 * Photos as phones send them (D156–D158): large JPEGs decoded shrunk on load, EXIF orientation,
 * HEIC, and the receipt found in the photo. The photos are made here: a rendered receipt laid on
 * a dark, textured table and encoded by libvips; the HEIC is libheif's own example image.
 */
import { beforeAll, describe, expect, setDefaultTimeout, spyOn, test } from 'bun:test'
import jpegJs from 'jpeg-js'
import sharp from 'sharp'
import { detectMediaType, readDocument } from '../../../src/modules/extraction/readers'
import { imagePages } from '../../../src/modules/extraction/readers/ocr/images'
import { findPaper } from '../../../src/modules/extraction/readers/ocr/paper'
import { PHOTO_LONGEST_SIDE } from '../../../src/modules/extraction/readers/ocr/photo'
import { type Raster, rotate } from '../../../src/modules/extraction/readers/ocr/raster'
import { DEFAULT_READ_LIMITS, MEDIA_TYPES } from '../../../src/modules/extraction/readers/types'
import { makeTestApp } from '../../helpers/app'
import { renderPage, toJpeg } from '../../helpers/images'

setDefaultTimeout(60_000)

const RECEIPT = ['HARBOUR BOOKS LTD', 'Receipt No: HB-5521', 'Date: 21/06/2024', 'TOTAL            18.50']
const FIELDS = { document_type: 'invoice', fields: { invoice_number: 'Receipt number', date: 'Date', total: 'Total paid' } }
const HEIC = new Uint8Array(await Bun.file(new URL('../../fixtures/example.heic', import.meta.url)).arrayBuffer())

/** A dark wood-like table: stripes and a fine grain, never brighter than mid-grey. */
function table(width: number, height: number): Raster {
  const data = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    for (let x = 0, at = y * width; x < width; x++, at++) data[at] = 45 + ((x * 7 + y * 13) % 29) + (((x >> 6) + (y >> 4)) & 1) * 25
  }
  return { width, height, data }
}

/** The paper laid on the table with its top-left corner at (left, top). */
function lay(paper: Raster, on: Raster, left: number, top: number): Raster {
  for (let y = 0; y < paper.height; y++) on.data.set(paper.data.subarray(y * paper.width, (y + 1) * paper.width), (top + y) * on.width + left)
  return on
}

/** A phone's JPEG of a grey photo, with the EXIF orientation given. */
async function phoneJpeg(photo: Raster, orientation = 1): Promise<Uint8Array> {
  const encoded = sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 1 } }).jpeg({ quality: 85 })
  return new Uint8Array(await (orientation === 1 ? encoded : encoded.withMetadata({ orientation })).toBuffer())
}

let receipt: Raster
let bigPhoto: Uint8Array

beforeAll(async () => {
  // 300 points wide at 480 dpi: 2000 px, a third of a 48 MP photo's width.
  receipt = await renderPage({ lines: RECEIPT }, 480)
  bigPhoto = await phoneJpeg(lay(receipt, table(6000, 8000), 2100, 3300))
})

describe('large phone photos (D156)', () => {
  test('a 48 MP JPEG is decoded shrunk on load and cut to the receipt in it', async () => {
    const pages = imagePages(bigPhoto, MEDIA_TYPES.jpeg, DEFAULT_READ_LIMITS)
    const page = await pages.decode(0)
    // Shrunk to PHOTO_LONGEST_SIDE (0.375), then cut to the receipt, just inside its edge.
    const shrunk = PHOTO_LONGEST_SIDE / 8000
    expect(page.width).toBeGreaterThan(receipt.width * shrunk * 0.95)
    expect(page.width).toBeLessThanOrEqual(receipt.width * shrunk)
    expect(page.height).toBeGreaterThan(receipt.height * shrunk * 0.9)
    expect(page.height).toBeLessThanOrEqual(receipt.height * shrunk)
  })

  test('through the API, the photo is extracted like a scan', async () => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/extract', { body: form(bigPhoto, 'IMG_0412.jpg') })
    expect(response.status).toBe(200)
    const job = response.body.job
    expect(job.status).toBe('succeeded')
    expect(job.file).toMatchObject({ name: 'IMG_0412.jpg', media_type: 'image/jpeg' })
    expect(job.result).toEqual({ invoice_number: 'HB-5521', date: '2024-06-21', total: '18.50' })
  })

  test('its EXIF orientation is applied: a photo stored sideways comes out upright', async () => {
    // Stored a quarter turn anticlockwise, and tagged 6: shown turned a quarter clockwise.
    const sideways = rotate(lay(receipt, table(3600, 4400), 800, 1200), 270)
    const jpeg = await phoneJpeg(sideways, 6)
    const page = await imagePages(jpeg, MEDIA_TYPES.jpeg, DEFAULT_READ_LIMITS).decode(0)
    expect(page.width).toBeGreaterThan(page.height * 1.5) // the receipt is wider than tall
    const text = await readDocument(jpeg, MEDIA_TYPES.jpeg, { limits: DEFAULT_READ_LIMITS })
    expect(text.pages[0]).toContain('HARBOUR BOOKS LTD')
  })

  test('a JPEG too large even shrunk on load is refused as image_too_large from its header, not as corrupt', async () => {
    // A small JPEG whose frame header is rewritten to claim 65,000 × 65,000 pixels (4.2 GP).
    const jpeg = toJpeg({ width: 16, height: 16, data: new Uint8Array(256).fill(200) })
    const frame = jpeg.findIndex((byte, at) => byte === 0xff && jpeg[at + 1] === 0xc0)
    jpeg.set([0xfd, 0xe8, 0xfd, 0xe8], frame + 5)
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/extract', { body: form(jpeg, 'huge.jpg') })
    expect(response.body.job.status).toBe('failed')
    expect(response.body.job.error.code).toBe('image_too_large')
    expect(response.body.job.error.message).toBe(
      'A page of the document is 8125 × 8125 pixels (66 MP); at most 40 MP are read per page (--max-page-megapixels).',
    )
  })
})

test('a JPEG the built-in decoder misreads is decoded by libvips instead', async () => {
  const scan = toJpeg(receipt)
  // jpeg-js refuses some valid baseline JPEGs so; this one it would read, so it is made to refuse.
  const refuses = spyOn(jpegJs, 'decode').mockImplementation(() => {
    throw new Error('invalid huffman sequence')
  })
  try {
    const page = await imagePages(scan, MEDIA_TYPES.jpeg, DEFAULT_READ_LIMITS).decode(0)
    expect(refuses).toHaveBeenCalledTimes(1)
    expect({ width: page.width, height: page.height }).toEqual({ width: receipt.width, height: receipt.height })
  } finally {
    refuses.mockRestore()
  }
})

describe('HEIC (D157)', () => {
  test('a HEIC photo is recognised from its bytes and decoded', async () => {
    expect(detectMediaType(HEIC)).toBe(MEDIA_TYPES.heic)
    const page = await imagePages(HEIC, MEDIA_TYPES.heic, DEFAULT_READ_LIMITS).decode(0)
    expect(page.width * page.height).toBeGreaterThan(100_000)
    const levels = new Set(page.data)
    expect(levels.size).toBeGreaterThan(100) // a photo, not a blank
  })

  test('through the API, a HEIC is decoded and read: this one, a landscape with no print, ends as empty_document', async () => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/extract', { body: form(HEIC, 'IMG_0001.HEIC') })
    expect(response.status).toBe(200)
    expect(response.body.job.file).toMatchObject({ name: 'IMG_0001.HEIC', media_type: 'image/heic' })
    expect(response.body.job.status).toBe('failed')
    expect(response.body.job.error).toEqual({ code: 'empty_document', message: 'The document contains no text.' })
  })

  test('a cut-off HEIC fails as corrupt_document, and an AVIF (HEIF of another coding) is refused with 415', async () => {
    const t = await makeTestApp()
    const cut = await t.call('POST', '/api/v1/extract', { body: form(HEIC.slice(0, 4000), 'cut.heic') })
    expect(cut.body.job.status).toBe('failed')
    expect(cut.body.job.error.code).toBe('corrupt_document')
    const avif = HEIC.slice(0, 64)
    avif.set(new TextEncoder().encode('avifmif1avif'), 8) // major brand avif, compatible mif1 and avif
    avif.set(new TextEncoder().encode('avif'), 20)
    avif.set(new TextEncoder().encode('avif'), 24)
    const refused = await t.call('POST', '/api/v1/extract', { body: form(avif, 'photo.avif') })
    expect(refused.status).toBe(415)
    expect(refused.body.code).toBe('unsupported_media_type')
  })
})

describe('the receipt found in the photo (D158)', () => {
  test('a white receipt on a dark textured table is cut out, just inside its edge', () => {
    const paper: Raster = { width: 400, height: 900, data: new Uint8Array(400 * 900).fill(235) }
    for (let y = 100; y < 800; y += 40) paper.data.fill(30, y * 400 + 40, y * 400 + 300) // lines of print
    const page = findPaper(lay(paper, table(1500, 2000), 500, 600))
    expect(page.width).toBeGreaterThanOrEqual(380)
    expect(page.width).toBeLessThanOrEqual(400)
    expect(page.height).toBeGreaterThanOrEqual(870)
    expect(page.height).toBeLessThanOrEqual(900)
    // Nothing of the table is left: every pixel is paper or print.
    expect(page.data.every((value) => value === 235 || value === 30)).toBe(true)
    // All the print is kept: the first line 100 px down the paper, 40 px in.
    const dark = page.data.filter((value) => value === 30).length
    expect(dark).toBe(18 * 260)
  })

  test('a scan, all paper, is left whole', () => {
    const scan: Raster = { width: 600, height: 1200, data: new Uint8Array(600 * 1200).fill(240) }
    for (let y = 100; y < 1100; y += 50) scan.data.fill(20, y * 600 + 50, y * 600 + 500)
    expect(findPaper(scan)).toBe(scan)
  })
})

function form(bytes: Uint8Array, name: string): FormData {
  const body = new FormData()
  body.append('file', new Blob([bytes]), name)
  body.append('extract', JSON.stringify(FIELDS))
  return body
}
