/**
 * The general reader: a field's value is what its labels point at. Every hit of the field's
 * labels offers candidates (same cell, next cell, below); each is read as the field's kind and
 * scored by where it sat, how specific the label was and how well the text fit the kind.
 */
import type { ResolvedType as FieldKind } from '../../../../lib/fields/types'
import { lexiconWords, phrases } from '../../../../lib/lexicon'
import { sameValue, type Answer, type Context, type Plan } from './context'
import { candidatesFor, type Candidate, type LabelHit } from './labels'
import { hasLetterOrDigit, lettersInARow, opensWithColon } from './text'
import { readValue } from './values'
import { LABELLED } from './weights'

export interface Scored extends Answer {
  candidate: Candidate
}

/** The hits of a field's labels. */
export function hitsOf(plan: Plan, ctx: Context): LabelHit[] {
  return ctx.hits.filter((hit) => plan.owners.has(hit.entry.owner))
}

/**
 * Weight of a label: the field's own label or alias counts fully, a concept's label a little less;
 * very short labels ("Date", "Tax", "Total") are often parts of other phrases.
 */
function labelWeight(hit: LabelHit): number {
  let weight = hit.entry.owner.startsWith('field:') ? 1 : LABELLED.conceptLabel
  if (isShortLabel(hit)) weight *= LABELLED.shortLabel
  return weight
}

/** A label of four letters or fewer ("Date", "Tax", "Total"): often part of another phrase. */
export function isShortLabel(hit: LabelHit): boolean {
  return hit.entry.squashed.length <= 4
}

/** A number mark right after a label ("Invoice No. 12", "Rechnung Nr. 5", "Order # 7"), or the start of a word it starts ("Nr5"). */
const NUMBER_MARKS = phrases(
  lexiconWords('number_marks').map((mark) => `${mark}*`),
  true,
)
const numberAfter = (text: string) => {
  const at = text.length - text.trimStart().length
  return text[at] === '#' || NUMBER_MARKS.at(text, at) !== undefined
}

/**
 * Is a hit used as a label, not a word of running text? A label opens its cell (after an
 * enumeration such as "3." or "(a)"), or closes a short lead-in with a colon ("Cash inv no.:").
 * Text values also need the label to end there: a colon, the end of the cell, or a value that
 * reads as the field's kind right after it.
 */
function isLabelLike(hit: LabelHit, kind: FieldKind): boolean {
  const { line } = hit
  const cell = line.cells[hit.cell]!
  const lead = line.raw.slice(cell.start, hit.start)
  const after = line.raw.slice(hit.end, cell.end)
  const colon = /^\s*(?:\(\w{1,4}\)|\.)?\s*[:：]/.test(after) || (!after.trim() && opensWithColon(line.raw.slice(cell.end, cell.end + 4)))
  const opens = /^[\s\d.()•*\-–—a-zA-Z]{0,4}$/.test(lead) && !lettersInARow(lead, 2)
  if (!opens && !(colon && lead.length <= 14)) return false
  if (kind === 'text' || kind === 'list') return colon || !hasLetterOrDigit(after) || numberAfter(after)
  return true
}

/** How a value is read from a candidate's text, and which candidates may hold it at all. */
export interface ReadingRules {
  read?: (text: string) => ReturnType<typeof readValue>
  accept?: (candidate: Candidate) => boolean
  /** Candidates beyond the label reader's, tried after them. */
  more?: (hit: LabelHit) => Candidate[]
}

/** Every value the field's labels point at, scored. */
export function labelledValues(plan: Plan, ctx: Context, kind: FieldKind = plan.kind, rules: ReadingRules = {}): Scored[] {
  const out: Scored[] = []
  for (const hit of hitsOf(plan, ctx)) {
    if (!isLabelLike(hit, kind)) continue
    for (const candidate of [...candidatesFor(hit, ctx.doc, ctx.hitsByLine), ...(rules.more?.(hit) ?? [])]) {
      if (rules.accept && !rules.accept(candidate)) continue
      const read = rules.read ? rules.read(candidate.text) : readValue(kind, candidate.text, ctx.doc, plan.spec)
      if (!read) continue
      const place = LABELLED[candidate.how] - LABELLED.perLineBelow * Math.max(0, candidate.distance - 1)
      out.push({
        value: read.value,
        confidence: place * labelWeight(hit) * read.quality,
        line: candidate.line,
        candidate,
      })
      // The nearest readable value of a hit is its value; farther ones are not alternatives.
      break
    }
  }
  return out
}

/**
 * Picks the answer among scored values: the most confident, then the earliest. When another
 * value as well supported disagrees, confidence drops: a document that says two things is
 * not a sure answer.
 */
export function choose(values: Scored[]): Scored | undefined {
  if (!values.length) return undefined
  const sorted = [...values].sort((a, b) => b.confidence - a.confidence || (a.line?.index ?? 0) - (b.line?.index ?? 0))
  const top = sorted[0]!
  const rival = sorted.find((other) => !sameValue(other.value, top.value))
  const agreeing = sorted.filter((other) => sameValue(other.value, top.value)).length
  let confidence = top.confidence
  if (rival && rival.confidence >= top.confidence - LABELLED.rivalMargin) confidence *= LABELLED.rivalFactor
  if (agreeing > 1) confidence = Math.min(LABELLED.agreedCeiling, confidence + LABELLED.agreedBonus * (agreeing - 1))
  return { ...top, confidence }
}

/** The general reader's answer for a field. */
export function genericAnswer(plan: Plan, ctx: Context): Answer | undefined {
  return choose(labelledValues(plan, ctx))
}
