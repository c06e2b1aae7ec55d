/**
 * A value and its print (D262): where a reviewed value is printed on a document — an amount or a
 * date by what the normalisation layer reads in each line, a text by its letters, a few misread —
 * and the other way round, what a cell at a learned place holds as a value of a field's type.
 */
import type { JobField } from '../../../lib/fields/model'
import type { ResolvedType } from '../../../lib/fields/types'
import { collapse, fold } from '../../../lib/text'
import { normaliseValue, parseBoolean, parseEnum, parseNumber } from '../normalise'
import { amountIn, findAmounts } from '../normalise/amounts'
import { findCurrency } from '../normalise/currency'
import { type DateOrder, findDates } from '../normalise/dates'
import { editDistance } from './place'
import type { Page, Word } from './words'

/** Where a value is printed: its words on a page, and for a date the order of day and month it was printed in. */
export interface Printing {
  page: number
  words: Word[]
  order?: DateOrder
}

/** Every printing of a value on the document. */
export function printings(pages: Page[], type: ResolvedType, value: unknown): Printing[] {
  switch (type) {
    case 'amount':
    case 'number':
      return spans(pages, (line) => findAmounts(line).filter((amount) => Math.abs(amount.number - Number(value)) < 0.005))
    case 'date':
      return datePrintings(pages, String(value))
    case 'currency':
      return pages.flatMap((page, index) =>
        page.words.filter((word) => findCurrency(page.lines[word.line]!.slice(word.start, word.end)) === value).map((word) => ({ page: index, words: [word] })),
      )
    case 'boolean':
      return []
    default:
      return textPrintings(pages, Array.isArray(value) ? value.join(' ') : String(value))
  }
}

/** The words of each line that a span found in its text covers. */
function spans(pages: Page[], find: (line: string) => { start: number; end: number }[]): Printing[] {
  const found: Printing[] = []
  pages.forEach((page, index) => {
    for (const [line, words] of page.rows) {
      for (const span of find(page.lines[line] ?? '')) {
        const covered = words.filter((word) => word.start < span.end && word.end > span.start)
        if (covered.length) found.push({ page: index, words: covered })
      }
    }
  })
  return found
}

/** A date's printings, each with the order of day and month it needs when its parts could be swapped. */
function datePrintings(pages: Page[], iso: string): Printing[] {
  const found: Printing[] = []
  pages.forEach((page, index) => {
    for (const [line, words] of page.rows) {
      const text = page.lines[line] ?? ''
      for (const order of ['dmy', 'mdy'] as const)
        for (const date of findDates(text, order, false)) {
          // An unambiguous date reads the same in both orders: it is found once.
          if (date.iso !== iso || (order === 'mdy' && !date.guessed)) continue
          const covered = words.filter((word) => word.start < date.end && word.end > date.start)
          const printed = date.guessed ? order : orderPrinted(text.slice(date.start, date.end), iso)
          if (covered.length) found.push({ page: index, words: covered, ...(printed ? { order: printed } : {}) })
        }
    }
  })
  return found
}

/** The order of day and month a numeric date is printed in ("18/04/2017" for 2017-04-18 is day first); undefined for other prints. */
function orderPrinted(printed: string, iso: string): DateOrder {
  const [first, second, third] = (printed.match(/\d+/g) ?? []).map(Number)
  if (third === undefined || printed.match(/\d+/)![0]!.length === 4) return undefined
  const [, month, day] = iso.split('-').map(Number)
  if (first === day && second === month) return 'dmy'
  if (first === month && second === day) return 'mdy'
  return undefined
}

/** A printed text differs from the reviewed one by at most this share of its letters and digits (misread letters, a dropped dot). */
const TEXT_LIKENESS = 0.2

/** How many letters a printing of a text (squashed) may differ by and still spell it. */
export const likenessLimit = (wanted: string): number => Math.floor(wanted.length * TEXT_LIKENESS)

/** The runs of consecutive words (across at most three lines) that spell the text, a few letters aside; the closest first. */
function textPrintings(pages: Page[], text: string): Printing[] {
  const found = pages.flatMap((page, index) => spellings(page.words, text).map((entry) => ({ ...entry, printing: { page: index, words: entry.words } })))
  const best = Math.min(...found.map((entry) => entry.distance))
  // Overlapping runs of one printing: keep the closest of them.
  return found.filter((entry) => entry.distance === best).map((entry) => entry.printing)
}

/** The runs of consecutive words (in reading order, across at most three lines) that spell a text, each with how many letters differ. */
export function spellings(words: readonly Word[], text: string): { words: Word[]; distance: number }[] {
  const wanted = squashed(text)
  if (!wanted) return []
  const limit = likenessLimit(wanted)
  const found: { words: Word[]; distance: number }[] = []
  for (let i = 0; i < words.length; i++) {
    let joined = ''
    for (let j = i; j < words.length && words[j]!.line - words[i]!.line <= 2; j++) {
      joined += words[j]!.key
      if (joined.length > wanted.length + limit) break
      if (joined.length < wanted.length - limit) continue
      const distance = editDistance(joined, wanted, limit)
      if (distance <= limit) found.push({ words: words.slice(i, j + 1), distance })
    }
  }
  return found.sort((a, b) => a.distance - b.distance)
}

/** Letters and digits, folded: what two spellings of a text are compared by. */
export function squashed(text: string): string {
  return fold(collapse(text)).replace(/[^\p{L}\p{N}]+/gu, '')
}

/** A cell's text as a value of the field's type, read as the normalisation layer reads it; null when it holds none. */
export function typed(field: { type: ResolvedType; values?: string[] }, text: string, order: DateOrder): unknown {
  // Amounts, numbers and dates are printed with digits (a date's year): a cell without one is none, and needs no parsing.
  if ((field.type === 'amount' || field.type === 'number' || field.type === 'date') && !/\d/.test(text)) return null
  switch (field.type) {
    case 'amount': {
      // A learned place holds money: a bare number there is a count, a rate or a code (D265).
      const amount = amountIn(text)
      return amount?.moneyLike ? amount.value : null
    }
    case 'number':
      return parseNumber(text)
    case 'date': {
      const date = findDates(text, order ?? 'dmy', order !== undefined)[0]
      return date && !date.guessed ? date.iso : null
    }
    case 'currency':
      return findCurrency(text) ?? null
    case 'boolean':
      return parseBoolean(collapse(text))
    case 'enum':
      return parseEnum(collapse(text), field.values ?? [])
    default:
      return normaliseValue(field as JobField, text)
  }
}
