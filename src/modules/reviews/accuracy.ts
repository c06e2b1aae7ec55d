/**
 * An account's own accuracy (issue 33, D290–D296): what its reviews say of the values the engine
 * read — per field key, how many were right as read, how right each confidence band was, and what
 * a review threshold would have let through unchecked. Counted from the reviewed jobs as their
 * latest review left them, which the extraction module reads out page by page (D290).
 */
import type { Database } from '../../db/database'
import { type ErrorDetail, errors } from '../../http/errors'
import { type Catalog, unknownDocumentType } from '../catalog/service'
import { DEFAULT_REVIEW_THRESHOLD } from '../../lib/fields/types'
import { type ReviewedFilter, type ReviewedValue, reviewedValues } from '../extraction/service'
import { getSchema } from '../schemas/service'
import type { Accuracy, AccuracyQuery, FieldAccuracy } from './model'

/**
 * The confidence bands (D292): where a value under the default threshold of 0.95 falls, and the
 * two above it a threshold is chosen between; the built-in engine answers nothing under 0.5.
 */
const BAND_EDGES = [0, 0.5, 0.8, 0.9, 0.95, 0.99, 1] as const

type Tally = Omit<FieldAccuracy, 'key'>

interface Counts {
  reviewed: number
  right: number
  answered: number
  answeredRight: number
  missed: number
  bands: { values: number; right: number }[]
  unchecked: { values: number; right: number }
}

const newCounts = (): Counts => ({
  reviewed: 0,
  right: 0,
  answered: 0,
  answeredRight: 0,
  missed: 0,
  bands: BAND_EDGES.slice(1).map(() => ({ values: 0, right: 0 })),
  unchecked: { values: 0, right: 0 },
})

/** The band of a confidence: from its edge on, up to the next; the last one holds 1. */
function bandOf(confidence: number): number {
  for (let band = BAND_EDGES.length - 2; band > 0; band--) if (confidence >= BAND_EDGES[band]!) return band
  return 0
}

/** Counts one value (D291): right when the reviewer left it as read, an empty reading left empty included. */
function count(counts: Counts, value: ReviewedValue, threshold: number): void {
  const right = !value.corrected
  counts.reviewed++
  if (right) counts.right++
  if (!value.read) {
    if (value.corrected) counts.missed++
    return
  }
  counts.answered++
  if (right) counts.answeredRight++
  const band = counts.bands[bandOf(value.confidence)]!
  band.values++
  if (right) band.right++
  // D293: what needs_review (D284) would have let through: a value read at the threshold or above that breaks no sum.
  if (value.confidence >= threshold && !value.broken) {
    counts.unchecked.values++
    if (right) counts.unchecked.right++
  }
}

/** A share to 4 decimals; null of nothing. */
const share = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000)

function tally(counts: Counts): Tally {
  return {
    reviewed: counts.reviewed,
    right: counts.right,
    corrected: counts.reviewed - counts.right,
    answered: counts.answered,
    precision: share(counts.answeredRight, counts.answered),
    missed: counts.missed,
    bands: counts.bands.map((band, index) => ({
      from: BAND_EDGES[index]!,
      to: BAND_EDGES[index + 1]!,
      values: band.values,
      right: band.right,
      precision: share(band.right, band.values),
    })),
    unchecked: {
      values: counts.unchecked.values,
      right: counts.unchecked.right,
      share: share(counts.unchecked.values, counts.reviewed),
      precision: share(counts.unchecked.right, counts.unchecked.values),
    },
  }
}

const SINCE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2})))?$/

/** `since` as the ISO 8601 UTC timestamp jobs are stored with (D5), or undefined when it is no real date or time (D294). */
function sinceOf(raw: string): string | undefined {
  const parts = SINCE.exec(raw)
  if (!parts) return undefined
  const [, year, month, day, hour = '0', minute = '0', second = '0', , offsetHours = '0', offsetMinutes = '0'] = parts
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
  const realDay = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day)
  if (!realDay || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59 || Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined
  // Date.parse reads the zone (a date alone is midnight UTC) and the fraction past milliseconds, which the stored times do not have.
  return new Date(Date.parse(raw)).toISOString()
}

const THRESHOLD = /^(?:0|1)(?:\.\d+)?$|^\.\d+$/

/**
 * The account's accuracy (D290–D296) over its reviewed jobs that match the query. 400 for a
 * `since` or `threshold` that is no date or share; 404 for a schema that is not the account's and
 * a document type the catalog does not hold, as everywhere else.
 */
export async function accountAccuracy(database: Database, catalog: Catalog, accountId: string, query: AccuracyQuery): Promise<Accuracy> {
  const details: ErrorDetail[] = []
  const since = query.since === undefined ? undefined : sinceOf(query.since)
  if (query.since !== undefined && since === undefined)
    details.push({ path: 'query:/since', message: 'Expected a date (YYYY-MM-DD) or a date-time with its zone (2026-11-01T08:00:00Z)' })
  const asked = query.threshold === undefined ? undefined : THRESHOLD.test(query.threshold) ? Number(query.threshold) : Number.NaN
  if (asked !== undefined && !(asked >= 0 && asked <= 1)) details.push({ path: 'query:/threshold', message: 'Expected a number from 0 to 1' })
  if (details.length) throw errors.validation(details)

  const filter: ReviewedFilter = { since }
  let threshold = asked ?? DEFAULT_REVIEW_THRESHOLD
  if (query.schema_id !== undefined) {
    const schema = await getSchema(database, accountId, query.schema_id)
    filter.schemaId = schema.id
    threshold = asked ?? schema.review_threshold
  }
  if (query.document_type !== undefined) {
    const type = catalog.get(query.document_type)
    if (!type) throw unknownDocumentType(catalog, query.document_type)
    filter.documentType = type.slug
  }

  const byKey = new Map<string, Counts>()
  const total = newCounts()
  let jobs = 0
  for await (const values of reviewedValues(database, accountId, filter)) {
    jobs++
    for (const value of values) {
      let counts = byKey.get(value.key)
      if (!counts) byKey.set(value.key, (counts = newCounts()))
      count(counts, value, threshold)
      count(total, value, threshold)
    }
  }
  return { threshold, jobs, fields: [...byKey].map(([key, counts]) => ({ key, ...tally(counts) })), total: tally(total) }
}
