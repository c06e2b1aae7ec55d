/**
 * PDF → page texts. Pages with a text layer: pdf.js gives text runs with positions, laid out as
 * printed (layout.ts). Pages without one (scans, or the scanned pages of a mixed PDF): the page's
 * image is taken as pdf.js decodes it, with no rendering, and read by OCR.
 */
import type { getDocumentProxy } from 'unpdf'
import { ExtractionError } from '../errors'
import { type LaidOutPage, layOut, layOutReadings, mapBoxes, type PageWords, type PositionedWord } from './layout'
import { type PageRecogniser, pageRecogniser } from './ocr'
import { checkDocumentPixels, checkPages, checkPixels } from './limits'
import { jpegPhoto } from './ocr/images'
import { onDecodedImage } from './ocr/photo'
import { type Raster, toGrey } from './ocr/raster'
import { OcrError } from './ocr/tesseract'
import { checkPdfBudget } from './pdf-budget'
import { MIN_SCAN_COVERAGE, multiply, PDF_FILE_COPIES, type PhotoPage, type PhotoPlacement, shownPlacement, transform } from './pdf-photos'
import { enoughText, type ReadOptions } from './types'

interface PdfTextItem {
  str?: string
  transform?: number[]
  width?: number
  height?: number
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>

/** A page with fewer letters and digits than this in its text layer is read from its image instead. */
const MIN_TEXT_CHARS = 16

/** Reads every page; throws ExtractionError for corrupt or locked PDFs, or when no page holds text or a scan. */
export async function readPdf(bytes: Uint8Array, options: ReadOptions): Promise<LaidOutPage[]> {
  const plan = checkPdfBudget(bytes, options.limits)
  const pdf = await openPdf(bytes, plan.maxImageSize)
  try {
    checkPages(pdf.numPages, options.limits)
    const pages: LaidOutPage[] = []
    const recogniser = pageRecogniser(options.readTwice, options.recogniser)
    const scanned = { pixels: 0 }
    for (let number = 1; number <= pdf.numPages && !enoughText(pages, options); number++) {
      const page = await pdf.getPage(number)
      pages.push(await readPage(page, { ...options, photo: plan.photos.get(number), held: PDF_FILE_COPIES * bytes.length }, recogniser, scanned))
      page.cleanup()
      options.onPage?.(number, pdf.numPages)
    }
    if (!pages.some((page) => /\p{L}|\p{N}/u.test(page.text)))
      throw new ExtractionError(
        'no_text_layer',
        'The PDF has neither a text layer nor scanned page images to read (text drawn as shapes cannot be read); send it with selectable text or as images.',
      )
    return pages
  } catch (error) {
    if (error instanceof ExtractionError || error instanceof OcrError) throw error
    throw new ExtractionError('corrupt_document', `The PDF could not be read: ${messageOf(error)}`)
  } finally {
    await pdf.loadingTask.destroy().catch(() => {})
  }
}

/**
 * `scanned` counts the pixels of the page images read so far, against the document's limit;
 * `photo` is the page's JPEG when the page is one (D350).
 */
async function readPage(
  page: PdfPage,
  options: ReadOptions & { photo: PhotoPage | undefined; held: number },
  recogniser: PageRecogniser,
  scanned: { pixels: number },
): Promise<LaidOutPage> {
  const [x0, y0, x1, y1] = page.view as [number, number, number, number]
  const width = x1 - x0
  const height = y1 - y0
  const content = await page.getTextContent()
  const runs = toRuns(content.items as PdfTextItem[], x0, y1)
  const letters = runs.reduce((sum, run) => sum + (run.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0), 0)
  if (letters < MIN_TEXT_CHARS) {
    // The page PDF.js opened is the one the budget found (its box): else it is read as any other.
    const { photo } = options
    const placement = photo && sameBox(photo.view, page.view) ? shownPlacement(photo.matrix, photo.view, page.rotate) : undefined
    if (photo && placement) return readPhotoPage(photo, placement, options, recogniser, scanned)
    const scan = await scannedImage(page, width * height, options)
    if (scan) scanned.pixels += scan.raster.width * scan.raster.height
    checkDocumentPixels(scanned.pixels, options.limits)
    if (scan) return layOutReadings(await recognisedWords(scan, { x0, y1, width, height }, recogniser))
  } else {
    recogniser.sawText(runs)
  }
  return layOut(
    runs.map((run) => [run]),
    width,
    height,
  )
}

/**
 * A page that is one JPEG, read as a JPEG file is (D350): decoded by the photo path within its
 * budget (shrunk on load, a photo's paper found in it), turned as the page shows it, recognised;
 * its words' boxes then carried from the paper read back to the image and onto the page as shown
 * (/Rotate included), where the console draws them and a box drawn there finds them (D352).
 */
async function readPhotoPage(
  photo: PhotoPage,
  placement: PhotoPlacement,
  options: ReadOptions & { held: number },
  recogniser: PageRecogniser,
  scanned: { pixels: number },
): Promise<LaidOutPage> {
  const decoded = await jpegPhoto(photo.jpeg, options.limits, placement.turn, options.held)()
  scanned.pixels += decoded.page.width * decoded.page.height
  checkDocumentPixels(scanned.pixels, options.limits)
  const read = await recogniser.read(decoded.page)
  const { box } = placement
  // The paper read, upright → the image decoded → the page shown.
  const onImage = onDecodedImage(read.turned, decoded.page, decoded)
  return mapBoxes(layOutReadings(read), (point) => {
    const [x, y] = onImage(point)
    return [box.left + x * box.width, box.top + y * box.height]
  })
}

/** Whether two page boxes are the same, to a hundredth of a unit. */
function sameBox(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, i) => Math.abs(value - b[i]!) < 0.01)
}

