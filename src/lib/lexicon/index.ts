/**
 * Language knowledge as data (D95): the lexicons of data/lexicon/, compiled into the binary,
 * merged for the readers and the normalisation layer. Adding a language is adding a file.
 */
import { embeddedLexicons } from './embed-lexicon' with { type: 'macro' }
import type { ColumnKind, ContractGroup, ContractList, DurationUnit, Lexicon, NameList, Vocabulary } from './lexicon-file'
import { fold } from '../text'
import { longestFirst, Phrases, phrases, wordPattern } from './phrases'

export { type Accept, type PhraseMatch, Phrases, phrases, startsWord } from './phrases'

let parsed: readonly Lexicon[] | undefined

/** Every language's lexicon, in file order: made with its first use, not as the server starts (the seven cost ~11 ms to build; D150, D375). */
export const lexicons = (): readonly Lexicon[] => (parsed ??= embeddedLexicons())

/** The lists of a lexicon that are plain lists of words. */
type WordList = { [K in keyof Lexicon]: Lexicon[K] extends string[] ? K : never }[keyof Lexicon]

/** Every language's words of one list, in file order (languages by code); with a language, that language's only (every language's for one without a lexicon). */
export function lexiconWords(list: WordList, language?: string): string[] {
  return [...new Set(lexiconsOf(language).flatMap((lexicon) => lexicon[list]))]
}

/** Every language's words for one kind of table column. */
export function columnWords(kind: ColumnKind): string[] {
  return [...new Set(lexicons().flatMap((lexicon) => lexicon.columns[kind]))]
}

/** Month names and abbreviations of every language, each with its month (1–12). */
export function monthNames(): [name: string, month: number][] {
  return lexicons().flatMap((lexicon) => lexicon.months.flatMap((names, index) => names.map((name): [string, number] => [name, index + 1])))
}

/** Currency names of every language, by ISO 4217 code. */
export function currencyNames(): Map<string, string[]> {
  const byCode = new Map<string, string[]>()
  for (const lexicon of lexicons()) for (const [code, names] of Object.entries(lexicon.currencies)) byCode.set(code, [...(byCode.get(code) ?? []), ...names])
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
  return [...new Set(legalFormSpellings(asWritten).map(([, spelling]) => wordPattern(spelling)))].sort(longestFirst).join('|')
}

/** The legal forms of every lexicon as a matcher, as `legalFormsSource` spells them (`asWritten`: case kept). */
export function legalForms(asWritten = false): Phrases {
  return new Phrases(legalFormSpellings(asWritten), asWritten)
}

function legalFormSpellings(asWritten: boolean): [form: string, spelling: string][] {
  const forms = [...new Set(lexicons().flatMap((lexicon) => lexicon.legal_forms))]
  return asWritten
    ? forms.flatMap((form): [string, string][] => [
        [form, form],
        [form, form.charAt(0) + form.slice(1).toLowerCase()],
      ])
    : forms.map((form): [string, string] => [form, form.toLowerCase()])
}

/** Number words of every lexicon (or of one language), folded, with their values ("zwölf" → 12, "thirty" → 30). */
export function numberWords(language?: string): Map<string, number> {
  const words = new Map<string, number>()
  const add = (word: string, value: number) => {
    const folded = fold(word)
    if (!words.has(folded)) words.set(folded, value)
  }
  for (const lexicon of lexiconsOf(language)) lexicon.numbers.forEach(add)
  for (const lexicon of lexiconsOf(language)) for (const [word, value] of Object.entries(lexicon.larger_numbers)) add(word, value)
  return words
}

/** One language's lexicon, or every lexicon for none (or a language without one). */
function lexiconsOf(language: string | undefined): readonly Lexicon[] {
  const one = language === undefined ? undefined : lexicons().find((lexicon) => lexicon.language === language)
  return one ? [one] : lexicons()
}

