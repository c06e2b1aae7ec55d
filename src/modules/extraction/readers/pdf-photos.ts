/**
 * PDF pages that are one JPEG (D350): a scan or a phone photo made a PDF (img2pdf, a scanner app)
 * is a page whose content does nothing but place one DCT image on it. Such a page is found from
 * the file's bytes before PDF.js opens it, as the budget is (pdf-budget.ts), so that its JPEG is
 * budgeted and decoded as a JPEG file is (its own header, shrunk on load by libvips) rather than
 * as PDF.js would hold it (about 21 bytes a pixel, D182). Anything else on the page, a filter
 * before DCT, a mask, a colour space OCR would read otherwise, or a size the dictionary and the
 * JPEG disagree on, and the page is read by PDF.js as before.
 */
import { jpegFrame } from './ocr/jpeg-header'
import type { Turn } from './ocr/raster'
import { decodeFilter, type Filter, PastLimit } from './pdf-filters'
import { nextValue, type PdfDictionary, PdfName, PdfParser, PdfRef, PdfText, type PdfValue } from './pdf-syntax'

/** A PDF transformation [a b c d e f]: (x, y) goes to (a x + c y + e, b x + d y + f). */
export type Matrix = number[]

/** A page box as PDF.js gives it (its `view`): [x0, y0, x1, y1] in the page's units, y upwards. */
export type PageBox = [number, number, number, number]

/** A page read by the photo path. */
export interface PhotoPage {
  /** The image's stream (the budget's record of it) and its data, the JPEG as the file holds it. */
  source: PdfText
  keyword: number
  jpeg: Uint8Array
  /** The image's unit square to the page's space: the content's `cm`s together. */
  matrix: Matrix
  /** The page's box, as PDF.js will give it. */
  view: PageBox
}

/** A stream named by a reference: its dictionary, where its `stream` keyword is, and its data as written. */
export interface PdfStream {
  source: PdfText
  keyword: number
  dictionary: PdfDictionary
  data: Uint8Array
}

/** What the page walk needs of the file's objects (the budget's index of them). */
export interface PdfObjects {
  /** A value with its reference followed. */
  resolve(value: PdfValue | undefined): PdfValue | undefined
  /** The stream a reference names. */
  streamOf(value: PdfValue | undefined): PdfStream | undefined
  /** A stream's filters in order, as PDF.js decodes them. */
  filters(dictionary: PdfDictionary): { filter: Filter; params: PdfDictionary | undefined }[]
  /** The document's catalog, as its last trailer names it. */
  root(): PdfDictionary | undefined
}

/**
 * Copies of the file the PDF reader holds while a page is decoded: the budget's scan of its bytes
 * as text (one byte a character) and PDF.js's own. A page that is one JPEG is budgeted with them
 * (D351): a photo made a PDF is a large file (measured, bench/decode-cost.ts).
 */
export const PDF_FILE_COPIES = 2
/** An image covering less of the page than this is a logo or a stamp, not a scanned page. */
export const MIN_SCAN_COVERAGE = 0.3
/** A page's content that only places an image is a few dozen bytes; more is not read to find out. */
const MAX_PHOTO_CONTENT = 4096
/** Page tree nodes visited per page read: a tree of more is no document's (and PDF.js refuses it). */
const NODES_PER_PAGE = 4
/** The colour spaces of a scan or photo, grey or RGB; the rest (CMYK, indexed, separations) go to PDF.js. */
const PHOTO_SPACES = new Set(['DeviceGray', 'G', 'CalGray', 'DeviceRGB', 'RGB', 'CalRGB', 'ICCBased'])
/** The page size PDF.js takes when a page gives none (US Letter). */
const LETTER: PageBox = [0, 0, 612, 792]

