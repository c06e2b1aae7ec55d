/**
 * Total, subtotal and tax, read together. Every amount printed after a total, subtotal or tax
 * label is a candidate; a column header above an amount can reassign it (a "Total" row under
 * "Net | VAT | Gross" columns gives all three). The total is the last amount of the strongest
 * kind of total label ("Grand total", "Total payable", "Total incl. VAT" over a plain "Total",
 * which beats "Total 0% supplies"); subtotal and tax are preferably the pair that adds up to it.
 */
import { findAmounts, moneyAmounts, type FoundAmount } from '../../normalise/amounts'
import { currencyCode, LETTER_MARKS } from '../../normalise/currency'
import { columnWords, lexiconWords, phrases } from '../../../../lib/lexicon'
import { lineAmounts } from './amounts'
import { memo, type Answer, type Context, type Plan } from './context'
import type { Line } from './document'
import { isShortLabel } from './generic'
import { below, type LabelHit } from './labels'
import { fold, squash } from '../../../../lib/text'
import { hasLetterOrDigit, letterWords, lettersInARow } from './text'
import { MIN_ANSWER_CONFIDENCE } from '../../confidence'
import { TOTALS } from './weights'
import { upperBound } from '../../../../lib/sorted'

type AmountRole = 'total' | 'subtotal' | 'tax'

const AMOUNT_ROLES = new Set<string>(['total', 'subtotal', 'tax'])

/** Is a role or label owner one of the amounts read together here? */
export function isAmountRole(role: string | undefined): role is AmountRole {
  return role !== undefined && AMOUNT_ROLES.has(role)
}

interface AmountCandidate {
  role: AmountRole
  value: string
  number: number
  confidence: number
  /** For totals: 3 = a final amount ("grand total", "incl. VAT"), 2 = "total", 1 = a total of something else. */
  tier: number
  line: Line
  /** A total that the amount paid less the change prints exactly: the payment confirms it. */
  paidExactly?: true
  /** A total of supplies taxed at 0 % ("Total 0% supplies 23.83"): its net is its total, a part of the subtotal. */
  zeroRated?: true
}

interface Totals {
  total?: AmountCandidate
  subtotal?: AmountCandidate
  tax?: AmountCandidate
  /** Subtotal + tax = total holds for the chosen values (with `adjustment`). */
  consistent: boolean
  /** What the total includes besides subtotal and tax (a rounding, charges), when the sum needs it. */
  adjustment?: number
  /** A subtotal and a tax add up to an amount a few cents off the total: one of the three is misread. */
  contradicted?: boolean
}

/** Total labels that name the final amount to pay (from the lexicons, D95), folded to letters and digits. */
const FINAL_TOTALS = new Set(lexiconWords('final_totals').map((label) => squash(label).chars))

/** Words after a total's label that make it the amount before tax ("excl. VAT", "ohne MwSt."). */
const EXCLUDING = phrases(lexiconWords('excluding_tax'))
/** Words after a total's label that make it the final amount ("incl. VAT", "TTC", "rounded", "payable"). */
const FINAL_WORDS = [...lexiconWords('including_tax'), ...lexiconWords('total_final')]
const FINAL_QUALIFIER = phrases(FINAL_WORDS)

/**
 * Words that may stand between a total label and its amount without making it a total of
 * something else: the lexicons' neutral words, the words that make it final, currency codes.
 */
const NEUTRAL_WORDS = new Set([...lexiconWords('total_neutral'), ...FINAL_WORDS, ...LETTER_MARKS].flatMap((phrase) => letterWords(fold(phrase))))

/** Words before a tax's name that only say what an amount includes or excludes ("incl. GST", "ohne MwSt."). */
const TAX_QUALIFIERS = phrases([...lexiconWords('excluding_tax'), ...lexiconWords('including_tax')])
/** Not a word character (a letter, digit or underscore of ASCII): what may stand between a qualifier and a tax's name. */
const notWordChar = (char: string) => !/\w/.test(char)

/** Words before a label that make it part of a phrase ("GST included in total", "Summe der Positionen"). */
const LABEL_JOINER = phrases(lexiconWords('label_joiners'))

/** A rate of 0 % in a total's qualifier ("Total 0% supplies", "Summe 0,00 %"): supplies that bear no tax. */
const ZERO_RATE = /(?:^|[^\d.,])0(?:[.,]0+)?\s?%/

/** The amount role a label stands for: its concept's, or that of the field it belongs to. */
function roleOf(hit: LabelHit, ctx: Context): AmountRole | undefined {
  const owner = hit.entry.owner
  if (isAmountRole(owner)) return owner
  if (!owner.startsWith('field:')) return undefined
  const roles = memo(ctx, 'amount-roles-by-owner', () => new Map(ctx.plans.map((plan) => [`field:${plan.spec.key}`, plan.role])))
  const role = roles.get(owner)
  return isAmountRole(role) ? role : undefined
}

/** Column headers of counts, prices and rates: their amounts are none of the three. */
const OTHER_COLUMN = phrases([...columnWords('quantity'), ...columnWords('price'), ...columnWords('rate')])
const NET_COLUMN = phrases(columnWords('net'))
const TAX_COLUMN = phrases(columnWords('tax'))
const GROSS_COLUMN = phrases([...columnWords('gross'), ...columnWords('total')])
const RATE_COLUMN = phrases(columnWords('rate'))

/** What a column header says its amounts are, from its words (the lexicons' `columns`, D95). */
function headerRole(text: string): AmountRole | 'other' | undefined {
  const words = fold(text)
  if (words.includes('%') || OTHER_COLUMN.test(words)) return 'other'
  if (NET_COLUMN.test(words)) return 'subtotal'
  if (TAX_COLUMN.test(words)) return 'tax'
  if (GROSS_COLUMN.test(words)) return 'total'
  return undefined
}

