/**
 * An answer to a field: one record from the engine to the job, under the names the wire gives its
 * parts (D202). At the end, a job's answers as they are stored and answered (interface.md 4.8):
 * `result` holds each requested key's value, `fields_meta` the rest — the one place an answer is split.
 */
import type { FieldMeta } from '../../lib/fields/model'
import { DEFAULT_REVIEW_THRESHOLD } from '../../lib/fields/types'

/**
 * What an engine answers for one field, and what travels unsplit through normalisation (the only
 * place values are typed), location (which adds its `bbox`) and the choice between two readings,
 * to the job (D90, D67): the value, and what the job keeps of it beside the value (FieldMeta).
 * `confidence` 0–1 (a value the engine is unsure of is answered as null instead); `page` 1-based
 * and `snippet` the text the value was read from, both null when there is no value.
 */
export type FieldAnswer = Omit<FieldMeta, 'bbox'> &
  Partial<Pick<FieldMeta, 'bbox'>> & {
    /** The value as read; typed by the normalisation layer; null when there is none. */
    value: unknown
    /** 0-based index of the snippet's line in its page's text, when the engine knows it: location reads it instead of searching. */
    line?: number
    /** How well the words the value was read from were recognised (the least OCR confidence of those it is judged by, D68); calibration's evidence (D310), never stored. */
    read?: number
    /** What a total includes besides subtotal and tax, as the engine read it (a rounding line, D405): the sums check counts it; never stored. */
    adjustment?: number
    /** What a subtotal adds to the sum of the lines, each way the engine read it (allowances and charges printed before it, D410): the sums check counts the one that closes the gap; never stored. */
    lineAdjustments?: number[]
    /** Whether the amounts this one is checked against agree with it (D282); absent when it is in no identity. */
    sums?: 'agree' | 'broken'
    /** The engine's own score and the evidence kinds calibration looked it up by (D283): for the benchmark that refits, never stored. */
    score?: { confidence: number; kinds: string[] }
  }

/** An identity between amounts that an answer breaks (D282): which, the value the other answers imply, the value given. */
export type SumCheck = NonNullable<FieldMeta['checks']>[number]

/** One answer per requested key (own properties: keys such as `__proto__` are fields too). */
export type Answers = Record<string, FieldAnswer>

/** The answer of a field without a value (D57). */
export const NO_ANSWER: FieldAnswer = Object.freeze({ value: null, confidence: 0, page: null, snippet: null })

/** A field's answer among others, read as an own property; NO_ANSWER when it has none. */
export function answerOf(answers: Answers, key: string): FieldAnswer {
  return (Object.hasOwn(answers, key) ? answers[key] : undefined) ?? NO_ANSWER
}

/** Answers by key, built so that every key is an own property. */
export function answersOf(entries: Iterable<readonly [string, FieldAnswer]>): Answers {
  return Object.fromEntries(entries)
}

/** Declared: a job's answers split once, as the job row stores them and the API answers them: the values (`result`) apart from their FieldMeta. */
export interface StoredAnswers {
  result: Record<string, unknown>
  fieldsMeta: Record<string, FieldMeta>
  /** Whether any value needs a person (D284). */
  needsReview: boolean
}

/**
 * Every requested key answers, and nothing else does; a field without a value answers confidence 0
 * and nowhere. A value needs a person below the review threshold or when a sum it is in breaks;
 * a field without a value claims nothing and needs none (D284).
 */
export function storedAnswers(keys: readonly string[], answers: Answers, reviewThreshold = DEFAULT_REVIEW_THRESHOLD): StoredAnswers {
  const entries = keys.map((key) => {
    const answer = answerOf(answers, key)
    const found = answer.value !== null && answer.value !== undefined
    const meta: FieldMeta = found
      ? {
          confidence: answer.confidence,
          page: answer.page,
          snippet: answer.snippet,
          bbox: answer.bbox ?? null,
          ...(answer.rows ? { rows: answer.rows } : {}),
          ...(answer.table_check ? { table_check: answer.table_check } : {}),
          ...(answer.checks?.length ? { checks: answer.checks } : {}),
          needs_review: answer.confidence < reviewThreshold || Boolean(answer.checks?.length),
          ...(answer.learned ? { learned: answer.learned } : {}),
        }
      : { confidence: 0, page: null, snippet: null, bbox: null, needs_review: false, ...(answer.learned ? { learned: answer.learned } : {}) }
    return [key, found ? answer.value : null, meta] as const
  })
  // fromEntries makes own properties even of keys such as `__proto__`.
  return {
    result: Object.fromEntries(entries.map(([key, value]) => [key, value])),
    fieldsMeta: Object.fromEntries(entries.map(([key, , meta]) => [key, meta])),
    needsReview: entries.some(([, , meta]) => meta.needs_review),
  }
}
