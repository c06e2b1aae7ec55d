/**
 * Reading a document with a learned layout (D265): the layout that matches the document, if any,
 * reads each field it knows first — where its anchors say the value is, typed as the field; a
 * constant; no value — and the general reading answers every field the layout does not know or
 * where the learned place holds nothing of the field's type.
 */
import { conceptOf } from '../../../lib/fields/concepts'
import type { JobField } from '../../../lib/fields/model'
import type { ResolvedType } from '../../../lib/fields/types'
import { collapse } from '../../../lib/text'
import { type Answers, answerOf, answersOf, type FieldAnswer } from '../answers'
import { MIN_OCR_CONFIDENCE } from '../confidence'
import { normaliseValue } from '../normalise'
import { findAmounts } from '../normalise/amounts'
import { type DateOrder, dateOrderOf } from '../normalise/dates'
import type { DocumentText } from '../readers/types'
import { CONSTANT_MATCH, matches, type Similarity, similarity } from './fingerprint'
import type { Anchor, LayoutSource, LearnedLayout, LearnedSource, PrintedField } from './layout'
import { anchorOn, bboxOf, type Cell, cellsNear, editDistance, predictedBox, sameKey, textOf } from './place'
import { roundedAfter } from './rounding'
import { readTable } from './tables'
import { likenessLimit, spellings, squashed, typed } from './values'
import { type Box, keysOf, ownKeys, type Page, pagesOf, type Word } from './words'

/** How sure an answer read at a learned place is, by what found the place. */
const CONFIDENCE: Record<Anchor['kind'] | 'landmarks' | 'constant', number> = {
  self: 0.96,
  label: 0.95,
  above: 0.9,
  landmarks: 0.85,
  landmark: 0.72,
  constant: 0.9,
}

export interface LayoutMatch {
  layout: LearnedLayout
  similarity: Similarity
}

/**
 * The layout among `layouts` that a document printing these words (`ownKeys`) is the sender's of:
 * the closest that matches, or none. Words are compared as printed first; only when no layout
 * matches so are they compared with a letter misread.
 */
export function matchLayout(keys: ReadonlySet<string>, layouts: readonly LearnedLayout[]): LayoutMatch | undefined {
  return closest(keys, layouts, false) ?? closest(keys, layouts, true)
}

/**
 * Of an index's candidates, those whose layouts a source needs to fetch: the closest alone when
 * its words as printed already match, else all (a letter misread may make one match).
 */
export function toFetch<T extends Similarity>(candidates: readonly T[]): readonly T[] {
  const best = candidates[0]
  return best && matches(best) ? [best] : candidates
}

function closest(keys: ReadonlySet<string>, layouts: readonly LearnedLayout[], misread: boolean): LayoutMatch | undefined {
  let best: LayoutMatch | undefined
  for (const layout of layouts) {
    const found = similarity(layout.fingerprint, keys, misread)
    if (!matches(found)) continue
    if (
      !best ||
      found.score > best.similarity.score + 1e-9 ||
      (Math.abs(found.score - best.similarity.score) <= 1e-9 && layout.updatedAt > best.layout.updatedAt)
    )
      best = { layout, similarity: found }
  }
  return best
}

/**
 * The answers of a document with the learned layouts of its account: each field the matching
 * layout knows read with it, each other field (and each the layout finds nothing for) as `general` answered.
 */
export async function withLearnedLayouts(document: DocumentText, fields: readonly JobField[], general: Answers, source: LayoutSource): Promise<Answers> {
  let keys: Set<string> | undefined
  const words = () => (keys ??= ownKeys(document))
  const layouts = await source(words)
  const match = layouts.length ? matchLayout(words(), layouts) : undefined
  return match ? readWithLayout(pagesOf(document), fields, match, general) : general
}