/** The pages among the first `maxPages` that are one JPEG, by number (1-based, as PDF.js counts them). */
export function photoPages(objects: PdfObjects, maxPages: number): Map<number, PhotoPage> {
  const photos = new Map<number, PhotoPage>()
  // Depth first, kids in order, with what a page inherits from the nodes above it.
  const stack: { node: PdfValue | undefined; inherited: Inherited }[] = [{ node: objects.root()?.get('Pages'), inherited: {} }]
  const seen = new Set<number>()
  let number = 0
  for (let visits = 0; stack.length && number < maxPages && visits < maxPages * NODES_PER_PAGE + 16; visits++) {
    const { node, inherited } = stack.pop()!
    if (node instanceof PdfRef) {
      if (seen.has(node.num)) continue
      seen.add(node.num)
    }
    const dictionary = objects.resolve(node)
    if (!(dictionary instanceof Map)) continue
    const own = inherit(inherited, dictionary)
    const kids = objects.resolve(dictionary.get('Kids'))
    if (Array.isArray(kids)) {
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], inherited: own })
      continue
    }
    number++
    const photo = photoOf(objects, dictionary, own)
    if (photo) photos.set(number, photo)
  }
  return photos
}

/** What a page takes from the nodes above it when it does not say. */
interface Inherited {
  resources?: PdfValue
  mediaBox?: PdfValue
  cropBox?: PdfValue
}

function inherit(inherited: Inherited, node: PdfDictionary): Inherited {
  return {
    resources: node.get('Resources') ?? inherited.resources,
    mediaBox: node.get('MediaBox') ?? inherited.mediaBox,
    cropBox: node.get('CropBox') ?? inherited.cropBox,
  }
}

/** The page's JPEG, when the page is one: its content places one image of the shape above, covering enough of the page. */
function photoOf(objects: PdfObjects, page: PdfDictionary, inherited: Inherited): PhotoPage | undefined {
  const content = contentOf(objects, page.get('Contents'))
  const placed = content && placedImage(content)
  if (!placed) return undefined
  const resources = objects.resolve(inherited.resources)
  const images = resources instanceof Map ? objects.resolve(resources.get('XObject')) : undefined
  const image = images instanceof Map ? objects.streamOf(images.get(placed.name)) : undefined
  if (!image || !isPhotoImage(objects, image)) return undefined
  const view = viewOf(objects, inherited)
  const placement = shownPlacement(placed.matrix, view, 0)
  if (!placement || placement.box.width * placement.box.height < MIN_SCAN_COVERAGE) return undefined
  return { source: image.source, keyword: image.keyword, jpeg: image.data, matrix: placed.matrix, view }
}

/** A page's content streams, decoded and joined as PDF.js joins them; undefined when longer than such a page's or not decodable. */
function contentOf(objects: PdfObjects, contents: PdfValue | undefined): Uint8Array | undefined {
  const resolved = objects.resolve(contents)
  const parts = Array.isArray(resolved) ? resolved : [contents]
  const decoded: Uint8Array[] = []
  let length = 0
  for (const part of parts) {
    const stream = objects.streamOf(part)
    if (!stream) return undefined
    let data = stream.data
    try {
      for (const { filter, params } of objects.filters(stream.dictionary)) {
        if (filter === 'image') return undefined
        data = decodeFilter(filter, data, MAX_PHOTO_CONTENT, typeof params?.get('EarlyChange') === 'number' ? (params.get('EarlyChange') as number) : 1)
      }
    } catch (error) {
      if (error instanceof PastLimit) return undefined
      throw error
    }
    length += data.length + 1
    if (length > MAX_PHOTO_CONTENT) return undefined
    decoded.push(data, new Uint8Array([0x0a]))
  }
  const joined = new Uint8Array(length)
  let at = 0
  for (const part of decoded) {
    joined.set(part, at)
    at += part.length
  }
  return joined
}

/**
 * The one image a content stream places, and the transformation it is placed with: the stream
 * holds nothing but `q`, `Q`, `cm` and one `Do`. Anything else (text, paths, a second image, an
 * inline image, a form) and it is not a page that is one image.
 */
