/**
 * Finding the words and phrases of the lexicons in a text (D221): one linear matcher, compared
 * character by character at word edges, instead of a regular expression generated from the words.
 * A phrase is found as `wordPattern` describes it: case and (by default) accents ignored, a dot and
 * spaces optional between its parts ("Reg. No." finds "Reg.No", "reg no"), a one-part word written
 * with a final dot needing it ("Co."), a `*` at either end joining letters ("*steuer*" finds
 * "Umsatzsteuer-Betrag"). At one place, phrases are tried longest first, as the lexicons' patterns
 * always were, so that "Grand Total" wins over "Total".
 */
import { escapeRegex, fold } from '../text'

/** Where a phrase was found: `[start, end)` of the text, and the phrase as its list writes it. */
export interface PhraseMatch {
  start: number
  end: number
  word: string
}

/** A test a match must also pass (what follows it, what precedes it): the next candidate is tried when it fails. */
export type Accept = (match: PhraseMatch) => boolean

interface Spelling {
  /** The phrase's parts (split at dots and spaces), as compared: lower case unless the matcher keeps case. */
  parts: string[]
  /** A one-part word written with a final dot needs that dot ("Co."). */
  finalDot: boolean
  /** Letters (or hyphens) joined before and after (`*`). */
  joinBefore: boolean
  joinAfter: boolean
  /** It ends with an apostrophe: the next word follows without a space ("l'", "d'"). */
  elided: boolean
  word: string
}

/**
 * One word or phrase of a lexicon as a pattern source: special characters escaped, dots and
 * spaces between its parts optional ("Reg. No." also finds "Reg.No", "reg no"), a one-part word
 * written with a final dot needing it ("Co.", "Str."); a `*` at either end joins letters. The
 * order of phrases at one place is that of these sources, longest first.
 */
export function wordPattern(word: string): string {
  const bare = word.replace(/^\*|\*$/g, '')
  const parts = bare.match(/[^\s.]+/g) ?? []
  const body = parts.map(escapeRegex).join('\\.?\\s*')
  const pattern = parts.length === 1 && bare.endsWith('.') ? `${body}\\.` : body
  return (word.startsWith('*') ? JOINED : '') + pattern + (word.endsWith('*') ? JOINED : '')
}

/**
 * Letters (or hyphens) a `*` joins to a word in a compound: at most `JOIN_REACH` (D186), a longer
 * run is no compound, and an unbounded one is read again from each of its letters. Needs the `u` flag.
 */
/** The most letters (or hyphens) a `*` joins. */
const JOIN_REACH = 40

export const JOINED = `[\\p{L}-]{0,${JOIN_REACH}}`

/** Longest pattern first, then in code-unit order: the order in which phrases are tried at one place. */
export const longestFirst = (a: string, b: string) => b.length - a.length || (a < b ? -1 : 1)

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
const LETTER = /\p{L}/u
/** What `\s` matches. */
const SPACE = /\s/

/** Is the code unit at `index` (with its pair, for a character outside the BMP) a letter or digit? ASCII is decided without a pattern. */
function wordCharAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index)
  if (Number.isNaN(code)) return false
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)
  if (code >= 0xd800 && code <= 0xdbff) return LETTER_OR_DIGIT.test(text.slice(index, index + 2))
  if (code >= 0xdc00 && code <= 0xdfff) return index > 0 && LETTER_OR_DIGIT.test(text.slice(index - 1, index + 1))
  return LETTER_OR_DIGIT.test(text[index]!)
}

/** No letter or digit right before `index`: a word may start there. */
export function startsWord(text: string, index: number): boolean {
  return index <= 0 || !wordCharAt(text, index - 1)
}

/** No letter or digit at `index`: a word may end right before it. */
export function endsWord(text: string, index: number): boolean {
  return !wordCharAt(text, index)
}

/** A character in lower case, ASCII without a call. */
function lower(char: string): string {
  const code = char.charCodeAt(0)
  return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : code < 128 ? char : char.toLowerCase()
}

/**
 * The last texts put in lower case, and their lower case, the last asked for first: several lists
 * are looked for in one text in a row, each at many places. Strings are compared, not hashed: a
 * map hashed a long text at every lookup, so a 1 MiB line of "Invoice " took minutes (each of its
 * titles looks for number marks at 30 places). A text found as an equal copy (a one-line
 * document's line and its whole text) takes that copy's place, so that from then on it is found
 * as itself, without comparing its characters.
 */
const LOWERED_KEPT = 8
const loweredTexts: string[] = []
const loweredValues: string[] = []