/** The header of the column an amount sits in: the nearest text cell above it, past numbers. */
function columnHeader(ctx: Context, line: Line, start: number, end: number): AmountRole | 'other' | undefined {
  for (let offset = 1; offset <= 8; offset++) {
    const above = ctx.doc.lines[line.index - offset]
    if (!above || above.page !== line.page) return undefined
    const cell = above.cells.find((c) => c.start <= end + 1 && c.end >= start - 1)
    if (!cell) continue
    if (/^[-+\s\d.,%€$£()RMrm:]*$/.test(cell.text)) continue
    if (above.cells.length < 2) return undefined
    return headerRole(cell.text)
  }
  return undefined
}

/**
 * A tax label that only qualifies another label: "GST" in "Total incl. GST", in "(excluded
 * GST) Sub total" or in "Amount paid incl. GST". Its amount is not the tax.
 */
function isQualifier(hit: LabelHit, ctx: Context): boolean {
  if (roleOf(hit, ctx) !== 'tax') return false
  const raw = hit.line.raw
  // "… incl. GST", "… excl. VAT", "inclusive of tax": the tax only says what the amount includes.
  const before = fold(raw.slice(hit.line.cells[hit.cell]!.start, hit.start))
  if (TAX_QUALIFIERS.ends(before, notWordChar) || isNegated(hit)) return true
  for (const other of ctx.hitsByLine.get(hit.line.index) ?? []) {
    if (other === hit || other.cell !== hit.cell) continue
    const role = roleOf(other, ctx)
    if (role !== 'total' && role !== 'subtotal') continue
    const between = other.end <= hit.start ? raw.slice(other.end, hit.start) : raw.slice(hit.end, other.start)
    if (other.end <= hit.start && !moneyAmounts(between).length) return true
    if (other.start >= hit.end && /^[\s()[\]:.,-]*$/.test(between)) return true
  }
  return false
}

/**
 * A tax label after a word that excludes tax anywhere before it in its cell ("Rechnungssumme ohne
 * ges. USt.", "Importe sin IVA", "Total without VAT"): the line's amount is the amount before tax,
 * never the tax (D280).
 */
function isNegated(hit: LabelHit): boolean {
  const cell = hit.line.cells[hit.cell]!
  return EXCLUDING.test(fold(hit.line.raw.slice(cell.start, hit.start)))
}

/** Does another total or subtotal label share the cell of this (tax) label? */
function sharesCellWithTotal(hit: LabelHit, ctx: Context): boolean {
  return (ctx.hitsByLine.get(hit.line.index) ?? []).some((other) => {
    if (other === hit || other.cell !== hit.cell) return false
    const role = roleOf(other, ctx)
    return role === 'total' || role === 'subtotal'
  })
}

/** A label after words such as "included in" ("GST included in total") is not the line's label. */
function isLeading(hit: LabelHit): boolean {
  const cell = hit.line.cells[hit.cell]!
  const before = fold(hit.line.raw.slice(cell.start, hit.start))
  return !LABEL_JOINER.test(before)
}

/**
 * The amounts after a label on its line, up to the next label in another cell or after an
 * amount ("Subtotal 10.00 Tax 1.90" gives the subtotal 10.00 only); labels between the label and
 * its amount in the same cell only qualify it ("Subtotal (Qty 4) 41.43").
 */
function amountsAfter(hit: LabelHit, ctx: Context): { amounts: FoundAmount[]; text: string; offset: number } {
  const raw = hit.line.raw
  const next = (ctx.hitsByLine.get(hit.line.index) ?? [])
    .filter((other) => other.start >= hit.end)
    .sort((a, b) => a.start - b.start)
    .find((other) => other.cell !== hit.cell || moneyAmounts(raw.slice(hit.end, other.start)).length)
  const text = raw.slice(hit.end, next ? next.start : undefined)
  return { amounts: moneyAmounts(text), text, offset: hit.end }
}

/** The heading of a tax breakdown ("GST summary", "Umsatzsteueraufschlüsselung"). */
const TAX_SUMMARY = phrases(lexiconWords('tax_breakdown'))

/** Does the line head a tax breakdown ("GST SUMMARY", "Umsatzsteueraufschlüsselung:")? */
export function headsTaxBreakdown(line: Line): boolean {
  return TAX_SUMMARY.test(line.text)
}

/**
 * Lines of a tax breakdown ("GST summary", "Umsatzsteueraufschlüsselung"): their totals are tax
 * bases, not the invoice total. The breakdown is a short table under its heading; it ends at the
 * next heading.
 */
function taxSummaryLines(ctx: Context): Set<number> {
  return memo(ctx, 'tax-summary-lines', () => {
    const lines = new Set<number>()
    for (const line of ctx.doc.lines) {
      if (!headsTaxBreakdown(line)) continue
      for (let offset = 0; offset <= 6; offset++) {
        const next = ctx.doc.lines[line.index + offset]
        if (!next || next.page !== line.page) break
        if (offset > 0 && next.cells.length === 1 && next.text.trimEnd().endsWith(':')) break
        lines.add(next.index)
      }
    }
    return lines
  })
}

/** The amount of a rounding line ("Rounding adj. -0.02"), when the document prints one that is not zero. */
function rounding(ctx: Context): number | undefined {
  return roundingLine(ctx)?.amount || undefined
}

