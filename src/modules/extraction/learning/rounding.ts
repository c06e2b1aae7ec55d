/**
 * A rounded amount printed after a learned one (D361): "Total 13.58", "Rounding -0.02",
 * "Total 13.60". A sender taught on a receipt without a rounding line learns its total where the
 * unrounded amount is printed; on its next receipt with one, the amount paid is the rounded total
 * below it. Told by arithmetic, in any language: a small amount on a row below the learned one,
 * and on a row after that an amount that is the learned one plus or minus it, rounder than it
 * (a multiple of a coin the learned amount is not) and within half that coin of it.
 */
import { type FoundAmount, findAmounts } from '../normalise/amounts'
import type { Page, Word } from './words'

/** Rows printing money, below the learned amount, searched for the rounding line and the rounded amount. */
const REACH = 4
/** The rounded amount is printed within this many rows of money after the rounding line. */
const ROUNDED_WITHIN = 2
/** Coins an amount is rounded to, in cents: 5, 10 and 50 cents, a whole unit. */
const COINS = [5, 10, 50, 100]

export interface Rounded {
  /** The rounded amount, as the normalisation layer writes it. */
  value: string
  words: Word[]
}

/** The rounded amount a rounding line below `words` (printing `value`) leads to, if the page prints one. */
export function roundedAfter(page: Page, value: number, words: readonly Word[]): Rounded | undefined {
  const last = Math.max(...words.map((word) => word.line))
  const rows: { line: number; amounts: FoundAmount[] }[] = []
  for (const line of [...page.rows.keys()].filter((line) => line > last).sort((a, b) => a - b)) {
    const amounts = findAmounts(page.lines[line] ?? '').filter((amount) => amount.moneyLike)
    if (amounts.length) rows.push({ line, amounts })
    if (rows.length >= REACH) break
  }
  const cents = Math.round(value * 100)
  for (let i = 0; i < rows.length - 1; i++)
    for (const adjustment of rows[i]!.amounts) {
      const step = Math.round(Math.abs(adjustment.number) * 100)
      if (!step) continue
      for (const row of rows.slice(i + 1, i + 1 + ROUNDED_WITHIN))
        for (const total of row.amounts) {
          const rounded = Math.round(total.number * 100)
          // Printed with its sign, the adjustment says which way; without one (or its minus not read), either.
          if (Math.abs(rounded - cents) !== step || (adjustment.number < 0 && rounded > cents)) continue
          if (!COINS.some((coin) => rounded % coin === 0 && cents % coin !== 0 && 2 * step <= coin)) continue
          const covered = page.rows.get(row.line)!.filter((word) => word.start < total.end && word.end > total.start)
          if (covered.length) return { value: total.value, words: covered }
        }
    }
  return undefined
}
