/** What every field reader of the built-in engine works from, and what it gives back. */
import type { Role } from '../../../../lib/fields/concepts'
import type { JobField } from '../../../../lib/fields/model'
import type { ResolvedType as FieldKind } from '../../../../lib/fields/types'
import type { FieldAnswer } from '../../answers'
import type { Doc, Line } from './document'
import type { LabelHit } from './labels'
import type { FieldWords } from './vocabulary'

/** A requested field as the engine will read it. */
export interface Plan {
  spec: JobField
  kind: FieldKind
  /** The role of the concept the field stands for, which picks its special reader. */
  role?: Role
  /** Label owners whose hits count as this field's labels. */
  owners: Set<string>
  /** What the words of a field without a role (or with an amount role) say it is (D110). */
  words?: FieldWords
}

export interface Context {
  doc: Doc
  /** All requested fields (some readers judge several fields together). */
  plans: Plan[]
  hits: LabelHit[]
  hitsByLine: Map<number, LabelHit[]>
  /** Results shared between fields (the amounts, the document's currency …), computed once. */
  memo: Map<string, unknown>
}

/**
 * A value the engine found, how sure it is and, for a table, its check (tables.ts, D117): the
 * parts of its answer, with the line it was read from as the engine holds it (index.ts makes the
 * page, snippet and line number of it).
 */
export type Answer = Pick<FieldAnswer, 'value' | 'confidence' | 'table_check' | 'adjustment' | 'lineAdjustments'> & { line?: Line }

export type { TableCheck } from '../../../../lib/fields/model'

/** Computes a shared result once per document. */
export function memo<T>(ctx: Context, key: string, compute: () => T): T {
  if (!ctx.memo.has(key)) ctx.memo.set(key, compute())
  return ctx.memo.get(key) as T
}

/** The best of several answers: highest confidence, then earliest in the document. */
export function best(answers: (Answer | undefined)[]): Answer | undefined {
  let top: Answer | undefined
  for (const answer of answers) {
    if (!answer) continue
    if (
      !top ||
      answer.confidence > top.confidence + 1e-9 ||
      (Math.abs(answer.confidence - top.confidence) <= 1e-9 && (answer.line?.index ?? Infinity) < (top.line?.index ?? Infinity))
    )
      top = answer
  }
  return top
}

/**
 * How many of what a document prints of one kind (one owner's labels, dates, durations, header-like
 * lines) the readers weigh at each end of it (D393). Each is read for what surrounds it, at tens of
 * microseconds; no real document comes near 1,000 (a dev document's most labels of one owner is
 * 321), while 60,000 "Seller:" lines held a worker for 5 s.
 */
export const READ_AT_EACH_END = 500

/** The first and the last `count` of a list, in order: a document's values are printed near its start or its end (D393). */
export function atEachEnd<T>(list: T[], count = READ_AT_EACH_END): T[] {
  return list.length <= 2 * count ? list : [...list.slice(0, count), ...list.slice(-count)]
}

/** Two values are the same answer (dates, amounts and names as compared by users). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
