/**
 * Reading a field a user names (D110–D112): the values next to the labels its words stand for
 * (vocabulary.ts), in any layout the label reader knows (after a colon or a gap, under the label,
 * in a key/value block, under a header row), read by the shape the field's words ask for and kept
 * only when they sit on the side of the document the field names. Where no label is printed, a
 * value whose shape is unmistakable (an IBAN, a VAT ID, an e-mail address) is taken from anywhere
 * in the document when only one such value belongs to the field's side; a payment method, from a
 * receipt's amount tendered ("CASH 50.00"). Yes/no fields also read status words ("PAID",
 * "bezahlt") and ticked boxes.
 */
import { amountIn } from '../../normalise/amounts'
import { findShape, findShapes, type Shape } from '../../normalise/shapes'
import { addressAnswer } from './address'
import type { Role } from '../../../../lib/fields/concepts'
import type { Answer, Context, Plan } from './context'
import type { Cell, Line } from './document'
import { choose, genericAnswer, labelledValues } from './generic'
import { partyAt } from './sides'
import { amountAnswer } from './totals'
import { type Candidate, isHeaderRow, type LabelHit, squashKeepingMarks } from './labels'
import { formsOf, isPartyGroup, LABEL_KINDS, namedOwner, SHAPE_GROUPS, type FieldWords, type Party } from './vocabulary'
import { trimEndWhere, trimValue } from './text'
import { collapse, fold } from '../../../../lib/text'
import { NAMED, STATUS, UNMISTAKABLE } from './weights'

/** The shortest value of the unmistakable shapes: a web address such as "x.de". */
const MIN_SHAPED_LENGTH = 4
/** The longest label of an amount tendered that may be a means of payment ("AMERICAN EXPRESS"): a longer cell is text, not searched. */
const MAX_MEANS_LABEL = 30

/** The answer for a field a user names; the general reader's when its words say nothing more. */
export function namedAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const field = plan.words
  if (!field) return genericAnswer(plan, ctx)
  // "Ship-to city", "city of delivery": an address the party's words do not pick is read from its own labels.
  if (field.addressPart && plan.kind === 'text' && !namesMoreThanAddress(field)) return addressAnswer(field, ctx)
  if (plan.kind === 'boolean') return genericAnswer(plan, ctx) ?? statusAnswer(field, ctx)
  const shape = field.shape
  const lessSure = (owner: string) => owner === namedOwner('wider', plan.spec.key) || owner === namedOwner('side', plan.spec.key)
  const labelled = labelledValues(plan, ctx, plan.kind, {
    ...(shape ? { read: (text: string) => readShape(shape, text) } : {}),
    accept: (candidate) => {
      const { hit } = candidate
      // The headings of a table's columns under a label are not its value.
      if (candidate.how === 'below' && plan.kind === 'text' && !shape && isHeaderRow(candidate.line)) return false
      // Text that opens with another thing's label, or with a value of an unmistakable shape
      // ("Bankverbindung: IBAN DE…" for a bank's name), is that thing's value.
      if (plan.kind === 'text' && !shape && (opensWithOtherLabel(candidate, plan, ctx) || opensWithShapedValue(candidate.text, field))) return false
      // A label with the party's own words ("Kundennummer", "Customer VAT ID") says whose it is.
      if (hit.entry.owner === namedOwner('words', plan.spec.key)) return true
      const side = partyAt(ctx, hit.line, hit.line.cells[hit.cell]!.start)
      // General words ("Nummer") name the field only inside its party's block.
      if (hit.entry.owner === namedOwner('side', plan.spec.key))
        return side !== undefined && side === field.party && hit.start <= hit.line.cells[hit.cell]!.start + 1
      return onSide(field.party, side)
    },
    more: (hit) => underHeading(hit, ctx),
  }).map((scored) => (lessSure(scored.candidate.hit.entry.owner) ? { ...scored, confidence: scored.confidence * NAMED.widerLabel } : scored))
  const chosen = choose(labelled)
  if (chosen) return chosen
  // An amount still to pay that no label of its own names is the document's total to pay.
  if (plan.kind === 'amount' && field.groups.includes('due')) return amountAnswer({ ...plan, role: 'total' }, ctx)
  if (shape === 'payment_means') return meansTendered(ctx)
  return shape && UNMISTAKABLE[shape] ? anywhere(shape, field, ctx) : undefined
}

