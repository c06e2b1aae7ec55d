/**
 * Traces each value an engine found back to the words it came from, for any engine: the line of
 * its snippet on its page, and in that line the words that spell the value. Gives the value's box
 * on the page, and for recognised (OCR) text weighs the value's confidence by how well those words
 * were read: a value read from poorly recognised words is dropped rather than guessed.
 */
import { collapse, words } from '../../lib/text'
import type { BoundingBox, FieldMeta } from '../../lib/fields/model'
import { type Answers, answerOf, answersOf, NO_ANSWER } from './answers'
import { MIN_OCR_CONFIDENCE, OCR_READING_ALLOWANCE } from './confidence'
import { findShape } from './normalise/shapes'
import { legalForms } from '../../lib/lexicon'
import { misreadFormWord } from './legal-forms'
import type { PlacedWord } from './readers/layout'
import type { DocumentText } from './readers/types'

export function locateValues(answers: Answers, document: DocumentText): Answers {
  const lines = document.pages.map((page) => page.split('\n'))
  return answersOf(
    Object.keys(answers).map((key) => {
      const answer = answerOf(answers, key)
      const { value, page, snippet, line } = answer
      const layout = page === null ? undefined : document.layout?.[page - 1]
      const pageLines = page === null ? [] : (lines[page - 1] ?? [])
      const traced = layout && snippet !== null ? wordsOf(value, line ?? lineShowing(snippet, pageLines), pageLines, layout.words) : undefined
      if (!traced?.words.length) return [key, { ...answer, bbox: null }] as const
      const { words, spelled } = traced
      // A value that carries its own check (an IBAN's checksum) holds however clearly its words were read.
      if (holdsItsOwnCheck(value)) return [key, { ...answer, bbox: boxOf(words) }] as const
      // A table is judged by its rows and their check (D117), not by how well its header line was read.
      if (Array.isArray(value) && value.every((row) => typeof row === 'object' && row !== null)) {
        const header = line ?? lineShowing(snippet!, pageLines)
        const rows = header === undefined ? undefined : rowsOf(value as Record<string, unknown>[], page! - 1, header, lines, document.layout!)
        return [key, { ...answer, bbox: boxOf(words), ...(rows && { rows }) }] as const
      }
      // An amount or date no word spells (a sum, a cash-rounded total) is judged by the line's numbers.
      const whole = wholeMatcherOf(value)
      const numbers = spelled || !whole ? [] : words.filter((word) => /\d/.test(wordText(word, pageLines)))
      const judged = numbers.length ? numbers : spelled && !whole ? telling(words, pageLines, value) : words
      let readConfidence = Math.min(...judged.map((word) => word.confidence))
      // The same value read again elsewhere, from other words, is a second reading of it: an amount
      // or date that recurs (a receipt's total as cash paid, a date in a footer) holds when one of
      // its readings is clear.
      if (readConfidence < MIN_OCR_CONFIDENCE) readConfidence = Math.max(readConfidence, ...otherReadings(value, document.layout, lines, words))
      if (readConfidence < MIN_OCR_CONFIDENCE) return [key, { ...NO_ANSWER, bbox: null }] as const
      return [
        key,
        { ...answer, confidence: round(answer.confidence * Math.min(1, readConfidence + OCR_READING_ALLOWANCE)), bbox: boxOf(words), read: readConfidence },
      ] as const
    }),
  )
}

type RowPlace = NonNullable<FieldMeta['rows']>[number]

/** How far below the row before (or the header) a row's line may be: a description wrapped over a few lines. */
const MAX_ROW_GAP = 8

/**
 * Where each row of a table is printed (D338): going down from its header, the first line in which
 * the words of at least half of the row's cells are found (on this page, or at the top of the
 * next, for a table that goes on), each cell's own words boxed where they spell it. A row that is
 * not found is null and the next is looked for from the same place.
 */
