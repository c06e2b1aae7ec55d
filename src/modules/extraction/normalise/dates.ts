/**
 * Dates as printed in the languages of data/lexicon (month names from there) → YYYY-MM-DD.
 * Numeric dates whose day and month could be swapped are read in the document's order, judged
 * from its other dates and, failing that, its language (see `DateOrder`).
 */
import { monthNames } from '../../../lib/lexicon'
import { fold, foldKeepingLength } from '../../../lib/text'

/** Day before month (most of the world), month before day (US), or not known. */
export type DateOrder = 'dmy' | 'mdy' | undefined

export interface FoundDate {
  iso: string
  /** Index in the searched text where the date starts and ends. */
  start: number
  end: number
  /** True when day and month could be swapped and the order was guessed, not known. */
  guessed: boolean
}

/** Month names of every lexicon (D95), folded as the searched text is: "März" → "marz". */
const MONTHS: Record<string, number> = Object.create(null)
for (const [name, month] of monthNames()) MONTHS[fold(name)] ??= month

const MONTH_ALT = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|')

const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th|er|e|º|°|\.)?`
const YEAR = String.raw`(\d{4}|'\d{2})`
/** "12. Mai 2021", "3 maart 2019", "20th March, 2023", "6th day of February 1999", "5 de marzo de 2021". */
const DAY_MONTH_YEAR = new RegExp(
  String.raw`(?<![\p{L}\d])${DAY}\s*(?:day\s+of\s+|of\s+|de\s+|-)?(${MONTH_ALT})\.?(?:\s*,)?\s*(?:de\s+|del\s+|-|\s)\s*${YEAR}(?!\d)`,
  'giu',
)
/** "March 20, 2023", "Feb. 6th, 1999", "Mar 10 2018". */
const MONTH_DAY_YEAR = new RegExp(String.raw`(?<![\p{L}\d])(${MONTH_ALT})\.?\s+${DAY}\s*,?\s*${YEAR}(?!\d)`, 'giu')
const ISO = /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d])/g
const NUMERIC = /(?<![\p{L}\d,/-])(?<!(?:^|[^\p{L}])\.)(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d]|[.,/-]\d)/gu

function isoOf(year: number, month: number, day: number): string | undefined {
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1) return undefined
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1) return undefined
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

function fullYear(text: string): number {
  const digits = text.replace("'", '')
  const year = Number(digits)
  if (digits.length === 4) return year
  return year < 70 ? 2000 + year : 1900 + year
}

/** Dates whose parts are known by position: written with a month name, or ISO. */
const UNAMBIGUOUS: [RegExp, (m: RegExpMatchArray) => string | undefined][] = [
  [DAY_MONTH_YEAR, (m) => isoOf(fullYear(m[3]!), MONTHS[m[2]!]!, Number(m[1]))],
  [MONTH_DAY_YEAR, (m) => isoOf(fullYear(m[3]!), MONTHS[m[1]!]!, Number(m[2]))],
  [ISO, (m) => isoOf(Number(m[1]), Number(m[2]), Number(m[3]))],
]

/**
 * Every date in a text, in order of appearance. Searched on a folded copy of the same length,
 * so month names match with or without accents and positions stay those of the original.
 */
export function findDates(text: string, order: DateOrder, orderSure: boolean): FoundDate[] {
  const source = foldKeepingLength(text)
  const found: FoundDate[] = []
  // Characters already part of a date: a later pattern must not read a date inside another.
  const taken = new Uint8Array(source.length)
  const add = (date: FoundDate | undefined) => {
    if (!date) return
    for (let i = date.start; i < date.end; i++) if (taken[i]) return
    taken.fill(1, date.start, date.end)
    found.push(date)
  }

  for (const [pattern, read] of UNAMBIGUOUS) {
    for (const m of source.matchAll(pattern)) {
      const iso = read(m)
      if (iso) add({ iso, start: m.index!, end: m.index! + m[0].length, guessed: false })
    }
  }
  for (const m of source.matchAll(NUMERIC)) add(numericDate(m, order, orderSure))
  return found.sort((a, b) => a.start - b.start)
}

function numericDate(m: RegExpMatchArray, order: DateOrder, orderSure: boolean): FoundDate | undefined {
  const first = Number(m[1])
  const second = Number(m[3])
  const separator = m[2]
  // Two-digit years with dots are common ("21.05.14"); with dashes they are as often codes.
  if (m[4]!.length === 2 && separator === '-' && order !== 'dmy') return undefined
  const year = fullYear(m[4]!)
  const dmy = isoOf(year, second, first)
  const mdy = isoOf(year, first, second)
  let iso: string | undefined
  let guessed = false
  // A reading only possible against the document's known order is a code, not a date.
  if (orderSure && ((dmy && !mdy && order === 'mdy') || (mdy && !dmy && order === 'dmy'))) return undefined
  // Dotted dates are day-first everywhere: "11.14.00" that reads only month-first is a time or a code.
  if (separator === '.' && mdy && !dmy) return undefined
  if (dmy && !mdy) iso = dmy
  else if (mdy && !dmy) iso = mdy
  else if (dmy && mdy) {
    iso = order === 'mdy' ? mdy : dmy
    guessed = first !== second && !orderSure
  }
  if (!iso) return undefined
  return { iso, start: m.index!, end: m.index! + m[0].length, guessed }
}

/**
 * The day/month order of a document's numeric dates: what its unambiguous dates show (a first
 * part above 12 is a day), else undefined. Dotted dates are day-first everywhere.
 */
export function dateOrderOf(text: string): DateOrder {
  let dmy = 0
  let mdy = 0
  for (const m of text.matchAll(NUMERIC)) {
    const first = Number(m[1])
    const second = Number(m[3])
    if (m[2] === '.') dmy += 0.5
    if (first > 12 && second <= 12) dmy++
    else if (second > 12 && first <= 12 && m[2] !== '.') mdy++
  }
  if (dmy > mdy) return 'dmy'
  if (mdy > dmy) return 'mdy'
  return undefined
}

/**
 * A value that is one date → YYYY-MM-DD (D57), else null. A short lead-in ("le", "am", a weekday)
 * and a short tail (a time) are allowed. A numeric date whose day and month could be swapped
 * ("03/05/2024") is null unless `order` is known: a guess is not a typed answer (D94).
 */
export function parseDate(text: string, order: DateOrder = undefined): string | null {
  const trimmed = text.trim()
  const date = findDates(trimmed, order, order !== undefined)[0]
  if (!date || date.guessed) return null
  const lead = trimmed.slice(0, date.start)
  const tail = trimmed.slice(date.end)
  if (lead.length > 24 || /\d{3,}/.test(lead) || tail.length > 24 || /\d{3,}/.test(tail.replace(/\d{1,2}:\d{2}(?::\d{2})?/g, ''))) return null
  return date.iso
}
