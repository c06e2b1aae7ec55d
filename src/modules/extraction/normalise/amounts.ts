/**
 * Money amounts as printed ("1.234,56 €", "$ 1,234.56", "-7,67", "(12.00)", "10 000,00 EUR")
 * → decimal strings with a dot and no grouping ("1234.56"). Which mark is the decimal one is
 * read from the number itself: the last of two different marks, or a single mark followed by one
 * or two digits; a single mark followed by three digits groups thousands.
 */
import { currencyAt, LETTER_MARKS } from './currency'
import { numberWords } from '../../../lib/lexicon'
import { escapeRegex, fold } from '../../../lib/text'

export interface FoundAmount {
  /** Normalised decimal string, sign kept. */
  value: string
  number: number
  start: number
  end: number
  /** ISO code of a symbol or code printed right next to the number, if any. */
  currency?: string
  /** Printed with decimals, grouping or a currency: money rather than a count or a code. */
  moneyLike: boolean
}

// A number with optional grouping (comma, dot, apostrophe, narrow or plain space before exactly
// three digits) and an optional decimal part; not glued to letters, except a currency ("RM4.00").
/** Currency codes and letter marks a number may be glued to ("RM4.00", "EUR12"): the currency module's, listed once there. */
const GLUED_MARKS = [...LETTER_MARKS, 'Rs.']
  .sort((a, b) => b.length - a.length)
  .map(escapeRegex)
  .join('|')
const NUMBER = new RegExp(
  String.raw`(?:(?<![\p{L}\d.,/:-])|(?<=(?<!\p{L})(?:${GLUED_MARKS})))([-−–]\s?)?(\()?(\d{1,3}(?:(?:[.,'’\u202f\u00a0]|(?<=\d) (?=\d{3}(?:,\d{1,2})?(?![\d.])))\d{3})+|\d+)(?:([.,])(\d{1,4}))?(\))?(-)?(?![\d%]|[.,]\d|\s?%|[.,/:-]\d)`,
  'gu',
)

/** Marks that group thousands: comma, dot, apostrophes, narrow and no-break spaces, a plain space. */
const GROUP_MARK = /[.,'’\u202f\u00a0 ]/
const GROUP_MARKS = new RegExp(GROUP_MARK.source, 'g')

/** Every amount-looking number in a text, in order. Percentages, dates and times are skipped. */
export function findAmounts(text: string): FoundAmount[] {
  const found: FoundAmount[] = []
  for (const m of text.matchAll(NUMBER)) {
    const [whole, minus, open, integer, mark, decimals, close, trailingMinus] = m
    const start = m.index!
    const end = start + whole.length
    const parsed = parseParts(integer!, mark, decimals)
    if (!parsed) continue
    const negative = Boolean(minus) || (Boolean(open) && Boolean(close)) || Boolean(trailingMinus)
    const currency = currencyAt(text, start, end)
    const grouped = GROUP_MARK.test(integer!)
    const value = (negative && !/^0(?:\.0+)?$/.test(parsed) ? '-' : '') + parsed
    found.push({
      value,
      number: Number(value),
      start,
      end,
      currency,
      moneyLike: Boolean(currency) || (decimals !== undefined && decimals.length === 2) || grouped,
    })
  }
  return found
}

/** The amounts of a text that are money rather than counts or codes. */
export function moneyAmounts(text: string): FoundAmount[] {
  return findAmounts(text).filter((amount) => amount.moneyLike)
}

/**
 * Integer part (maybe grouped) and decimal part → "1234.56"; undefined when it is not a number.
 * `mark` and `decimals` come from one optional group: both are given or neither.
 */
function parseParts(integer: string, mark: string | undefined, decimals: string | undefined): string | undefined {
  const groupMarks = integer.match(GROUP_MARKS) ?? []
  const digits = integer.replace(GROUP_MARKS, '')
  if (new Set(groupMarks).size > 1) return undefined
  if (!mark || decimals === undefined) {
    // "0.500" is a fraction, not five hundred.
    if (groupMarks.length === 1 && /^0[.,]/.test(integer)) return normalise('0', integer.slice(2))
    return normalise(digits, '')
  }
  // "1,234,567" or "1.234" read as groups: a decimal mark cannot repeat.
  if (groupMarks[0] === mark) return decimals.length === 3 ? normalise(digits + decimals, '') : undefined
  // A lone mark before exactly three digits groups thousands ("1.234", "12,500").
  if (decimals.length === 3) return undefined
  return normalise(digits, decimals)
}

function normalise(integer: string, decimals: string): string {
  const trimmed = integer.replace(/^0+(?=\d)/, '')
  return decimals ? `${trimmed}.${decimals}` : trimmed
}

/** A canonical amount: what every engine answers (D57), accepted as it is. */
const CANONICAL_AMOUNT = /^-?\d+(?:\.\d+)?$/

/** An amount given as a JSON number → decimal string, two decimals when it has cents or none. */
export function amountOfNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-9 ? value.toFixed(2) : String(value)
}

/**
 * A value that is one amount → decimal string with a dot, sign kept (D57), else null: the last
 * money-like number of the text ("EUR 1,234.50", "1.234,50 €"), or its only number.
 */
export function parseAmount(value: unknown): string | null {
  if (typeof value === 'number') return amountOfNumber(value)
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (CANONICAL_AMOUNT.test(text)) return text.replace(/^(-?)0+(?=\d)/, '$1')
  return amountIn(text)?.value ?? null
}

/**
 * The amount a text holds, as a reader and the normalisation layer both read it: the last
 * money-like number of the text, else its only number when that is the whole text but a mark or
 * a code ("12", "EUR 12"). Whether it is money says how sure a reader may be.
 */
export function amountIn(text: string): FoundAmount | undefined {
  const amounts = findAmounts(text)
  const money = amounts.filter((amount) => amount.moneyLike)
  if (money.length) return money[money.length - 1]
  if (amounts.length === 1 && /^[^\d]{0,4}\d+[^\d]{0,4}$/.test(text.trim())) return amounts[0]
  return undefined
}

const NUMBER_WORDS = numberWords()

/** A count written out as the first word of a text without digits ("twelve months", "zwölf") → its value; else null. */
export function numberWord(text: string): number | null {
  const words = fold(text.trim()).split(/[^\p{L}]+/u)
  // "null" alone is how a JSON null is often written as text, not German zero.
  if (words.length === 1 && words[0] === 'null') return null
  return NUMBER_WORDS.get(words[0] ?? '') ?? null
}

/** A count or measure → JSON number, from a number or the first number of a short text; else null. */
export function parseNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return Number(text)
  return leadingNumber(text)?.number ?? null
}

/**
 * The number a text leads with, as a reader and the normalisation layer both read it: the first
 * number, with either decimal mark, when it starts within the text's first eight characters (a
 * count after a short lead-in, not a number deep in a sentence); else a count written out as its
 * first word (`spelled`).
 */
export function leadingNumber(text: string): { number: number; spelled: boolean } | undefined {
  // A group of thousands is exactly three digits: "-5,0000" is -5, not -5000.
  const m = /-?\d+(?:[.,'\s]\d{3}(?!\d))*(?:[.,]\d+)?/.exec(text)
  if (!m) {
    const word = numberWord(text)
    return word === null ? undefined : { number: word, spelled: true }
  }
  if (m.index > 8) return undefined
  const amount = findAmounts(m[0])[0]
  const number = amount ? amount.number : Number(m[0].replace(',', '.'))
  return Number.isFinite(number) ? { number, spelled: false } : undefined
}