export function placedImage(content: Uint8Array): { name: string; matrix: Matrix } | undefined {
  const parser = new PdfParser(new PdfText(content), 0)
  let matrix: Matrix = [1, 0, 0, 1, 0, 0]
  const saved: Matrix[] = []
  let operands: PdfValue[] = []
  let placed: { name: string; matrix: Matrix } | undefined
  for (;;) {
    parser.skipSpace()
    if (parser.at >= content.length) break
    const word = parser.peekWord()
    if (word === 'q' || word === 'Q' || word === 'cm' || word === 'Do') {
      parser.at += word.length
      if (word === 'q' && !operands.length) saved.push(matrix)
      else if (word === 'Q' && !operands.length) matrix = saved.pop() ?? matrix
      else if (word === 'cm' && operands.length === 6 && operands.every((operand) => typeof operand === 'number'))
        matrix = multiply(matrix, operands as number[])
      else if (word === 'Do' && !placed && operands.length === 1 && operands[0] instanceof PdfName) placed = { name: operands[0].name, matrix }
      else return undefined
      operands = []
      continue
    }
    const value = nextValue(parser)
    if (typeof value !== 'number' && !(value instanceof PdfName)) return undefined
    operands.push(value)
  }
  return operands.length ? undefined : placed
}

/**
 * An image the photo path reads as PDF.js would show it: DCT alone (no filter before it), eight
 * bits of grey or RGB, no mask, no decode array, and the size its dictionary gives directly (no
 * reference) the size of the JPEG's own header, which PDF.js's size check reads (D350).
 */
function isPhotoImage(objects: PdfObjects, { dictionary, data }: PdfStream): boolean {
  const name = (value: PdfValue | undefined) => {
    const resolved = objects.resolve(value)
    const first = Array.isArray(resolved) ? objects.resolve(resolved[0]) : resolved
    return first instanceof PdfName ? first.name : undefined
  }
  const filter = objects.resolve(dictionary.get('Filter') ?? dictionary.get('F'))
  const filters = Array.isArray(filter) ? filter : [filter]
  if (filters.length !== 1 || !['DCTDecode', 'DCT'].includes(name(filters[0]) ?? '')) return false
  if (name(dictionary.get('Subtype')) !== 'Image') return false
  if (['ImageMask', 'IM', 'Mask', 'SMask', 'Decode', 'D'].some((key) => dictionary.has(key) && objects.resolve(dictionary.get(key)) !== false)) return false
  if (objects.resolve(dictionary.get('BitsPerComponent') ?? dictionary.get('BPC')) !== 8) return false
  if (!PHOTO_SPACES.has(name(dictionary.get('ColorSpace') ?? dictionary.get('CS')) ?? '')) return false
  const frame = jpegFrame(data)
  if (!frame || (frame.components.length !== 1 && frame.components.length !== 3)) return false
  const width = dictionary.get('Width') ?? dictionary.get('W')
  const height = dictionary.get('Height') ?? dictionary.get('H')
  return width === frame.width && height === frame.height
}

/** The page's box as PDF.js takes it: its crop box within its media box, else its media box (Letter when it has none). */
function viewOf(objects: PdfObjects, { mediaBox, cropBox }: Inherited): PageBox {
  const media = boxOf(objects, mediaBox) ?? LETTER
  const crop = boxOf(objects, cropBox)
  if (!crop) return media
  const inside: PageBox = [Math.max(media[0], crop[0]), Math.max(media[1], crop[1]), Math.min(media[2], crop[2]), Math.min(media[3], crop[3])]
  return inside[0] < inside[2] && inside[1] < inside[3] ? inside : media
}

function boxOf(objects: PdfObjects, value: PdfValue | undefined): PageBox | undefined {
  const box = objects.resolve(value)
  if (!Array.isArray(box) || box.length !== 4) return undefined
  const [a, b, c, d] = box.map((each) => objects.resolve(each))
  if (![a, b, c, d].every((each) => typeof each === 'number')) return undefined
  const [x0, y0, x1, y1] = [a, b, c, d] as number[]
  const normal: PageBox = [Math.min(x0!, x1!), Math.min(y0!, y1!), Math.max(x0!, x1!), Math.max(y0!, y1!)]
  return normal[2] > normal[0] && normal[3] > normal[1] ? normal : undefined
}

