/**
 * Language knowledge as data (D95): the lexicons of data/lexicon/, compiled into the binary,
 * merged for the readers and the normalisation layer. Adding a language is adding a file.
 */
import { embeddedLexicons } from './embed-lexicon' with { type: 'macro' }
import type { ColumnKind, Lexicon, Vocabulary } from './lexicon-file'
import { escapeRegex, fold } from '../text'

export const LEXICONS: readonly Lexicon[] = embeddedLexicons()

/** The lists of a lexicon that are plain lists of words. */
type WordList = { [K in keyof Lexicon]: Lexicon[K] extends string[] ? K : never }[keyof Lexicon]

/** Every language's words of one list, in file order (languages by code). */
export function lexiconWords(list: WordList): string[] {
  return [...new Set(LEXICONS.flatMap((lexicon) => lexicon[list]))]
}

/** Every language's words for one kind of table column. */
export function columnWords(kind: ColumnKind): string[] {
  return [...new Set(LEXICONS.flatMap((lexicon) => lexicon.columns[kind]))]
}

/**
 * Letters (or hyphens) a `*` joins to a word in a compound: "*steuer*" finds "Umsatzsteuer-Betrag".
 * At most 40 (D186): a longer run is no compound, and an unbounded one is scanned again from each
 * of its letters. Needs the `u` flag.
 */
const JOINED = '[\\p{L}-]{0,40}'

/**
 * One word or phrase of a lexicon as a pattern source: special characters escaped, dots and
 * spaces between its parts optional ("Reg. No." also finds "Reg.No", "reg no"), a one-part word
 * written with a final dot needing it ("Co.", "Str."); a `*` at either end joins letters.
 */
function wordPattern(word: string): string {
  const bare = word.replace(/^\*|\*$/g, '')
  const parts = bare.match(/[^\s.]+/g) ?? []
  const body = parts.map(escapeRegex).join('\\.?\\s*')
  const pattern = parts.length === 1 && bare.endsWith('.') ? `${body}\\.` : body
  return (word.startsWith('*') ? JOINED : '') + pattern + (word.endsWith('*') ? JOINED : '')
}

const longestFirst = (a: string, b: string) => b.length - a.length || (a < b ? -1 : 1)

/**
 * One pattern source for words of the lexicons, longest first, each also without its accents
 * ("Quantité" also finds "Quantite"). For a case-insensitive pattern with the `u` flag; the
 * caller says where a match may start and end.
 */
export function wordsSource(words: readonly string[]): string {
  const spellings = new Set(words.flatMap((word) => [word.toLowerCase(), fold(word)]))
  return [...new Set([...spellings].map(wordPattern))].sort(longestFirst).join('|')
}

/** A test for any of the words as whole words (not inside a longer word), ignoring case and accents. */
export function wholeWords(words: readonly string[]): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${wordsSource(words)})(?![\\p{L}\\p{N}])`, 'iu')
}

/** Month names and abbreviations of every language, each with its month (1–12). */
export function monthNames(): [name: string, month: number][] {
  return LEXICONS.flatMap((lexicon) => lexicon.months.flatMap((names, index) => names.map((name): [string, number] => [name, index + 1])))
}

/** Currency names of every language, by ISO 4217 code. */
export function currencyNames(): Map<string, string[]> {
  const byCode = new Map<string, string[]>()
  for (const lexicon of LEXICONS) for (const [code, names] of Object.entries(lexicon.currencies)) byCode.set(code, [...(byCode.get(code) ?? []), ...names])
  return byCode
}

/**
 * One pattern source for the legal forms of every lexicon, longest first: each form's letters
 * with optional dots and spaces between its parts ("S.A.R.L." also matches "SARL", "s. a. r. l"),
 * a single-part form written with a final dot ("Co.") needing that dot. Lower-cased for a
 * case-insensitive pattern; with `asWritten`, each form as the lexicon writes it or capitalised
 * ("PLC", "Plc"), for a pattern that must not take lower-case words ("co", "ag") for forms.
 */
export function legalFormsSource(asWritten = false): string {
  const forms = new Set(LEXICONS.flatMap((lexicon) => lexicon.legal_forms))
  const spellings = asWritten
    ? [...forms].flatMap((form) => [form, form.charAt(0) + form.slice(1).toLowerCase()])
    : [...forms].map((form) => form.toLowerCase())
  return [...new Set(spellings.map(wordPattern))].sort(longestFirst).join('|')
}

/** Number words of every lexicon, folded, with their values ("zwölf" → 12). */
export function numberWords(): Map<string, number> {
  const words = new Map<string, number>()
  for (const lexicon of LEXICONS)
    lexicon.numbers.forEach((word, value) => {
      const folded = fold(word)
      if (!words.has(folded)) words.set(folded, value)
    })
  return words
}

/** The printed labels of one of the built-in engine's concepts, from every lexicon. */
export function conceptLabels(concept: string): string[] {
  return LEXICONS.flatMap((lexicon) => (Object.hasOwn(lexicon.labels, concept) ? lexicon.labels[concept]! : []))
}

/** Every concept id some lexicon gives labels for (each must be a concept of the engine; a test checks it). */
export function labelledConcepts(): string[] {
  return [...new Set(LEXICONS.flatMap((lexicon) => Object.keys(lexicon.labels)))]
}

/** The vocabulary of each language (D110), by language code. */
export function vocabularies(): Map<string, Vocabulary> {
  return new Map(LEXICONS.map((lexicon) => [lexicon.language, lexicon.vocabulary]))
}