/** The rounding line ("Rounding adj. -0.02", "Rounding 0.00") and its amount, when the document prints one. */
function roundingLine(ctx: Context): { amount: number; line: Line } | undefined {
  return memo(ctx, 'rounding-line', () => {
    let zero: { amount: number; line: Line } | undefined
    for (const hit of ctx.hits) {
      if (hit.entry.owner !== 'rounding') continue
      const amount = amountsAfter(hit, ctx).amounts.pop()
      if (amount && amount.number !== 0) return { amount: amount.number, line: hit.line }
      if (amount) zero ??= { amount: 0, line: hit.line }
    }
    return zero
  })
}

/**
 * The charges and allowances printed ("SERV. CHARGE (10%): 3.56", "Versandkosten 5,80",
 * "Discount -10.00", "Gesamtbetrag der Abschläge -11,21"), by line in document order: a
 * charge's amount as printed, an allowance's size, and the sums of each up to every line. Read
 * once per document and summed between any two lines by two lookups (a document of many
 * subtotals asks for each); a line is counted once, however many labels it holds.
 */
function adjustmentLines(ctx: Context): { lines: number[]; charges: number[]; allowances: number[] } {
  return memo(ctx, 'adjustment-lines', () => {
    const lines: number[] = []
    const charges: number[] = []
    const allowances: number[] = []
    let [charged, allowed] = [0, 0]
    for (const { hit, amount } of adjustmentAmounts(ctx).amounts) {
      if (hit.entry.owner === 'charge') charged += amount
      else allowed += Math.abs(amount)
      lines.push(hit.line.index)
      charges.push(charged)
      allowances.push(allowed)
    }
    return { lines, charges, allowances }
  })
}

/**
 * The charges and allowances of the document, by line: each line that prints an amount after its
 * first such label, with that label and the line's last amount ("Abschlag  Rechnungsrabatt 2 %
 * 280,00  19 % VAT  -5,60"), and the labels of lines that print none after it: they may head a
 * column of amounts ("Zu-/Abschlag" over "0,23"). Each line is read once, however many labels it
 * holds.
 */
function adjustmentAmounts(ctx: Context): { amounts: { hit: LabelHit; amount: number }[]; headers: LabelHit[] } {
  return memo(ctx, 'adjustment-amounts', () => {
    const amounts: { hit: LabelHit; amount: number }[] = []
    const headers: LabelHit[] = []
    let line = -1
    let heading = false
    for (const hit of ctx.hits.filter(isAdjustment).sort((a, b) => a.line.index - b.line.index || a.start - b.start)) {
      if (hit.line.index !== line) {
        line = hit.line.index
        const amount = moneyAmounts(hit.line.raw.slice(hit.end)).pop()
        heading = !amount
        if (amount?.number) amounts.push({ hit, amount: amount.number })
      }
      if (heading) headers.push(hit)
    }
    return { amounts, headers }
  })
}

const isAdjustment = (hit: LabelHit) => hit.entry.owner === 'charge' || hit.entry.owner === 'allowance'

/**
 * What a total adds to the subtotal besides the tax: the charges printed between two lines, less
 * the allowances (D408, D410). An allowance lowers the amount whatever its printed sign ("Discount
 * 10.00", "Rabatt -10,00"); on a credit note, whose amounts are negative, it raises it.
 */
function adjustmentsBetween(ctx: Context, after: Line, before: Line, sign: number): number {
  const { lines, charges, allowances } = adjustmentLines(ctx)
  const upTo = (sums: number[], index: number) => sums[upperBound(lines, index) - 1] ?? 0
  const between = (sums: number[]) => upTo(sums, before.index - 1) - upTo(sums, after.index)
  return Math.round((between(charges) - sign * between(allowances)) * 100) / 100
}

/**
 * What the document prints between its lines and the subtotal, as the sums the lines may need to
 * reach it (D410): the allowances and charges printed right above the subtotal, line after line
 * ("Gesamtbetrag der Zuschläge 3,00", "Gesamtbetrag der Abschläge -11,21"; "Discount -10.00"),
 * and those of a column headed by one ("Zu-/Abschlag" over "0,23" in a row of sums). A document
 * may list them one by one and then again in total: only the lines nearest the subtotal count.
 * The sums check counts the sum that closes the gap; with none, the lines break against the
 * subtotal as before.
 */
function subtotalAdjustments(ctx: Context, subtotal: AmountCandidate): number[] {
  const sign = Math.sign(subtotal.number) || 1
  const signed = (hit: LabelHit, amount: number) => (hit.entry.owner === 'charge' ? amount : -sign * Math.abs(amount))
  const { amounts, headers } = adjustmentAmounts(ctx)
  const above = amounts.filter(({ hit }) => hit.line.index < subtotal.line.index)
  const nearest: number[] = []
  let next = subtotal.line.index
  for (const { hit, amount } of above.reverse()) {
    if (next - hit.line.index > ADJUSTMENTS_APART) break
    nearest.push(signed(hit, amount))
    next = hit.line.index
  }
  const columns: number[] = []
  for (const hit of headers) {
    if (hit.line.index >= subtotal.line.index) break
    const column = columnValue(hit, ctx)
    if (column && column.line.index <= subtotal.line.index) columns.push(signed(hit, column.amount))
  }
  const sums = [nearest, columns].filter((group) => group.length).map((group) => Math.round(group.reduce((a, b) => a + b, 0) * 100) / 100)
  return [...new Set(sums)].filter((sum) => sum !== 0)
}

/** Lines an allowance or charge may stand from the next one (or the subtotal) and still be read with it: a blank line, a heading. */
const ADJUSTMENTS_APART = 2

