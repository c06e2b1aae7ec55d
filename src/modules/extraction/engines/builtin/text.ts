/** Text helpers of the built-in engine's readers of values. */
import { collapse } from '../../../../lib/text'

/** Edges trimmed of punctuation that never belongs to a value (colons, bullets, dashes, commas). */
export function trimValue(text: string): string {
  return collapse(text)
    .replace(/^(?:[\s:;,.=#*•●|>]|[-–—](?!\s?\d))+/, '')
    .replace(/[\s:;,\-–—=*•●|]+$/, '')
    .trim()
}

/** Only ASCII digits, at least one. */
export function allDigits(text: string): boolean {
  if (!text) return false
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 48 || text.charCodeAt(i) > 57) return false
  return true
}

/** Written capitalised: a capital, then lower case only ("This", "Agreement"; not "THIS"). */
export function capitalised(word: string): boolean {
  const first = word.charAt(0)
  return first !== first.toLowerCase() && word.slice(1) === word.slice(1).toLowerCase()
}

/** `count` capitals in a row somewhere in the text ("NDA" in a heading). */
export function capitalsInARow(text: string, count: number): boolean {
  let run = 0
  for (const char of text) {
    run = char !== char.toLowerCase() && char === char.toUpperCase() ? run + 1 : 0
    if (run >= count) return true
  }
  return false
}

/** Quotation marks, straight or typographic, of every lexicon language ("“", "„", "«"). */
export const QUOTES = '“”"„«»‹›'

/** The character is a quotation mark. */
export function isQuote(char: string | undefined): boolean {
  return char !== undefined && char !== '' && QUOTES.includes(char)
}