function rowsOf(
  rows: Record<string, unknown>[],
  pageIndex: number,
  header: number,
  lines: string[][],
  layout: NonNullable<DocumentText['layout']>,
): RowPlace[] {
  let at = { page: pageIndex, line: header + 1 }
  return rows.map((row) => {
    const cells = Object.entries(row).filter(([, value]) => value !== null && value !== undefined && value !== '')
    if (!cells.length) return null
    const needed = Math.max(1, Math.ceil(cells.length / 2))
    for (const [page, from] of [
      [at.page, at.line],
      [at.page + 1, 0],
    ] as const) {
      const pageLines = lines[page] ?? []
      const words = layout[page]?.words ?? []
      for (let index = from; index < Math.min(pageLines.length, from + MAX_ROW_GAP); index++) {
        const inLine = words.filter((word) => word.line === index)
        if (!inLine.length) continue
        const spelled = cells.map(([column, value]) => {
          const spells = matcherOf(value)
          return [column, inLine.filter((word) => spells(wordText(word, pageLines)))] as const
        })
        if (spelled.filter(([, found]) => found.length).length < needed) continue
        at = { page, line: index + 1 }
        return {
          page: page + 1,
          bbox: boxOf(inLine),
          cells: Object.fromEntries(spelled.map(([column, found]) => [column, found.length ? boxOf(found) : null])),
        }
      }
    }
    return null
  })
}

function holdsItsOwnCheck(value: unknown): boolean {
  return typeof value === 'string' && findShape('iban', value)?.value === value
}

/** A legal form ("SDN BHD", "GmbH") spelled as a whole word, with a dot or comma after it. */
const LEGAL_FORMS = legalForms()
const isLegalFormWord = (word: string) => !!LEGAL_FORMS.at(word, 0, (form) => ['', '.', ','].includes(word.slice(form.end)))

/**
 * The words a text value's reading is judged by: those with two letters or digits or more that are
 * no legal form (all words when none is left). A speck or mark read as a word ("&", "-K") says
 * nothing of how the name was read, and neither does its legal form: a word of a short list,
 * read badly more often than the name's own words, and what tells names apart is the rest. That
 * holds for a form misread by a letter that the engine mended ("BHO" for "BHD", D381), unless the
 * value spells the word as printed ("SUN" of "SUN VICTORY").
 */