/** The text in lower case, one code unit for one (a character whose lower case is longer stays as it is). */
function lowerCase(text: string): string {
  if (loweredTexts[0] === text) {
    loweredTexts[0] = text
    return loweredValues[0]!
  }
  const kept = loweredTexts.indexOf(text)
  let low: string
  if (kept !== -1) {
    low = loweredValues[kept]!
    loweredTexts.splice(kept, 1)
    loweredValues.splice(kept, 1)
  } else {
    low = text.toLowerCase()
    if (low.length !== text.length) {
      low = ''
      for (let i = 0; i < text.length; i++) {
        const char = lower(text[i]!)
        low += char.length === 1 ? char : text[i]
      }
    }
    if (loweredTexts.length >= LOWERED_KEPT) {
      loweredTexts.pop()
      loweredValues.pop()
    }
  }
  loweredTexts.unshift(text)
  loweredValues.unshift(low)
  return low
}

/** A letter or a hyphen, as a `*` joins them (ASCII decided without a pattern). */
function joins(char: string): boolean {
  const code = char.charCodeAt(0)
  if (code < 128) return code === 45 || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)
  return LETTER.test(char)
}

/** Where the letters and hyphens a `*` joins from `start` end: at most `JOIN_REACH` of them. */
function joinedRunEnd(text: string, start: number): number {
  let end = start
  while (end < text.length && end - start < JOIN_REACH && joins(text[end]!)) end++
  return end
}

/**
 * A list of words and phrases, ready to be found in texts. `caseSensitive` compares them as the
 * spellings give them; otherwise case is ignored (the spellings are compared in lower case).
 */
export class Phrases {
  private readonly spellings: Spelling[]
  /** The spellings that may start with each character, in the order they are tried. */
  private readonly byFirst = new Map<string, Spelling[]>()
  /** The spellings that may start with any letter (a `*` before them). */
  private readonly joined: Spelling[]
  /** The first characters of the spellings without a `*` before them: ASCII by code, the rest by character. */
  private readonly asciiFirst = new Uint8Array(128)
  private readonly otherFirst = new Set<string>()
  /** The first characters of the spellings with a `*` before them, where their own words begin. */
  private readonly joinedFirst = new Set<number>()

