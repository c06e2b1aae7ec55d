/**
 * The word readers a page can be recognised with (D160): Tesseract alone, PaddleOCR's detector
 * and recogniser, or PaddleOCR's detector finding the lines and Tesseract reading each line.
 * All give Tesseract's words: text, box in the raster's pixels, confidence 0–100, line.
 */
import { onnxFailure, onnxRuntime } from './onnx'
import { boxAlong, cutLine, detectLines, readLines, type TextLine } from './paddle'
import type { RecogniserName } from '../types'
import type { Band, Raster } from './raster'
import { type OcrLanguage, type OcrWord, recognise, recogniseLines } from './tesseract'

export interface WordReader {
  name: RecogniserName
  /** Reads the words of a page image, or of one band of it (boxes in the whole image's pixels). */
  read(raster: Raster, languages: OcrLanguage[], band?: Band): Promise<OcrWord[]>
  /** Whether the language's model changes the reading (Tesseract's do; PaddleOCR's one model reads every language). */
  languageMatters: boolean
  /**
   * Reads the page's words above `height` first and the others only when asked: the whole
   * page costs one reading, and the top alone tells its language (a reader without it reads the
   * top as a band, then the page again).
   */
  readTopFirst?(raster: Raster, height: number): Promise<{ top: OcrWord[]; rest(): Promise<OcrWord[]> }>
}

// Called through, not held: tests spy on the module's recognise.
const tesseract: WordReader = { name: 'tesseract', read: (raster, languages, band) => recognise(raster, languages, band), languageMatters: true }

const paddle: WordReader = {
  name: 'paddle',
  read: async (raster, _languages, band) => readLines(raster, await detectLines(raster, band)),
  languageMatters: false,
  async readTopFirst(raster, height) {
    const lines = await detectLines(raster)
    // Lines come in reading order: those of the top are the first ones.
    const split = lines.findIndex((line) => line.cy >= height)
    const topLines = split < 0 ? lines : lines.slice(0, split)
    const top = await readLines(raster, topLines)
    return { top, rest: async () => [...top, ...(await readLines(raster, lines.slice(topLines.length), topLines.length))] }
  },
}

/** Tesseract reads best when a line's capital letters stand this many pixels high or more. */
const TESSERACT_LINE_HEIGHT = 36

const mix: WordReader = {
  name: 'mix',
  async read(raster, languages, band) {
    const lines = await detectLines(raster, band)
    const cuts = lines.map((line) => cutLine(raster, line, Math.max(TESSERACT_LINE_HEIGHT, Math.round(line.height))))
    const read = await recogniseLines(cuts, languages)
    return read.flatMap((words, index) => onPage(words, lines[index]!, cuts[index]!.width, index))
  },
  languageMatters: true,
}

/** A line image's words moved onto the page: along the line from its start, across it its full height. */
function onPage(words: OcrWord[], line: TextLine, cutWidth: number, index: number): OcrWord[] {
  const along = line.length / cutWidth
  return words.map((word) => ({ ...word, ...boxAlong(line, word.left * along, (word.left + word.width) * along), line: `m.${index}` }))
}

let warned = false

/**
 * The reader of that name for a page in `language` (undefined while not known); PaddleOCR's
 * readers fall back to Tesseract where ONNX Runtime cannot be loaded (another platform's build),
 * with one warning. `auto` is PaddleOCR for English pages and pages of a language not yet known,
 * Tesseract with the page's own model for the others (PaddleOCR's dictionary has no ß, ö, €, ç …)
 * and for office pages of A4 or letter size, which it read better (D160).
 */
export function wordReader(name: RecogniserName = 'auto', language?: OcrLanguage, page?: Raster): WordReader {
  if (name === 'tesseract' || (name === 'auto' && ((language !== undefined && language !== 'eng') || (page && isOfficePage(page))))) return tesseract
  if (!onnxRuntime()) {
    if (!warned) console.warn(`Pages are read with Tesseract alone: ONNX Runtime cannot be loaded (${onnxFailure()})`)
    warned = true
    return tesseract
  }
  return name === 'mix' ? mix : paddle
}

/**
 * A page of a known size at least as wide as A4 or letter paper: an office document, which
 * Tesseract read better and faster than PaddleOCR (D160). A resolution below 100 dpi is a camera's
 * default (72), not a size.
 */
function isOfficePage(page: Raster): boolean {
  return page.dpi !== undefined && page.dpi >= 100 && page.width / page.dpi >= OFFICE_PAGE_INCHES
}

const OFFICE_PAGE_INCHES = 7
