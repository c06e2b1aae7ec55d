/**
 * A rounded amount printed after a learned one (D361): "Total 13.58", "Rounding -0.02",
 * "Total 13.60". A sender taught on a receipt without a rounding line learns its total where the
 * unrounded amount is printed; on its next receipt with one, the amount paid is the rounded total
 * below it. Told by arithmetic, in any language: a row below the learned amount that prints one
 * small amount, and on a row after it an amount that is the learned one plus or minus that, a
 * multiple of a coin the learned amount is not, within half that coin of it. Rounding to 5 or 10
 * cents is told by the arithmetic alone; to 50 cents or a whole unit, where a tax (2.00 + 0.12)
 * would pass for one, the row must also name a rounding in one of the lexicons' languages. An
 * adjustment may be printed without the zero before its mark (",02"), as tills print cents.
 */
import { conceptLabels } from '../../../lib/lexicon'
import { type FoundAmount, findAmounts } from '../normalise/amounts'
import { squashed } from './values'
import type { Page, Word } from './words'

/** Rows printing money, below the learned amount, searched for the rounding line and the rounded amount. */
const REACH = 4
/** The rounded amount is printed within this many rows of money after the rounding line. */
const ROUNDED_WITHIN = 2
/** Coins an amount is rounded to, in cents, and whether the rounding line must say it is one. */
const COINS: { cents: number; named: boolean }[] = [
  { cents: 5, named: false },
  { cents: 10, named: false },
  { cents: 50, named: true },
  { cents: 100, named: true },
]

export interface Rounded {
  /** The rounded amount, as the normalisation layer writes it. */
  value: string
  words: Word[]
}

/** The rounded amount a rounding line below `words` (printing `value`) leads to, if the page prints one. */
export function roundedAfter(page: Page, value: number, words: readonly Word[]): Rounded | undefined {
  const last = Math.max(...words.map((word) => word.line))
  const rows: { line: number; amounts: Pick<FoundAmount, 'value' | 'number' | 'start' | 'end'>[] }[] = []
  for (const line of [...page.rows.keys()].filter((line) => line > last).sort((a, b) => a - b)) {
    const text = page.lines[line] ?? ''
    const found = findAmounts(text).filter((amount) => amount.moneyLike)
    const amounts = found.length ? found : bareCents(text)
    if (amounts.length) rows.push({ line, amounts })
    if (rows.length >= REACH) break
  }
  const cents = Math.round(value * 100)
  for (let i = 0; i < rows.length - 1; i++) {
    // A rounding line prints its adjustment alone; a row of two amounts is a breakdown (net and tax).
    if (rows[i]!.amounts.length !== 1) continue
    const adjustment = rows[i]!.amounts[0]!
    const step = Math.round(Math.abs(adjustment.number) * 100)
    if (!step) continue
    let named: boolean | undefined
    const coins = COINS.filter((coin) => 2 * step <= coin.cents && cents % coin.cents !== 0)
    for (const row of rows.slice(i + 1, i + 1 + ROUNDED_WITHIN))
      for (const total of row.amounts) {
        const rounded = Math.round(total.number * 100)
        // Printed with its sign, the adjustment says which way; without one (or its minus not read), either.
        if (Math.abs(rounded - cents) !== step || (adjustment.number < 0 && rounded > cents)) continue
        const coin = coins.find((coin) => rounded % coin.cents === 0)
        if (!coin || (coin.named && !(named ??= namesRounding(page.lines[rows[i]!.line] ?? '')))) continue
        const covered = page.rows.get(row.line)!.filter((word) => word.start < total.end && word.end > total.start)
        if (covered.length) return { value: total.value, words: covered }
      }
  }
  return undefined
}

/** Cents printed without the zero before the mark ("RM .40", ",02"), as tills print small amounts; not a number elsewhere. */
const CENTS = /(?<![\p{L}\p{N}.,])([-−–]\s?)?[.,](\d{2})(?![\p{N}.,])/gu

function bareCents(text: string): Pick<FoundAmount, 'value' | 'number' | 'start' | 'end'>[] {
  return [...text.matchAll(CENTS)].map((match) => {
    const number = (match[1] ? -1 : 1) * (Number(match[2]) / 100)
    return { value: number.toFixed(2), number, start: match.index!, end: match.index! + match[0].length }
  })
}

let roundingWords: string[] | undefined

/** Whether a line names a rounding, in one of the lexicons' languages. */
function namesRounding(line: string): boolean {
  roundingWords ??= [...new Set(conceptLabels('rounding').map(squashed))].filter(Boolean)
  const text = squashed(line)
  return roundingWords.some((word) => text.includes(word))
}
