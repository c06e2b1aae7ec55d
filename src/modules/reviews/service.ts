/**
 * Reviews of jobs and the layouts they teach (issue 32). A review sets a succeeded job's values
 * (D271), is kept, and teaches the account a layout of the document's sender (D260–D264), stored
 * here with its index (D270); the job runner reads the account's next documents with the layouts
 * they match (D274). Nothing here reaches another account: every query names the account.
 */
import type { Database } from '../../db/database'
import type { Part, Queries } from '../../db/dialect'
import { type ErrorDetail, errors } from '../../http/errors'
import type { FieldMeta } from '../../lib/fields/model'
import { isIdOf, newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { jobToReview, recordReview } from '../extraction/service'
import { markWeight } from '../extraction/learning/fingerprint'
import { hashKey } from '../extraction/learning/layout-index'
import { applyLesson, type Lesson, lessonOf, type ReadAnswer } from '../extraction/learning/learn'
import type { DocumentText } from '../extraction/readers/types'
import type { Job } from '../extraction/model'
import { queueJobEvent } from '../webhooks/service'
import { parseLayout } from './layout-cache'
import type { Layout } from './model'
import { type LayoutRow, reviewsRepository } from './repository'
import { checkValue } from './values'
import { pointerSegment } from '../../lib/text'

/**
 * Reviews one of the account's succeeded jobs (D271): each listed key takes its value, each other
 * key is confirmed as the engine read it. `result` holds the reviewed values; `fields_meta` keeps
 * what the engine read (`read_value`, and its confidence and place) and says which values were
 * `corrected`. The review is kept, replaces an earlier one in the job, teaches the sender's layout,
 * and is told to webhooks as `job.reviewed` (D277), all in one transaction.
 */
export async function reviewJob(database: Database, accountId: string, jobId: string, values: Record<string, unknown>): Promise<Job> {
  const target = await jobToReview(database, accountId, jobId)
  const byKey = new Map(target.fields.map((field) => [field.key, field]))
  const details: ErrorDetail[] = []
  const given = new Map<string, unknown>()
  for (const [key, raw] of Object.entries(values)) {
    const field = byKey.get(key)
    const path = `/fields/${pointerSegment(key)}`
    if (!field) {
      details.push({ path, message: `Unknown field: the job's fields are ${[...byKey.keys()].join(', ')}` })
      continue
    }
    const checked = checkValue(field, raw, path)
    if (checked.ok) given.set(key, checked.value)
    else details.push(...checked.details)
  }
  if (details.length) throw errors.validation(details)

  const result: Record<string, unknown> = {}
  const fieldsMeta: Record<string, FieldMeta> = {}
  const read: Record<string, ReadAnswer> = {}
  const taught: Record<string, unknown> = {}
  const corrected: string[] = []
  for (const field of target.fields) {
    const { corrected: _before, read_value: readBefore, ...engine } = target.fieldsMeta[field.key] ?? { confidence: 0, page: null, snippet: null }
    // What the engine read: before any review, the job's value; after one, what that review kept of it.
    const readValue = target.fieldsMeta[field.key] && 'read_value' in target.fieldsMeta[field.key]! ? (readBefore ?? null) : (target.result[field.key] ?? null)
    const listed = given.has(field.key)
    const value = listed ? given.get(field.key) : readValue
    const changed = listed && JSON.stringify(value) !== JSON.stringify(readValue)
    if (changed) corrected.push(field.key)
    result[field.key] = value
    fieldsMeta[field.key] = { ...engine, bbox: engine.bbox ?? null, needs_review: false, corrected: changed, read_value: readValue }
    read[field.key] = { value: readValue, page: engine.page ?? null, bbox: engine.bbox ?? null }
    // A value the reviewer gave, or one the engine read and the reviewer let stand, teaches where it is printed;
    // a key left out that the engine found nothing for teaches nothing (D273).
    if (listed || readValue !== null) taught[field.key] = value
  }

  const now = nowIso()
  // What the review teaches is learned before the transaction; the layout it updates is read inside it (D360).
  const lesson = target.reading ? lessonOf({ job: jobId, document: target.reading as DocumentText, fields: target.fields, values: taught, read }) : undefined
  const readWith = Object.values(target.fieldsMeta).find((meta) => meta.learned)?.learned?.layout
  const repository = reviewsRepository(database)
  const job = await database.transaction(function* (tx) {
    const job = yield* recordReview(database, tx, accountId, jobId, { result, fieldsMeta, needsReview: false, at: now })
    if (!job) return undefined
    yield* repository.insertReview(tx, { accountId, jobId, values: result, corrected, createdAt: now })
    if (lesson) yield* learn(tx, repository, { accountId, jobId, lesson, readWith, now })
    yield* queueJobEvent(database, tx, { id: jobId, accountId, status: job.status, completedAt: job.completed_at, wire: job, reviewed: now })
    return job
  })
  // Deleted between the read and the review.
  if (!job) throw errors.notFound('Job')
  return job
}

/**
 * Lays what a review teaches over the layout the job was read with (D260–D264, D273), read and
 * held in the review's transaction (D360): two reviews of one sender's documents at once take
 * turns (PostgreSQL's row lock; SQLite's immediate transaction), and the second updates what the
 * first wrote, so neither one's change is lost. A new layout when the job was read with none, or
 * the document is no longer its sender's; none when the review places nothing.
 */
function* learn(
  tx: Queries,
  repository: ReturnType<typeof reviewsRepository>,
  review: { accountId: string; jobId: string; lesson: Lesson; readWith: string | undefined; now: string },
): Part<void> {
  const { accountId, jobId, lesson, readWith, now } = review
  const row = readWith ? yield* repository.locked(tx, accountId, readWith) : undefined
  const into = row ? parseLayout(row.body) : undefined
  const layout = applyLesson(lesson, { into, id: newId('lay'), now })
  if (!layout.fingerprint.marks.length || (!into && !Object.keys(layout.fields).length)) return
  yield* repository.save(tx, {
    id: layout.id,
    accountId,
    jobId,
    body: JSON.stringify(layout),
    marks: layout.fingerprint.marks.map((mark) => ({ word: hashKey(mark.key) | 0, weight: markWeight(mark) })),
    createdAt: layout.createdAt,
    updatedAt: layout.updatedAt,
  })
}

function toWire(row: LayoutRow): Layout {
  // A layout of an older LAYOUT_VERSION is listed (so it can be forgotten), without what it no longer says.
  const layout = parseLayout(row.body)
  return {
    id: row.id,
    job_id: row.jobId,
    sender: (layout?.fingerprint.marks ?? [])
      .filter((mark) => mark.name)
      .map((mark) => mark.key)
      .join(' '),
    fields: Object.fromEntries(Object.entries(layout?.fields ?? {}).map(([key, field]) => [key, { how: field.how, job_id: field.job }])),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

/** The account's learned layouts, newest first, with a cursor (as jobs are listed, D21). */
export async function listLayouts(
  database: Database,
  accountId: string,
  limit: number,
  startingAfter?: string,
): Promise<{ layouts: Layout[]; has_more: boolean }> {
  const repository = reviewsRepository(database)
  let after: LayoutRow | undefined
  if (startingAfter !== undefined) {
    after = isIdOf('lay', startingAfter) ? await repository.find(accountId, startingAfter) : undefined
    if (!after) throw errors.validation([{ path: 'query:/starting_after', message: 'Expected the ID of one of your layouts' }])
  }
  const rows = await repository.list(accountId, limit + 1, after)
  return { layouts: rows.slice(0, limit).map(toWire), has_more: rows.length > limit }
}

/** Forgets one of the account's layouts (D275): no later document is read with it; 404 when it is not the account's. */
export async function deleteLayout(database: Database, accountId: string, id: string): Promise<void> {
  if (!isIdOf('lay', id) || !(await reviewsRepository(database).remove(accountId, id))) throw errors.notFound('Layout')
}