  /** `spellings` are [word as the list writes it, spelling to compare]; see `phrases()` and `legalForms()`. */
  constructor(
    spellings: readonly (readonly [word: string, spelling: string])[],
    private readonly caseSensitive = false,
    /** A digit may follow a phrase ("Invoice2024"): only a letter may not. */
    private readonly digitsMayFollow = false,
  ) {
    const bySource = new Map<string, Spelling>()
    for (const [word, spelling] of spellings) {
      const source = wordPattern(spelling)
      if (bySource.has(source)) continue
      const bare = spelling.replace(/^\*|\*$/g, '')
      const parts = bare.match(/[^\s.]+/g) ?? []
      if (!parts.length) continue
      bySource.set(source, {
        parts: caseSensitive ? parts : parts.map((part) => part.toLowerCase()),
        finalDot: parts.length === 1 && bare.endsWith('.'),
        joinBefore: spelling.startsWith('*'),
        joinAfter: spelling.endsWith('*'),
        elided: /['’]$/.test(bare),
        word,
      })
    }
    this.spellings = [...bySource.keys()].sort(longestFirst).map((source) => bySource.get(source)!)
    this.joined = this.spellings.filter((spelling) => spelling.joinBefore)
    for (const spelling of this.joined) this.joinedFirst.add(spelling.parts[0]!.charCodeAt(0))
    for (const spelling of this.spellings) {
      if (spelling.joinBefore) continue
      const first = spelling.parts[0]![0]!
      if (first.charCodeAt(0) < 128) this.asciiFirst[first.charCodeAt(0)] = 1
      else this.otherFirst.add(first)
      if (!this.byFirst.has(first))
        this.byFirst.set(
          first,
          this.spellings.filter((other) => other.joinBefore || other.parts[0]![0] === first),
        )
    }
  }

  /** The words, as their lists write them. */
  get words(): string[] {
    return [...new Set(this.spellings.map((spelling) => spelling.word))]
  }

  /** The first place from `from` on where a phrase stands as whole words (and `accept` agrees). */
  find(text: string, from = 0, accept?: Accept): PhraseMatch | undefined {
    const compared = this.caseSensitive ? text : lowerCase(text)
    const anyLetter = this.joined.length > 0
    // Where a spelling with a `*` before it could next begin its own word: one that begins further
    // than a `*` reaches cannot end a run of letters or hyphens starting here (a megabyte of
    // hyphens is then one pass, not forty for each of its characters).
    let joinedNext = -1
    for (let start = from; start < compared.length; start++) {
      const code = compared.charCodeAt(start)
      const first = code < 128 ? this.asciiFirst[code] === 1 : this.otherFirst.has(compared[start]!)
      if (!first) {
        if (!anyLetter || !joins(compared[start]!)) continue
        if (joinedNext < start) {
          joinedNext = start
          while (joinedNext < compared.length && !this.joinedFirst.has(compared.charCodeAt(joinedNext))) joinedNext++
        }
        if (joinedNext - start > JOIN_REACH) continue
      }
      if (!startsWord(text, start)) continue
      const found = this.atCompared(compared, start, accept)
      if (found) return found
    }
    return undefined
  }

  /** Does a phrase stand in the text as whole words (where `accept` agrees)? */
  test(text: string, accept?: Accept): boolean {
    return this.find(text, 0, accept) !== undefined
  }

  /** Every place, left to right, each search going on after the last match. */
  all(text: string, accept?: Accept): PhraseMatch[] {
    const found: PhraseMatch[] = []
    for (let match = this.find(text, 0, accept); match; match = this.find(text, Math.max(match.end, match.start + 1), accept)) found.push(match)
    return found
  }

  /** The last place where a phrase stands (of those `all` finds). */
  last(text: string, accept?: Accept): PhraseMatch | undefined {
    return this.all(text, accept).at(-1)
  }

  /**
   * A phrase that starts right at `start` and ends at a word's end, the first of the list that
   * `accept` agrees with (a word edge before `start` is the caller's to ask for).
   */
  at(text: string, start: number, accept?: Accept): PhraseMatch | undefined {
    return this.atCompared(this.caseSensitive ? text : lowerCase(text), start, accept)
  }

  private atCompared(compared: string, start: number, accept?: Accept): PhraseMatch | undefined {
    const first = compared[start]
    if (first === undefined) return undefined
    // The letters a `*` before a spelling joins from here: the same for each, read once. Such a
    // spelling can begin only where its first letter is written in them.
    let runEnd = -1
    let run = ''
    for (const spelling of this.byFirst.get(first) ?? this.joined) {
      if (spelling.joinBefore) {
        if (runEnd < 0) {
          runEnd = joinedRunEnd(compared, start)
          run = compared.slice(start, runEnd + 1)
        }
        if (!run.includes(spelling.parts[0]![0]!)) continue
      }
      const found = this.spelledAt(compared, start, runEnd, spelling, accept)
      if (found) return found
    }
    return undefined
  }

  /**
   * A phrase that ends the text, but for spaces and `trailing` characters after it (the characters
   * of a string, or those a test accepts: "vom :", "incl. VAT").
   */
  ends(text: string, trailing: string | ((char: string) => boolean) = ''): PhraseMatch | undefined {
    const trails = typeof trailing === 'string' ? (char: string) => trailing.includes(char) : trailing
    let end = text.length
    while (end > 0 && (SPACE.test(text[end - 1]!) || trails(text[end - 1]!))) end--
    return this.last(text.slice(0, end), (match) => match.end === end)
  }

  /** The spelling at `start`; with a `*` before it, anywhere in the letters from `start` to `runEnd`. */
  private spelledAt(text: string, start: number, runEnd: number, spelling: Spelling, accept?: Accept): PhraseMatch | undefined {
    // A `*` before: any letters from `start`, then the phrase (the longest run first, as a greedy pattern takes it).
    const firstCode = spelling.parts[0]!.charCodeAt(0)
    for (let at = spelling.joinBefore ? runEnd : start; at >= start; at--) {
      if (text.charCodeAt(at) !== firstCode) continue
      const bodyEnd = this.body(text, at, spelling)
      if (bodyEnd < 0) continue
      let tailEnd = bodyEnd
      if (spelling.joinAfter) while (tailEnd < text.length && tailEnd - bodyEnd < JOIN_REACH && joins(text[tailEnd]!)) tailEnd++
      for (let end = tailEnd; end >= bodyEnd; end--) {
        // A word elided before the next ("l'", "d'") is joined to it.
        if (!spelling.elided && (this.digitsMayFollow ? LETTER.test(text[end] ?? '') : !endsWord(text, end))) continue
        const match = { start, end, word: spelling.word }
        if (!accept || accept(match)) return match
      }
    }
    return undefined
  }

  /** Where the spelling's parts end when they start at `at`, or -1. */
  private body(text: string, at: number, spelling: Spelling): number {
    let position = at
    const { parts } = spelling
    for (let index = 0; index < parts.length; index++) {
      if (index > 0) {
        if (text.charCodeAt(position) === 46) position++
        while (position < text.length && SPACE.test(text[position]!)) position++
      }
      const part = parts[index]!
      if (!text.startsWith(part, position)) return -1
      position += part.length
    }
    if (spelling.finalDot) return text.charCodeAt(position) === 46 ? position + 1 : -1
    return position
  }
}

/** Lexicon words as a matcher: each in lower case and without its accents ("Quantité" also finds "Quantite"); `digitsMayFollow` as for `Phrases`. */
export function phrases(words: readonly string[], digitsMayFollow = false): Phrases {
  return new Phrases(
    words.flatMap((word) => [[word, word.toLowerCase()] as const, [word, fold(word)] as const]),
    false,
    digitsMayFollow,
  )
}