/**
 * The words of one list of the lexicons' contract section (D222), of one language, or of every
 * language for none. A contract is read with its own language's words: a clause's words come
 * from one language, and a word of one ("die", "a") is no clause word of another.
 */
export function contractWords<G extends ContractGroup>(language: string | undefined, group: G, list: ContractList<G>): string[] {
  return [...new Set(lexiconsOf(language).flatMap((lexicon) => (lexicon.contract[group] as Record<ContractList<G>, string[]>)[list]))]
}

const CONTRACT_PHRASES = new Map<string, Phrases>()

/**
 * `contractWords` as a matcher, made once; an apostrophe matches either way it is printed ("l'État",
 * "l’État"). `asWritten`: case kept, for words that are labels only when capitalised ("Name:").
 */
export function contractPhrases<G extends ContractGroup>(language: string | undefined, group: G, list: ContractList<G>, asWritten = false): Phrases {
  const key = `${language ?? ''}/${group}/${String(list)}/${asWritten}`
  let found = CONTRACT_PHRASES.get(key)
  if (!found) {
    const words = withApostrophes(contractWords(language, group, list))
    found = asWritten
      ? new Phrases(
          words.map((word) => [word, word] as const),
          true,
        )
      : phrases(words)
    CONTRACT_PHRASES.set(key, found)
  }
  return found
}

/** Each word with an apostrophe also with the other one. */
function withApostrophes(words: string[]): string[] {
  return [...new Set(words.flatMap((word) => [word, word.replaceAll("'", '’'), word.replaceAll('’', "'")]))]
}

/** Every language's words of one list of the names section (D224). */
export function nameWords(list: NameList): string[] {
  return [...new Set(lexicons().flatMap((lexicon) => lexicon.names[list]))]
}

/** The names of every jurisdiction in every language, each with the name it is answered with ("Bundesrepublik Deutschland" → "Germany"). */
export function jurisdictionNames(): Map<string, string> {
  const names = new Map<string, string>()
  for (const lexicon of lexicons())
    for (const [jurisdiction, written] of Object.entries(lexicon.contract.jurisdictions)) for (const name of written) names.set(name, jurisdiction)
  return names
}

/** Phrases that name a jurisdiction's law by an adjective ("deutsches Recht", "droit français"), each with the jurisdiction. */
export function governingLawPhrases(): Map<string, string> {
  const laws = new Map<string, string>()
  for (const lexicon of lexicons())
    for (const [jurisdiction, phrases] of Object.entries(lexicon.contract.governing_laws))
      for (const phrase of withApostrophes(phrases)) laws.set(phrase, jurisdiction)
  return laws
}

/** Each federation with the jurisdictions that are its states. */
export function federations(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const lexicon of lexicons())
    for (const [federation, states] of Object.entries(lexicon.contract.federations))
      found.set(federation, new Set([...(found.get(federation) ?? []), ...states]))
  return found
}

/** The words of the units of a duration in one language (or every language), each with its unit. */
export function durationUnits(language: string | undefined): Map<string, DurationUnit> {
  const units = new Map<string, DurationUnit>()
  for (const lexicon of lexiconsOf(language))
    for (const [unit, words] of Object.entries(lexicon.contract.units) as [DurationUnit, string[]][]) for (const word of words) units.set(word, unit)
  return units
}

/** The printed labels of one of the built-in engine's concepts, from every lexicon. */
export function conceptLabels(concept: string): string[] {
  return lexicons().flatMap((lexicon) => (Object.hasOwn(lexicon.labels, concept) ? lexicon.labels[concept]! : []))
}

/** Every concept id some lexicon gives labels for (each must be a concept of the engine; a test checks it). */
export function labelledConcepts(): string[] {
  return [...new Set(lexicons().flatMap((lexicon) => Object.keys(lexicon.labels)))]
}

/** The vocabulary of each language (D110), by language code. */
export function vocabularies(): Map<string, Vocabulary> {
  return new Map(lexicons().map((lexicon) => [lexicon.language, lexicon.vocabulary]))
}
