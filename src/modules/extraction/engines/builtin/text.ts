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

// One character's kind: the structural tests every reader shares, written once.
const SPACE = /^\s$/
const LETTER = /^\p{L}$/u
const LETTER_OR_DIGIT = /[\p{L}\d]/u
const LETTER_RUNS = /\p{L}+/gu

/** What `\s` matches, for one character (none for undefined). */
export function isSpace(char: string | undefined): boolean {
  return char !== undefined && SPACE.test(char)
}

/** One letter of any script (a character outside the BMP counts as written: two code units). */
export function isLetter(char: string | undefined): boolean {
  return char !== undefined && LETTER.test(char)
}

/** One capital letter ("M", "Ü", "É"). */
export function isCapital(char: string | undefined): boolean {
  return isLetter(char) && char !== char!.toLowerCase()
}

/** One digit, 0–9. */
export function isDigit(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && char >= '0' && char <= '9'
}

/** One ASCII letter. */
export function isAsciiLetter(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && ((char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z'))
}

/** One character of a word as `\w` reads it: an ASCII letter or digit, or "_". */
export function isWordChar(char: string | undefined): boolean {
  return isAsciiLetter(char) || isDigit(char) || char === '_'
}

/** A digit (0–9) somewhere in the text. */
export function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isDigit(text[i])) return true
  return false
}

/** A letter or a digit (0–9) somewhere in the text. */
export function hasLetterOrDigit(text: string): boolean {
  return LETTER_OR_DIGIT.test(text)
}

/** One of the characters somewhere in the text. */
export function hasAnyOf(text: string, chars: string): boolean {
  for (const char of text) if (chars.includes(char)) return true
  return false
}

/** The runs of letters of a text ("BISTRO & CAFE" → BISTRO, CAFE). */
export function letterWords(text: string): string[] {
  return text.match(LETTER_RUNS) ?? []
}

/** The text without the characters a test accepts at its end ("Total:." → "Total"). */
export function trimEndWhere(text: string, trims: (char: string) => boolean): string {
  let end = text.length
  while (end > 0 && trims(text[end - 1]!)) end--
  return text.slice(0, end)
}

/** The text opens with a colon, after spaces ("  : value", "：value"). */
export function opensWithColon(text: string): boolean {
  const first = text.trimStart()[0]
  return first === ':' || first === '：'
}

/** The text without the colons and spaces it opens with. */
export function pastColons(text: string): string {
  let i = 0
  while (i < text.length && (text[i] === ':' || isSpace(text[i]))) i++
  return text.slice(i)
}

/** `count` letters in a row somewhere in the text. */
export function lettersInARow(text: string, count: number): boolean {
  let letters = LETTERS_IN_A_ROW.get(count)
  if (!letters) LETTERS_IN_A_ROW.set(count, (letters = new RegExp(`\\p{L}{${count}}`, 'u')))
  return letters.test(text)
}

const LETTERS_IN_A_ROW = new Map<number, RegExp>()

/** The text ends with an initial: a capital A–Z standing alone ("… J", "L.P"), as before its dot. */
export function endsWithInitial(text: string): boolean {
  const last = text[text.length - 1]
  return last !== undefined && last >= 'A' && last <= 'Z' && !isWordChar(text[text.length - 2])
}