export function readWithLayout(pages: Page[], fields: readonly JobField[], match: LayoutMatch, general: Answers): Answers {
  const { layout } = match
  const close = match.similarity.score >= CONSTANT_MATCH.score && match.similarity.head >= CONSTANT_MATCH.head
  let shown: { order: DateOrder } | undefined
  // The document's own order of day and month, judged once and only for a date that needs it.
  const order = () => (shown ??= { order: dateOrderOf(pages.map((page) => page.lines.join('\n')).join('\n')) }).order
  return answersOf(
    fields.map((field) => {
      const fallback = answerOf(general, field.key)
      const learned = Object.hasOwn(layout.fields, field.key) ? layout.fields[field.key]! : undefined
      // A field whose type changed since it was taught is read anew.
      if (!learned || learned.type !== field.type) return [field.key, fallback] as const
      const source: LearnedSource = { layout: layout.id, job: learned.job, how: learned.how }
      switch (learned.how) {
        case 'constant':
          return [
            field.key,
            close || namesSender(fallback.value, layout) || spelledAs(fallback.value, learned.value)
              ? { value: learned.value, confidence: CONFIDENCE.constant, page: null, snippet: null, bbox: null, learned: source }
              : fallback,
          ] as const
        case 'absent':
          return [field.key, close ? { value: null, confidence: 0, page: null, snippet: null, bbox: null, learned: source } : fallback] as const
        case 'table': {
          const table = readTable(pages, field, learned)
          return [field.key, table ? { ...table, learned: source } : fallback] as const
        }
        case 'printed': {
          // A field the general reading got right is left to it where it answers, but for the
          // reviewed text found again at its place: its spelling as the person confirmed it (D265).
          const generalFirst = !learned.corrected && fallback.value !== null && fallback.value !== undefined
          if (generalFirst && !TEXT_TYPES.has(field.type)) {
            // Its amount, too, gives way to a rounded one below it that the taught document did not print (D361).
            const rounded = field.type === 'amount' && !learned.unrounded ? roundedGeneral(pages, fallback) : undefined
            return [field.key, rounded ? { ...rounded, learned: source } : fallback] as const
          }
          const read = readPrinted(pages, field, learned, learned.dateOrder ?? (field.type === 'date' ? order() : undefined))
          const taken = read && (!generalFirst || JSON.stringify(read.value) === JSON.stringify(learned.value))
          if (taken) return [field.key, { ...read, learned: source }] as const
          // The sender's own name, read by the general reading with a letter or two wrong, is the reviewed one (D362).
          const issuer = conceptOf(field.key, field.label)?.role === 'issuer' && spelledAs(fallback.value, learned.value)
          return [field.key, issuer ? { ...fallback, value: learned.value, learned: source } : fallback] as const
        }
      }
    }),
  )
}

/**
 * Whether the general reading's value names the layout's sender: it prints every word of the
 * sender's own on the name line the layout was taught from (a letter misread forgiven). A match
 * too loose for a constant (D264) is then the sender's by its own name, and what the person
 * always writes for it holds (D362).
 */
function namesSender(value: unknown, layout: LearnedLayout): boolean {
  const names = layout.fingerprint.marks.filter((mark) => mark.name).map((mark) => mark.key)
  if (!names.length || typeof value !== 'string') return false
  const keys = keysOf(value)
  return names.every((name) => keys.some((key) => sameKey(key, name)))
}

/**
 * Whether the general reading's text is the constant misread: its letters and digits within
 * `likenessLimit` of the constant's, with the same digits, as a reviewed text found again at its place
 * is judged (D265, D269). What the person wrote holds then on any match (D362).
 */
function spelledAs(read: unknown, constant: unknown): boolean {
  if (typeof read !== 'string' || typeof constant !== 'string') return false
  const [a, b] = [squashed(read), squashed(constant)]
  const limit = likenessLimit(b)
  return b.length > 0 && digitsOf(a) === digitsOf(b) && editDistance(a, b, limit) <= limit
}

/** Types whose reviewed value is found again by its words (and answered as reviewed when they spell it). */
const TEXT_TYPES = new Set<ResolvedType>(['text', 'enum', 'list'])

interface Reading {
  value: unknown
  words: Word[]
}

const ORDER: Record<Anchor['kind'], number> = { self: 0, label: 1, above: 2, landmark: 3 }

/** A printed field read where its anchors place it: the surest anchor found that points at a value of the field's type. */
function readPrinted(pages: Page[], field: JobField, learned: PrintedField, order: DateOrder): FieldAnswer | undefined {
  const page = pages[learned.page]
  if (!page) return undefined
  const lines = page.rows
  const votes = new Map<string, { reading: Reading; count: number }>()
  let landmarks = 0
  for (const anchor of [...learned.anchors].sort((a, b) => ORDER[a.kind] - ORDER[b.kind])) {
    const at = anchorOn(page, anchor)
    if (!at) continue
    // A text's own words found again: the reviewed text, however its letters were read this time.
    if (anchor.kind === 'self') {
      if (sameDigits(at, learned.value)) return answer(page, learned, { value: learned.value, words: at }, CONFIDENCE.self)
      continue
    }
    const box = predictedBox(at, anchor)
    let cells = cellsNear(lines, box, new Set(at))
    // A label's value is on its row, after it.
    if (anchor.kind === 'label') cells = cells.filter((cell) => cell.words[0]!.line === at[0]!.line && cell.box[0] >= at[at.length - 1]!.box[2] - 0.5)
    const reading = readCells(page, cells, field, learned, box, order, anchor.kind)
    if (!reading) continue
    if (anchor.kind !== 'landmark') return answer(page, learned, reading, CONFIDENCE[anchor.kind])
    landmarks++
    const key = JSON.stringify(reading.value)
    const vote = votes.get(key)
    votes.set(key, { reading, count: (vote?.count ?? 0) + 1 })
  }
  // Landmarks alone: two that agree, or the only one found.
  const agreed = [...votes.values()].sort((a, b) => b.count - a.count)[0]
  if (!agreed) return undefined
  if (agreed.count >= 2) return answer(page, learned, agreed.reading, CONFIDENCE.landmarks)
  return landmarks === 1 ? answer(page, learned, agreed.reading, CONFIDENCE.landmark) : undefined
}

