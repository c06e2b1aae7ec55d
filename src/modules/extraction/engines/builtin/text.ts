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

/** What `\s` matches, for one character (none for undefined). */
export function isSpace(char: string | undefined): boolean {
  return char !== undefined && SPACE.test(char)
}

const SPACE = /^\s$/

/** One digit, 0–9. */
export function isDigit(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && char >= '0' && char <= '9'
}

/** A digit (0–9) somewhere in the text. */
export function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) return true
  return false
}

const LETTER_OR_DIGIT = /[\p{L}\d]/u
const LETTER_RUNS = /\p{L}+/gu

/** A letter or a digit somewhere in the text. */
export function hasLetterOrDigit(text: string): boolean {
  return LETTER_OR_DIGIT.test(text)
}

/** The runs of letters of a text ("BISTRO & CAFE" → BISTRO, CAFE). */
export function letterWords(text: string): string[] {
  return text.match(LETTER_RUNS) ?? []
}

/** The text opens with a colon, after spaces ("  : value", "：value"). */
export function opensWithColon(text: string): boolean {
  const first = text.trimStart()[0]
  return first === ':' || first === '：'
}

/** The text without the colons and spaces it opens with. */
export function pastColons(text: string): string {
  let i = 0
  while (i < text.length && (text[i] === ':' || /\s/.test(text[i]!))) i++
  return text.slice(i)
}

/** `count` letters in a row somewhere in the text. */
export function lettersInARow(text: string, count: number): boolean {
  let run = 0
  for (const char of text) {
    run = LETTER.test(char) ? run + 1 : 0
    if (run >= count) return true
  }
  return false
}

const LETTER = /\p{L}/u
