/**
 * Learning a sender's layout from one reviewed document (D260–D264): the sender's fingerprint, and
 * for each reviewed field where its value is printed — relative to the label before it on its row,
 * the heading above it and the nearest words printed once — or that it is a constant of the
 * sender (reviewed but not printed) or has no value. A review of a document that was read with a
 * layout updates that layout: what it teaches replaces what the layout held for those fields.
 */
import { conceptOf } from '../../../lib/fields/concepts'
import type { JobField } from '../../../lib/fields/model'
import type { ResolvedType } from '../../../lib/fields/types'
import { conceptLabels } from '../../../lib/lexicon'
import type { BoundingBox } from '../../../lib/fields/model'
import { normaliseValue } from '../normalise'
import type { DocumentText } from '../readers/types'
import { anchorsOf } from './anchors'
import { fingerprintOf, MAX_MARKS, similarity } from './fingerprint'
import { type Fingerprint, LAYOUT_VERSION, type LearnedField, type LearnedLayout } from './layout'
import { bboxOf } from './place'
import { roundedAfter } from './rounding'
import { learnTable } from './tables'
import { type Printing, printings, squashed } from './values'
import { type Page, pagesOf, type Word } from './words'

/** What the engine answered for a field, as the job keeps it: its page and box say which of several printings it read. */
export interface ReadAnswer {
  value: unknown
  page: number | null
  bbox?: BoundingBox | null
}

export interface Review {
  /** The reviewed job: answers read with what it teaches name it. */
  job: string
  document: DocumentText
  fields: readonly JobField[]
  /**
   * The reviewed values by key, typed as their fields: a value teaches where it is printed (or that
   * the sender always has it), null that the sender's documents have none; a key left out teaches nothing.
   */
  values: Record<string, unknown>
  /** What the engine answered, by key. */
  read?: Record<string, ReadAnswer>
}

/** A layout a review updates must still be the same sender's: this share of its fingerprint printed (D264). */
const SAME_SENDER = 0.5
/** A fingerprint kept to the words two documents share keeps at least this many, or the newer document's are kept. */
const MIN_COMMON_MARKS = 8

/**
 * What one review teaches, before it is laid over the layout its job was read with: the document's
 * fingerprint, and per reviewed field what it learned of it — or undefined, when the review says it
 * is not there or it cannot be placed. The costly part of learning, kept apart so that a review
 * learns it outside the transaction that reads and updates the layout (D360).
 */
export interface Lesson {
  fingerprint: Fingerprint
  fields: Map<string, LearnedField | undefined>
}

export function lessonOf(review: Review): Lesson {
  const pages = pagesOf(review.document)
  const fields = new Map<string, LearnedField | undefined>()
  for (const field of review.fields)
    if (Object.hasOwn(review.values, field.key)) fields.set(field.key, learnField(pages, field, review.values[field.key], review.job, review.read?.[field.key]))
  return { fingerprint: fingerprintOf(pages, MAX_MARKS), fields }
}

/**
 * The layout a lesson teaches: `into` (the layout the job was read with) updated when the
 * document is still its sender's, else a new one with the id given. Fields the review does not
 * name keep what `into` taught of them.
 */
export function applyLesson(lesson: Lesson, options: { into?: LearnedLayout; id: string; now: string }): LearnedLayout {
  const { fingerprint } = lesson
  const keys = new Set(fingerprint.marks.map((mark) => mark.key))
  const into = options.into && similarity(options.into.fingerprint, keys).score >= SAME_SENDER ? options.into : undefined
  const fields: Record<string, LearnedField> = { ...(into?.fields ?? {}) }
  for (const [key, learned] of lesson.fields) {
    if (learned) fields[key] = learned
    // What the review says is not there, or cannot be placed, the layout no longer claims to know.
    else delete fields[key]
  }
  return {
    id: into?.id ?? options.id,
    version: LAYOUT_VERSION,
    fingerprint: into ? keepCommon(into.fingerprint, fingerprint) : fingerprint,
    fields,
    createdAt: into?.createdAt ?? options.now,
    updatedAt: options.now,
  }
}

/** The layout a review teaches (`lessonOf` laid over `into` by `applyLesson`). */
export function learnLayout(review: Review, options: { into?: LearnedLayout; id: string; now: string }): LearnedLayout {
  return applyLesson(lessonOf(review), options)
}

