/**
 * Photos as phones make them (D156–D158): a JPEG larger than OCR needs is decoded by libvips
 * shrunk on load (its DCT scaling decodes an eighth, quarter or half of each block), turned
 * upright by its EXIF orientation, so a 50 MP photo costs what a 3 MP one does; HEIC/HEIF (what
 * iPhones save) is decoded by libheif with its HEVC decoder, in WebAssembly. A photo's page is
 * then the paper found in it (see paper.ts).
 */
import { ExtractionError } from '../../errors'
import { checkImageBytes, checkPixels, megapixels } from '../limits'
import type { ReadLimits } from '../types'
import { type JpegFrame, jpegCoefficientBytes } from './jpeg-header'
import { heifPlan } from './heif'
import { sharpDecoder } from './libvips'
import { findPaper, type PaperFound, photoPoint } from './paper'
import { type Raster, scale, toGrey, type Turn, unturnPoint } from './raster'

/**
 * Longest side a photo is decoded to: a receipt filling a third of the frame keeps about 1000 px
 * of width, more than OCR needs for its print, and the page stays a few megapixels.
 */
export const PHOTO_LONGEST_SIDE = 3000
/** libvips shrinks a JPEG on load by up to this factor. */
const MAX_LOAD_SHRINK = 8
/** Coded images (grid tiles) decoded for one page: a 48 MP phone photo has 192 tiles of 512 × 512. */
const MAX_HEIF_CODED_IMAGES = 256
/** A grid's tiles may cover a little more than its canvas (the edge tiles overhang it). */
const HEIF_TILE_COVER = 1.25
/**
 * Memory per pixel of a coded image (its planes), of a canvas (a grid's), and of the primary image
 * (libheif's planes and RGBA in its WebAssembly memory, the RGBA handed back and copied, the grey
 * page): 13.3 MiB a megapixel measured for a grid, 11.5 for one image (bench/decode-cost.ts).
 */
const HEIF_CODED_BYTES_PER_PIXEL = 1.5
const HEIF_DERIVED_BYTES_PER_PIXEL = 1.5
const HEIF_OUTPUT_BYTES_PER_PIXEL = 12.5
/** libjpeg's buffers besides a progressive JPEG's coefficients (its rows, its tables): measured under a tenth of them. */
const LIBJPEG_COEFFICIENT_MARGIN = 1.1

/**
 * How a JPEG is turned upright: by its EXIF orientation (a JPEG file), or by the quarter turn
 * given (a PDF page's JPEG, whose EXIF no PDF viewer applies: its page says how it is shown, D352).
 */
export type JpegTurn = 'exif' | Turn

/** A photo (JPEG or HEIC) as decoded for OCR: its page, and the image it was cut from (D352, D401). */
export interface DecodedPhoto {
  /** The page read: a photo's paper, or the whole image. */
  page: Raster
  /** The image as decoded (shrunk and turned) before its paper was cut out of it. */
  width: number
  height: number
  /** Where the page was cut from, for a photo whose paper was found. */
  paper?: PaperFound
}

/** A photo as decoded, its paper found in it and cut out (D352). */
function decodedPhoto(image: Raster): DecodedPhoto {
  return { ...findPaper(image), width: image.width, height: image.height }
}

/** Where a photo's page was cut from: the image as decoded, and the paper found in it. */
export type PhotoCut = Omit<DecodedPhoto, 'page'>

/**
 * Where a point of the page OCR read (fractions of the page as OCR turned it upright, `turned`)
 * lies on the image as decoded (fractions of it): back through OCR's turn, then, for a photo whose
 * paper was cut out, the cut or warp (D352, D401).
 */
export function onDecodedImage(turned: Turn, page: Raster, cut?: PhotoCut): (point: [number, number]) => [number, number] {
  return (point) => {
    const [x, y] = unturnPoint(turned, point)
    if (!cut?.paper) return [x, y]
    const inImage = photoPoint(cut.paper, { x: x * page.width, y: y * page.height })
    return [inImage.x / cut.width, inImage.y / cut.height]
  }
}

/**
 * The decoder of a JPEG by libvips, or undefined where libvips is not available here. A JPEG
 * larger than OCR needs (a photo) is shrunk on load and its paper found in it; a smaller one (a
 * scan) is decoded whole, four times as fast as the built-in decoder does. Both are turned
 * upright (`turn`); a scan keeps the resolution its file gives (`dpi`). `held` is what the reader
 * holds besides while it decodes (a PDF's copies of its file, D351), counted in the budget too.
 * Refuses, before decoding, a JPEG that would not fit the limits even shrunk on load.
 */
