/**
 * The built-in engine (D23): reads fields from the document's text with no network and no
 * model, deterministically. Each field is tied to what the engine knows of it (concepts.ts),
 * read by the reader for its role or by the general label reader, and answered only when the
 * engine is sure enough: a wrong value costs a user more than an empty one.
 */
import type { JobField } from '../../../../lib/fields/model'
import { BUILTIN_ENGINE_NAME } from '../names'
import { type Answers, answersOf, NO_ANSWER } from '../../answers'
import { MIN_ANSWER_CONFIDENCE } from '../../confidence'
import { CALIBRATION } from '../../calibration'
import type { Engine, ExtractionInput } from '../types'
import { CONCEPTS, conceptOf, type Role } from '../../../../lib/fields/concepts'
import { conceptLabels } from '../../../../lib/lexicon'
import { CONTRACT_READERS } from './contract'
import { type Answer, type Context, type Plan, READ_AT_EACH_END } from './context'
import { buildDoc } from './document'
import { currencyAnswer, dueDateAnswer, invoiceNumberAnswer, issueDateAnswer } from './invoice'
import { boundHits, findLabels, indexHits, squashKeepingMarks, type LabelEntry } from './labels'
import { issuerAnswer, recipientAnswer } from './names'
import { closerAnswer, namedAnswer, saysMoreThan } from './pairs'
import { tableAnswer } from './tables'
import { amountAnswer } from './totals'
import { fieldWords, isNamedInWords, LABEL_KINDS, namedLabelEntries, namedOwner, withLongerLabels } from './vocabulary'

export const builtinEngine: Engine = {
  name: BUILTIN_ENGINE_NAME,
  readsTwice: true,
  calibration: CALIBRATION,
  extract: async (input) => extract(input),
}

/** Reads every requested field of a document (synchronous work; see `builtinEngine`). */
export function extract(input: ExtractionInput): Answers {
  const doc = buildDoc(input.document)
  const plans = input.fields.map((spec) => planField(spec, input.issuedBySeller))
  const entries = vocabulary(plans)
  const named = plans.flatMap(({ spec, words }) => (words ? [{ key: spec.key, words }] : []))
  const hits = boundHits(withLongerLabels(findLabels(doc, entries), named), READ_AT_EACH_END)
  const ctx: Context = { doc, plans, hits, hitsByLine: indexHits(hits), memo: new Map() }
  return answersOf(
    plans.map((plan) => {
      if (input.signal?.aborted) throw input.signal.reason ?? new Error('aborted')
      const answer = answerFor(plan, ctx)
      if (!answer || answer.confidence < MIN_ANSWER_CONFIDENCE || isEmpty(answer.value)) return [plan.spec.key, NO_ANSWER] as const
      const { line } = answer
      return [
        plan.spec.key,
        {
          value: answer.value,
          confidence: round(answer.confidence),
          page: line?.page ?? null,
          snippet: line?.text ?? null,
          ...(line && { line: line.row }),
          ...(answer.table_check && { table_check: answer.table_check }),
          ...(answer.adjustment !== undefined && { adjustment: answer.adjustment }),
          ...(answer.lineAdjustments && { lineAdjustments: answer.lineAdjustments }),
        },
      ] as const
    }),
  )
}

/**
 * Ties a requested field to its kind, its concept and the labels that stand for it. The issuer
 * and recipient readers (letterhead, sender line, address window) apply only where the seller
 * issues the document (the catalog's `issued_by_seller`, D220); elsewhere (a purchase order is
 * issued by the buyer) names are read from their own labels only.
 */
function planField(spec: JobField, issuedBySeller: boolean): Plan {
  const concept = conceptOf(spec.key, spec.label)
  const kind = spec.type
  const owners = new Set<string>([`field:${spec.key}`])
  const sidesApply = issuedBySeller || !concept?.role || !['issuer', 'recipient'].includes(concept.role)
  // A concept whose kind differs from the field's (a "date" concept for an amount field) is not it.
  const usable = concept && concept.kind === kind && sidesApply ? concept : undefined
  if (usable) owners.add(usable.id)
  const fieldsWords = !usable?.role || (AMOUNT_ROLES.has(usable.role) && isNamedInWords(spec)) ? fieldWords(spec) : undefined
  // A role's field reads its own labels only when its words say more than the role ("amount due").
  const words = fieldsWords && usable?.role && !saysMoreThan(fieldsWords, usable.role) ? undefined : fieldsWords
  if (words) for (const kind of LABEL_KINDS) owners.add(namedOwner(kind, spec.key))
  return { spec, kind, role: usable?.role, owners, words }
}

/** Labels folded for matching, without those too short and those already there for the same owner. */
function labelEntries(labels: [label: string, owner: string][]): LabelEntry[] {
  const entries: LabelEntry[] = []
  const seen = new Set<string>()
  for (const [label, owner] of labels) {
    const squashed = squashKeepingMarks(label).chars
    if (squashed.length < 2) continue
    const id = `${owner}\u0000${squashed}`
    if (seen.has(id)) continue
    seen.add(id)
    entries.push({ squashed, owner })
  }
  return entries
}

/** The labels of every concept, folded once: they are the same for every document. */
const CONCEPT_LABELS = labelEntries(CONCEPTS.flatMap((concept) => conceptLabels(concept.id).map((label): [string, string] => [label, concept.id])))

/**
 * Labels of the requested fields (label, key and aliases, and those their words stand for in every
 * language: invoices mix them, "Invoice" over "Lieferdatum") and of every concept (as competitors), in folded form.
 */
function vocabulary(plans: Plan[]): LabelEntry[] {
  const own = plans.flatMap(({ spec }) =>
    [spec.label, spec.key.replaceAll('_', ' '), ...(spec.aliases ?? [])].map((label): [string, string] => [label, `field:${spec.key}`]),
  )
  const named = plans.flatMap(({ spec, words }) => (words ? namedLabelEntries(words, spec.key) : []))
  return [...labelEntries(own), ...named, ...CONCEPT_LABELS]
}

type Reader = (plan: Plan, ctx: Context) => Answer | undefined

/** The special reader of each role. */
const READERS: Record<Role, Reader> = {
  invoice_number: invoiceNumberAnswer,
  issue_date: issueDateAnswer,
  due_date: dueDateAnswer,
  total: amountAnswer,
  subtotal: amountAnswer,
  tax: amountAnswer,
  currency: currencyAnswer,
  issuer: issuerAnswer,
  recipient: recipientAnswer,
  ...CONTRACT_READERS,
}

/** Roles whose reader picks one of the document's amounts: a field named more closely reads its own labels first. */
const AMOUNT_ROLES = new Set<Role>(['total', 'subtotal', 'tax'])

/** The reader of a field: its role's, else the table reader, the currency reader or the reader of named fields. */
function answerFor(plan: Plan, ctx: Context): Answer | undefined {
  if (plan.role) return (plan.words && closerAnswer(plan, ctx)) || READERS[plan.role](plan, ctx)
  if (plan.kind === 'table') return tableAnswer(plan, ctx)
  if (plan.kind === 'currency') return currencyAnswer(plan, ctx)
  return namedAnswer(plan, ctx)
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100
}