/** How many lines print an amount, outside a tax breakdown: a total read again (as cash, in a summary) is read surely. */
function printings(ctx: Context, amount: number): number {
  return linesPrinting(ctx, amount).length
}

/**
 * What the customer paid, and what they paid less the change given, on a receipt that prints
 * them: the total is the latter, or the former when no change is printed.
 */
function payment(ctx: Context): { paid?: number; change?: number; at?: Line } {
  return memo(ctx, 'payment', () => {
    let paid: number | undefined
    let change: number | undefined
    // The first line of the payment.
    let at: Line | undefined
    // "CASH CHANGE 71.40" is the change: a line that names the change pays nothing.
    const changeLines = new Set(ctx.hits.filter((hit) => hit.entry.owner === 'change').map((hit) => hit.line.index))
    for (const hit of ctx.hits) {
      const isChange = hit.entry.owner === 'change'
      const isPaid = hit.entry.owner === 'amount_paid' && !changeLines.has(hit.line.index)
      if (!isChange && !isPaid) continue
      const { amounts } = amountsAfter(hit, ctx)
      let amount = amounts[amounts.length - 1]
      if (!amount && !lettersInARow(hit.line.raw.slice(hit.end), 2)) {
        const under = below(hit, ctx.doc, ctx.hitsByLine, 1)[0]
        // "CASH" over "RM 170.00": the cell under the label may be the amount's currency mark.
        const text = under && currencyCode(under.text) ? under.line.text : under?.text
        amount = text ? moneyAmounts(text).pop() : undefined
      }
      if (!amount) continue
      // The payment is printed last: a "service change" above it is no change given. Neither is
      // ever negative: a minus before them ("Cash -50.00") is a speck or the printer's style.
      if (isChange) change = Math.abs(amount.number)
      if (isPaid) paid = Math.abs(amount.number)
      if (!at || hit.line.index < at.index) at = hit.line
    }
    return { paid, change, at }
  })
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.011

/** The cents an amount is filed under: two amounts `near` each other are at most two apart. */
const centsOf = (amount: number) => Math.round(amount * 100)

/** What `byCents` files within two cents of the amount: everything `near` it, and some more. */
function* filedNear<T>(byCents: Map<number, T[]>, amount: number): Generator<T> {
  const cents = centsOf(amount)
  for (let key = cents - 2; key <= cents + 2; key++) yield* byCents.get(key) ?? []
}

/** Candidates of the same number, one group per number, each group in list order. */
function groupsByNumber(candidates: AmountCandidate[]): AmountCandidate[][] {
  const byNumber = new Map<number, AmountCandidate[]>()
  for (const candidate of candidates) {
    const group = byNumber.get(candidate.number)
    if (group) group.push(candidate)
    else byNumber.set(candidate.number, [candidate])
  }
  return [...byNumber.values()]
}

/** Candidates filed by their cents, one group per number. */
function fileByCents(candidates: AmountCandidate[]): Map<number, AmountCandidate[][]> {
  const byCents = new Map<number, AmountCandidate[][]>()
  for (const group of groupsByNumber(candidates)) {
    const list = byCents.get(centsOf(group[0]!.number))
    if (list) list.push(group)
    else byCents.set(centsOf(group[0]!.number), [group])
  }
  return byCents
}

/** Of candidates of one number, the first of the surest. */
const surestOf = (group: AmountCandidate[]) => group.reduce((top, candidate) => (candidate.confidence > top.confidence ? candidate : top))

/** Of each number's candidates the first of the surest, in list order: the others never make a better pair. */
function surestPerNumber(candidates: AmountCandidate[]): AmountCandidate[] {
  const kept = new Set(groupsByNumber(candidates).map(surestOf))
  return candidates.filter((candidate) => kept.has(candidate))
}

/** How many subtotal and tax pairs are tried for a total that no label reads (D392). */
const SUM_SHOWN_PAIRS = 1000

/** The money amounts of a line, read once per document. */
const moneyOf = (ctx: Context, line: Line) => lineAmounts(ctx, line).filter((amount) => amount.moneyLike)

const printsAmount = (ctx: Context, line: Line, amount: number) => moneyOf(ctx, line).some((printed) => near(printed.number, amount))

/**
 * The lines, in order, that print an amount (within a cent), outside a tax breakdown. Looked up
 * in an index of every printed amount: a search per candidate amount over every line made a
 * document of many subtotal and tax lines cost their cube (D392).
 */
function linesPrinting(ctx: Context, amount: number): Line[] {
  const found = memo(ctx, 'lines-printing', () => new Map<number, Line[]>())
  let lines = found.get(amount)
  if (!lines) found.set(amount, (lines = printedNear(ctx, amount)))
  return lines
}

function printedNear(ctx: Context, amount: number): Line[] {
  // Every line by the cents of each amount it prints, built once per document.
  const byCents = memo(ctx, 'printed-amounts', () => {
    const index = new Map<number, Line[]>()
    for (const line of ctx.doc.lines)
      for (const printed of moneyOf(ctx, line)) {
        const list = index.get(centsOf(printed.number))
        if (!list) index.set(centsOf(printed.number), [line])
        else if (list[list.length - 1] !== line) list.push(line)
      }
    return index
  })
  const summary = taxSummaryLines(ctx)
  const lines = new Set<Line>()
  for (const line of filedNear(byCents, amount)) if (!summary.has(line.index) && printsAmount(ctx, line, amount)) lines.add(line)
  return [...lines].sort((a, b) => a.index - b.index)
}

/** The most a total is rounded by for cash payment. */
const CASH_ROUNDING = 0.05

/** Cash can pay only whole multiples of 5 cents (sen, Rappen): a total rounded for cash is one. */
const cashRounded = (amount: number) => Math.round(amount * 100) % Math.round(CASH_ROUNDING * 100) === 0

/**
 * Amounts under a label that heads a table column ("Endbetrag" over a column of amounts): one
 * amount is the value; several are rows, and the value is the last one when it is their sum
 * (a sum row), or the sum of all when the table breaks the amount down by tax rate.
 */
function columnValue(hit: LabelHit, ctx: Context): { amount: number; confidence: number; line: Line } | undefined {
  const rows: { amount: FoundAmount; line: Line }[] = []
  for (const candidate of below(hit, ctx.doc, ctx.hitsByLine, 6)) {
    if (candidate.line.index !== hit.line.index + rows.length + 1) break
    // One amount alone in its cell, money-like.
    const amounts = findAmounts(candidate.text)
    const amount = amounts.length === 1 && amounts[0]!.moneyLike ? amounts[0] : undefined
    if (!amount) break
    rows.push({ amount, line: candidate.line })
  }
  const last = rows[rows.length - 1]
  if (!last) return undefined
  if (rows.length === 1) return { amount: last.amount.number, confidence: TOTALS.underLabel, line: last.line }
  const sumBefore = rows.slice(0, -1).reduce((acc, row) => acc + row.amount.number, 0)
  if (near(sumBefore, last.amount.number)) return { amount: last.amount.number, confidence: TOTALS.sumRowUnderLabel, line: last.line }
  const byRate = hit.line.cells.some((cell) => cell.text.includes('%') || RATE_COLUMN.test(cell.text))
  if (byRate) {
    const sum = Math.round((sumBefore + last.amount.number) * 100) / 100
    return { amount: sum, confidence: TOTALS.sumByRate, line: last.line }
  }
  return undefined
}

/** Every amount labelled as a total, subtotal or tax, with its role and strength. */
function collect(ctx: Context): AmountCandidate[] {
  const out: AmountCandidate[] = []
  const summary = taxSummaryLines(ctx)
  for (const hit of ctx.hits) {
    let role = roleOf(hit, ctx)
    if (!role) continue
    // "Summe ohne MwSt. 37,62": no total label names the line, and its tax label is negated: the
    // amount before tax (D280).
    if (role === 'tax' && isNegated(hit) && !sharesCellWithTotal(hit, ctx)) role = 'subtotal'
    else if (isQualifier(hit, ctx)) continue
    const leading = isLeading(hit)
    // "GST included in total": a tax line, not a total.
    if (!leading && role === 'total') continue
    const weight = (isShortLabel(hit) ? TOTALS.shortLabel : 1) * (leading ? 1 : TOTALS.joinedLabel)
    const { amounts, text, offset } = amountsAfter(hit, ctx)
    if (!amounts.length) {
      // A label alone in its cell: the amount may be printed under it.
      if (
        hasLetterOrDigit(
          text
            .replaceAll(':', '')
            .replaceAll('.', '')
            .split(/\s{2,}/)[0] ?? '',
        )
      )
        continue
      const column = columnValue(hit, ctx)
      if (column) {
        const tier = summary.has(column.line.index) ? 1 : FINAL_TOTALS.has(hit.entry.squashed) ? 3 : 2
        const value = column.amount.toFixed(2)
        out.push({ role, value, number: column.amount, confidence: column.confidence * weight, tier, line: column.line })
      }
      continue
    }
    const qualifier = fold(text.slice(0, amounts[0]!.start))
    if (role === 'total' && EXCLUDING.test(qualifier)) role = 'subtotal'
    let tier = FINAL_TOTALS.has(hit.entry.squashed) ? 3 : 2
    if (role === 'total' && FINAL_QUALIFIER.test(qualifier)) tier = 3
    const foreign = letterWords(qualifier).filter((word) => word.length > 1 && !NEUTRAL_WORDS.has(word))
    if (foreign.length) tier = 1
    if (summary.has(hit.line.index)) tier = Math.min(tier, 1)

    // In a row of several amounts each belongs to its column, when the column header says what
    // it is ("Total  24.99  5.00  29.99" under "Net  VAT  Gross").
    let main: FoundAmount | undefined
    for (const amount of amounts) {
      const header = amounts.length > 1 ? columnHeader(ctx, hit.line, offset + amount.start, offset + amount.end) : undefined
      if (header === 'other') continue
      if (header && header !== role && role === 'total' && tier >= 2) {
        out.push({ role: header, value: amount.value, number: amount.number, confidence: TOTALS.byColumnHeader * weight, tier: 2, line: hit.line })
        continue
      }
      if (!header || header === role) main = amount
    }
    if (main) {
      const zeroRated = role === 'total' && tier === 1 && ZERO_RATE.test(qualifier)
      out.push({ role, value: main.value, number: main.number, confidence: TOTALS.afterLabel * weight, tier, line: hit.line, ...(zeroRated && { zeroRated }) })
    }
  }
  return out
}

/**
 * The total. On a receipt, the amount actually paid (cash less change, or the cash when no
 * change is printed) decides between candidates; a rounding line prefers the rounded amount.
 * Otherwise: of the strongest tier of total labels, the last amount printed.
 */
function pickTotal(candidates: AmountCandidate[], ctx: Context): AmountCandidate | undefined {
  const totals = candidates.filter((c) => c.role === 'total' && c.number !== 0 && c.confidence >= MIN_ANSWER_CONFIDENCE)
  const { paid, change, at } = payment(ctx)
  const settled = paid !== undefined && change !== undefined && change <= paid ? paid - change : change === undefined ? paid : undefined
  if (settled !== undefined) {
    const exact = totals.filter((c) => c.value === settled.toFixed(2))
    if (exact.length) return { ...exact[exact.length - 1]!, tier: 3, confidence: TOTALS.paidExactly, paidExactly: true }
    // Paid less change is what the receipt came to. When no total label reads it (the label or
    // its amount misread), the line above the payment that prints it holds the total.
    if (change !== undefined && settled > 0) {
      const shown = lineShowing(ctx, settled, at!)
      if (shown) return totalAt(settled, shown, TOTALS.paidShown, 3)
      // A total a few cents off is rounded to what cash can pay (5 sen, 5 Rappen): the paid amount is the total.
      const unrounded = totals.filter((c) => c.tier >= 2 && Math.abs(c.number - settled) < CASH_ROUNDING + 0.001)
      if (unrounded.length) return totalAt(settled, unrounded[unrounded.length - 1]!.line, TOTALS.paidRounded, 3)
    }
  }
  if (!totals.length) {
    // No total label read at all: a line that prints subtotal plus tax, a "subtotal" that adds up
    // the amounts above it, else what was paid (less the change).
    const sum = sumShown(candidates, ctx) ?? sumOfAbove(candidates, ctx)
    return sum ?? (settled !== undefined && settled > 0 ? totalAt(settled, at!, TOTALS.paidOnly, 2) : undefined)
  }
  const adjustment = rounding(ctx)
  if (adjustment !== undefined) {
    const totalsByCents = fileByCents(totals)
    const rounded = totals.filter(
      (c) =>
        c.tier >= 2 &&
        [...filedNear(totalsByCents, c.number - adjustment)].some(
          (group) => near(group[0]!.number + adjustment, c.number) && group.some((other) => other !== c),
        ),
    )
    if (rounded.length) return { ...rounded[rounded.length - 1]!, tier: 3 }
    const implied = roundedByAdjustment(totals, ctx)
    if (implied) return implied
  }
  const tier = Math.max(...totals.map((c) => c.tier))
  const top = totals.filter((c) => c.tier === tier)
  const picked = top.sort((a, b) => a.line.index - b.line.index).pop()
  return picked && surerOf(picked, totals, ctx)
}

/**
 * "Total 31.47", "Rounding -0.02", and the rounded total after it misread: the total is the one
 * before the rounding line plus the adjustment, when that comes to an amount cash can pay.
 */
function roundedByAdjustment(totals: AmountCandidate[], ctx: Context): AmountCandidate | undefined {
  const adjustment = roundingLine(ctx)
  if (!adjustment?.amount) return undefined
  const before = totals.filter((c) => c.tier >= 2 && c.line.index < adjustment.line.index).pop()
  if (!before) return undefined
  const amount = Math.round((before.number + adjustment.amount) * 100) / 100
  if (amount <= 0 || !cashRounded(amount)) return undefined
  // A total printed after the rounding line that is another amount cash can pay: the two disagree.
  if (totals.some((c) => c.tier >= 2 && c.line.index > adjustment.line.index && !near(c.number, amount) && cashRounded(c.number))) return undefined
  return totalAt(amount, adjustment.line, TOTALS.roundedByAdjustment, 3)
}

/**
 * A total before a rounding line and the total after it that the rounding does not reconcile
 * ("Total 9.00", "Rounding 0.00", "Rounded Total 9.60": one of them misread): the one printed on
 * more lines (read again as an item, the cash, in a summary) is the total; when neither is printed
 * more often, the total is disputed and stays under the floor. (Without a rounding line, totals
 * that differ are a net and a gross one, as invoices print them.)
 */
function surerOf(picked: AmountCandidate, totals: AmountCandidate[], ctx: Context): AmountCandidate {
  const rounding = roundingLine(ctx)
  if (!rounding || picked.line.index <= rounding.line.index) return picked
  const adjustment = rounding.amount
  const rivals = totals.filter(
    (c) => c.tier >= 2 && c.line.index < rounding.line.index && !near(c.number, picked.number) && !near(c.number + adjustment, picked.number),
  )
  if (!rivals.length) return picked
  const count = printings(ctx, picked.number)
  const counted = rivals.map((rival) => ({ rival, count: printings(ctx, rival.number) }))
  const most = Math.max(...counted.map((c) => c.count))
  if (most < count) return picked
  const leaders = [...new Set(counted.filter((c) => c.count === most).map((c) => c.rival.value))]
  if (most > count && leaders.length === 1) {
    const rival = counted.filter((c) => c.count === most).pop()!.rival
    return { ...rival, confidence: Math.min(rival.confidence, TOTALS.printedMoreOften) }
  }
  return { ...picked, confidence: picked.confidence * TOTALS.disputed }
}

/** A total the engine worked out (from the payment, or a sum) rather than read after a label. */
function totalAt(amount: number, line: Line, confidence: number, tier: number): AmountCandidate {
  return { role: 'total', value: amount.toFixed(2), number: amount, confidence, tier, line }
}

/**
 * No total label read (a misread "TOTAL"), but a subtotal and a tax whose sum a later line prints:
 * that line holds the total.
 */
function sumShown(candidates: AmountCandidate[], ctx: Context): AmountCandidate | undefined {
  const taxes = candidates.filter((c) => c.role === 'tax' && c.number > 0)
  let tried = 0
  for (const subtotal of candidates.filter((c) => c.role === 'subtotal' && c.number > 0))
    for (const tax of taxes) {
      // A document of thousands of subtotal and tax lines is no receipt with a misread total (D392).
      if (++tried > SUM_SHOWN_PAIRS) return undefined
      const sum = Math.round((subtotal.number + tax.number) * 100) / 100
      const after = Math.max(subtotal.line.index, tax.line.index)
      const line = linesPrinting(ctx, sum).find((line) => line.index > after)
      if (line) return totalAt(sum, line, TOTALS.sumShown, 2)
    }
  return undefined
}

/**
 * A subtotal label whose amount is the sum of the amounts on the lines right above it, one on each
 * ("Gross Amt 47.80", "Svr Tax 2.87", "GST 2.86", then "Net Amt 53.55"), is the total: on a
 * receipt, "net" can be what is left to pay after every charge. Only when no total label is read.
 */
function sumOfAbove(candidates: AmountCandidate[], ctx: Context): AmountCandidate | undefined {
  for (const subtotal of candidates.filter((c) => c.role === 'subtotal' && c.number > 0)) {
    let sum = 0
    for (let count = 1; count <= 4; count++) {
      const line = ctx.doc.lines[subtotal.line.index - count]
      // Amounts with cents: "(QTY 4)" beside a subtotal is a count.
      const amounts = line ? moneyOf(ctx, line).filter((amount) => /\.\d{2}$/.test(amount.value)) : []
      if (line?.page !== subtotal.line.page || amounts.length !== 1) break
      sum = Math.round((sum + amounts[0]!.number) * 100) / 100
      if (count >= 2 && near(sum, subtotal.number)) return totalAt(subtotal.number, subtotal.line, TOTALS.sumOfAbove, 2)
    }
  }
  return undefined
}

/** The last line above the payment that prints this amount, outside a tax breakdown. */
function lineShowing(ctx: Context, amount: number, payment: Line): Line | undefined {
  return linesPrinting(ctx, amount).findLast((line) => line.index < payment.index)
}

/** Judges total, subtotal and tax of the document once, for all three fields. */
function readTotals(ctx: Context): Totals {
  return memo(ctx, 'totals', () => {
    const candidates = collect(ctx)
    const total = pickTotal(candidates, ctx)
    const subtotals = candidates.filter((c) => c.role === 'subtotal')
    const taxes = candidates.filter((c) => c.role === 'tax')
    const result: Totals = { total, consistent: false }
    if (total) {
      const taxOptions = [...taxes]
      // Several tax lines (one per rate) add up to the tax.
      const distinct = [...new Map(taxes.map((tax) => [tax.line.index, tax])).values()]
      if (distinct.length > 1) {
        const sum = Math.round(distinct.reduce((acc, tax) => acc + tax.number, 0) * 100) / 100
        taxOptions.push({ ...distinct[distinct.length - 1]!, value: sum.toFixed(2), number: sum, confidence: TOTALS.taxesSummed })
      }
      // Only when no pair adds up as printed are the sums widened (D405, D408).
      const asPrinted = surestPerNumber(subtotals)
      const plain = asPrinted.map((subtotal) => ({ subtotal, adjustment: 0 }))
      const found = surestSum(plain, total, taxOptions) ?? surestSum(widenedSums(asPrinted, candidates, total, ctx), total, taxOptions)
      if (found) Object.assign(result, { subtotal: found.subtotal, tax: found.tax, consistent: true, adjustment: found.adjustment || undefined })
      // No tax printed: the subtotal equals the total only when a zero tax is printed.
      if (!result.consistent) {
        const zeroTax = taxes.find((tax) => tax.number === 0)
        // (A subtotal read from the total's own line, "Net Total 35.20", confirms nothing.)
        const equal = subtotals.find((subtotal) => near(subtotal.number, total.number) && subtotal.line.index !== total.line.index)
        if (zeroTax && equal) Object.assign(result, { subtotal: equal, tax: zeroTax, consistent: true })
      }
      if (!result.consistent) result.contradicted = sumContradicts(total, subtotals, taxOptions, ctx)
    }
    if (!result.consistent) {
      const bounded = (list: AmountCandidate[]) => (total ? list.filter((c) => Math.abs(c.number) <= Math.abs(total.number) + 0.001) : list)
      result.subtotal = largest(bounded(subtotals).filter((c) => !total || !near(c.number, total.number)))
      result.tax = agreed(bounded(taxes).filter((c) => !total || !near(c.number, total.number)))
    }
    return result
  })
}

/** A subtotal tried, and what the total adds to it besides the tax (a rounding, charges). */
interface SumTry {
  subtotal: AmountCandidate
  adjustment: number
}

/**
 * Of the subtotals tried, the surest with a tax that completes the total. Each subtotal meets only
 * the taxes that could complete it, one per number: every pair was tried before, the square of a
 * document's subtotal and tax lines (D392).
 */
function surestSum(tries: SumTry[], total: AmountCandidate, taxes: AmountCandidate[]): (SumTry & { tax: AmountCandidate }) | undefined {
  const taxesByCents = fileByCents(taxes)
  const taxOrder = new Map(taxes.map((tax, order) => [tax, order]))
  let found: (SumTry & { tax: AmountCandidate }) | undefined
  let bestScore = -1
  for (const { subtotal, adjustment } of tries) {
    if (near(subtotal.number, total.number)) continue
    const completing = [...filedNear(taxesByCents, total.number - adjustment - subtotal.number)].map(surestOf)
    for (const tax of completing.sort((a, b) => taxOrder.get(a)! - taxOrder.get(b)!)) {
      const score = subtotal.confidence + tax.confidence
      if (near(subtotal.number + tax.number + adjustment, total.number) && score > bestScore) {
        bestScore = score
        found = { subtotal, tax, adjustment }
      }
    }
  }
  return found
}

/**
 * The sums to try when no subtotal and tax add up to the total as printed. A rounding line and
 * charges printed between the subtotal and the total may stand between their sum and the total
 * ("Sub total 7.00", "GST 0.42", "Rounding adj -0.02", "Net total 7.40"; "Serv. charge (10%)
 * 3.56", D408), and a total of zero-rated supplies printed apart adds its net to the subtotal
 * ("Total 0% supplies 23.83", "Total 6% supplies (excl. GST) 12.00", D405).
 */
function widenedSums(subtotals: AmountCandidate[], candidates: AmountCandidate[], total: AmountCandidate, ctx: Context): SumTry[] {
  const roundedBy = rounding(ctx) ?? 0
  const withPart = withZeroRated(subtotals, candidates)
  const tries = withPart.map((subtotal) => ({ subtotal, adjustment: 0 }))
  for (const subtotal of [...subtotals, ...withPart]) {
    const charged = adjustmentsBetween(ctx, subtotal.line, total.line, Math.sign(total.number) || 1)
    // Both first: of sums a cent apart, the one that counts everything printed.
    for (const adjustment of new Set([Math.round((roundedBy + charged) * 100) / 100, charged, roundedBy]))
      if (adjustment !== 0) tries.push({ subtotal, adjustment })
  }
  return tries
}

/**
 * Each subtotal plus the total of zero-rated supplies, when the document prints one (on another
 * line; printed again, it is still one): the net of everything sold (D405), read at the lesser of
 * the two confidences. Many such totals are no receipt's one zero-rated part, and each would meet
 * every subtotal.
 */
function withZeroRated(subtotals: AmountCandidate[], candidates: AmountCandidate[]): AmountCandidate[] {
  const zeroRated = surestPerNumber(candidates.filter((c) => c.zeroRated && c.number > 0))
  const part = zeroRated.length === 1 ? zeroRated[0]! : undefined
  if (!part) return []
  return subtotals
    .filter((subtotal) => subtotal.line.index !== part.line.index)
    .map((subtotal) => {
      const number = Math.round((subtotal.number + part.number) * 100) / 100
      return { ...subtotal, value: number.toFixed(2), number, confidence: Math.min(subtotal.confidence, part.confidence) }
    })
}

/** Two amounts printed alike but for one digit ("85.20" and "35.20", "11.66" and "11.60"): one of them misread. */
function oneDigitApart(a: number, b: number): boolean {
  const [x, y] = [Math.abs(a).toFixed(2), Math.abs(b).toFixed(2)]
  if (x.length !== y.length) return false
  let differ = 0
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) differ++
  return differ === 1
}

