/**
 * Currencies → ISO 4217 codes, from codes ("EUR"), symbols ("€", "zł", "RM") and words
 * ("euros"). A symbol next to an amount is the strongest sign; the document's currency is the
 * one its amounts carry most often.
 */
import { currencyNames } from '../../../lib/lexicon'
import { escapeRegex } from '../../../lib/text'
import { DOCUMENT_CURRENCY } from '../confidence'

const CODES = new Set(
  (
    'EUR USD GBP CHF JPY CNY INR MYR SGD AUD CAD NZD HKD SEK NOK DKK PLN CZK HUF RON BGN HRK RUB TRY ZAR BRL MXN ' +
    'ARS CLP COP PEN IDR THB PHP VND KRW TWD AED SAR QAR KWD ILS EGP NGN KES MAD ISK UAH'
  ).split(' '),
)

/** Symbols and local abbreviations, longest first so "US$" wins over "$". */
const SYMBOLS: [string, string][] = [
  ['US$', 'USD'],
  ['U$S', 'USD'],
  ['A$', 'AUD'],
  ['AU$', 'AUD'],
  ['C$', 'CAD'],
  ['CA$', 'CAD'],
  ['NZ$', 'NZD'],
  ['S$', 'SGD'],
  ['HK$', 'HKD'],
  ['R$', 'BRL'],
  ['MX$', 'MXN'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['¥', 'JPY'],
  ['￥', 'JPY'],
  ['₹', 'INR'],
  ['₽', 'RUB'],
  ['₺', 'TRY'],
  ['₩', 'KRW'],
  ['₪', 'ILS'],
  ['₫', 'VND'],
  ['฿', 'THB'],
  ['₱', 'PHP'],
  ['₴', 'UAH'],
  ['zł', 'PLN'],
  ['Kč', 'CZK'],
  ['Ft', 'HUF'],
  ['lei', 'RON'],
  ['RM', 'MYR'],
  ['Rs.', 'INR'],
  ['Rs', 'INR'],
  ['SFr.', 'CHF'],
  ['Fr.', 'CHF'],
  ['$', 'USD'],
]

/** Codes and abbreviations written in letters ("EUR", "RM", "Rs"): what OCR may misread before an amount. */
export const LETTER_MARKS: ReadonlySet<string> = new Set([...CODES, ...SYMBOLS.map(([symbol]) => symbol).filter((symbol) => /^\p{L}+$/u.test(symbol))])

/** Currency names of every lexicon (D95), one case-insensitive pattern per code, longest name first. */
const WORDS: [RegExp, string][] = [...currencyNames()].map(([code, names]) => [
  new RegExp(
    `\\b(?:${[...new Set(names)]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegex)
      .join('|')})\\b`,
    'i',
  ),
  code,
])

/** Marks "kr": Swedish, Norwegian or Danish crowns, told apart by `krone` from the whole text. */
export const KRONE = 'KR'

/** Which crown a document means by "kr", from its country hints; Swedish when none. */
function krone(text: string): string {
  const folded = text.toLowerCase()
  if (/\bdanmark\b|\.dk\b|\bmoms\b.*\bdkk\b|\bcvr\b/.test(folded)) return 'DKK'
  if (/\bnorge\b|\.no\b|\bmva\b/.test(folded)) return 'NOK'
  return 'SEK'
}

const SYMBOL_CODES = new Map(SYMBOLS)

/** The ISO code of a currency code, symbol or word; undefined when it is none. */
export function currencyCode(text: string): string | undefined {
  const trimmed = text.trim()
  const upper = trimmed.toUpperCase()
  if (/^[A-Z]{3}$/.test(upper) && CODES.has(upper)) return upper
  const symbol = SYMBOL_CODES.get(trimmed)
  if (symbol) return symbol
  if (/^kr\.?$/i.test(trimmed)) return KRONE
  for (const [pattern, code] of WORDS) if (pattern.test(trimmed)) return code
  return undefined
}

const CODE_ALT = [...CODES].join('|')
const CODE_PATTERN = new RegExp(`(?<![A-Za-z])(${CODE_ALT})(?![A-Za-z])`, 'g')
const FIRST_CODE = new RegExp(CODE_PATTERN.source)

/**
 * How each symbol is found in a text, in the order of `SYMBOLS`: a mark ("€", "US$", "zł") wherever
 * it is printed; a symbol of letters only ("RM", "Rs.", "Fr.") as a word of its own.
 */
const SYMBOL_MATCHERS = SYMBOLS.map(([symbol, code]) => {
  const mark = symbol.length === 1 || /[^A-Za-z.]/.test(symbol)
  const word = new RegExp(`(?<![A-Za-z])${escapeRegex(symbol)}(?![A-Za-z])`)
  return { symbol, code, mark, found: (text: string) => (mark ? text.includes(symbol) : word.test(text)) }
})

/** The first currency code, symbol or word in a text (for "Currency: EUR"-style values). */
export function findCurrency(text: string): string | undefined {
  const listed = FIRST_CODE.exec(text)
  if (listed) return listed[1]
  for (const { code, found } of SYMBOL_MATCHERS) if (found(text)) return code
  for (const [pattern, iso] of WORDS) if (pattern.test(text)) return iso
  return undefined
}

const CURRENCY_BEFORE = /(?:^|[^A-Za-z])([A-Z]{3}|US\$|[A-Z]{1,2}\$|R[Ss]\.?|RM|SFr\.|Fr\.|[€£¥￥₹₽₺₩₪₫฿₱₴$])\s?$/
const CURRENCY_AFTER = /^\s?([A-Z]{3}|[€£¥￥₹₽₺₩₪₫฿₱₴$]|zł|Kč|Ft|lei|RM|kr\.?)(?![A-Za-z])/

/**
 * The currency printed right before or after a number at [start, end) of `text`: a symbol or
 * code separated from it by at most one space.
 */
export function currencyAt(text: string, start: number, end: number): string | undefined {
  const pre = CURRENCY_BEFORE.exec(text.slice(Math.max(0, start - 5), start))
  if (pre) {
    const code = currencyCode(pre[1]!)
    if (code) return code
  }
  const post = CURRENCY_AFTER.exec(text.slice(end, end + 5))
  if (post) return currencyCode(post[1]!)
  return undefined
}

/**
 * The document's currency: codes and symbols next to amounts count most, then any currency
 * code, symbol or word anywhere. Returns the winner and how sure it is.
 */
export function documentCurrency(text: string, amountCurrencies: string[]): { code: string; confidence: number } | undefined {
  const votes = new Map<string, number>()
  const vote = (code: string, weight: number) => votes.set(code, (votes.get(code) ?? 0) + weight)
  const weights = DOCUMENT_CURRENCY
  for (const code of amountCurrencies) vote(code === KRONE ? krone(text) : code, weights.amountVote)
  for (const m of text.matchAll(CODE_PATTERN)) if (isCurrencyContext(text, m.index!, m[1]!)) vote(m[1]!, weights.codeVote)
  for (const { symbol, code, mark } of SYMBOL_MATCHERS) {
    if (!mark) continue
    const count = text.split(symbol).length - 1
    if (count) vote(code, Math.min(count, weights.symbolsCounted) * weights.symbolVote)
  }
  for (const [pattern, code] of WORDS) if (pattern.test(text)) vote(code, weights.wordVote)
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1])
  const [best, second] = ranked
  if (!best) return undefined
  const margin = second ? best[1] / (best[1] + second[1]) : 1
  const confidence =
    Math.min(weights.cap, weights.base + Math.min(best[1], weights.votesCounted) * weights.perVote) * (weights.uncontested + margin * (1 - weights.uncontested))
  return { code: best[0], confidence }
}

/** Codes that are not also ordinary words. */
const UNAMBIGUOUS_CODES = new Set(['EUR', 'USD', 'GBP', 'CHF', 'PLN', 'SEK', 'NOK', 'DKK', 'MYR', 'INR', 'JPY', 'CNY'])

/** Three-letter words that are codes only in a money context (ALL, CAD, TRY, SAR … are words too). */
function isCurrencyContext(text: string, index: number, code: string): boolean {
  if (UNAMBIGUOUS_CODES.has(code)) return true
  const around = text.slice(Math.max(0, index - 12), index + 15)
  return /\d/.test(around)
}
