/**
 * Sums that agree (D282): after the engine, whatever it is, the answered amounts are checked
 * against each other wherever the requested fields allow: subtotal + tax = total (with a rounding
 * the engine read, D405), the lines of a table add up to the subtotal (or to the total, where
 * prices include the tax, D407), rate × base = tax, a tax broken down by rate adds up, cash −
 * change = paid. A field takes part by what its words make it (`sumRoleOf`: the catalog's keys or
 * any field a user names "net_amount", "vat_rate", "cash_given" …). An answer in an identity that
 * holds is marked agreeing; one in an identity that breaks carries the check (which, expected,
 * found), and calibration (calibration.ts) gives each its measured chance of being right.
 */
import { type SumRole, sumRoleOf } from '../../lib/fields/concepts'
import type { JobField as Field } from '../../lib/fields/model'
import { type Answers, answerOf, answersOf, type FieldAnswer, type SumCheck } from './answers'

/** How far two amounts may differ and still agree: a cent, and rounding per line on larger sums. */
function agrees(expected: number, found: number): boolean {
  return Math.abs(expected - found) <= 0.011 + Math.abs(expected) * 0.0005
}

/** rate × base is rounded per tax line on the invoice: a little more room (D282). */
function agreesRounded(expected: number, found: number): boolean {
  return Math.abs(expected - found) <= 0.021 + Math.abs(expected) * 0.002
}

const cents = (value: number) => Math.round(value * 100) / 100
const money = (value: number) => cents(value).toFixed(2)

interface Member {
  key: string
  role: SumRole
  number: number
}

/** One identity: the fields in it, what each should be from the others, and whether it holds. */
interface Identity {
  check: SumCheck['check']
  holds: boolean
  /** For each member: the value the others imply. */
  expected: Map<string, number>
  members: Member[]
}

function numberOf(answer: FieldAnswer): number | undefined {
  const value = answer.value
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'string' || !/^-?\d+(?:\.\d+)?$/.test(value)) return undefined
  return Number(value)
}

/** The answered amounts of the fields that have a sum role, by role (several fields may share one). */
function membersOf(fields: readonly Field[], answers: Answers): Map<SumRole, Member[]> {
  const byRole = new Map<SumRole, Member[]>()
  for (const field of fields) {
    const role = sumRoleOf(field.key, field.label, field.type)
    if (!role) continue
    const number = numberOf(answerOf(answers, field.key))
    if (number === undefined) continue
    byRole.set(role, [...(byRole.get(role) ?? []), { key: field.key, role, number }])
  }
  return byRole
}

/** The sum of a table's lines (D117), from the engine's table check, for the first table answered. */
function linesSum(fields: readonly Field[], answers: Answers): { key: string; number: number } | undefined {
  for (const field of fields) {
    if (field.type !== 'table') continue
    const sum = answerOf(answers, field.key).table_check?.lines_sum
    if (sum !== null && sum !== undefined) return { key: field.key, number: Number(sum) }
  }
  return undefined
}