/**
 * "Sub Total 10.94", "GST 0.66", "TOTAL 11.66": a total one digit off what the only subtotal and
 * tax printed add up to (or off what was paid less the change), with no rounding line to explain
 * it and no payment confirming it, is in doubt: one of them is misread.
 */
function sumContradicts(total: AmountCandidate, all: AmountCandidate[], taxes: AmountCandidate[], ctx: Context): boolean {
  // "Net Total 35.20" reads as a total and a subtotal: the subtotal it is checked against is printed apart.
  const subtotals = all.filter((c) => c.line.index !== total.line.index)
  if (total.paidExactly || roundingLine(ctx) || subtotals.some((c) => near(c.number, total.number))) return false
  const { paid, change } = payment(ctx)
  if (paid !== undefined && change !== undefined && oneDigitApart(paid - change, total.number)) return true
  const printed = (list: AmountCandidate[]) => [...new Set(list.filter((c) => c.number >= 0 && c.tier >= 2).map((c) => c.number))]
  const [subtotal, tax] = [printed(subtotals), printed(taxes)]
  if (subtotal.length !== 1 || tax.length !== 1 || subtotal[0] === 0) return false
  return oneDigitApart(subtotal[0]! + tax[0]!, total.number)
}

function largest(list: AmountCandidate[]): AmountCandidate | undefined {
  let top: AmountCandidate | undefined
  for (const candidate of list) {
    if (candidate.confidence < MIN_ANSWER_CONFIDENCE) continue
    if (!top || Math.abs(candidate.number) > Math.abs(top.number) + 0.001) top = candidate
  }
  return top
}

