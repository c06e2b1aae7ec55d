/**
 * Reading a page image: the image is prepared (the paper evened out, small text enlarged),
 * recognised with the model of its language, turned upright when it was read sideways or upside
 * down, and read again when its words show another language than the one it was read in. A page
 * read with doubt is read again larger; one still doubtful is read a second time, larger again,
 * for the engine to answer from both readings. The words keep their boxes and confidences.
 */
import type { PageWords, PositionedWord } from '../layout'
import { blankRowNear, flattenBackground, type Raster, rotate, scale, type Turn } from './raster'
import { modelShown } from './language'
import { mendCurrencyMarks, mendLabelWord } from './lexicon'
import type { RecogniserName } from '../types'
import { type WordReader, wordReader } from './recognisers'
import { detectOrientation, type OcrLanguage, type OcrWord } from './tesseract'

/** A page's words, boxes in pixels of the upright image read, y downwards. */
export interface RecognisedPage extends PageWords {
  /** A doubtful page read a second time, larger: the engine answers from both (D67). */
  second?: PageWords
  /** The quarter turn (clockwise) the page was given to be read upright: both readings' words are on the turned page (D352). */
  turned: Turn
}

/**
 * Small print is enlarged before recognition: scans are brought to this resolution when the file
 * gives theirs (receipts and office scans are often 150 dpi), others to this many pixels on the
 * longest side; never more than three times, nor past a size that costs too much to read.
 */
const TARGET_DPI = 220
const TARGET_LONGEST_SIDE = 2000
const MAX_PREPARED_PIXELS = 16_000_000
/** Below this mean confidence (0–100), or with fewer characters read, a page may be turned: its orientation is checked. */
const DOUBTFUL_CONFIDENCE = 60
const FEW_CHARACTERS = 20

export interface PageRecogniser {
  /** Recognises the document's next page image. */
  read(page: Raster): Promise<RecognisedPage>
  /** A page read from its text layer instead: its words tell the language of the pages after it. */
  sawText(words: readonly { text: string }[]): void
}

/**
 * Reads the pages of one document in order. The first page's language is seen from its top;
 * each later page is read with the model of the language the page before it turned out to be in
 * (or a text page before it shows): a document keeps its language, so its later pages are read
 * once. With `readTwice`, a doubtful page is also read a second time (for the built-in engine).
 * `recogniser` is the operator's choice of word reader (D160).
 */
export function pageRecogniser(readTwice = false, recogniser: RecogniserName = 'auto'): PageRecogniser {
  let language: OcrLanguage | undefined
  return {
    async read(page) {
      const read = await recognisePage((known) => wordReader(recogniser, known, page), page, language, readTwice)
      language = read.language
      return read
    },
    sawText(words) {
      language = modelShown(words) ?? language
    },
  }
}

async function recognisePage(
  readerFor: (language: OcrLanguage | undefined) => WordReader,
  page: Raster,
  known: OcrLanguage | undefined,
  readTwice: boolean,
): Promise<RecognisedPage & { language: OcrLanguage }> {
  const flat = flattenBackground(page)
  const prepared = enlarge(flat)
  let { words, language, reader } = known ? await readIn(readerFor(known), prepared, known) : await readFirstPage(readerFor, prepared)
  let upright = prepared
  let turned: Turn = 0
  // Well-read words running the wrong way show the turn; badly read ones need orientation detection,
  // and so does a page where little was read (PaddleOCR drops what it reads with doubt: a page upside down).
  const sure = meanConfidence(words) >= DOUBTFUL_CONFIDENCE && words.reduce((sum, word) => sum + word.text.length, 0) >= FEW_CHARACTERS
  const turn = sure ? turnFromReadingOrder(words) : 0
  if (turn) {
    upright = rotate(prepared, turn)
    turned = turn
    words = await reader.read(upright, [language])
  } else if (!sure) {
    const orientation = await detectOrientation(prepared)
    if (orientation && orientation.degrees !== 0) {
      const rotated = rotate(prepared, orientation.degrees)
      const again = await reader.read(rotated, [language])
      if (quality(again) > quality(words)) {
        words = again
        upright = rotated
        turned = orientation.degrees
      }
    }
  }
  const guessed = modelShown(words)
  if (guessed && guessed !== language) {
    const other = readerFor(guessed)
    if (other !== reader) {
      // A page in a language its reader has no letters for is read by the one that has (D160).
      ;({ words, language, reader } = await readIn(other, upright, guessed))
    } else if (!reader.languageMatters) language = guessed
    else {
      // The page's own model alone: it reads English words too (Latin script), and one model is faster than two.
      const again = await reader.read(upright, [guessed])
      if (quality(again) >= quality(words) * 0.95) {
        words = again
        language = guessed
      }
    }
  }
  if (characterConfidence(words) < READ_AGAIN_BELOW) {
    // Faint or small print is read anew a size larger; the surer of the two readings is kept.
    const again = await readLarger(reader, flat, upright, turned, language, LARGER)
    if (again && characterConfidence(again.words) > characterConfidence(words)) ({ words, raster: upright } = again)
  }
  const reading = readingOf(words, upright)
  if (!readTwice || characterConfidence(words) >= SECOND_READING_BELOW) return { ...reading, language, turned }
  // Still doubtful: read once more, larger again, for the engine to answer each field from the surer reading.
  const second = await readLarger(reader, flat, upright, turned, language, SECOND_LARGER)
  return { ...reading, language, turned, ...(second && { second: readingOf(second.words, second.raster) }) }
}

