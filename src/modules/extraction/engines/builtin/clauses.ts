/**
 * A contract's text as its clause readers see it (D222): the document as one string, its dates,
 * its language's contract words (data/lexicon, `contract`), and where its sentences and clauses
 * end. A dot inside a date ("1. März 2024", "15.04.2024") ends no sentence.
 */
import type { ContractGroup, ContractList, DurationUnit } from '../../../../lib/lexicon/lexicon-file'
import { contractPhrases, durationUnits, numberWords, type Phrases, phrases, startsWord } from '../../../../lib/lexicon'
import { fold } from '../../../../lib/text'
import { atEachEnd, memo, type Context } from './context'
import { datesIn, type FoundDate } from './dates'
import { flatten, type Flat } from './document'
import { allDigits, isCapital, isDigit, isLetter, isSpace } from './text'

export interface Clauses {
  flat: Flat
  /** The flat text with the dots of dates put out of the way: what stops and sentences are read on (made when first read). */
  readonly text: string
  /** The dates of the flat text the readers weigh (found when first read): the first and the last 500 (D393). */
  readonly dates: FoundDate[]
  /** The document's language, when a lexicon has it: its contract words are the ones read. */
  language: string | undefined
  /** One list of the language's contract words, as a matcher (`asWritten`: case kept). */
  words: <G extends ContractGroup>(group: G, list: ContractList<G>, asWritten?: boolean) => Phrases
  /** Several lists of the language's words as one matcher, made once ("this" and "the"): named by `key`. */
  joined: (key: string, lists: () => string[]) => Phrases
  /** The language's words of the units of a duration, with the unit of each (folded), and its number words. */
  units: Phrases
  unitOf: Map<string, DurationUnit>
  numbers: Map<string, number>
}

/** Stands for a date's dot in `Clauses.text`: no stop, no letter, no space. */
const DATE_DOT = '\u2024'

/** Lists joined into one matcher, by language and name. */
const JOINED = new Map<string, Phrases>()

/** The units and numbers of each language, made once. */
const UNITS = new Map<string, Pick<Clauses, 'units' | 'unitOf' | 'numbers'>>()

function unitsOf(language: string | undefined): Pick<Clauses, 'units' | 'unitOf' | 'numbers'> {
  const key = language ?? ''
  let found = UNITS.get(key)
  if (!found) {
    const units = durationUnits(language)
    found = { units: phrases([...units.keys()]), unitOf: new Map([...units].map(([word, unit]) => [fold(word), unit])), numbers: numberWords(language) }
    UNITS.set(key, found)
  }
  return found
}

/** The document as the contract readers read it, made once. */
export function clausesOf(ctx: Context): Clauses {
  return memo(ctx, 'clauses', () => {
    const flat = flatten(ctx.doc)
    const language = ctx.doc.language === 'other' ? undefined : ctx.doc.language
    let dates: FoundDate[] | undefined
    let text: string | undefined
    const datesOf = () => (dates ??= datesIn(flat.text, ctx.doc))
    return {
      flat,
      get dates() {
        return atEachEnd(datesOf())
      },
      get text() {
        if (text === undefined) {
          const dots: number[] = []
          for (const date of datesOf()) for (let i = date.start; i < date.end; i++) if (flat.text[i] === '.') dots.push(i)
          text = flat.text
          if (dots.length) {
            const codes = flat.text.split('')
            for (const dot of dots) codes[dot] = DATE_DOT
            text = codes.join('')
          }
        }
        return text
      },
      language,
      words: (group, list, asWritten) => contractPhrases(language, group, list, asWritten),
      joined: (key, lists) => {
        const id = `${language ?? ''}/${key}`
        let found = JOINED.get(id)
        if (!found) JOINED.set(id, (found = phrases(lists())))
        return found
      },
      ...unitsOf(language),
    }
  })
}

/** A dot or semicolon: the end of a clause. */
export const isStop = (char: string | undefined) => char === '.' || char === ';'

/** Is there a stop in `text` from `from` to `to`? */
export function hasStop(text: string, from = 0, to = text.length): boolean {
  for (let i = Math.max(0, from); i < Math.min(to, text.length); i++) if (isStop(text[i])) return true
  return false
}