/** An image as the page shows it: the quarter turn that shows its pixels so, and its box on the page shown. */
export interface PhotoPlacement {
  turn: Turn
  /** Fractions of the page as shown (after /Rotate), from its top-left corner; may reach past the page. */
  box: { left: number; top: number; width: number; height: number }
}

/**
 * Where the image placed by `matrix` is shown on a page of box `view` turned `rotate` degrees
 * clockwise (its /Rotate, as PDF.js and the console show it), and how its pixels are turned
 * there; undefined for an image shown skewed, mirrored or at another angle.
 */
export function shownPlacement(matrix: Matrix, [x0, y0, x1, y1]: PageBox, rotate: number): PhotoPlacement | undefined {
  const [width, height] = [x1 - x0, y1 - y0]
  const sideways = rotate === 90 || rotate === 270
  // A point of the page (units, y upwards) as shown: from the top-left corner, y downwards.
  const shown = ([x, y]: [number, number]): [number, number] => {
    const [across, down] = [x - x0, y1 - y]
    if (rotate === 90) return [height - down, across]
    if (rotate === 180) return [width - across, height - down]
    if (rotate === 270) return [down, width - across]
    return [across, down]
  }
  // An image's pixels run across and down its unit square from its top-left corner (0, 1).
  const at = (u: number, v: number) => shown(transform(matrix, [u, 1 - v]))
  const corners = [at(0, 0), at(1, 0), at(0, 1), at(1, 1)]
  const [topLeft, topRight, bottomLeft] = corners as [[number, number], [number, number], [number, number]]
  const turn = turnOf(direction(topLeft, topRight), direction(topLeft, bottomLeft))
  if (turn === undefined) return undefined
  const xs = corners.map(([x]) => x)
  const ys = corners.map(([, y]) => y)
  const [shownWidth, shownHeight] = sideways ? [height, width] : [width, height]
  const [left, top] = [Math.min(...xs), Math.min(...ys)]
  return {
    turn,
    box: { left: left / shownWidth, top: top / shownHeight, width: (Math.max(...xs) - left) / shownWidth, height: (Math.max(...ys) - top) / shownHeight },
  }
}

type Direction = 'right' | 'down' | 'left' | 'up'

/** Which way a vector points, when it is along an axis (to a thousandth). */
function direction(from: [number, number], to: [number, number]): Direction | undefined {
  const [dx, dy] = [to[0] - from[0], to[1] - from[1]]
  if (Math.abs(dy) * 1000 < Math.abs(dx)) return dx > 0 ? 'right' : 'left'
  if (Math.abs(dx) * 1000 < Math.abs(dy)) return dy > 0 ? 'down' : 'up'
  return undefined
}

/** The clockwise turn of an image whose rows run `across` and whose columns run `down` (as `rotate` turns one). */
function turnOf(across: Direction | undefined, down: Direction | undefined): Turn | undefined {
  const turns: Record<string, Turn> = { 'right down': 0, 'down left': 90, 'left up': 180, 'up right': 270 }
  return turns[`${across} ${down}`]
}

/** `n` applied after `m`: a `cm` of `n` on a transformation `m`. */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    n[0]! * m[0]! + n[1]! * m[2]!,
    n[0]! * m[1]! + n[1]! * m[3]!,
    n[2]! * m[0]! + n[3]! * m[2]!,
    n[2]! * m[1]! + n[3]! * m[3]!,
    n[4]! * m[0]! + n[5]! * m[2]! + m[4]!,
    n[4]! * m[1]! + n[5]! * m[3]! + m[5]!,
  ]
}

export function transform(m: Matrix, [x, y]: [number, number]): [number, number] {
  return [m[0]! * x + m[2]! * y + m[4]!, m[1]! * x + m[3]! * y + m[5]!]
}
