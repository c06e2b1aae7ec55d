/**
 * Photos as phones send them (D156–D158, D164): large JPEGs decoded shrunk on load, EXIF
 * orientation, HEIC, and the receipt found in the photo and straightened. The photos are made
 * here: a rendered receipt laid on a dark, textured table (or seen at an angle, through a
 * projective map) and encoded by libvips; the HEIC is libheif's own example image.
 */
import { beforeAll, describe, expect, setDefaultTimeout, spyOn, test } from 'bun:test'
import jpegJs from 'jpeg-js'
import sharp from 'sharp'
import { detectMediaType, readDocument } from '../../../src/modules/extraction/readers'
import { imagePages } from '../../../src/modules/extraction/readers/ocr/images'
import * as libvips from '../../../src/modules/extraction/readers/ocr/libvips'
import { findPaper, locatePaper, type PaperFound } from '../../../src/modules/extraction/readers/ocr/paper'
import { PHOTO_LONGEST_SIDE } from '../../../src/modules/extraction/readers/ocr/photo'
import { inverseMap, squareToQuad } from '../../../src/modules/extraction/readers/ocr/perspective'
import { flattenBackground, type Raster, rotate } from '../../../src/modules/extraction/readers/ocr/raster'
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

describe('JPEG scans (D176)', () => {
  /** The JPEG with its JFIF header saying `dpi` dots per inch. */
  function withDpi(bytes: Uint8Array, dpi: number): Uint8Array {
    const copy = bytes.slice()
    expect(String.fromCharCode(...copy.subarray(6, 10))).toBe('JFIF')
    copy.set([1, dpi >> 8, dpi & 0xff, dpi >> 8, dpi & 0xff], 13)
    return copy
  }

  test('a scan is decoded by libvips at full size, keeping its resolution, as the built-in decoder would read it', async () => {
    const scan = withDpi(toJpeg(receipt), 150)
    const builtIn = spyOn(jpegJs, 'decode')
    try {
      const page = await imagePages(scan, MEDIA_TYPES.jpeg, DEFAULT_READ_LIMITS).decode(0)
      expect(builtIn).not.toHaveBeenCalled()
      expect({ width: page.width, height: page.height, dpi: page.dpi }).toEqual({ width: receipt.width, height: receipt.height, dpi: 150 })
      let difference = 0
      for (let i = 0; i < page.data.length; i++) difference += Math.abs(page.data[i]! - receipt.data[i]!)
      expect(difference / page.data.length).toBeLessThan(3)
    } finally {
      builtIn.mockRestore()
    }
  })

  test('where libvips cannot be loaded, the built-in decoder reads the scan, resolution and all', async () => {
    const scan = withDpi(toJpeg(receipt), 150)
    const unavailable = spyOn(libvips, 'sharpDecoder').mockImplementation(() => null)
    const builtIn = spyOn(jpegJs, 'decode')
    try {
      const page = await imagePages(scan, MEDIA_TYPES.jpeg, DEFAULT_READ_LIMITS).decode(0)
      expect(builtIn).toHaveBeenCalledTimes(1)
      expect({ width: page.width, height: page.height, dpi: page.dpi }).toEqual({ width: receipt.width, height: receipt.height, dpi: 150 })
    } finally {
      unavailable.mockRestore()
      builtIn.mockRestore()
    }
  })
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
    const page = findPaper(lay(paper, table(1500, 2000), 500, 600)).page
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
    expect(findPaper(scan).page).toBe(scan)
  })
})

