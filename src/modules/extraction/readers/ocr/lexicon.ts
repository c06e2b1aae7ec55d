/**
 * Label words mended after OCR: a word one letter away from a word of the engine's printed labels
 * ("Tota!", "Totai", "iotal" → "Total") is that word, since a label misread is a field lost. Only
 * words of five letters or more are mended, and only towards a single candidate.
 */
import { CONCEPTS } from '../../../../lib/fields/concepts'
import { conceptLabels } from '../../../../lib/lexicon'
import { LETTER_MARKS } from '../../normalise/currency'

const MIN_LENGTH = 5

const VOCABULARY = new Set(
  CONCEPTS.flatMap((concept) => conceptLabels(concept.id))
    .flatMap((label) => label.toLowerCase().split(/[^\p{L}]+/u))
    .filter((word) => word.length >= MIN_LENGTH),
)

/** Characters OCR gives for a letter of a label: the stroke of an l, i or t. */
const LETTER_LOOKALIKES: Record<string, string> = { '!': 'l', '|': 'l', '1': 'l', '0': 'o', '5': 's', '8': 'b' }

/** The word as the label it misspells, keeping its capitals and the punctuation around it; undefined when none. */
export function mendLabelWord(text: string): string | undefined {
  const match = /^([^\p{L}\d!|]*)([\p{L}\d!|]+)([^\p{L}\d!|]*)$/u.exec(text)
  if (!match) return undefined
  const [, lead, core, tail] = match as unknown as [string, string, string, string]
  if (core.length < MIN_LENGTH || /\d{2}/.test(core)) return undefined
  const lower = [...core.toLowerCase()].map((char) => LETTER_LOOKALIKES[char] ?? char).join('')
  if (!/^\p{L}+$/u.test(lower) || VOCABULARY.has(lower)) return lower === core.toLowerCase() ? undefined : withCase(core, lower, lead, tail)
  let found: string | undefined
  for (const word of VOCABULARY) {
    if (Math.abs(word.length - lower.length) > 1 || !oneEditApart(lower, word)) continue
    if (found) return undefined
    found = word
  }
  return found && withCase(core, found, lead, tail)
}

function withCase(original: string, word: string, lead: string, tail: string): string {
  const upper = original === original.toUpperCase() && /\p{Lu}/u.test(original)
  const capital = !upper && /^\p{Lu}/u.test(original)
  const cased = upper ? word.toUpperCase() : capital ? word[0]!.toUpperCase() + word.slice(1) : word
  return lead + cased + tail
}

/**
 * A currency mark misread right before an amount ("Ri 86.00", "ARM 86.00" on a receipt whose
 * other lines say "RM"): a short word one letter from a mark printed elsewhere on the page, and
 * followed by a number, is that mark.
 */
export function mendCurrencyMarks<T extends { text: string; line: string }>(words: T[]): T[] {
  const printed = new Set(words.map((word) => word.text).filter((text) => LETTER_MARKS.has(text)))
  if (!printed.size) return words
  return words.map((word, index) => {
    const next = words[index + 1]
    if (printed.has(word.text) || !/^\p{L}{2,3}$/u.test(word.text) || next?.line !== word.line || !/^\d/.test(next.text)) return word
    const marks = [...printed].filter((mark) => oneEditApart(word.text.toUpperCase(), mark.toUpperCase()))
    return marks.length === 1 ? { ...word, text: marks[0]! } : word
  })
}

/** One substitution, insertion or deletion apart. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b) return false
  if (a.length === b.length) {
    let differences = 0
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && ++differences > 1) return false
    return true
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a]
  for (let i = 0, j = 0, skipped = false; i < short.length; i++, j++) {
    if (short[i] === long[j]) continue
    if (skipped) return false
    skipped = true
    i--
  }
  return true
}
