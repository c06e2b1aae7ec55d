/** Text helpers shared by the lexicons, the field module, the normalisation layer and the readers: folding, collapsing, words. */

const NOT_ASCII = /[^\x00-\x7f]/

/** Lower case without diacritics: "Échéance" → "echeance", "Fällig" → "fallig". */
export function fold(text: string): string {
  // ASCII has nothing to decompose or strip: lower case is all (most of most documents).
  if (!NOT_ASCII.test(text)) return text.toLowerCase()
  return text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').replace(/[łŁ]/g, 'l').replace(/[øØ]/g, 'o').toLowerCase()
}

/** Like `fold`, but one character for one, so indexes into the result are indexes into the input. */
export function foldKeepingLength(text: string): string {
  // Pure ASCII (most documents) only needs lower case.
  if (!NOT_ASCII.test(text)) return text.toLowerCase()
  let out = ''
  for (const char of text) {
    if (char.charCodeAt(0) < 128) {
      out += char.toLowerCase()
      continue
    }
    const base = fold(char)
    const first = base ? [...base][0]! : char
    // A character outside the BMP is two code units: keep the length by padding.
    out += char.length === 2 ? first.padEnd(2, ' ') : first.length === 1 ? first : ' '
  }
  return out
}

/** Whitespace collapsed and trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Text to match literally inside a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** One segment of a JSON Pointer (RFC 6901), as the paths of error details are written: "~" as "~0", "/" as "~1". */
export function pointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}

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
