/** Text helpers of the normalisation layer, shared with the built-in engine's readers. */

/** Lower case without diacritics: "Échéance" → "echeance", "Fällig" → "fallig". */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').replace(/[łŁ]/g, 'l').replace(/[øØ]/g, 'o').toLowerCase()
}

/** Like `fold`, but one character for one, so indexes into the result are indexes into the input. */
export function foldKeepingLength(text: string): string {
  // Pure ASCII (most documents) only needs lower case.
  if (!/[^\x00-\x7f]/.test(text)) return text.toLowerCase()
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
