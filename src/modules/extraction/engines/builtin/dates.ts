/** Dates of the document's text, read in the document's own day/month order (normalise/dates.ts). */
import { type FoundDate, findDates } from '../../normalise/dates'
import { memo, type Context } from './context'
import type { Doc, Line } from './document'
import { hasDigit } from './text'

export type { FoundDate }

/** Every date in a text, in order of appearance, numeric ones read in the document's order. */
export function datesIn(text: string, doc: Doc): FoundDate[] {
  return findDates(text, doc.dateOrder, doc.dateOrderSure)
}

/** The dates of a line of the document, found once per document. */
export function lineDates(ctx: Context, line: Line): FoundDate[] {
  // By line index in an array: a map of half a million lines costs more than the lines' reading (D186).
  const byLine = memo(ctx, 'line-dates', () => new Array<FoundDate[] | undefined>(ctx.doc.lines.length))
  // A line without a digit holds no date (every pattern reads a day or a year in digits; D186).
  return (byLine[line.index] ??= hasDigit(line.text) ? datesIn(line.text, ctx.doc) : [])
}