/** The page read again from its evened-out image, enlarged `more` times as much and turned upright; undefined when that is no larger. */
async function readLarger(
  reader: WordReader,
  flat: Raster,
  upright: Raster,
  turned: Turn,
  language: OcrLanguage,
  more: number,
): Promise<{ words: OcrWord[]; raster: Raster } | undefined> {
  const larger = enlarge(flat, more)
  // Compared by area: the page read may have been turned a quarter.
  if (larger.width * larger.height <= upright.width * upright.height * 1.2) return undefined
  const raster = rotate(larger, turned)
  return { words: await reader.read(raster, [language]), raster }
}

function readingOf(words: OcrWord[], raster: Raster): PageWords {
  return { lines: toLines(mendCurrencyMarks(mendNumbers(words))), width: raster.width, height: raster.height }
}

/**
 * Below this confidence (0–100, per character) a page is read again a size larger, by this much,
 * and the surer reading kept: on the receipt scans a sixth of them, leaving 8 wrong fields where
 * there were 11 (D67).
 */
const READ_AGAIN_BELOW = 70
const LARGER = 1.25
/**
 * Below this one, the page is also read this much larger, and both readings go to the engine:
 * most receipts, few office scans. Receipts 137 → 143 of 179 fields right (D67).
 */
const SECOND_READING_BELOW = 85
const SECOND_LARGER = 1.6

/** The share of a first page's ink read to see its language. */
const TOP_SHARE = 0.25

/**
 * A document's first page is read in the language it shows: its top is read with the English
 * model (or PaddleOCR's one model), then the page by the reader and model of the language those
 * words show (English when unclear). A German page costs its top and one reading where it would
 * cost two readings. A reader that reads every language alike reads the page once; PaddleOCR
 * reads the top of the page first and goes on with the rest when the top shows a page it reads.
 */
async function readFirstPage(
  readerFor: (language: OcrLanguage | undefined) => WordReader,
  raster: Raster,
): Promise<{ words: OcrWord[]; language: OcrLanguage; reader: WordReader }> {
  const first = readerFor(undefined)
  // One model reads every language: the page is read once, as if English, and its words then tell its language.
  if (!first.languageMatters && readerFor('deu') === first) return readIn(first, raster, 'eng')
  const cut = blankRowNear(raster, TOP_SHARE)
  if (cut !== undefined && first.readTopFirst) {
    const { top, rest } = await first.readTopFirst(raster, cut)
    const language = modelShown(top) ?? 'eng'
    const reader = readerFor(language)
    return reader === first ? { words: await rest(), language, reader } : readIn(reader, raster, language)
  }
  const shown = cut === undefined ? undefined : modelShown(await first.read(raster, ['eng'], { top: 0, height: cut }))
  const language = shown ?? 'eng'
  return readIn(readerFor(language), raster, language)
}

/** A page read by a reader in one language, as the pipeline goes on with it. */
async function readIn(reader: WordReader, raster: Raster, language: OcrLanguage): Promise<{ words: OcrWord[]; language: OcrLanguage; reader: WordReader }> {
  return { words: await reader.read(raster, [language]), language, reader }
}

function enlarge(raster: Raster, more = 1): Raster {
  const known = raster.dpi !== undefined && raster.dpi >= 50 && raster.dpi <= 1200
  const wanted = (known ? TARGET_DPI / raster.dpi! : TARGET_LONGEST_SIDE / Math.max(raster.width, raster.height)) * more
  const factor = Math.min(wanted, 3 * more, Math.sqrt(MAX_PREPARED_PIXELS / (raster.width * raster.height)))
  return factor > 1.15 ? scale(raster, factor) : raster
}

/**
 * Tesseract reads the letters of a page turned a quarter or upside down, but then its words
 * follow each other down, up or leftwards on the page instead of rightwards. The way most lines
 * run tells the turn that makes the page upright (clockwise), or 0.
 */
