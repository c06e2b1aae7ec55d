/**
 * What each page of a document shows of the catalog's types (D243): the titles it carries and
 * where, the labels of the types' fields it prints (found as the engine finds labels, in every
 * lexicon language), the phrases of their cues, and the signs of its build; and for splitting, its
 * page number, the numbers its document is known by, its letterhead, and whether it closes.
 * Read from text and word positions only, never from the page's image (D246).
 */
import type { ClassifiableType } from '../../../../catalog/classification'
import { conceptOf } from '../../../../../lib/fields/concepts'
import { conceptLabels, lexiconWords, phrases } from '../../../../../lib/lexicon'
import { fold, isLetterOrDigit, squash, words } from '../../../../../lib/text'
import type { DocumentText } from '../../../readers/types'
import { buildDoc, type Line } from '../document'
import { candidatesFor, findLabels, indexHits, type LabelEntry, type LabelHit, squashKeepingMarks } from '../labels'
import { pageSigns, type SignStrengths } from './signs'
import { TITLE } from './weights'

/** A title or phrase of a type's cues, folded for matching. */
interface CueEntry {
  type: number
  title: boolean
  squashed: string
  /** A `*` at its start or end: it may be the end or the start of a longer word. */
  joinBefore: boolean
  joinAfter: boolean
  /** 1 over the number of types that share it. */
  weight: number
}

/** The catalog's types made ready for reading, once per catalog. */
export interface Compiled {
  types: readonly ClassifiableType[]
  cuesByStart: Map<string, CueEntry[]>
  labels: LabelEntry[]
  /** Per folded label, 1 over the number of types whose fields print it. */
  labelWeights: Map<string, number>
  /** Label owners (`type/key`) of the fields that number a document: its invoice, order or statement number. */
  numberOwners: Set<string>
}

const COMPILED = new WeakMap<readonly ClassifiableType[], Compiled>()

export function compile(types: readonly ClassifiableType[]): Compiled {
  const cached = COMPILED.get(types)
  if (cached) return cached
  const compiled = { types, cuesByStart: compileCues(types), ...compileLabels(types) }
  COMPILED.set(types, compiled)
  return compiled
}

const owner = (type: number, key: string) => `${type}/${key}`
/** The owner of the number printed after a type's title ("Rechnung Nr. 4711"). */
const titleOwner = (type: number) => `${type}/#title`
export const typeOfOwner = (owner: string) => Number(owner.slice(0, owner.indexOf('/')))

function compileCues(types: readonly ClassifiableType[]): Map<string, CueEntry[]> {
  const entries: CueEntry[] = []
  const sharedBy = new Map<string, Set<number>>()
  types.forEach((type, index) => {
    for (const [title, list] of [
      [true, type.cues.titles],
      [false, type.cues.phrases],
    ] as const) {
      for (const word of list) {
        const squashed = squash(word.replace(/^\*|\*$/g, '')).chars
        if (squashed.length < 2) continue
        const joinBefore = word.startsWith('*')
        const joinAfter = word.endsWith('*')
        const id = `${title}\u0000${squashed}`
        if (
          entries.some(
            (entry) =>
              entry.type === index && entry.title === title && entry.squashed === squashed && entry.joinBefore === joinBefore && entry.joinAfter === joinAfter,
          )
        )
          continue
        sharedBy.set(id, (sharedBy.get(id) ?? new Set()).add(index))
        entries.push({ type: index, title, squashed, joinBefore, joinAfter, weight: 1 })
      }
    }
  })
  const byStart = new Map<string, CueEntry[]>()
  for (const entry of entries) {
    entry.weight = 1 / sharedBy.get(`${entry.title}\u0000${entry.squashed}`)!.size
    const start = entry.squashed.slice(0, 2)
    byStart.set(start, [...(byStart.get(start) ?? []), entry])
  }
  return byStart
}

/** Words of a field's key that say it numbers something. */
const NUMBER_KEY = /(?:^|_)(?:number|no|nr|num|id)$/