/** What a sentence may start with: a capital, a bracket, a quote or a section sign; with digits, a digit too. */
const opener = (digits: boolean) => (char: string | undefined) => isCapital(char) || (!!char && '(“"„«§'.includes(char)) || (digits && isDigit(char))
const OPENER = opener(false)
const DIGIT_OPENER = opener(true)

/** Spaces, then an opener, after `i`. */
function opensAfter(text: string, i: number, opens: (char: string | undefined) => boolean): boolean {
  let j = i + 1
  if (!isSpace(text[j])) return false
  while (isSpace(text[j])) j++
  return opens(text[j])
}

/**
 * Where the sentence that ends `text` starts: after its last stop when spaces and an opener
 * follow it (with `colons`, else after the first colon since that is followed by more than spaces
 * and opens a sentence), else at 0. `digits`: a digit opens a sentence too.
 */
export function sentenceStart(text: string, { colons = false, digits = false } = {}): number {
  const opener = digits ? DIGIT_OPENER : OPENER
  let last = -1
  for (let i = text.length - 1; i >= 0 && last < 0; i--) if (isStop(text[i])) last = i
  if (last >= 0 && opensAfter(text, last, opener)) return last + 1
  if (colons) for (let i = last + 1; i < text.length; i++) if (text[i] === ':' && text.slice(i + 1).trim() !== '' && opensAfter(text, i, opener)) return i + 1
  return 0
}

/** The first clause of `text`: up to a stop followed by spaces and an opener (or a digit), or a semicolon. */
export function firstClause(text: string): string {
  for (let i = 0; i < text.length; i++) if (text[i] === ';' || (text[i] === '.' && opensAfter(text, i, DIGIT_OPENER))) return text.slice(0, i)
  return text
}

/** Spaces, then a closing bracket and spaces, skipped from `at`: where a clause goes on after a duration. */
export function pastBracket(text: string, at = 0): number {
  let i = at
  while (isSpace(text[i])) i++
  if (text[i] === ')') {
    i++
    while (isSpace(text[i])) i++
  }
  return i
}

/** Spaces skipped from `at`. */
export function pastSpaces(text: string, at: number): number {
  let i = at
  while (isSpace(text[i])) i++
  return i
}

/** Spaces skipped back from `at`. */
export function beforeSpaces(text: string, at: number): number {
  let i = at
  while (i > 0 && isSpace(text[i - 1])) i--
  return i
}

/** At least one space at `at`, and all the spaces there skipped; -1 without one. */
export function spaces(text: string, at: number): number {
  return isSpace(text[at]) ? pastSpaces(text, at) : -1
}

/**
 * Where a text may end before optional phrases that close it, in their order ("… for a period of
 * the" → after "for"): each optional list's phrase stripped or not, the last one first.
 */
export function tailEnds(text: string, optional: Phrases[]): number[] {
  const ends = (end: number, rest: Phrases[]): number[] => {
    if (!rest.length) return [end]
    const [last, ...others] = rest
    const found = last!.ends(text.slice(0, end))
    return [...(found ? ends(beforeSpaces(text, found.start), others) : []), ...ends(end, others)]
  }
  return ends(beforeSpaces(text, text.length), [...optional].reverse())
}

/** A phrase of `lead` ends the text, but for spaces and phrases of the `optional` lists after it. */
export function endsWithLead(text: string, lead: Phrases, optional: Phrases[] = []): boolean {
  return tailEnds(text, optional).some((end) => lead.ends(text.slice(0, end)) !== undefined)
}

/** A word of `list` starts at `at` (at a word's start). */
export function wordAt(list: Phrases, text: string, at: number): boolean {
  return startsWord(text, at) && list.at(text, at) !== undefined
}

/** A duration as printed: "three (3) years", "24 months", "drei (3) Jahren". */
export interface Duration {
  start: number
  end: number
  digits?: string
  word?: string
  /** Digits in brackets after a word ("three (3)"). */
  bracketed?: string
  unit: DurationUnit
}

/** Digits, with one decimal part when `decimals` ("1.5"). */
function isNumber(text: string, decimals: boolean): boolean {
  const parts = text.split('.')
  return parts.length === 1 ? allDigits(text) : decimals && parts.length === 2 && allDigits(parts[0]!) && allDigits(parts[1]!)
}

