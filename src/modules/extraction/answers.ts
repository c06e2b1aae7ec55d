/**
 * An answer to a field: one record from the engine to the job. At the end, a job's answers as
 * they are stored and answered (interface.md 4.8): `result` holds each requested key's value,
 * `fields_meta` its confidence, page, snippet and box — the one place an answer is split.
 */
import type { JobFieldMeta } from '../../db/tables/jobs'

/**
 * What an engine answers for one field, and what travels unsplit through normalisation (the only
 * place values are typed), location (its box on the page) and the choice between two readings, to
 * the job (D90, D67): the value, how sure, where, and the text it was read from.
 */
export interface FieldAnswer {
  /** The value as read; typed by the normalisation layer; null when there is none. */
  value: unknown
  /** 0–1: how sure the engine is; a value it is unsure of is answered as null instead. */
  confidence: number
  /** 1-based page the value was read from, or null when there is no value. */
  page: number | null
  /** What the value was read from, or null when there is no value. */
  evidence: Evidence | null
  /** Where the value is printed on its page (PDFs and images); added after the engine, by locate.ts. */
  bbox?: BoundingBox | null
  /** A table's rows checked against its printed total and their own arithmetic (D117); the built-in engine's tables only. */
  tableCheck?: TableCheck
}

/** How a table's rows check out (D117). */
export interface TableCheck {
  /** The sum of the line amounts, or null when the table has no amount column. */
  lines_sum: string | null
  /** Whether an amount printed right under the table (the net total, a subtotal) equals that sum. */
  total: 'matches' | 'differs' | 'not_found' | 'not_checked'
  /** Whether quantity × unit price gives each line's amount, where a row prints all three. */
  rows: 'match' | 'differ' | 'not_checked'
}

/** The text a value was read from: a line or two, and the line's index on its page when the engine knows it. */
export interface Evidence {
  text: string
  /** 0-based index of the line in its page's text: location uses it instead of searching the text. */
  line?: number
}

/** One answer per requested key (own properties: keys such as `__proto__` are fields too). */
export type Answers = Record<string, FieldAnswer>

/** The answer of a field without a value (D57). */
export const NO_ANSWER: FieldAnswer = Object.freeze({ value: null, confidence: 0, page: null, evidence: null })

/** A field's answer among others, read as an own property; NO_ANSWER when it has none. */
export function answerOf(answers: Answers, key: string): FieldAnswer {
  return (Object.hasOwn(answers, key) ? answers[key] : undefined) ?? NO_ANSWER
}

/** Answers by key, built so that every key is an own property. */
export function answersOf(entries: Iterable<readonly [string, FieldAnswer]>): Answers {
  return Object.fromEntries(entries)
}

/** A box on a page as fractions (0–1) of the page's width and height, from its top-left corner. */
export interface BoundingBox {
  left: number
  top: number
  width: number
  height: number
}

export interface StoredAnswers {
  result: Record<string, unknown>
  fieldsMeta: Record<string, JobFieldMeta>
}

/** Every requested key answers, and nothing else does; a field without a value answers confidence 0 and nowhere. */
export function storedAnswers(keys: readonly string[], answers: Answers): StoredAnswers {
  const entries = keys.map((key) => {
    const answer = answerOf(answers, key)
    const found = answer.value !== null && answer.value !== undefined
    const meta: JobFieldMeta = found
      ? {
          confidence: answer.confidence,
          page: answer.page,
          snippet: answer.evidence?.text ?? null,
          bbox: answer.bbox ?? null,
          ...(answer.tableCheck ? { table_check: answer.tableCheck } : {}),
        }
      : { confidence: 0, page: null, snippet: null, bbox: null }
    return [key, found ? answer.value : null, meta] as const
  })
  // fromEntries makes own properties even of keys such as `__proto__`.
  return {
    result: Object.fromEntries(entries.map(([key, value]) => [key, value])),
    fieldsMeta: Object.fromEntries(entries.map(([key, , meta]) => [key, meta])),
  }
}
