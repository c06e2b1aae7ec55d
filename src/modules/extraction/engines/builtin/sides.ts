/**
 * Which side of a document a position is on (D112): the seller's or the buyer's, by the nearest
 * party heading above it in its column ("Lieferant", "Bill to", "Käufer:"), within a block's reach.
 */
import type { Context } from './context'
import type { Line } from './document'
import type { Party } from './vocabulary'

/** How far below a party's heading its block may reach. */
const BLOCK_LINES = 12

/** How far right of its heading's end a block may reach (names and streets are longer than headings). */
const BLOCK_WIDENING = 24

/**
 * The side of the document a position is on: that of the nearest party heading above it in its
 * column ("Lieferant", "Bill to", "Käufer:"), within a block's reach.
 */
export function partyAt(ctx: Context, line: Line, column: number): Party | undefined {
  return blockAt(ctx, line, column)?.party
}

/** The party heading whose block a position is in. */
export function blockAt(ctx: Context, line: Line, column: number): Heading | undefined {
  const headings = partyHeadings(ctx)
  for (let index = line.index; index >= Math.max(0, line.index - BLOCK_LINES); index--) {
    const heading = headings.get(index)?.find((candidate) => column >= candidate.start - 4 && column < candidate.until)
    if (heading && ctx.doc.lines[index]!.page === line.page) return heading
    // A line of the document's own data ("Total:", "Invoice No.") in the column ends any block above it.
    if (index < line.index && endsBlock(ctx, index, column)) return undefined
  }
  return undefined
}

/** Labels of the document's own data: a party's block does not reach past one. */
const DOCUMENT_LABELS = new Set(['invoice_number', 'issue_date', 'due_date', 'total', 'subtotal', 'tax', 'currency', 'amount_paid'])

function endsBlock(ctx: Context, index: number, column: number): boolean {
  const line = ctx.doc.lines[index]!
  return (ctx.hitsByLine.get(index) ?? []).some((hit) => {
    const cell = line.cells[hit.cell]!
    return DOCUMENT_LABELS.has(hit.entry.owner) && hit.start <= cell.start + 1 && column >= cell.start - 4 && column < cell.end + 4
  })
}

export interface Heading {
  party: Party | undefined
  start: number
  /** Where the heading's column ends: the next cell of its line. */
  until: number
}

/** Headings of the parties' blocks by line (a ship-to heading ends a block without starting one of ours). */
function partyHeadings(ctx: Context): Map<number, Heading[]> {
  const key = 'party-headings'
  const cached = ctx.memo.get(key) as Map<number, Heading[]> | undefined
  if (cached) return cached
  const headings = new Map<number, Heading[]>()
  const parties: Record<string, Party | undefined> = { issuer: 'seller', recipient: 'buyer', other_party: undefined }
  for (const hit of ctx.hits) {
    if (!Object.hasOwn(parties, hit.entry.owner)) continue
    const cell = hit.line.cells[hit.cell]!
    // A heading opens its cell: "Lieferant", "Bill to:", not "our supplier" in a sentence.
    if (hit.start > cell.start + 1) continue
    // A block is as wide as its heading and a little more, up to the next cell of the heading's line.
    const until = Math.min(hit.line.cells[hit.cell + 1]?.start ?? Infinity, cell.end + BLOCK_WIDENING)
    const list = headings.get(hit.line.index) ?? []
    list.push({ party: parties[hit.entry.owner], start: cell.start, until })
    headings.set(hit.line.index, list)
  }
  ctx.memo.set(key, headings)
  return headings
}
