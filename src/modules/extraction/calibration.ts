/**
 * Confidence that means what it says (D283, D310): an engine's score for a value is mapped to the
 * share of such values measured right. Values are told apart by their evidence kind: how the
 * document was read (a text layer, or OCR), what the field is (its concept's role: total,
 * issue_date, issuer …, and the role's class: typed or free text), whether its sums agree or break
 * (checks.ts), and for free text read by OCR whether its words were read clearly. Each kind has a
 * step function from score to share right, fitted on the development sets' odd-numbered half, text
 * and scans, and checked on the even half (`bun run calibrate`, scripts/calibration-fit.ts; the band
 * a person may leave unchecked is admitted by its measured precision, D311); the fitted table is
 * data/calibration.json, compiled in.
 */
import table from '../../../data/calibration.json'
import { conceptOf } from '../../lib/fields/concepts'
import type { JobField as Field } from '../../lib/fields/model'
import { type Answers, answerOf, answersOf, type FieldAnswer } from './answers'
import type { DocumentText } from './readers/types'

/** A fitted step function: below the first step's score, its share; from each step's score on, that step's share. */
export type Steps = [score: number, share: number][]

export interface CalibrationTable {
  /** What the table was fitted on, for the reader (not used). */
  fitted: Record<string, unknown>
  /** Steps by evidence kind, most specific first when looked up (see `kindsOf`). */
  kinds: Record<string, Steps>
  /**
   * The roles the fit saw values of, as `<reading>/<role>` ("text/total", "ocr/issuer"): a role of
   * too few values for steps of its own takes its class's (D310), but a role no value measured
   * (a contract's title, a notice period: the development sets hold no truth for them) borrows
   * nothing, and is capped as a field of no role is (D399).
   */
  measured: string[]
  /** The most a value of a field no measured kind covers (a field a user names) may be given: such values are checked by a person until the account's own accuracy says otherwise. */
  unmeasuredCap: number
}

export const CALIBRATION = table as unknown as CalibrationTable

/** How the document was read: text from a text layer or file, or recognised (OCR, any word read with less than full confidence). */
export function readingOf(document: DocumentText): 'text' | 'ocr' {
  return document.layout?.some((page) => page?.words.some((word) => word.confidence < 1)) ? 'ocr' : 'text'
}

/** Types of free text (a name, a clause, a list of names): what a value of them says is not checked for a shape. */
const FREE_TEXT: ReadonlySet<string> = new Set(['text', 'list', 'table'])

/**
 * What the value stands for: its concept's role when the field is read as that concept, else its
 * type (`field:<type>`); and, for a role, its class: `typed` for a date, amount, code … whose shape
 * the normalisation layer checks, `untyped` for free text (D310).
 */
function groupOf(field: Pick<Field, 'key' | 'label' | 'type'>): { group: string; kind?: 'typed' | 'untyped' } {
  const concept = conceptOf(field.key, field.label)
  if (!concept?.role || concept.kind !== field.type) return { group: `field:${field.type}` }
  return { group: concept.role, kind: FREE_TEXT.has(field.type) ? 'untyped' : 'typed' }
}

/**
 * From this OCR confidence on, every word a value of free text was judged by (D68) counts as read
 * clearly (D310): the engine's score no longer tells such words apart (`OCR_READING_ALLOWANCE`),
 * and a name misread by a letter ("PASAF MINI", "SIN BHI") is read from less clear words than one
 * read right. Chosen on the fitting half of the scans (0.9–0.98 tried; the calibration error there
 * was least at 0.97).
 */
export const CLEAR_READING = 0.97

/**
 * The evidence kinds of a value, most specific first: reading, group and sums; for free text read
 * by OCR, reading, group and whether its words were read clearly (D310); reading and group; for a
 * concept's role, the reading and the role's class (typed or free text), then the reading alone
 * (every measured value read so). A field of no role has no measured kind: its score is capped
 * (`unmeasuredCap`), and never raised above the engine's own.
 */
export function kindsOf(reading: string, { group, kind }: { group: string; kind?: 'typed' | 'untyped' }, sums: FieldAnswer['sums'], read?: number): string[] {
  const clarity = reading === 'ocr' && kind === 'untyped' && read !== undefined ? [`${reading}/${group}/${read >= CLEAR_READING ? 'clear' : 'unclear'}`] : []
  return [...(sums ? [`${reading}/${group}/${sums}`] : []), ...clarity, `${reading}/${group}`, ...(kind ? [`${reading}/${kind}`, reading] : [])]
}

/** The step a score falls in: the last whose score it reaches; below them all, the first (undefined for none). The fit (scripts/calibration-fit.ts) looks steps up the same way. */
export function stepAt<Step>(steps: readonly Step[], score: number, from: (step: Step) => number): Step | undefined {
  let found = steps[0]
  for (const step of steps) if (score >= from(step)) found = step
  return found
}

/** The share right of a score under a kind's steps. */
export function stepShare(steps: Steps, score: number): number {
  return stepAt(steps, score, ([from]) => from)![1]
}

/**
 * The measured chance of being right of a value of these evidence kinds (most specific first, as
 * `kindsOf` gives them) and this engine score: the first kind the table measures gives it by its
 * steps. A value no kind measures, or of a role the fit saw no value of, gets its reading's pooled
 * share, at most `unmeasuredCap` and never above the engine's own score: what the engine marked
 * down (a table whose rows do not add up, D117) stays down.
 */
export function confidenceOf(calibration: CalibrationTable, kinds: readonly string[], score: number): number {
  const role = roleKindOf(kinds)
  const kind = role && !calibration.measured.includes(role) ? undefined : kinds.find((candidate) => Object.hasOwn(calibration.kinds, candidate))
  if (kind) return stepShare(calibration.kinds[kind]!, score)
  const pool = calibration.kinds[kinds[0]!.split('/')[0]!]
  return Math.min(calibration.unmeasuredCap, score, pool ? stepShare(pool, score) : score)
}

/** The role's kind among a value's kinds (`<reading>/<role>`, the one before its class), when the field has a role. */
export function roleKindOf(kinds: readonly string[]): string | undefined {
  const classAt = kinds.findIndex((kind) => {
    const [, group, ...more] = kind.split('/')
    return !more.length && ROLE_CLASSES.has(group ?? '')
  })
  return classAt > 0 ? kinds[classAt - 1] : undefined
}

const ROLE_CLASSES: ReadonlySet<string> = new Set(['typed', 'untyped'])

/**
 * The answers with each value's confidence its measured chance of being right; the engine's own
 * score and the kind it was looked up by stay on the answer (`score`, not stored) for the
 * benchmark that refits the table.
 */
export function calibrate(fields: readonly Field[], answers: Answers, document: DocumentText, calibration = CALIBRATION): Answers {
  const reading = readingOf(document)
  return answersOf(
    fields.map((field) => {
      const answer = answerOf(answers, field.key)
      if (answer.value === null || answer.value === undefined) return [field.key, answer] as const
      const kinds = kindsOf(reading, groupOf(field), answer.sums, answer.read)
      const confidence = Math.round(confidenceOf(calibration, kinds, answer.confidence) * 1000) / 1000
      return [field.key, { ...answer, confidence, score: { confidence: answer.confidence, kinds } }] as const
    }),
  )
}
