/**
 * Language knowledge as data (D95): the lexicons of data/lexicon/, compiled into the binary,
 * merged for the readers and the normalisation layer. Adding a language is adding a file.
 */
import { embeddedLexicons } from './embed-lexicon' with { type: 'macro' }
import type { Lexicon } from './lexicon-file'
import { fold } from './text'

export const LEXICONS: readonly Lexicon[] = embeddedLexicons()

/** Every language's words of one list, in file order (languages by code). */
export function lexiconWords(list: 'yes' | 'no' | 'final_totals'): string[] {
  return [...new Set(LEXICONS.flatMap((lexicon) => lexicon[list]))]
}

/** Month names and abbreviations of every language, each with its month (1–12). */
export function monthNames(): [name: string, month: number][] {
  return LEXICONS.flatMap((lexicon) => lexicon.months.flatMap((names, index) => names.map((name): [string, number] => [name, index + 1])))
}

/** Currency names of every language, by ISO 4217 code. */
export function currencyNames(): Map<string, string[]> {
  const byCode = new Map<string, string[]>()
  for (const lexicon of LEXICONS)
    for (const [code, names] of Object.entries(lexicon.currencies)) byCode.set(code, [...(byCode.get(code) ?? []), ...names])
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
  const patterns = spellings.map((form) => {
    const parts = form.match(/[^\s.]+/g) ?? []
    const body = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('\\.?\\s*')
    return parts.length === 1 && form.endsWith('.') ? `${body}\\.` : body
  })
  return [...new Set(patterns)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).join('|')
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
