/**
 * The anchors of a printed value (D262): the label before it on its row, the heading above it,
 * the nearest words printed once on its page, and a text value's own words — each with where the
 * value is relative to it, and which of the page's rows that print the same words it is.
 */
import type { ResolvedType } from '../../../lib/fields/types'
import type { Anchor } from './layout'
import { boxOf, isSkipped, occurrences } from './place'
import { type Box, isVariable, type Page, type Word } from './words'

/** Offsets to a hundredth of a unit: finer is noise, and each digit is stored. */
const round2 = (value: number) => Math.round(value * 100) / 100

/** Label words are further apart than this (character widths) only across columns. */
const LABEL_GAP = 2.5
/** The most words a label or heading anchor has. */
const MAX_ANCHOR_WORDS = 4
/** Landmarks kept per value. */
const LANDMARKS = 3

/**
 * The words before a value on its row that are its label: left of it, past the numbers and
 * currency marks between (a count, a rate, "RM"), the nearest words close together (numbers
 * among them skipped: "GST @6%" is the label "GST").
 */
export function labelRun(page: Page, value: readonly Word[]): Word[] {
  const first = value[0]!
  const row = page.words.filter((word) => word.line === first.line && word.box[2] <= first.box[0] + 0.5 && !value.includes(word)).reverse()
  const run: Word[] = []
  for (const word of row) {
    if (isSkipped(word.key)) continue
    if (run.length && run[run.length - 1]!.box[0] - word.box[2] > LABEL_GAP) break
    run.push(word)
    if (run.length >= MAX_ANCHOR_WORDS) break
  }
  return run.reverse()
}

/** The heading over a value: on the nearest of the three lines above, the words without digits over it. */
export function headingRun(page: Page, value: readonly Word[]): Word[] {
  const [x0, , x1] = boxOf(value)
  const lines = page.rows
  const top = Math.min(...value.map((word) => word.line))
  const above = [...lines.keys()].filter((line) => line < top).sort((a, b) => b - a)
  for (const line of above.slice(0, 3)) {
    const words = lines.get(line)!
    const over = words.filter((word) => word.box[2] >= x0 - 1 && word.box[0] <= x1 + 1)
    if (!over.length) continue
    if (over.some((word) => /\d/.test(word.key))) return []
    return over.filter((word) => !isSkipped(word.key)).slice(0, MAX_ANCHOR_WORDS)
  }
  return []
}

/**
 * Where a printed value is, relative to what stays put: its label, the heading above it and the
 * nearest words printed once on the page; a text value is found by its own words too.
 */
export function anchorsOf(page: Page, value: Word[], type: ResolvedType): Anchor[] {
  const box = boxOf(value)
  const { top, height } = page.extent
  const anchorOf = (kind: Anchor['kind'], words: Word[]): Anchor | undefined => {
    const keys = words.map((word) => word.key)
    const rows = occurrences(page, keys)
    const nth = rows.findIndex((row) => row[0] === words[0])
    if (nth < 0) return undefined
    const [x0, y0] = boxOf(words)
    return {
      kind,
      keys,
      offset: [box[0] - x0, box[1] - y0, box[2] - x0, box[3] - y0].map(round2) as Box,
      nth,
      of: rows.length,
      at: Math.round(((y0 - top) / height) * 1000) / 1000,
    }
  }
  const anchors: Anchor[] = []
  const used = new Set<Word>(value)
  if (type === 'text' || type === 'enum' || type === 'list') {
    const own = anchorOf(
      'self',
      value.filter((word) => word.line === value[0]!.line),
    )
    if (own) anchors.push(own)
  }
  const label = labelRun(page, value)
  const labelAnchor = label.length ? anchorOf('label', label) : undefined
  if (labelAnchor) anchors.push(labelAnchor)
  for (const word of label) used.add(word)
  const heading = headingRun(page, value)
  const headingAnchor = heading.length ? anchorOf('above', heading) : undefined
  if (headingAnchor) anchors.push(headingAnchor)
  for (const word of heading) used.add(word)
  const counts = new Map<string, number>()
  for (const word of page.words) counts.set(word.key, (counts.get(word.key) ?? 0) + 1)
  const centre = (b: Box) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] as const
  const [cx, cy] = centre(box)
  const landmarks = page.words
    .filter((word) => !used.has(word) && counts.get(word.key) === 1 && !isVariable(word.key) && (word.key.length >= 3 || /\d/.test(word.key)))
    .map((word) => ({ word, distance: Math.hypot(centre(word.box)[0] - cx, 2 * (centre(word.box)[1] - cy)) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, LANDMARKS)
  for (const { word } of landmarks) {
    const anchor = anchorOf('landmark', [word])
    if (anchor) anchors.push(anchor)
  }
  return anchors
}