function compileLabels(types: readonly ClassifiableType[]): Pick<Compiled, 'labels' | 'labelWeights' | 'numberOwners'> {
  const labels: LabelEntry[] = []
  const seen = new Set<string>()
  const typesOf = new Map<string, Set<number>>()
  const numberOwners = new Set<string>()
  const add = (squashed: string, type: number, key: string) => {
    if (squashed.length < 2 || seen.has(`${type}/${key}\u0000${squashed}`)) return
    seen.add(`${type}/${key}\u0000${squashed}`)
    labels.push({ squashed, owner: owner(type, key) })
    typesOf.set(squashed, (typesOf.get(squashed) ?? new Set()).add(type))
  }
  types.forEach((type, index) => {
    const typeWords = new Set(words(`${type.slug} ${type.label}`).filter((word) => word.length >= CONTENT_WORD))
    for (const field of type.fields) {
      // The engine's own labels of a field (builtin/index.ts): its label, key and aliases, and its concept's in every
      // lexicon language. Not the labels its words make with the vocabulary: tens of thousands for a catalog, they
      // would make reading a page fifty times slower, and the types' cues name them in every language (D243).
      const printed = [field.label, field.key.replace(/_/g, ' '), ...(field.aliases ?? [])]
      const concept = conceptOf(field.key, field.label)
      if (concept && concept.kind === field.type) printed.push(...conceptLabels(concept.id))
      for (const label of printed) add(squashKeepingMarks(label).chars, index, field.key)
      const named = words([field.key, field.label, ...(field.aliases ?? [])].join(' '))
      if (field.type === 'text' && NUMBER_KEY.test(field.key) && named.some((word) => typeWords.has(word))) numberOwners.add(owner(index, field.key))
    }
  })
  const labelWeights = new Map([...typesOf].map(([squashed, owners]) => [squashed, 1 / owners.size]))
  return { labels, labelWeights, numberOwners }
}

/** A title of a type seen on a page: its worth there, by form and place (the page's own factor comes later). */
export interface PageReading {
  /** 1-based. */
  page: number
  lines: Line[]
  hasText: boolean
  /** Per type, the worth of its best title on the page. */
  titles: number[]
  /** Per type, the worth of its best title among the page's first lines, when it stands alone, heads its line or has its number. */
  topTitles: number[]
  /** Per type, its fields whose labels the page prints, each with the label's weight. */
  fields: Map<string, number>[]
  /** Per type, its phrases the page holds, each with its weight. */
  phrases: Map<string, number>[]
  signs: SignStrengths
  /** "Page 2 of 3", "Seite 2", "- 2 -": the page's number, and the document's pages when printed. */
  pageNumber?: { number: number; of?: number }
  /** Per number owner (`type/key`), the number the page prints after its label. */
  numbers: Map<string, string>
  /** The page's first lines, folded to letters: its letterhead. */
  header: string
  /** The words of the line that holds the page's best title among its first lines, else of its first lines. */
  titleWords: Set<string>
  /** That line's letters, folded; empty when the page has no title among its first lines. */
  titleLine: string
  /** Whether the page says its document goes on ("continued", "Übertrag"). */
  continued: boolean
  /** The page's words of five letters or more, folded: what it speaks of. */
  words: Set<string>
  /** The page's text starts in the middle of a sentence, or its last line leaves one open. */
  startsMidSentence: boolean
  endsMidSentence: boolean
}

/** Reads every page of a document, or its first `pages`. */
export function readPages(document: DocumentText, compiled: Compiled, pages = document.pages.length): PageReading[] {
  const doc = buildDoc({ pages: document.pages.slice(0, pages) })
  const hits = findLabels(doc, compiled.labels)
  const hitsByLine = indexHits(hits)
  const byPage = new Map<number, Line[]>()
  for (const line of doc.lines) byPage.set(line.page, [...(byPage.get(line.page) ?? []), line])
  return document.pages.slice(0, pages).map((_, index) => {
    const lines = byPage.get(index + 1) ?? []
    return readPage(index + 1, lines, compiled, hitsByLine, doc)
  })
}

