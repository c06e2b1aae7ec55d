/** Small text helpers shared by the built-in engine's readers of values. */

export { collapse, fold, foldKeepingLength } from '../../normalise/text'
import { collapse, fold } from '../../normalise/text'

/** Letters and digits of a text, folded, with the index in the original of each kept character. */
export function squash(text: string): { chars: string; map: number[] } {
  let chars = ''
  const map: number[] = []
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // ASCII needs no Unicode folding: the common case, kept fast for long documents.
    if (code < 128) {
      if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122)) {
        chars += text[i]
        map.push(i)
      } else if (code >= 65 && code <= 90) {
        chars += String.fromCharCode(code + 32)
        map.push(i)
      }
      continue
    }
    for (const char of fold(text[i]!)) {
      if (isLetterOrDigit(char)) {
        chars += char
        map.push(i)
      }
    }
  }
  return { chars, map }
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u

export function isLetterOrDigit(char: string | undefined): boolean {
  return char !== undefined && LETTER_OR_DIGIT.test(char)
}

/** Words of a text, folded, for keyword tests on keys, labels and descriptions. */
export function words(text: string): string[] {
  return fold(text.replace(/([a-z])([A-Z])/g, '$1 $2'))
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

/** Edges trimmed of punctuation that never belongs to a value (colons, bullets, dashes, commas). */
export function trimValue(text: string): string {
  return collapse(text)
    .replace(/^(?:[\s:;,.=#*•●|>]|[-–—](?!\s?\d))+/, '')
    .replace(/[\s:;,\-–—=*•●|]+$/, '')
    .trim()
}
