/** Text helpers of the built-in engine's readers of values. */
import { collapse } from '../../../../lib/text'

/** Edges trimmed of punctuation that never belongs to a value (colons, bullets, dashes, commas). */
export function trimValue(text: string): string {
  return collapse(text)
    .replace(/^(?:[\s:;,.=#*•●|>]|[-–—](?!\s?\d))+/, '')
    .replace(/[\s:;,\-–—=*•●|]+$/, '')
    .trim()
}
