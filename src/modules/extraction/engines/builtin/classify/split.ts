/**
 * Where the documents of a file of several begin (D246, D247): page by page, what a person sees
 * for a new document (a title at the top, "page 1", a new document number, a change of type, a
 * total closed on the page before) against what says the document goes on ("page 2 of 3", the same
 * number, a sentence or a table carried over, "continued"). A blank page goes with the page before.
 * Works on the pages' text and word positions, never their images, so a bundle of hundreds of pages
 * costs its text only.
 */
import type { Classification, FoundDocument } from '../../../../catalog/classification'
import { fold } from '../../../../../lib/text'
import type { Compiled, PageReading } from './reading'
import { classifyReadings } from './score'
import { SPLIT } from './weights'

export function splitReadings(readings: readonly PageReading[], compiled: Compiled): FoundDocument[] {
  if (!readings.length) return []
  const alone = readings.map((reading) => classifyReadings([reading], compiled))
  const starts = [0]
  for (let index = 1; index < readings.length; index++) {
    const segment = readings.slice(starts.at(-1)!, index)
    const reasons = startReasons(compiled, segment, readings[index]!, classifyReadings(segment, compiled), alone[index]!, readings[index + 1])
    if (sum(reasons) > 0) starts.push(index)
  }
  return starts.map((start, order) => {
    const end = (starts[order + 1] ?? readings.length) - 1
    return { firstPage: start + 1, lastPage: end + 1, classification: classifyReadings(readings.slice(start, end + 1), compiled) }
  })
}

export const sum = (reasons: Record<string, number>) => Object.values(reasons).reduce((total, value) => total + value, 0)

/**
 * What speaks for (above zero) and against a new document starting at `page`, after the pages of
 * the document so far, by reason; `next` is the page after it, which tells a cover from a page that
 * trails its document.
 */
export function startReasons(
  compiled: Compiled,
  segment: readonly PageReading[],
  page: PageReading,
  segmentType: Classification,
  pageType: Classification,
  next?: PageReading,
): Record<string, number> {
  if (!page.hasText) return { blank: -Infinity }
  const previous = segment.at(-1)!
  const reasons: Record<string, number> = { bias: SPLIT.bias }
  const title = Math.max(0, ...page.topTitles)
  // The title of the page before again is a running head, not a new document's.
  if (title && page.titleLine !== previous.titleLine) reasons.title = SPLIT.title * title
  const number = page.pageNumber
  const before = previous.pageNumber
  if (number?.number === 1) reasons.pageOne = SPLIT.pageOne
  else if (number && before && before.number + 1 === number.number) reasons.pageNext = -SPLIT.pageNext
  // A first page often has no number; a "2" after it is its second.
  else if (number?.number === 2 && !before) reasons.pageNext = -SPLIT.pageNext / 2
  if (before?.of !== undefined) reasons.pagesLeft = before.number >= before.of ? SPLIT.lastPage : -SPLIT.pageNext
  let same = false
  let other = false
  for (const [owner, value] of page.numbers)
    for (const earlier of segment) {
      const seen = earlier.numbers.get(owner)
      if (seen === value) same = true
      else if (seen !== undefined) other = true
    }
  if (same) reasons.sameNumber = -SPLIT.sameNumber
  else if (other) reasons.newNumber = SPLIT.newNumber
  if (previous.signs.total) reasons.closed = SPLIT.closed * previous.signs.total
  if (previous.continued || page.continued) reasons.continued = -SPLIT.continued
  if (page.startsMidSentence) reasons.midSentence = -SPLIT.midSentence
  else if (previous.endsMidSentence) reasons.openSentence = -SPLIT.openSentence
  const stays = pageType.candidates.find((candidate) => candidate.documentType === segmentType.documentType)?.confidence ?? 0
  if (segmentType.documentType !== null && segmentType.confidence >= SPLIT.typeSure && pageType.documentType !== null && stays < SPLIT.typeDoubt)
    reasons.typeChange = SPLIT.typeChange
  if (page.header && previous.header) reasons.header = page.header === previous.header ? -SPLIT.sameHeader : SPLIT.newHeader
  // The same names and terms go on in a document's pages; another document shares few of its last pages' words.
  const recent = new Set(segment.slice(-SPLIT.recentPages).flatMap((earlier) => [...earlier.words]))
  const shared = overlap(recent, page.words)
  const enough = Math.min(recent.size, page.words.size) >= SPLIT.wordsToCompare
  if (enough && shared < SPLIT.unrelatedShare) reasons.unrelated = SPLIT.unrelated
  else if (shared > SPLIT.relatedShare) reasons.related = -SPLIT.related
  // A document of a type that closes a total, whose total has not come yet, goes on.
  const type = compiled.types.find((candidate) => candidate.slug === segmentType.documentType)
  if (type?.cues.signs.includes('total') && !segment.some((earlier) => earlier.signs.total)) reasons.unclosed = -SPLIT.unclosed
  if (segment.every((earlier) => earlier.lines.length <= SPLIT.coverLines)) reasons.cover = -SPLIT.cover
  // A page of a line or two opens a document only as its cover, its title the next page's; else it
  // trails the document before it ("QuickLinks", "[Signature page to the Agreement]").
  if (page.lines.length <= SPLIT.coverLines && !(next && isCover(page, next, segment[0]!))) reasons.trailing = -SPLIT.cover
  return reasons
}

/** A short page says more of the next page's title than of the document so far's; or as much, opening with a title. */
function isCover(page: PageReading, next: PageReading, first: PageReading): boolean {
  const ahead = likeness(page, next)
  const behind = likeness(page, first)
  return ahead > behind || (ahead === behind && ahead > 0 && page.titleLine !== '' && page.titleLine === lettersOf(page.lines[0]!.text))
}

const lettersOf = (text: string) => fold(text).replace(/[^\p{L}]+/gu, '')

/** How many of a short page's title words another page's title holds. */
function likeness(short: PageReading, other: PageReading): number {
  return [...short.titleWords].filter((word) => other.titleWords.has(word)).length
}

/** Shared words of two sets, as a share of the smaller's. */
function overlap(one: ReadonlySet<string>, other: ReadonlySet<string>): number {
  if (!one.size || !other.size) return 0
  let shared = 0
  for (const word of one) if (other.has(word)) shared++
  return shared / Math.min(one.size, other.size)
}