/** A page image as placed on the page: pixels, and its box in page units (y downwards). */
interface PlacedImage {
  raster: Raster
  box: { x0: number; y0: number; x1: number; y1: number }
}

/**
 * The largest image painted on the page, when it covers enough of it to be the page itself. Its
 * place comes from the transformation in force when it is painted (pdf.js's operator list).
 */
async function scannedImage(page: PdfPage, pageArea: number, options: ReadOptions): Promise<PlacedImage | undefined> {
  const { getResolvedPDFJS } = await import('unpdf')
  const { OPS } = await getResolvedPDFJS()
  const operators = await page.getOperatorList()
  let matrix = [1, 0, 0, 1, 0, 0]
  const stack: number[][] = []
  let best: { key: string; inline?: PdfImage; matrix: number[]; area: number } | undefined
  for (let i = 0; i < operators.fnArray.length; i++) {
    const op = operators.fnArray[i]
    const args = operators.argsArray[i] as unknown[]
    if (op === OPS.save) stack.push(matrix)
    else if (op === OPS.restore) matrix = stack.pop() ?? matrix
    else if (op === OPS.transform) matrix = multiply(matrix, args as number[])
    else if (op === OPS.paintFormXObjectBegin) {
      stack.push(matrix)
      if (Array.isArray(args[0])) matrix = multiply(matrix, args[0] as number[])
    } else if (op === OPS.paintFormXObjectEnd) matrix = stack.pop() ?? matrix
    else if (op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject) {
      const area = Math.abs(matrix[0]! * matrix[3]! - matrix[1]! * matrix[2]!)
      if (!best || area > best.area) {
        best = op === OPS.paintImageXObject ? { key: args[0] as string, matrix, area } : { key: '', inline: args[0] as PdfImage, matrix, area }
      }
    }
  }
  if (!best || best.area < pageArea * MIN_SCAN_COVERAGE) return undefined
  const image = best.inline ?? (await objectOf(page, best.key))
  if (!image?.width || !image.height || !image.data) return undefined
  checkPixels(image.width, image.height, options.limits)
  const raster = imageRaster(image)
  if (!raster) return undefined
  const widthInches = Math.hypot(best.matrix[0]!, best.matrix[1]!) / 72
  if (widthInches > 0) raster.dpi = raster.width / widthInches
  // The image's unit square, transformed, in PDF units (y upwards).
  const corners = [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ].map(([u, v]) => transform(best.matrix, [u!, v!]))
  const xs = corners.map(([x]) => x!)
  const ys = corners.map(([, y]) => y!)
  return { raster, box: { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) } }
}