/** "No.", "Nr.", "#": a number mark, a digit right after it or not. */
const NUMBER_MARKS = phrases(lexiconWords('number_marks'), true)
/** Where what follows a title's number mark starts, if a number mark (and a dot, spaces) opens the text; 0 when none does. */
function afterNumberMark(text: string): number {
  const start = text.length - text.trimStart().length
  const end = text[start] === '#' ? start + 1 : NUMBER_MARKS.at(text, start)?.end
  if (end === undefined) return 0
  return end + (/^\.?\s*/.exec(text.slice(end))?.[0].length ?? 0)
}
/** A title with a colon after it, with or without a number mark: a label ("Bestellung: B12", "Invoice No.: 7"). */
const COLON_AFTER = /^\s*[:：]/
/** A title with a number after it ("Rechnung Nr. 4711", "Invoice #123"): the document's title line, and its number. */
const NUMBER_AFTER = /^([\p{L}\d][\p{L}\d/._-]*\d[\p{L}\d/._-]*)/u
/** The number a title's number mark gives it, if one follows the title. */
function titleNumber(after: string): string | undefined {
  const start = afterNumberMark(after)
  return start > 0 ? NUMBER_AFTER.exec(after.slice(start))?.[1] : undefined
}
const PAGE_MARKS = phrases(lexiconWords('page_marks'), true)
/** After "Page" (or its words): its number, a short word or a slash, the count ("2 of 3", "2/3", "2 z 5", "2 de 3"). */
const PAGE_OF = /\s*:?\s*(\d{1,3})(?:\s*(?:\/|\p{L}{1,3}\.?)\s*(\d{1,3}))?(?![\d\p{L}])/uy
/** "Page 2 of 3", "Seite 2/3", "Strona 2 z 5", "Pág. 2 de 3": the page's number and, when printed, the count. */
function pageOf(text: string): RegExpExecArray | undefined {
  for (const mark of PAGE_MARKS.all(text)) {
    PAGE_OF.lastIndex = mark.end
    const match = PAGE_OF.exec(text)
    if (match) return match
  }
  return undefined
}
/** A page's number alone on a line at its foot or head: "2", "- 2 -", "2/3". */
const BARE_NUMBER = /^[-–(\s]*(\d{1,3})(?:\s*\/\s*(\d{1,3}))?[-–)\s]*$/
const CONTINUED = phrases(lexiconWords('continued_marks'))
/** Lines at the top and the foot of a page where its number, its letterhead and its running marks are. */
const EDGE_LINES = 3
const HEADER_LINES = 3
/** Words of a line of running text. */
const PROSE_WORDS = 6
/** Letters of a word that says what a page speaks of (shorter ones are mostly the language's small words). */
const CONTENT_WORD = 5