/**
 * The answer of a reading at a learned place; an amount there gives way to the rounded amount a
 * rounding line below it leads to, unless the person chose the unrounded one (D361).
 */
function answer(page: Page, learned: PrintedField, found: Reading, confidence: number): FieldAnswer {
  const reading = (learned.type === 'amount' && !learned.unrounded && roundedAfter(page, Number(found.value), found.words)) || found
  return answerAt(page, learned.page, reading, confidence)
}

function answerAt(page: Page, index: number, reading: Reading, confidence: number): FieldAnswer {
  const first = reading.words[0]!
  return {
    value: reading.value,
    confidence,
    page: index + 1,
    snippet: collapse(page.lines[first.line] ?? ''),
    line: first.line,
    bbox: bboxOf(page, reading.words),
  }
}

/** The rounded amount below the general reading's amount, on the line it says it read it from (D361). */
function roundedGeneral(pages: Page[], general: FieldAnswer): FieldAnswer | undefined {
  const page = general.page === null ? undefined : pages[general.page - 1]
  const value = Number(general.value)
  if (!page || general.line === undefined || !Number.isFinite(value)) return undefined
  const printed = findAmounts(page.lines[general.line] ?? '').find((amount) => Math.abs(amount.number - value) < 0.005)
  const words = printed && (page.rows.get(general.line) ?? []).filter((word) => word.start < printed.end && word.end > printed.start)
  const rounded = words?.length ? roundedAfter(page, value, words) : undefined
  return rounded && answerAt(page, general.page! - 1, rounded, general.confidence)
}

/**
 * The value the cells at a learned place hold: for a text, the reviewed text when words there spell
 * it (a letter or two misread), else — found by a label, a heading or its own words — the words
 * within the place; for anything else, the nearest cell that reads as the field's type. Words read
 * too poorly are no reading.
 */
function readCells(page: Page, cells: Cell[], field: JobField, learned: PrintedField, box: Box, order: DateOrder, kind: Anchor['kind']): Reading | undefined {
  if (TEXT_TYPES.has(field.type)) {
    const near = cells.flatMap((cell) => cell.words).sort((a, b) => a.line - b.line || a.box[0] - b.box[0])
    const spelled = spellings(near, textOfValue(learned.value))[0]
    if (spelled && sameDigits(spelled.words, learned.value)) return { value: learned.value, words: spelled.words }
    // The sender's own name is the same on all its documents: other words at its place are not it (D265).
    if (kind === 'landmark' || conceptOf(field.key, field.label)?.role === 'issuer') return undefined
    const words = near.filter((word) => word.box[0] < box[2] + 1 && word.box[2] > box[0] - 1)
    if (!words.length || !clear(words)) return undefined
    const value = normaliseValue(field, textOf(page, words))
    return value === null ? undefined : { value, words }
  }
  for (const cell of cells) {
    const value = typed(field, textOf(page, cell.words), order)
    if (value !== null && clear(cell.words)) return { value, words: cell.words }
  }
  return undefined
}

const textOfValue = (value: unknown): string => (Array.isArray(value) ? value.join(' ') : String(value))
const digitsOf = (text: string): string => text.replace(/\D+/g, '')

/**
 * Whether words that spell a reviewed text print its digits: a text that differs from it in a
 * digit is another value (the next document's number), not the reviewed one misread (D265).
 */
function sameDigits(words: readonly Word[], value: unknown): boolean {
  return digitsOf(words.map((word) => word.key).join('')) === digitsOf(squashed(textOfValue(value)))
}

function clear(words: readonly Word[]): boolean {
  return Math.min(...words.map((word) => word.confidence)) >= MIN_OCR_CONFIDENCE
}
