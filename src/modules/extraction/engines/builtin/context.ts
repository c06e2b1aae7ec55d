/** What every field reader of the built-in engine works from, and what it gives back. */
import type { Role } from '../../../../lib/fields/concepts'
import type { Field, ResolvedType as FieldKind } from '../../../../lib/fields/types'
import type { TableCheck } from '../../answers'
import type { Doc, Line } from './document'
import type { LabelHit } from './labels'
import type { FieldWords } from './vocabulary'

/** A requested field as the engine will read it. */
export interface Plan {
  spec: Field
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

/** A value the engine found, with where it found it and how sure it is. */
export interface Answer {
  value: unknown
  confidence: number
  line?: Line
  /** A table's check against its printed total and its own arithmetic (tables.ts, D117). */
  check?: TableCheck
}

export type { TableCheck } from '../../answers'

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

/** Two values are the same answer (dates, amounts and names as compared by users). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