function readPage(page: number, lines: Line[], compiled: Compiled, hitsByLine: Map<number, LabelHit[]>, doc: ReturnType<typeof buildDoc>): PageReading {
  const count = compiled.types.length
  const titles = new Array<number>(count).fill(0)
  const topTitles = new Array<number>(count).fill(0)
  const fields = Array.from({ length: count }, () => new Map<string, number>())
  const phrases = Array.from({ length: count }, () => new Map<string, number>())
  const numbers = new Map<string, string>()
  let bestTop: { worth: number; line?: Line } = { worth: 0 }
  // A page's first lines: a share of them, a few at least, never more than a letterhead and a title take.
  const top = Math.min(TITLE.topLines, Math.max(TITLE.minTopLines, Math.ceil(lines.length * TITLE.topShare)))
  lines.forEach((line, rank) => {
    const labelHits = hitsByLine.get(line.index) ?? []
    for (const hit of labelHits) {
      const type = typeOfOwner(hit.entry.owner)
      const key = hit.entry.owner.slice(hit.entry.owner.indexOf('/') + 1)
      if (!looksLikeLabel(hit)) continue
      const weight = compiled.labelWeights.get(hit.entry.squashed) ?? 0
      if (weight > (fields[type]!.get(key) ?? 0)) fields[type]!.set(key, weight)
      if (compiled.numberOwners.has(hit.entry.owner) && !numbers.has(hit.entry.owner)) {
        const value = numberAfter(hit, doc, hitsByLine)
        if (value) numbers.set(hit.entry.owner, value)
      }
    }
    for (const hit of findCues(line, compiled)) {
      const { entry } = hit
      if (!entry.title) {
        if (entry.weight > (phrases[entry.type]!.get(entry.squashed) ?? 0)) phrases[entry.type]!.set(entry.squashed, entry.weight)
        continue
      }
      // Inside a longer label, a title is that label's word: "Invoice To" on an order is no invoice.
      const label = labelHits.find((other) => other.start <= hit.start && other.end >= hit.end && other.end - other.start > hit.end - hit.start)
      if (
        label &&
        typeOfOwner(label.entry.owner) !== entry.type &&
        !labelHits.some((other) => other.start === label.start && other.end === label.end && typeOfOwner(other.entry.owner) === entry.type)
      )
        continue
      const form = label ? TITLE.labelled : titleForm(line, hit)
      const titled = form === TITLE.numbered ? titleNumber(line.raw.slice(hit.end)) : undefined
      if (titled && !numbers.has(titleOwner(entry.type))) numbers.set(titleOwner(entry.type), titled.replace(/[^\p{L}\d]/gu, '').toUpperCase())
      const worth = form * (rank < top ? 1 : TITLE.lower) * entry.weight
      if (worth > titles[entry.type]!) titles[entry.type] = worth
      if (rank < top && form >= TITLE.numbered && worth > topTitles[entry.type]!) {
        topTitles[entry.type] = worth
        if (worth > bestTop.worth) bestTop = { worth, line }
      }
    }
  })
  const text = lines.map((line) => line.text)

  const last = [...text].reverse().find((line) => /\p{L}/u.test(line)) ?? ''
  // The page's first sentence, past a running head ("LOGO", "Page 2"): a line of words among its first.
  const firstProse = text.slice(0, EDGE_LINES).find((line) => line.split(/\s+/).length >= PROSE_WORDS) ?? ''
  const edges = [...lines.slice(0, EDGE_LINES), ...lines.slice(-EDGE_LINES)]
  return {
    page,
    lines,
    hasText: lines.some((line) => /[\p{L}\p{N}]/u.test(line.text)),
    titles,
    topTitles,
    fields,
    phrases,
    signs: pageSigns(lines),
    pageNumber: pageNumberOf(lines, edges),
    numbers,
    header: lines
      .slice(0, HEADER_LINES)
      .map((line) => fold(line.text).replace(/[^\p{L}]+/gu, ''))
      .join('|'),
    titleWords: wordsOf(bestTop.line ? [bestTop.line] : lines.slice(0, HEADER_LINES)),
    titleLine: bestTop.line ? fold(bestTop.line.text).replace(/[^\p{L}]+/gu, '') : '',
    // A mark of its own, on a short line ("(continued)", "Übertrag 1.234,00"): in a sentence "continued" is a word of it.
    continued: edges.some((line) => CONTINUED.test(line.text) && line.text.split(/\s+/).length < PROSE_WORDS),
    words: new Set(lines.flatMap((line) => fold(line.text).split(/[^\p{L}]+/u)).filter((word) => word.length >= CONTENT_WORD)),
    startsMidSentence: /^\p{Ll}/u.test(firstProse.trim()),
    endsMidSentence: last.split(/\s+/).length >= PROSE_WORDS && /[\p{L},;]$/u.test(last.trim()),
  }
}

/** The words of lines that say what they speak of, folded. */
function wordsOf(lines: readonly Line[]): Set<string> {
  return new Set(lines.flatMap((line) => fold(line.text).split(/[^\p{L}]+/u)).filter((word) => word.length >= CONTENT_WORD))
}

/** A label, not a word of a sentence: at the start of its cell, or with a colon after it. */
function looksLikeLabel(hit: LabelHit): boolean {
  const cell = hit.line.cells[hit.cell]!
  return hit.start - cell.start <= 3 || /^\s*[:：]/.test(hit.line.raw.slice(hit.end))
}

/** The identifier after a document number's label: a word with a digit that is not a date. */
function numberAfter(hit: LabelHit, doc: ReturnType<typeof buildDoc>, hitsByLine: Map<number, LabelHit[]>): string | undefined {
  for (const candidate of candidatesFor(hit, doc, hitsByLine).slice(0, 2)) {
    const token = candidate.text.split(/\s+/).find((word) => /\d/.test(word) && /[\p{L}\d]{3,}/u.test(word) && !/^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/.test(word))
    if (token) return token.replace(/[^\p{L}\d]/gu, '').toUpperCase()
  }
  return undefined
}

function pageNumberOf(lines: Line[], edges: Line[]): PageReading['pageNumber'] {
  for (const line of edges) {
    const match = pageOf(line.text)
    if (match) return { number: Number(match[1]), ...(match[2] ? { of: Number(match[2]) } : {}) }
  }
  // A bare number at the very foot or head of the page; not a page of one line, which may be a number of anything.
  if (lines.length < 4) return undefined
  for (const line of [lines.at(-1)!, lines[0]!]) {
    const match = BARE_NUMBER.exec(line.text)
    if (match && Number(match[1]) > 0) return { number: Number(match[1]), ...(match[2] ? { of: Number(match[2]) } : {}) }
  }
  return undefined
}