function telling(placed: PlacedWord[], lines: string[], value: unknown): PlacedWord[] {
  const spelled = new Set(words(String(value)))
  const kept = placed.filter((word) => {
    const text = wordText(word, lines)
    const mendedForm = misreadFormWord(text) && !words(text).every((piece) => spelled.has(piece))
    return (text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 2 && !isLegalFormWord(text) && !mendedForm
  })
  return kept.length ? kept : placed
}

/**
 * The words of the snippet's line that spell the value; the whole line when none does. The line
 * is the one the engine names, else the page's line that shows the snippet.
 */
function wordsOf(value: unknown, line: number | undefined, lines: string[], words: PlacedWord[]): { words: PlacedWord[]; spelled: boolean } | undefined {
  if (line === undefined || lines[line] === undefined) return undefined
  const raw = lines[line]!
  const inLine = words.filter((word) => word.line === line)
  const spells = matcherOf(value)
  const spelling = inLine.filter((word) => spells(raw.slice(word.start, word.end)))
  if (!spelling.length) return { words: inLine, spelled: false }
  // A name's word printed in pieces with no space between them ("M" "UTUAL" in small capitals, a
  // piece found as the start or end of the value's word, D381): a letter or two glued to a piece
  // found is part of that word.
  if (typeof value === 'string' && !/\d/.test(value)) {
    const glued = inLine.filter((word) => {
      const text = raw.slice(word.start, word.end)
      return (
        !spelling.includes(word) && (text.match(/\p{L}/gu) ?? []).length <= 2 && spelling.some((found) => found.end === word.start || word.end === found.start)
      )
    })
    spelling.push(...glued)
  }
  return { words: spelling, spelled: true }
}

/** The index of the line that is, or else holds, a snippet (an engine that names no line: a model's). */
function lineShowing(snippet: string, lines: string[]): number | undefined {
  const wanted = collapse(snippet.replace(/^…|…$/g, ''))
  if (!wanted) return undefined
  const collapsed = lines.map(collapse)
  let line = collapsed.indexOf(wanted)
  if (line === -1) line = collapsed.findIndex((text) => text.includes(wanted))
  return line === -1 ? undefined : line
}

type Matcher = (wordText: string) => boolean

/**
 * The confidences of every other word, on any page, that prints the whole value by itself: an
 * amount's digits with its decimals ("RM20.00" for 20.00), or a date's day, month and year.
 */
function otherReadings(value: unknown, layout: DocumentText['layout'], lines: string[][], traced: PlacedWord[]): number[] {
  const whole = wholeMatcherOf(value)
  if (!whole || !layout) return []
  return layout.flatMap((page, index) =>
    (page?.words ?? []).filter((word) => !traced.includes(word) && whole(wordText(word, lines[index] ?? []))).map((word) => word.confidence),
  )
}

function wordText(word: PlacedWord, lines: string[]): string {
  return (lines[word.line] ?? '').slice(word.start, word.end)
}

function wholeMatcherOf(value: unknown): Matcher | undefined {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : ''
  const amount = /^-?(\d+)\.(\d{2})$/.exec(text)
  if (amount) {
    const printed = new RegExp(`^\\D{0,3}${Number(amount[1]).toLocaleString('en').replace(/,/g, "[.,' ]?")}[.,]${amount[2]}\\D{0,2}$`)
    return (word) => printed.test(word)
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (date) {
    const spells = matcherOf(text)
    return (word) => (word.match(/\d+/g) ?? []).length === 3 && spells(word)
  }
  return undefined
}

/**
 * What a value looks like in print, as a test of one word: an amount's digits ("1234.50" is
 * printed "1,234.50", "1.234,50" or "1 234,50" over two words), a date's parts ("2026-03-01" is
 * printed "01.03.2026" or "1 March 2026"), else the value's words.
 */
function matcherOf(value: unknown): Matcher {
  if (value === null || value === undefined || typeof value === 'object') return () => false
  const text = String(value)
  if (/^-?\d+(?:\.\d+)?$/.test(text)) {
    const digits = text.replace(/\D/g, '')
    // A speck read as a digit ("“4" before "48.00") is not part of the amount.
    const least = Math.min(2, digits.length)
    return (word) => {
      const own = word.replace(/\D/g, '')
      return own.length >= least && digits.includes(own)
    }
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (date) {
    const [, year, month, day] = date as unknown as [string, string, string, string]
    const parts = new Set([year, year.slice(2), month, String(Number(month)), day, String(Number(day))])
    // Every group of digits is a part of the date, and a lone number is a word of its own: a time
    // beside the date ("8:01:11") or a number ("No.2") is not part of it.
    return (word) => {
      const groups = word.match(/\d+/g) ?? []
      if (!groups.length || !groups.every((group) => parts.has(group))) return false
      return groups.length > 1 || !/\p{L}/u.test(word.replace(/(\d)(?:st|nd|rd|th|er|e)\b/g, '$1'))
    }
  }
  const wanted = new Set(words(text))
  if (/\d/.test(text)) return (word) => words(word).some((piece) => wanted.has(piece))
  // A name (no digit) as the engine mended what OCR misread in it (D381): "0ld" spells "Old", and
  // "STAT" and "IONERY" (three letters or more, the start or end of a word of six or more) spell "STATIONERY".
  // And a legal form misread by a letter that the engine mended ("BHO" for the value's "BHD").
  const long = [...wanted].filter((word) => word.length >= 6)
  const part = (piece: string) => piece.length >= 3 && long.some((word) => word !== piece && (word.startsWith(piece) || word.endsWith(piece)))
  const hasForm = LEGAL_FORMS.test(text)
  return (word) => words(zerosAsLetters(word)).some((piece) => wanted.has(piece) || part(piece)) || (hasForm && misreadFormWord(word))
}

/** A word with its zeros as the letter o: how the engine mends a name OCR read "0ld" in (D381). */
const zerosAsLetters = (text: string) => text.replace(/0/g, 'o')

function boxOf(words: PlacedWord[]): BoundingBox {
  const left = Math.min(...words.map((word) => word.box[0]))
  const top = Math.min(...words.map((word) => word.box[1]))
  const right = Math.max(...words.map((word) => word.box[2]))
  const bottom = Math.max(...words.map((word) => word.box[3]))
  return { left, top, width: round4(right - left), height: round4(bottom - top) }
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000
}
