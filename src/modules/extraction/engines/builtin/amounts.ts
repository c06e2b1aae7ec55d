/**
 * Money amounts as printed ("1.234,56 €", "$ 1,234.56", "-7,67", "(12.00)", "10 000,00 EUR")
 * → decimal strings with a dot and no grouping ("1234.56"). Which mark is the decimal one is
 * read from the number itself: the last of two different marks, or a single mark followed by one
 * or two digits; a single mark followed by three digits groups thousands.
 */
import { memo, type Context } from './context'
import { currencyAt } from './currency'
import type { Line } from './document'

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
const NUMBER = /(?:(?<![\p{L}\d.,/:-])|(?<=(?<!\p{L})(?:RM|EUR|USD|GBP|CHF|INR|MYR|SGD|PLN|CAD|AUD|Rs\.?)))([-−–]\s?)?(\()?(\d{1,3}(?:(?:[.,'’\u202f\u00a0]|(?<=\d) (?=\d{3}(?:,\d{1,2})?(?![\d.])))\d{3})+|\d+)(?:([.,])(\d{1,4}))?(\))?(-)?(?![\d%]|[.,]\d|\s?%|[.,/:-]\d)/gu

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

/** The amounts of a line of the document, found once per document. */
export function lineAmounts(ctx: Context, line: Line): FoundAmount[] {
  const byLine = memo(ctx, 'line-amounts', () => new Map<number, FoundAmount[]>())
  let amounts = byLine.get(line.index)
  if (!amounts) byLine.set(line.index, (amounts = findAmounts(line.text)))
  return amounts
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