/** A line that opens a numbered clause or section ("12. ENTIRE AGREEMENT", "§ 3 Vertrag"): its words head the clause, not the document. */
const CLAUSE_HEADING = /^\s*(?:\d{1,2}(?:\.\d{1,2})*\.?|\(?[a-z]\)|\(?[ivx]{1,4}\)|§\s?\d+)\s+\p{L}/u

/**
 * How a title stands on its line: alone (or nearly, or in capitals on a short line: "FORM OF
 * CONFIDENTIALITY AND NONINTERFERENCE AGREEMENT"), heading a longer line, with a number after it,
 * or in prose.
 */
function titleForm(line: Line, hit: CueHit): number {
  const after = line.raw.slice(hit.end)
  if (COLON_AFTER.test(after.slice(afterNumberMark(after)))) return TITLE.labelled
  if (titleNumber(after) !== undefined) return TITLE.numbered
  // A clause's heading, or a title in brackets ("[Signature Page to Non-Disclosure Agreement]"), names another's title.
  if (CLAUSE_HEADING.test(line.raw) || /^\s*[[(].*[\])]\s*$/.test(line.raw)) return TITLE.prose
  const letters = (text: string) => text.match(/\p{L}/gu)?.length ?? 0
  const all = letters(line.raw)
  const share = letters(line.raw.slice(hit.start, hit.end)) / Math.max(1, all)
  const wordCount = line.text.split(/\s+/).length
  const capitals = (line.raw.match(/\p{Lu}/gu)?.length ?? 0) / Math.max(1, all)
  if (share >= TITLE.aloneShare || (capitals >= TITLE.capitalShare && wordCount <= TITLE.headingWords)) return TITLE.alone
  // A heading starts with no small letter and ends with no sentence's mark ("… this Agreement or its violation." ends a paragraph).
  const sentence = /^\s*\p{Ll}/u.test(line.raw) || (/[.,;]\s*$/.test(line.raw) && line.raw.slice(hit.end).trim().length > 1)
  if (sentence) return TITLE.prose
  if (share >= TITLE.headingShare && wordCount <= TITLE.headingWords) return TITLE.heading
  // In capitals after a few words at most, a title heads a line its text runs on in ("EXHIBIT M NON-DISCLOSURE AGREEMENT This …").
  const hitText = line.raw.slice(hit.start, hit.end)
  const before = line.raw.slice(0, hit.start).trim()
  if (
    letters(hitText) >= 6 &&
    hitText === hitText.toUpperCase() &&
    before.split(/\s+/).filter(Boolean).length <= TITLE.leadWords &&
    before === before.toUpperCase()
  )
    return TITLE.heading
  return TITLE.prose
}

interface CueHit {
  entry: CueEntry
  start: number
  end: number
}

/** The cues on a line, whole words or joined where they say; of overlapping ones the longer wins. */
function findCues(line: Line, compiled: Compiled): CueHit[] {
  const { chars, map } = squash(line.raw)
  const found: (CueHit & { literal: number })[] = []
  for (let i = 0; i < chars.length - 1; i++) {
    for (const entry of compiled.cuesByStart.get(chars.slice(i, i + 2)) ?? []) {
      if (!chars.startsWith(entry.squashed, i)) continue
      let start = map[i]!
      let end = map[i + entry.squashed.length - 1]! + 1
      if (entry.joinBefore) while (isLetterOrDigit(line.raw[start - 1])) start--
      else if (isLetterOrDigit(line.raw[start - 1])) continue
      if (entry.joinAfter) while (isLetterOrDigit(line.raw[end])) end++
      else if (isLetterOrDigit(line.raw[end])) continue
      found.push({ entry, start, end, literal: entry.squashed.length })
    }
  }
  return found.filter(
    (hit) =>
      !found.some(
        (other) =>
          other !== hit &&
          other.start <= hit.start &&
          other.end >= hit.end &&
          (other.end - other.start > hit.end - hit.start || (other.end - other.start === hit.end - hit.start && other.literal > hit.literal)),
      ),
  )
}