interface PdfImage {
  width: number
  height: number
  data?: Uint8Array | Uint8ClampedArray
  /** pdf.js ImageKind: 1 one bit per pixel, 2 RGB, 3 RGBA. */
  kind?: number
}

function objectOf(page: PdfPage, key: string): Promise<PdfImage | undefined> {
  const store = key.startsWith('g_') ? page.commonObjs : page.objs
  return new Promise((resolve) => store.get(key, (image: PdfImage) => resolve(image)))
}

function imageRaster(image: PdfImage): Raster | undefined {
  const { width, height, data, kind } = image
  if (!data) return undefined
  if (kind === 1) {
    // One bit per pixel, rows padded to whole bytes, 1 is white.
    const grey = new Uint8Array(width * height)
    const rowBytes = Math.ceil(width / 8)
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) grey[y * width + x] = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0
    return { width, height, data: grey }
  }
  const channels = kind === 2 ? 3 : kind === 3 ? 4 : data.length / (width * height)
  if (![1, 3, 4].includes(channels)) return undefined
  return toGrey(data, width, height, channels)
}

/**
 * OCR of a page image, its word boxes carried from the image's pixels to page units (y downwards
 * from the page's top); a doubtful page's second reading likewise.
 */
async function recognisedWords(
  scan: PlacedImage,
  page: { x0: number; y1: number; width: number; height: number },
  recogniser: PageRecogniser,
): Promise<PageWords & { second?: PageWords | undefined }> {
  const { second, ...first } = await recogniser.read(scan.raster)
  const left = scan.box.x0 - page.x0
  const upper = page.y1 - scan.box.y1
  const onPage = (reading: PageWords): PageWords => {
    const scaleX = (scan.box.x1 - scan.box.x0) / reading.width
    const scaleY = (scan.box.y1 - scan.box.y0) / reading.height
    const lines = reading.lines.map((line) =>
      line.map((word) => ({
        ...word,
        x0: left + word.x0 * scaleX,
        x1: left + word.x1 * scaleX,
        y0: upper + word.y0 * scaleY,
        y1: upper + word.y1 * scaleY,
        size: word.size * scaleY,
      })),
    )
    return { lines, width: page.width, height: page.height }
  }
  return { ...onPage(first), second: second && onPage(second) }
}

async function openPdf(bytes: Uint8Array, maxImageSize: number): Promise<PdfDocument> {
  try {
    // Loaded on the first PDF, not at start: PDF.js is most of the server's start-up time.
    const { getDocumentProxy } = await import('unpdf')
    // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
    // No image past the page limit (or past the budget's plan, D350) is decoded: PDF.js leaves it out instead.
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, maxImageSize })
  } catch (error) {
    if ((error as { name?: string })?.name === 'PasswordException')
      throw new ExtractionError('encrypted_document', 'The PDF is encrypted and needs a password to open; remove the password and send it again.')
    throw new ExtractionError('corrupt_document', `The file is not a readable PDF: ${messageOf(error)}`)
  }
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown })?.message
  return typeof message === 'string' && message ? message : 'unknown error'
}

/**
 * Text runs with their boxes in page units, y downwards from the page's top; upright text only
 * (rotated runs keep their order). A run reaches ~0.8 of its size above the baseline and ~0.2 below.
 */
function toRuns(items: PdfTextItem[], originX: number, top: number): PositionedWord[] {
  const runs: PositionedWord[] = []
  for (const item of items) {
    if (typeof item.str !== 'string' || !item.transform) continue
    const text = item.str.replace(/\s+/g, ' ')
    if (!text.trim()) continue
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform
    const size = Math.max(Math.hypot(c, d), Math.hypot(a, b), 1)
    const x0 = e - originX
    const baseline = top - f
    runs.push({ text, x0, x1: x0 + Math.max(item.width ?? 0, 0), y0: baseline - size * 0.8, y1: baseline + size * 0.2, size, confidence: 1 })
  }
  return runs
}