/**
 * How a receipt was paid, where no label says it: the means it prints as the label of an amount
 * tendered ("CASH 50.00", "VISA $12.40"), when it prints one means so (cash and a card on one
 * receipt say nothing sure).
 */
function meansTendered(ctx: Context): Answer | undefined {
  const found = new Map<string, { value: string; line: Line }>()
  for (const line of ctx.doc.lines) {
    const [label, ...rest] = line.cells
    if (!label || !rest.length || label.text.length > MAX_MEANS_LABEL) continue
    const means = findShape('payment_means', label.text)
    if (means?.start !== 0 || String(means.value).length !== label.text.length) continue
    if (!rest.some((cell) => amountIn(cell.text)?.moneyLike)) continue
    const key = fold(String(means.value))
    if (!found.has(key)) found.set(key, { value: String(means.value), line })
  }
  const only = found.size === 1 ? [...found.values()][0] : undefined
  return only && { value: only.value, confidence: NAMED.meansTendered, line: only.line }
}

/** Groups an address field may name besides its part: its party's, and the general "address". */
function namesMoreThanAddress(field: FieldWords): boolean {
  return field.groups.some((group) => group !== field.addressPart && group !== 'address' && !isPartyGroup(group))
}

function opensWithShapedValue(text: string, field: FieldWords): boolean {
  if ((Object.keys(UNMISTAKABLE) as Shape[]).some((shape) => (findShape(shape, text)?.start ?? Infinity) <= 5)) return true
  const opening = squashKeepingMarks(text).chars
  return KIND_WORDS.some(({ group, squashed }) => !field.groups.includes(group) && opening.startsWith(squashed))
}

/** The words that name a kind of value with a shape of its own, in every language ("IBAN", "USt-IdNr"), folded. */
const KIND_WORDS = [...SHAPE_GROUPS].flatMap((group) =>
  formsOf(group)
    .map((form) => ({ group, squashed: squashKeepingMarks(form).chars }))
    .filter(({ squashed }) => squashed.length >= 3),
)

function opensWithOtherLabel(candidate: Candidate, plan: Plan, ctx: Context): boolean {
  const text = squashKeepingMarks(candidate.text).chars
  return (ctx.hitsByLine.get(candidate.line.index) ?? []).some(
    (hit) => !plan.owners.has(hit.entry.owner) && hit.entry.squashed.length >= 3 && text.startsWith(hit.entry.squashed),
  )
}

/**
 * Values under a heading of a table's header row ("USt. %" over "19"): on the next lines, the
 * cells nearer to this heading than to any other of its row. Numbers are aligned right and
 * texts left, so a value need not overlap its heading.
 */
