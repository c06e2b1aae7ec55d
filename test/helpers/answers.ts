/**
 * Engines' answers in the form a job stores them, split into values and meta (as `result` and
 * `fields_meta`), and back: for tests that state what an engine answers field by field.
 */
import type { Answers, FieldAnswer } from '../../src/modules/extraction/answers'
import type { TaskOutput } from '../../src/modules/extraction/extractor'

export interface Meta {
  confidence: number
  page: number | null
  snippet: string | null
  bbox?: FieldAnswer['bbox']
  rows?: FieldAnswer['rows']
}

export interface Split {
  values: Record<string, unknown>
  meta: Record<string, Meta>
}

/** Values and meta by key; a box only where location gave one (or said there is none), a table's rows where it placed them. */
export function split(answers: Answers): Split {
  const keys = Object.keys(answers)
  const meta = (answer: FieldAnswer): Meta => ({
    confidence: answer.confidence,
    page: answer.page,
    snippet: answer.snippet,
    ...(answer.bbox !== undefined ? { bbox: answer.bbox } : {}),
    ...(answer.rows !== undefined ? { rows: answer.rows } : {}),
  })
  return {
    values: Object.fromEntries(keys.map((key) => [key, answers[key]!.value])),
    meta: Object.fromEntries(keys.map((key) => [key, meta(answers[key]!)])),
  }
}

/** Answers from values and meta by key (a fake engine's answers). */
export function joined({ values, meta }: { values: Record<string, unknown>; meta: Record<string, Partial<Meta>> }): Answers {
  return Object.fromEntries(
    Object.keys(values).map((key) => {
      const m = Object.hasOwn(meta, key) ? meta[key]! : {}
      return [
        key,
        {
          value: values[key],
          confidence: m.confidence ?? 0,
          page: m.page ?? null,
          snippet: m.snippet || null,
          ...(m.bbox !== undefined ? { bbox: m.bbox } : {}),
        },
      ]
    }),
  )
}

/** The answers of a task that extracts one document of a named type; fails the test on any other output. */
export function taskAnswers(output: TaskOutput): Answers {
  if (output.kind !== 'answers') throw new Error(`expected answers, got ${output.kind}`)
  return output.answers
}