/** A tax taken alone: only when every tax line found says the same. */
function agreed(list: AmountCandidate[]): AmountCandidate | undefined {
  if (new Set(list.map((c) => c.value)).size !== 1) return undefined
  return list.reduce((a, b) => (b.confidence > a.confidence ? b : a))
}

/** The answer for a total, subtotal or tax field. */
export function amountAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const role = plan.role as AmountRole
  const found = readTotals(ctx)
  const candidate = found[role]
  if (!candidate) return undefined
  let confidence = candidate.confidence
  if (found.consistent) confidence = Math.min(TOTALS.consistentCap, confidence + TOTALS.consistentBonus)
  else if (role !== 'total') confidence *= TOTALS.inconsistentPart
  if (role === 'total' && candidate.tier < 2) confidence *= TOTALS.otherTotal
  if (role === 'total' && found.contradicted) confidence *= TOTALS.disputed
  const adjustment = role === 'total' ? found.adjustment : undefined
  // Only the lines of a table are checked against them (checks.ts): without one, nothing is read.
  const lineAdjustments = role === 'subtotal' && ctx.plans.some((each) => each.kind === 'table') ? subtotalAdjustments(ctx, candidate) : []
  return {
    value: candidate.value,
    confidence,
    line: candidate.line,
    ...(adjustment !== undefined && { adjustment }),
    ...(lineAdjustments.length && { lineAdjustments }),
  }
}