function underHeading(hit: LabelHit, ctx: Context): Candidate[] {
  const { line } = hit
  if (line.cells.length < 3) return []
  // Numbers align with their heading's right edge; other values are nearest by their centre.
  const distance = (value: Cell, heading: Cell) => {
    if (/^[-+]?[\d.,' %]+$/.test(value.text)) return Math.abs(value.end - heading.end)
    const center = (value.start + value.end) / 2
    return center >= heading.start && center <= heading.end ? 0 : Math.min(Math.abs(center - heading.start), Math.abs(center - heading.end))
  }
  for (let offset = 1; offset <= 3; offset++) {
    const next = ctx.doc.lines[line.index + offset]
    if (!next || next.page !== line.page) break
    // A row's category on a line of its own ("VAT (E)") stands between the headings and the values.
    if (next.cells.length < 2) continue
    const mine = next.cells.filter((cell) => {
      const own = distance(cell, line.cells[hit.cell]!)
      return line.cells.every((other, index) => index === hit.cell || distance(cell, other) > own)
    })
    if (mine.length === 1) return [{ text: trimValue(mine[0]!.text), line: next, how: 'below', hit, distance: offset }]
  }
  return []
}

/** Do a field's words say more than its role ("amount due" more than the total, "tax" no more than the tax)? */
export function saysMoreThan(field: FieldWords, role: Role): boolean {
  const own = ROLE_GROUPS[role] ?? []
  return field.groups.some((group) => !own.includes(group))
}

/** The groups of words that say no more than an amount role does ("tax amount" is the tax). */
const ROLE_GROUPS: Partial<Record<Role, string[]>> = { total: ['amount'], subtotal: ['amount'], tax: ['tax', 'vat', 'amount'] }

/**
 * The answer of a field that stands for a role but whose words say more ("amount due" is a total,
 * but the amount still to pay after prepayments): read from the labels its words stand for;
 * undefined leaves it to the role's reader.
 */
export function closerAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const field = plan.words
  if (!field || !plan.role || !saysMoreThan(field, plan.role)) return undefined
  const ownOwners = new Set(LABEL_KINDS.map((kind) => namedOwner(kind, plan.spec.key)))
  const answer = namedAnswer({ ...plan, owners: ownOwners }, ctx)
  return answer && answer.confidence >= NAMED.closerMin ? answer : undefined
}

/** A value of the shape at the start of a label's value. */
function readShape(shape: Shape, text: string): { value: unknown; quality: number } | undefined {
  const found = findShape(shape, text)
  if (!found || found.start > 4) return undefined
  return { value: found.value, quality: 1 }
}

/**
 * A value found on a side of the document is the field's when the field names no side, or the
 * same one. What no heading assigns (letterhead, footer, bank details) is the seller's: the one
 * who issues the document; the buyer's must be under the buyer's heading.
 */
function onSide(wanted: Party | undefined, found: Party | undefined): boolean {
  if (!wanted) return true
  return wanted === 'buyer' ? found === 'buyer' : found !== 'buyer'
}

/** The only value of an unmistakable shape in the document on the field's side. */
function anywhere(shape: Shape, field: FieldWords, ctx: Context): Answer | undefined {
  const found = new Map<string, Line>()
  for (const line of ctx.doc.lines)
    for (const cell of line.cells) {
      // No unmistakable shape is shorter ("x.de"): a line of a million one-digit cells is not searched cell by cell (D186).
      if (cell.text.length < MIN_SHAPED_LENGTH) continue
      for (const value of findShapes(shape, cell.text)) {
        if (!onSide(field.party, partyAt(ctx, line, cell.start))) continue
        // Unlabelled, only a web address written as one ("www.", "https://") is sure to be one; "shop.de" may be a word cut short.
        if (shape === 'url' && !/^(?:https?:|www\.)/i.test(String(value.value))) continue
        if (!found.has(String(value.value))) found.set(String(value.value), line)
      }
    }
  const only = found.size === 1 ? [...found][0] : undefined
  return only && { value: only[0], confidence: UNMISTAKABLE[shape]!, line: only[1] }
}

/** Marks of a ticked and of an empty box. */
const TICKED = /^(?:[☒☑✓✔✗✘xX]|\[[xX✓✔]\]|\([xX]\))\s*/
const UNTICKED = /^(?:☐|\[\s?\]|\(\s?\))\s*/

/**
 * Yes or no from the document's status words: a value or a stamp that is a word of the field's
 * groups ("Status: PAID", "BEZAHLT") says yes, a word of an opposite group ("offen", "unpaid")
 * says no; a ticked box before the field's word says yes, an empty one no. Both at once: no answer.
 */
function statusAnswer(field: FieldWords, ctx: Context): Answer | undefined {
  const groups = field.groups.filter((group) => group !== 'seller' && group !== 'buyer')
  const yes = new Set(groups.flatMap(formsOf).map(fold))
  const no = new Set(field.opposites.flatMap(formsOf).map(fold))
  const answers: Answer[] = []
  for (const line of ctx.doc.lines)
    for (const cell of line.cells) {
      const text = collapse(cell.text)
      const box = TICKED.exec(text) ? true : UNTICKED.exec(text) ? false : undefined
      const rest = fold(trimEndWhere(text.replace(TICKED, '').replace(UNTICKED, ''), (char) => '.!:'.includes(char)))
      if (box !== undefined && yes.has(rest)) answers.push({ value: box, confidence: STATUS.box, line })
      const value = fold(trimEndWhere(text.replaceAll('：', ':').split(':').pop()!, (char) => char === '.' || char === '!').trim())
      const labelled = text.includes(':')
      if (yes.has(value)) answers.push({ value: true, confidence: labelled ? STATUS.labelled : STATUS.stamp, line })
      else if (no.has(value)) answers.push({ value: false, confidence: labelled ? STATUS.labelled : STATUS.stamp, line })
      else if (labelled && yes.has(value.replace(/^(?:not|nicht|non|niet|no|nie|ikke)\s+/, '')) && value.includes(' '))
        answers.push({ value: false, confidence: STATUS.negated, line })
    }
  if (new Set(answers.map((answer) => answer.value)).size !== 1) return undefined
  return answers.sort((a, b) => b.confidence - a.confidence)[0]
}
