/**
 * Money amounts as printed ("1.234,56 €", "$ 1,234.56", "-7,67", "(12.00)", "10 000,00 EUR")
 * → decimal strings with a dot and no grouping ("1234.56"). Which mark is the decimal one is
 * read from the number itself: the last of two different marks, or a single mark followed by one
 * or two digits; a single mark followed by three digits groups thousands.
 */
import { currencyAt } from './currency'

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
    const grouped = /[.,'’\u202f\u00a0 ]/.test(integer!)
    const value = (negative && parsed !== '0' && !/^0(?:\.0+)?$/.test(parsed) ? '-' : '') + parsed
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

/** Integer part (maybe grouped) and decimal part → "1234.56"; undefined when it is not a number. */
function parseParts(integer: string, mark: string | undefined, decimals: string | undefined): string | undefined {
  const groupMarks = integer.match(/[.,'’\u202f\u00a0 ]/g) ?? []
  let digits = integer.replace(/[.,'’\u202f\u00a0 ]/g, '')
  if (groupMarks.length && new Set(groupMarks).size > 1) return undefined
  // "0.500" is a fraction, not five hundred.
  if (!mark && groupMarks.length === 1 && /^0[.,]/.test(integer)) return normalise('0', integer.slice(2))
  if (mark && groupMarks[0] === mark) {
    // "1,234,567" or "1.234" read as groups: a decimal mark cannot repeat.
    if (decimals!.length !== 3) return undefined
    digits += decimals
    return normalise(digits, '')
  }
  if (mark && decimals !== undefined) {
    // A lone mark before exactly three digits groups thousands ("1.234", "12,500").
    if (decimals.length === 3) return undefined

    return normalise(digits, decimals)
  }
  return normalise(digits, '')
}

function normalise(integer: string, decimals: string): string {
  const trimmed = integer.replace(/^0+(?=\d)/, '')
  return decimals ? `${trimmed}.${decimals}` : trimmed
}

/** One amount read from a whole value string such as "EUR 1.234,50" or "-12.00". */
export function parseAmount(text: string): FoundAmount | undefined {
  const amounts = findAmounts(text)
  return amounts.length === 1 ? amounts[0] : undefined
}