function turnFromReadingOrder(words: OcrWord[]): Turn {
  const steps = { right: 0, left: 0, down: 0, up: 0 }
  for (let i = 1; i < words.length; i++) {
    const [previous, word] = [words[i - 1]!, words[i]!]
    if (previous.line !== word.line) continue
    const dx = word.left - previous.left
    const dy = word.top - previous.top
    if (Math.abs(dx) >= Math.abs(dy)) steps[dx >= 0 ? 'right' : 'left']++
    else steps[dy >= 0 ? 'down' : 'up']++
  }
  const [way, count] = Object.entries(steps).sort((p, q) => q[1] - p[1])[0]!
  if (way === 'right' || count < 3 || count <= steps.right * 2) return 0
  return way === 'left' ? 180 : way === 'down' ? 270 : 90
}

function meanConfidence(words: OcrWord[]): number {
  if (!words.length) return 0
  return words.reduce((sum, word) => sum + word.confidence, 0) / words.length
}

/** How much was read, and how well: confident characters. */
function quality(words: OcrWord[]): number {
  return words.reduce((sum, word) => sum + word.text.length * word.confidence, 0)
}

/** How well a reading's characters were read, on average (0–100). */
function characterConfidence(words: OcrWord[]): number {
  const characters = words.reduce((sum, word) => sum + word.text.length, 0)
  return characters ? quality(words) / characters : 0
}

/** Letters OCR reads in place of digits, mended only where the word then reads as a number. */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  l: '1',
  I: '1',
  '|': '1',
  i: '1',
  Z: '2',
  S: '5',
  s: '5',
  '§': '5',
  B: '8',
  g: '9',
}
/** Specks OCR reads as quotes or tildes around a number. */
const SPECKS = /^[“”"'`‘’~^*«»]+|[“”"'`‘’~^*«»]+$/g
const NUMBER_LIKE = /^[(+\-]?(?:RM|[$€£¥])?\d{1,3}(?:[.,' ]?\d{3})*(?:[.,]\d{1,2})?[)%]?$|^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}$/

/**
 * Numbers as printed, where OCR broke them: "39." and "80" a narrow gap apart are "39.80", so is
 * "39 80" at the end of a line when the gap is narrower than a character (the point was lost),
 * and "1O.5O" or "“§.30" with letters or specks around mostly digits are "10.50" and "5.30".
 * Words that do not then read as a number stay as they were.
 */
function mendNumbers(words: OcrWord[]): OcrWord[] {
  const mended: OcrWord[] = []
  for (const [index, word] of words.entries()) {
    const previous = mended[mended.length - 1]
    const charWidth = word.width / Math.max(1, word.text.length)
    const gap = previous ? word.left - (previous.left + previous.width) : Infinity
    const lastOfLine = words[index + 1]?.line !== word.line
    const pointLost = previous && /^\d{1,3}$/.test(previous.text) && /^\d{2}$/.test(word.text) && lastOfLine && gap < charWidth
    if (previous && previous.line === word.line && ((/\d[.,]$/.test(previous.text) && /^\d{1,2}\b/.test(word.text) && gap < charWidth * 1.5) || pointLost)) {
      mended[mended.length - 1] = {
        ...previous,
        text: previous.text + (pointLost ? '.' : '') + word.text,
        width: word.left + word.width - previous.left,
        top: Math.min(previous.top, word.top),
        height: Math.max(previous.top + previous.height, word.top + word.height) - Math.min(previous.top, word.top),
        confidence: Math.min(previous.confidence, word.confidence),
      }
      continue
    }
    mended.push({ ...word, text: asNumber(word.text) ?? mendLabelWord(word.text) ?? word.text })
  }
  return mended
}

function asNumber(text: string): string | undefined {
  const bare = text.replace(SPECKS, '')
  const digits = bare.replace(/\D/g, '').length
  if (digits < 2 || digits < bare.length / 2) return undefined
  const fixed = bare.replace(/[ODQoIl|iZSsBg§]/g, (char) => DIGIT_LOOKALIKES[char] ?? char)
  return fixed !== text && NUMBER_LIKE.test(fixed) ? fixed : undefined
}

/**
 * Words grouped by Tesseract's lines (which follow a skewed scan). A word's size is set from its
 * line's character width so that a gap of two characters or more separates columns, as spaces
 * in a monospaced receipt or a table's gaps do, while one space joins words.
 */
function toLines(words: OcrWord[]): PositionedWord[][] {
  const groups = new Map<string, OcrWord[]>()
  for (const word of words) groups.set(word.line, [...(groups.get(word.line) ?? []), word])
  return [...groups.values()].map((line) => {
    const chars = line.reduce((sum, word) => sum + word.text.length, 0)
    const charWidth = line.reduce((sum, word) => sum + word.width, 0) / Math.max(1, chars)
    return line.map((word) => ({
      text: word.text,
      x0: word.left,
      y0: word.top,
      x1: word.left + word.width,
      y1: word.top + word.height,
      size: (charWidth * COLUMN_GAP_CHARS) / 0.8,
      confidence: word.confidence / 100,
    }))
  })
}

/** Gap, in characters of its line, from which two words stand in different columns. */
const COLUMN_GAP_CHARS = 1.8