/** The words both documents print are the sender's; the rest were one document's. */
function keepCommon(older: Fingerprint, newer: Fingerprint): Fingerprint {
  const keys = new Set(newer.marks.map((mark) => mark.key))
  const common = older.marks.filter((mark) => keys.has(mark.key))
  return common.length >= MIN_COMMON_MARKS ? { marks: common } : newer
}

/** Types a sender's documents may always have the same value of: its name, its currency, a yes or no. */
const CONSTANT_TYPES = new Set<ResolvedType>(['text', 'enum', 'currency', 'boolean', 'list'])

function learnField(pages: Page[], field: JobField, raw: unknown, job: string, read: ReadAnswer | undefined): LearnedField | undefined {
  if (raw === null) return { how: 'absent', type: field.type, job }
  if (field.type === 'table') return learnTable(pages, field, raw, job)
  const value = normaliseValue(field, raw)
  if (value === null) return undefined
  const constant = CONSTANT_TYPES.has(field.type) ? ({ how: 'constant', type: field.type, job, value } as const) : undefined
  const found = printings(pages, field.type, value)
  // A date or an amount not printed is that document's alone, not the sender's (D263).
  if (!found.length) return constant
  const chosen = choose(pages, found, field, read)
  const anchors = anchorsOf(pages[chosen.page]!, chosen.words, field.type)
  if (!anchors.length) return constant
  const corrected = !read || JSON.stringify(normaliseValue(field, read.value)) !== JSON.stringify(value)
  const unrounded = field.type === 'amount' && roundedAfter(pages[chosen.page]!, Number(value), chosen.words) !== undefined
  return {
    how: 'printed',
    type: field.type,
    job,
    value,
    page: chosen.page,
    anchors,
    corrected,
    ...(chosen.order ? { dateOrder: chosen.order } : {}),
    ...(unrounded ? { unrounded } : {}),
  }
}

/**
 * The printing a layout learns: the one the engine read when it read the reviewed value, else
 * one whose label names the field, else for an amount the lowest (a receipt's last total is the
 * one paid) and for anything else the first.
 */
function choose(pages: Page[], found: Printing[], field: JobField, read: ReadAnswer | undefined): Printing {
  const bbox = read?.bbox
  if (bbox && read.page !== null) {
    const engine = found.find((printing) => printing.page === read.page! - 1 && overlaps(bboxOf(pages[printing.page]!, printing.words), bbox))
    if (engine) return engine
  }
  const labels = fieldLabels(field)
  const named = found.filter((printing) => {
    const label = labelOf(pages[printing.page]!, printing.words)
    return labels.some((wanted) => label.startsWith(wanted))
  })
  const pool = named.length ? named : found
  if (field.type === 'amount' || field.type === 'number')
    return pool.reduce((low, printing) => (printing.words[0]!.box[1] > low.words[0]!.box[1] ? printing : low))
  return pool[0]!
}

/**
 * A value's label, its letters and digits folded: the words before it on its row, or — a value
 * printed under its label ("Total" over "5.00") — those of the line above.
 */
function labelOf(page: Page, value: readonly Word[]): string {
  const first = value[0]!
  const before = page.words.filter((word) => word.line === first.line && word.box[2] <= first.box[0] + 0.5 && !value.includes(word))
  const above = Math.max(-1, ...page.words.filter((word) => word.line < first.line).map((word) => word.line))
  const words = before.length ? before : page.words.filter((word) => word.line === above)
  return words.map((word) => word.key).join('')
}

/** A field's printed labels, folded to letters and digits: its key, label and aliases, and its concept's labels. */
function fieldLabels(field: JobField): string[] {
  const concept = conceptOf(field.key, field.label)
  const labels = [field.key.replace(/_/g, ' '), field.label, ...(field.aliases ?? []), ...(concept ? conceptLabels(concept.id) : [])]
  return [...new Set(labels.map(squashed).filter((label) => label.length >= 3))]
}

function overlaps(box: BoundingBox | null, other: BoundingBox): boolean {
  if (!box) return false
  return box.left < other.left + other.width && box.left + box.width > other.left && box.top < other.top + other.height && box.top + box.height > other.top
}