export function jpegPage(
  bytes: Uint8Array,
  frame: JpegFrame,
  limits: ReadLimits,
  { dpi, turn, held = 0 }: { dpi?: number | undefined; turn: JpegTurn; held?: number },
): (() => Promise<DecodedPhoto>) | undefined {
  const sharp = sharpDecoder()
  if (!sharp) return undefined
  const { width, height } = frame
  const shrink = loadShrink(width, height)
  const loaded = { width: Math.ceil(width / shrink), height: Math.ceil(height / shrink) }
  checkPixels(loaded.width, loaded.height, limits)
  // The image as shrunk on load (three channels), and the grey page made from it; a progressive
  // JPEG's coefficients too, every one of the full image, however much it is shrunk (D183).
  const coefficients = frame.progressive ? Math.ceil(jpegCoefficientBytes(frame) * LIBJPEG_COEFFICIENT_MARGIN) : 0
  checkImageBytes(loaded.width * loaded.height * 4 + coefficients + bytes.length + held, limits)
  const photo = Math.max(width, height) > PHOTO_LONGEST_SIDE
  return async () => {
    const decoder = sharp(bytes, { limitInputPixels: false, failOn: 'truncated', sequentialRead: true })
    // rotate() turns by the EXIF orientation; rotate(angle) by the angle alone.
    const { data, info } = await (turn === 'exif' ? decoder.rotate() : decoder.rotate(turn))
      .resize({ width: PHOTO_LONGEST_SIDE, height: PHOTO_LONGEST_SIDE, fit: 'inside', withoutEnlargement: true })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const page = toGrey(data, info.width, info.height, info.channels)
    // A camera's resolution (72 dpi) says nothing of the paper; a scanner's does.
    if (!photo) return { page: { ...page, dpi }, width: page.width, height: page.height }
    return decodedPhoto(page)
  }
}

/** The factor libvips shrinks a JPEG by on load: the largest that keeps the photo's target size. */
function loadShrink(width: number, height: number): number {
  let shrink = 1
  while (shrink < MAX_LOAD_SHRINK && Math.max(width, height) / (shrink * 2) >= PHOTO_LONGEST_SIDE) shrink *= 2
  return shrink
}

interface HeifImage {
  get_width(): number
  get_height(): number
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (result: { data: Uint8ClampedArray } | null) => void): void
  free(): void
}

interface Libheif {
  HeifDecoder: new () => { decode(bytes: Uint8Array): HeifImage[] }
}

let libheif: Libheif | undefined

/**
 * The decoder of a HEIC/HEIF page, checked against the limits first (D184): what the primary
 * image is made of is read from the file's boxes (heif.ts), and refused when its coded images
 * (a grid's tiles) are more, or hold more pixels, than one page's decoding may take in time, or
 * when libheif's memory for them (measured: their planes, the canvas they are laid on, the RGBA
 * it gives, in its WebAssembly memory; the copy handed back, the grey page) passes the budget.
 * The page is the primary image, with the turn and mirror its container records applied
 * (libheif does), at most PHOTO_LONGEST_SIDE on its longest side.
 */
export function heicPage(bytes: Uint8Array, limits: ReadLimits): () => Promise<DecodedPhoto> {
  const plan = heifPlan(bytes)
  checkPixels(plan.width, plan.height, limits)
  if (plan.codedImages > MAX_HEIF_CODED_IMAGES)
    throw new ExtractionError(
      'image_too_large',
      `The HEIF image is made of ${plan.codedImages} coded images (tiles); at most ${MAX_HEIF_CODED_IMAGES} are decoded per page.`,
    )
  if (plan.codedPixels > limits.maxPagePixels * HEIF_TILE_COVER)
    throw new ExtractionError(
      'image_too_large',
      `The tiles of the HEIF image hold ${megapixels(plan.codedPixels)} MP; at most ${megapixels(limits.maxPagePixels * HEIF_TILE_COVER)} MP are decoded per page (--max-page-megapixels).`,
    )
  const pixels = plan.width * plan.height
  checkImageBytes(
    Math.ceil(plan.codedPixels * HEIF_CODED_BYTES_PER_PIXEL + plan.derivedPixels * HEIF_DERIVED_BYTES_PER_PIXEL + pixels * HEIF_OUTPUT_BYTES_PER_PIXEL) +
      bytes.length,
    limits,
  )
  return () => decodeHeic(bytes, limits)
}

async function decodeHeic(bytes: Uint8Array, limits: ReadLimits): Promise<DecodedPhoto> {
  libheif ??= require('libheif-js/wasm-bundle') as Libheif
  const images = new libheif.HeifDecoder().decode(bytes)
  const image = images[0]
  if (!image) throw new ExtractionError('corrupt_document', 'The HEIF image could not be decoded: it holds no image.')
  try {
    const width = image.get_width()
    const height = image.get_height()
    // libheif's size is the one the boxes gave, turned: anything else was not measured.
    checkPixels(width, height, limits)
    const rgba = await new Promise<Uint8ClampedArray>((resolve, reject) =>
      image.display({ data: new Uint8ClampedArray(width * height * 4), width, height }, (result) =>
        result ? resolve(result.data) : reject(new Error('libheif could not decode the image')),
      ),
    )
    return decodedPhoto(await shrunk(toGrey(rgba, width, height, 4)))
  } finally {
    for (const each of images) each.free()
  }
}

/** A grey page brought down to PHOTO_LONGEST_SIDE, by libvips where it is available. */
async function shrunk(page: Raster): Promise<Raster> {
  const factor = PHOTO_LONGEST_SIDE / Math.max(page.width, page.height)
  if (factor >= 1) return page
  const sharp = sharpDecoder()
  if (!sharp) return scale(page, factor)
  const { data, info } = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 1 } })
    .resize({ width: PHOTO_LONGEST_SIDE, height: PHOTO_LONGEST_SIDE, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true })
  return toGrey(data, info.width, info.height, info.channels)
}
