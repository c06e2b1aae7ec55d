/**
 * What tells one sender's documents from another's (D261): the sender's own printed words — its
 * name, address, registration and telephone numbers, the sentences of its footer — and not the
 * words every sender prints (labels, the lexicons' words) nor those that change from one document
 * to the next (amounts, dates, counts). A learned layout keeps the words of its first page's; a
 * document matches it when it prints most of them, above all those of its head (the letterhead's
 * first lines), which name the sender.
 */
import type { Fingerprint, Mark } from './layout'
import { sameKey } from './place'
import { isOwn, type Page } from './words'

/** Lines of a page's head: those that open it with words of the sender's own (its name, the next line or two). */
const HEAD_LINES = 3
/** A layout keeps at most this many words: enough to tell senders apart, little to store and to index (D263). */
export const MAX_MARKS = 48
/** A head word counts this many times a word further down. */
export const HEAD_WEIGHT = 2

/** The fingerprint of a document's first page (a sender's letterhead is there). */
export function fingerprintOf(pages: Page[], max = Number.POSITIVE_INFINITY): Fingerprint {
  const page = pages[0]
  if (!page) return { marks: [] }
  const marks: Mark[] = []
  const seen = new Set<string>()
  const headLines: number[] = []
  for (const word of page.words) {
    if (!isOwn(word.key) || seen.has(word.key)) continue
    if (headLines.length < HEAD_LINES && !headLines.includes(word.line)) headLines.push(word.line)
    seen.add(word.key)
    marks.push({ key: word.key, head: headLines.includes(word.line), ...(word.line === headLines[0] ? { name: true as const } : {}) })
    if (marks.length >= max) break
  }
  return { marks }
}

/** How much a mark weighs in a match: a word of the head says more of the sender than one further down. */
export function markWeight(mark: Mark): number {
  return mark.head ? HEAD_WEIGHT : BODY_WEIGHT
}

export const BODY_WEIGHT = 1

export interface Similarity {
  /** Share of the layout's weight the document prints, 0–1. */
  score: number
  /** Share of the layout's head the document prints, 0–1. */
  head: number
  /** Share of the words of its name line the document prints, 0–1. */
  name: number
}

/**
 * Whether a document is the sender's of a layout (D264): it prints a good part of the layout's
 * words and half its head — or, a branch of a chain with another address, the whole of its name
 * line, half its head and a quarter of the rest. Constants, which nothing on the page can check,
 * want more of it.
 */
export function matches(similarity: Similarity): boolean {
  if (similarity.head < MATCH.head) return false
  return similarity.score >= MATCH.score || (similarity.name === 1 && similarity.score >= MATCH.named)
}

export const MATCH = { score: 0.35, head: 0.5, named: 0.25 }
/** A constant is answered only on a closer match: it cannot be checked against the page (D264). */
export const CONSTANT_MATCH = { score: 0.6, head: 0.75 }

/**
 * How much of a layout's fingerprint a document printing these words prints: by weight, and of
 * its head and name line alone. With `misread`, a word of five letters or more counts with one
 * letter misread (an OCR reading of the same letterhead).
 */
export function similarity(layout: Fingerprint, document: ReadonlySet<string>, misread = false): Similarity {
  const lengths = misread ? byLength(document) : undefined
  const { marks } = layout
  return weigh(
    marks.length,
    (i) => placeOf(marks[i]!),
    (i) => document.has(marks[i]!.key) || (lengths !== undefined && misreadIn(marks[i]!.key, lengths)),
  )
}

/** Where a mark is printed: in the body, the head, or the head's name line. */
export const BODY = 0
export const HEAD = 1
export const NAME = 2

export function placeOf(mark: Mark): number {
  return mark.name ? NAME : mark.head ? HEAD : BODY
}

/** The similarity of `count` marks, each placed by `place` and printed or not by `printed`: for a fingerprint, and for the index's hashed marks. */
export function weigh(count: number, place: (i: number) => number, printed: (i: number) => boolean): Similarity {
  let total = 0
  let found = 0
  let head = 0
  let headFound = 0
  let name = 0
  let nameFound = 0
  for (let i = 0; i < count; i++) {
    const where = place(i)
    const weight = where === BODY ? BODY_WEIGHT : HEAD_WEIGHT
    total += weight
    if (where !== BODY) head++
    if (where === NAME) name++
    if (!printed(i)) continue
    found += weight
    if (where !== BODY) headFound++
    if (where === NAME) nameFound++
  }
  return { score: total ? found / total : 0, head: head ? headFound / head : 0, name: name ? nameFound / name : 0 }
}

function byLength(keys: ReadonlySet<string>): Map<number, string[]> {
  const lengths = new Map<number, string[]>()
  for (const key of keys) {
    const list = lengths.get(key.length)
    if (list) list.push(key)
    else lengths.set(key.length, [key])
  }
  return lengths
}

function misreadIn(key: string, lengths: Map<number, string[]>): boolean {
  if (key.length < 5) return false
  for (let length = key.length - 1; length <= key.length + 1; length++) for (const other of lengths.get(length) ?? []) if (sameKey(key, other)) return true
  return false
}
