/** Amounts of the document's lines, found once per document (normalise/amounts.ts reads them). */
import { type FoundAmount, findAmounts } from '../../normalise/amounts'
import { memo, type Context } from './context'
import type { Line } from './document'
import { hasDigit } from './text'

/** The amounts of a line of the document, found once per document. */
export function lineAmounts(ctx: Context, line: Line): FoundAmount[] {
  const byLine = memo(ctx, 'line-amounts', () => new Array<FoundAmount[] | undefined>(ctx.doc.lines.length))
  // A line without a digit holds no amount: a document of many such lines is not searched line by line (D186).
  return (byLine[line.index] ??= hasDigit(line.text) ? findAmounts(line.text) : [])
}