describe('the receipt straightened (D164)', () => {
  type Corner = { x: number; y: number }
  interface Shot {
    /** Where the paper's corners fall in the photo: top left, top right, bottom right, bottom left. */
    corners: [Corner, Corner, Corner, Corner]
    width: number
    height: number
    /** Light falling off from the top left: the bottom right gets this share of it. */
    dimmest?: number
    /** Paper corners rounded with this radius, in pixels of the paper. */
    rounded?: number
    /** The bottom left corner torn off, this far along both edges, in pixels of the paper. */
    torn?: number
    /** Whether to draw more, in photo coordinates, over the photo: a finger, a hand. */
    over?: (x: number, y: number) => number | undefined
  }

  /** A paper of `width` × `height` with lines of print every 30 px, of lengths that vary. */
  function printed(width: number, height: number): Raster {
    const data = new Uint8Array(width * height).fill(245)
    for (let top = 60, line = 0; top + 12 < height - 60; top += 30, line++) {
      for (let y = top; y < top + 12; y++) data.fill(35, y * width + 40, y * width + width - 60 - (line % 3) * 80)
    }
    return { width, height, data }
  }

  /**
   * The paper photographed: every pixel of the photo is looked up on the paper through the map
   * from the photo's quadrilateral back to the paper's rectangle (or is table), then lit.
   */
  function photograph(paper: Raster, shot: Shot): Raster {
    const back = inverseMap(squareToQuad(shot.corners))
    const photo = table(shot.width, shot.height)
    const r = shot.rounded ?? 0
    for (let y = 0; y < shot.height; y++) {
      for (let x = 0; x < shot.width; x++) {
        const at = y * shot.width + x
        const [px, py] = [x + 0.5, y + 0.5]
        const w = back[6] * px + back[7] * py + back[8]
        const u = ((back[0] * px + back[1] * py + back[2]) / w) * paper.width
        const v = ((back[3] * px + back[4] * py + back[5]) / w) * paper.height
        const inside = u >= 0 && v >= 0 && u < paper.width && v < paper.height && u + (paper.height - v) >= (shot.torn ?? 0)
        // Outside the rounding of a corner is table.
        const [cu, cv] = [Math.min(Math.max(u, r), paper.width - r), Math.min(Math.max(v, r), paper.height - r)]
        if (inside && (u - cu) ** 2 + (v - cv) ** 2 <= r * r) photo.data[at] = paper.data[Math.floor(v) * paper.width + Math.floor(u)]!
        const drawn = shot.over?.(x, y)
        if (drawn !== undefined) photo.data[at] = drawn
        photo.data[at] = photo.data[at]! * (1 - (1 - (shot.dimmest ?? 1)) * ((x / shot.width + y / shot.height) / 2))
      }
    }
    return photo
  }

  /** The corners found, each this far at most from where the paper's were put. */
  function cornerError(found: PaperFound | undefined, corners: Corner[]): number {
    if (!found || !('corners' in found)) return Number.POSITIVE_INFINITY
    return Math.max(...found.corners.map((corner, i) => Math.hypot(corner.x - corners[i]!.x, corner.y - corners[i]!.y)))
  }

  /** The photo cut to the box around the corners, as D158 cuts it, a survey pixel inside. */
  function boxOf(photo: Raster, corners: Corner[]): Raster {
    const [left, top] = [Math.min(...corners.map((c) => c.x)) + 9, Math.min(...corners.map((c) => c.y)) + 9]
    const [right, bottom] = [Math.max(...corners.map((c) => c.x)) - 9, Math.max(...corners.map((c) => c.y)) - 9]
    const data = new Uint8Array((right - left) * (bottom - top))
    for (let y = top; y < bottom; y++) data.set(photo.data.subarray(y * photo.width + left, y * photo.width + right), (y - top) * (right - left))
    return { width: right - left, height: bottom - top, data }
  }

  /**
   * How level the print is: over a band of the page where every line is printed, the
   * share of rows that are neither blank nor ink all along. A line tilted by a degree smears
   * over several rows at each of its edges; a level one has none.
   */
  function smearedRows(page: Raster): number {
    const [from, to] = [Math.round(page.width * 0.35), Math.round(page.width * 0.65)]
    let smeared = 0
    for (let y = 0; y < page.height; y++) {
      let ink = 0
      for (let x = from; x < to; x++) if (page.data[y * page.width + x]! < 128) ink++
      const share = ink / (to - from)
      if (share > 0.1 && share < 0.9) smeared++
    }
    return smeared / page.height
  }

  // Turned about 11° clockwise and seen from below its bottom edge (the top side is shorter).
  const turned: Shot = {
    corners: [
      { x: 760, y: 330 },
      { x: 1530, y: 480 },
      { x: 1270, y: 2290 },
      { x: 380, y: 2120 },
    ],
    width: 2000,
    height: 2600,
    dimmest: 0.6,
  }
  const side = (from: Corner, to: Corner) => Math.hypot(to.x - from.x, to.y - from.y)
  let turnedPhoto: Raster
  beforeAll(() => {
    turnedPhoto = photograph(printed(800, 1800), turned)
  })

  test('a receipt turned and seen at an angle is found to within a few pixels of its corners, and straightened level', () => {
    const photo = turnedPhoto
    expect(cornerError(locatePaper(photo), turned.corners)).toBeLessThan(4)
    const page = findPaper(photo).page
    // As wide and high as the paper's nearer sides, less a survey pixel (9 px here) inside each edge.
    const [tl, tr, br, bl] = turned.corners
    expect(Math.abs(page.width - (Math.max(side(tl, tr), side(bl, br)) - 2 * 9))).toBeLessThan(6)
    expect(Math.abs(page.height - (Math.max(side(tl, bl), side(tr, br)) - 2 * 9))).toBeLessThan(6)
    // Every line of print is there, and level; the photo cut to the paper's box has them tilted.
    expect(smearedRows(page)).toBeLessThan(0.05)
    const printedLines = Math.floor((1800 - 60 - 72) / 30) + 1
    let lines = 0
    for (let y = 1, inkBefore = false; y < page.height; y++) {
      const ink = page.data[y * page.width + Math.round(page.width * 0.2)]! < 128
      if (ink && !inkBefore) lines++
      inkBefore = ink
    }
    expect(lines).toBe(printedLines)
    expect(smearedRows(boxOf(photo, turned.corners))).toBeGreaterThan(0.3)
  })

  test('its uneven light is evened out by the step every page goes through before OCR', () => {
    const page = findPaper(turnedPhoto).page
    const flat = flattenBackground(page)
    // Paper between two lines, near the top left (brightest) and the bottom right (dimmest).
    const paperAt = (raster: Raster, x: number, y: number) => raster.data[Math.round(y * raster.height) * raster.width + Math.round(x * raster.width)]!
    const [bright, dim] = [paperAt(page, 0.1, 21 / 1800), paperAt(page, 0.9, 1791 / 1800)]
    expect(bright - dim).toBeGreaterThan(40)
    expect(paperAt(flat, 0.1, 21 / 1800)).toBeGreaterThan(235)
    expect(paperAt(flat, 0.9, 1791 / 1800)).toBeGreaterThan(235)
  })

  test('rounded corners and a finger over an edge leave the corners where the sides meet', () => {
    // A dark finger (skin in shadow) over the left edge, 60 px wide and 380 long.
    const finger = (x: number, y: number) => (((x - 560) / 150) ** 2 + ((y - 1200) / 190) ** 2 <= 1 ? 70 : undefined)
    const shot: Shot = { ...turned, rounded: 40, over: finger }
    const photo = photograph(printed(800, 1800), shot)
    expect(cornerError(locatePaper(photo), turned.corners)).toBeLessThan(5)
    expect(smearedRows(findPaper(photo).page)).toBeLessThan(0.05)
  })

  test('a receipt with a corner torn off is straightened from its other sides', () => {
    const photo = photograph(printed(800, 1800), { ...turned, torn: 250 })
    const found = locatePaper(photo)
    // The missing corner is where the sides it joined meet; the side the tear cut short is fitted along what is left of it.
    expect(cornerError(found, turned.corners)).toBeLessThan(4)
    expect(smearedRows(findPaper(photo).page)).toBeLessThan(0.05)
  })

  test('a bright region that is no quadrilateral (a hand in the light holding the paper) is cut to its box, as before', () => {
    const hand = (x: number, y: number) => (((x - 1560) / 330) ** 2 + ((y - 1500) / 260) ** 2 <= 1 ? 215 : undefined)
    const photo = photograph(printed(800, 1800), { ...turned, over: hand })
    const found = locatePaper(photo)
    expect(found && 'left' in found).toBe(true)
    const page = findPaper(photo).page
    // The box reaches from the paper's left corner to the hand's right edge.
    expect(page.width).toBeGreaterThan(1890 - 380 - 30)
    expect(page.width).toBeLessThan(1890 - 380)
  })

  test('a scan turned slightly, all paper but thin dark corners, is left whole', () => {
    const shot: Shot = {
      corners: [
        { x: 30, y: 0 },
        { x: 1200, y: 40 },
        { x: 1170, y: 1600 },
        { x: 0, y: 1560 },
      ],
      width: 1200,
      height: 1600,
    }
    const scan = photograph(printed(1170, 1560), shot)
    expect(locatePaper(scan)).toBeUndefined()
    expect(findPaper(scan).page).toBe(scan)
  })

  test('a receipt photographed at an angle with uneven light is read through the API', async () => {
    // The receipt of the tests above, 2000 px wide, in a 13 MP photo, turned and in perspective.
    const shot: Shot = {
      corners: [
        { x: 900, y: 700 },
        { x: 2850, y: 1050 },
        { x: 2620, y: 2150 },
        { x: 620, y: 1850 },
      ],
      width: 3200,
      height: 4200,
      dimmest: 0.75,
    }
    const jpeg = await phoneJpeg(photograph(receipt, shot))
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/extract', { body: form(jpeg, 'IMG_0413.jpg') })
    expect(response.body.job.status).toBe('succeeded')
    expect(response.body.job.result).toEqual({ invoice_number: 'HB-5521', date: '2024-06-21', total: '18.50' })
  })
})

function form(bytes: Uint8Array, name: string): FormData {
  const body = new FormData()
  body.append('file', new Blob([bytes]), name)
  body.append('extract', JSON.stringify(FIELDS))
  return body
}
