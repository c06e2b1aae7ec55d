/** Yes and no as documents and models write them, in the languages of the lexicons. */
import { lexiconWords } from '../../../lib/lexicon'
import { fold } from '../../../lib/text'

const TRUE_WORDS = new Set(['true', 'x', '✓', '✔', '☑', '☒', ...lexiconWords('yes')].map(fold))
const FALSE_WORDS = new Set(['false', '☐', '✗', '✘', ...lexiconWords('no')].map(fold))

/** true or false from a boolean, 1/0, or a yes/no word; else null. */
export function parseBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value
  if (value === 1 || value === 0) return value === 1
  if (typeof value !== 'string') return null
  const word = fold(value.trim()).replace(/[.!]+$/, '')
  if (TRUE_WORDS.has(word)) return true
  if (FALSE_WORDS.has(word)) return false
  return null
}