/** A number in brackets ending right before `end` (spaces allowed inside): its digits and start. */
function bracketBefore(text: string, end: number, decimals: boolean): { digits: string; start: number } | undefined {
  if (text[end - 1] !== ')') return undefined
  let i = beforeSpaces(text, end - 1)
  const digitsEnd = i
  while (i > 0 && (isDigit(text[i - 1]) || text[i - 1] === '.')) i--
  const digits = text.slice(i, digitsEnd)
  if (!isNumber(digits, decimals)) return undefined
  i = beforeSpaces(text, i)
  return text[i - 1] === '(' ? { digits, start: i - 1 } : undefined
}

/** Where the number written in digits that ends at `end` starts ("3", "1.5"), when no digit or dot precedes it; else -1. */
function digitsBefore(text: string, end: number, decimals: boolean): number {
  let start = end
  while (isDigit(text[start - 1])) start--
  if (start === end) return -1
  if (decimals && text[start - 1] === '.' && isDigit(text[start - 2])) {
    let whole = start - 1
    while (isDigit(text[whole - 1])) whole--
    if (!isDigit(text[whole - 1]) && text[whole - 1] !== '.') return whole
  }
  return isDigit(text[start - 1]) || (decimals && text[start - 1] === '.') ? -1 : start
}

/** Where the word that ends at `end` starts ("three", "twenty-four": one hyphen at most), when no letter or hyphen precedes it; else -1. */
function wordBefore(text: string, end: number): number {
  let start = end
  while (isLetter(text[start - 1])) start--
  if (start === end) return -1
  if (text[start - 1] === '-' && isLetter(text[start - 2])) {
    let whole = start - 1
    while (isLetter(text[whole - 1])) whole--
    if (!isLetter(text[whole - 1]) && text[whole - 1] !== '-') return whole
  }
  return isLetter(text[start - 1]) || text[start - 1] === '-' ? -1 : start
}

/**
 * The durations of a text, left to right: a number (digits, a word, or a word with digits in
 * brackets), an optional number in brackets, then a unit of the language's ("days", "Monaten", "ans").
 * `decimals`: digits may have a decimal part ("1.5 years").
 */
export function durations(clauses: Clauses, text: string, units: ReadonlySet<DurationUnit>, decimals = true): Duration[] {
  const found: Duration[] = []
  let from = 0
  for (const unit of clauses.units.all(text)) {
    const kind = clauses.unitOf.get(fold(unit.word))
    if (!kind || !units.has(kind) || unit.start < from) continue
    const end = beforeSpaces(text, unit.start)
    // An uncaptured number in brackets right before the unit ("three (3) (3) years" keeps the first).
    const second = bracketBefore(text, end, false)
    const candidates: { end: number; bracketed?: string }[] = []
    if (second) {
      const beforeSecond = beforeSpaces(text, second.start)
      const first = bracketBefore(text, beforeSecond, decimals)
      if (first) candidates.push({ end: beforeSpaces(text, first.start), bracketed: first.digits })
      candidates.push({ end: beforeSecond, bracketed: second.digits })
      candidates.push({ end: beforeSecond })
    }
    candidates.push({ end })
    for (const candidate of candidates) {
      // Digits (not after a word's bracketed digits), or a word.
      const digits = candidate.bracketed === undefined ? digitsBefore(text, candidate.end, decimals) : -1
      const start = digits >= 0 ? digits : wordBefore(text, candidate.end)
      if (start < 0 || !startsWord(text, start)) continue
      const token = text.slice(start, candidate.end)
      found.push({
        start,
        end: unit.end,
        ...(digits >= 0 ? { digits: token } : { word: token }),
        ...(candidate.bracketed !== undefined ? { bracketed: candidate.bracketed } : {}),
        unit: kind,
      })
      from = unit.end
      break
    }
  }
  // The durations weighed: the first and the last 500 (D393).
  return atEachEnd(found)
}

/** A duration as "3 years": its number in digits, the digits in brackets after a word, or the word; undefined when it is no positive number. */
export function periodOf(clauses: Clauses, duration: Duration): string | undefined {
  const { digits, word, bracketed, unit } = duration
  const number = digits ? Number(digits) : bracketed ? Number(bracketed) : clauses.numbers.get(fold(word ?? ''))
  if (number === undefined || !Number.isFinite(number) || number <= 0) return undefined
  return `${number} ${unit}${number === 1 ? '' : 's'}`
}