function identities(fields: readonly Field[], answers: Answers): Identity[] {
  const roles = membersOf(fields, answers)
  const one = (role: SumRole) => {
    const members = roles.get(role) ?? []
    return members.length === 1 ? members[0] : undefined
  }
  const out: Identity[] = []
  const add = (check: SumCheck['check'], members: Member[], expected: [Member, number][], holds: boolean) =>
    out.push({ check, holds, members, expected: new Map(expected.map(([member, value]) => [member.key, value])) })

  const [subtotal, tax, total, rate, cash, change, paid] = (['subtotal', 'tax', 'total', 'rate', 'cash', 'change', 'paid'] as const).map(one)
  if (subtotal && tax && total) {
    // A rounding line the engine read between the sum and the total is part of it (D405).
    const adjustment = answerOf(answers, total.key).adjustment ?? 0
    add(
      'subtotal_plus_tax',
      [subtotal, tax, total],
      [
        [total, subtotal.number + tax.number + adjustment],
        [subtotal, total.number - adjustment - tax.number],
        [tax, total.number - adjustment - subtotal.number],
      ],
      agrees(subtotal.number + tax.number + adjustment, total.number),
    )
  }
  if (rate && subtotal && tax && rate.number > 0 && rate.number < 100) {
    // A rate of 19 is 19 %; one of 0.19 is written as a fraction.
    const factor = rate.number >= 1 ? rate.number / 100 : rate.number
    const expected: [Member, number][] = [
      [tax, subtotal.number * factor],
      [subtotal, tax.number / factor],
    ]
    if (subtotal.number !== 0) expected.push([rate, ((tax.number / subtotal.number) * rate.number) / factor])
    add('rate_times_base', [rate, subtotal, tax], expected, agreesRounded(subtotal.number * factor, tax.number))
  }
  // Several tax fields: one is the sum of the others (a breakdown by rate and its total).
  const taxes = roles.get('tax') ?? []
  if (taxes.length >= 3 || (taxes.length === 2 && taxes.every((member) => member.number !== 0))) {
    const sorted = [...taxes].sort((a, b) => Math.abs(b.number) - Math.abs(a.number))
    const whole = sorted[0]!
    const parts = sorted.slice(1).reduce((sum, member) => sum + member.number, 0)
    const expected = sorted.map((member): [Member, number] => [member, member === whole ? parts : member.number + whole.number - parts])
    if (taxes.length >= 3 || agrees(parts, whole.number)) add('tax_breakdown', taxes, expected, agrees(parts, whole.number))
  }
  if (cash && change) {
    const settled = paid ?? total
    if (settled)
      add(
        'cash_minus_change',
        [cash, change, settled],
        [
          [settled, cash.number - change.number],
          [cash, settled.number + change.number],
          [change, cash.number - settled.number],
        ],
        agrees(cash.number - change.number, settled.number),
      )
  }
  const lines = linesSum(fields, answers)
  // Prices printed with their tax included (a receipt's) add up to the total, not the subtotal:
  // lines equal to the total agree with it (D407).
  const grossLines = lines && subtotal && total && !agrees(lines.number, subtotal.number) && agrees(lines.number, total.number)
  const base = grossLines ? total : (subtotal ?? (tax ? undefined : total))
  // Against the total, with neither subtotal nor tax answered (asked for or not: the catalog's
  // suggested invoice fields ask for neither), the lines may leave out the tax nobody read (an
  // invoice's net prices, a receipt's before GST): equal to the total they agree, unequal they break
  // nothing (D380, D414).
  const taxUnread = !subtotal && !tax
  if (lines && base && (!taxUnread || agrees(lines.number, base.number))) {
    const table: Member = { key: lines.key, role: 'subtotal', number: lines.number }
    // Allowances and charges printed between the lines and the subtotal are part of it (D410).
    const between = base === subtotal ? (answerOf(answers, subtotal.key).lineAdjustments ?? []) : []
    const adjustment = [0, ...between].find((each) => agrees(lines.number + each, base.number)) ?? 0
    add(
      'lines_sum',
      [table, base],
      [
        [base, lines.number + adjustment],
        [table, base.number - adjustment],
      ],
      agrees(lines.number + adjustment, base.number),
    )
  }
  return out
}

/**
 * The answers with each amount in an identity marked: `sums: 'agree'` when every identity it is in
 * holds, else `sums: 'broken'` and `checks` listing each broken one with the value the others imply.
 */
export function checkSums(fields: readonly Field[], answers: Answers): Answers {
  const found = identities(fields, answers)
  if (!found.length) return answers
  const marks = new Map<string, { broken: SumCheck[]; agreed: boolean }>()
  for (const identity of found)
    for (const member of identity.members) {
      const mark = marks.get(member.key) ?? { broken: [], agreed: false }
      marks.set(member.key, mark)
      if (identity.holds) {
        mark.agreed = true
        continue
      }
      mark.broken.push({ check: identity.check, expected: money(identity.expected.get(member.key)!), found: money(member.number) })
    }
  return answersOf(
    Object.keys(answers).map((key) => {
      const answer = answerOf(answers, key)
      const mark = marks.get(key)
      if (!mark) return [key, answer] as const
      if (mark.broken.length) return [key, { ...answer, sums: 'broken', checks: mark.broken }] as const
      return [key, { ...answer, sums: 'agree' }] as const
    }),
  )
}
