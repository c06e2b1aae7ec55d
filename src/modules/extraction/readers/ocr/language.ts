/**
 * The language a page is printed in, for choosing its OCR model. A lexicon's common words and
 * the words of its labels, titles and date leads tell its language ("vom", "Rechnung #",
 * "Kundennummer"); a word that two lexicons share ("total", "datum") tells none. Labels count
 * because the top of an invoice is mostly labels, names and numbers, with few common words.
 */
import { lexicons } from '../../../../lib/lexicon'
import { fold } from '../../../../lib/text'
import type { OcrLanguage } from './tesseract'

/** Tesseract's model for each language it has one for here (data/ocr/). */
const MODEL_OF = new Map<string, OcrLanguage>([
  ['en', 'eng'],
  ['de', 'deu'],
  ['fr', 'fra'],
  ['nl', 'nld'],
  ['es', 'spa'],
])

/** A word printed many times (a column's heading on every row) counts this many times at most. */
const MAX_REPEATS = 5

/** A text's words as compared: folded, letters only. */
const wordsIn = (text: string) => fold(text).split(/[^\p{L}]+/u)

/** Each telling word, with the one language whose lexicon has it. */
const TELLS: Map<string, string> = (() => {
  const lexiconsOf = new Map<string, string[]>()
  for (const lexicon of lexicons()) {
    const phrases = [
      ...lexicon.common_words,
      ...Object.values(lexicon.labels).flat(),
      ...lexicon.document_titles,
      ...lexicon.date_leads,
      ...lexicon.number_marks,
    ]
    for (const word of new Set(phrases.flatMap(wordsIn))) if (word.length >= 3) lexiconsOf.set(word, [...(lexiconsOf.get(word) ?? []), lexicon.language])
  }
  return new Map([...lexiconsOf].filter(([, languages]) => languages.length === 1).map(([word, [language]]) => [word, language!]))
})()

/** The model of the language the words show, when one language clearly leads and has a model. */
export function modelShown(words: readonly { text: string }[]): OcrLanguage | undefined {
  const counts = new Map<string, number>()
  for (const { text } of words) for (const word of wordsIn(text)) if (TELLS.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1)
  const scores = new Map<string, number>()
  for (const [word, count] of counts) {
    const language = TELLS.get(word)!
    scores.set(language, (scores.get(language) ?? 0) + Math.min(count, MAX_REPEATS))
  }
  const [best, second] = [...scores].sort((a, b) => b[1] - a[1])
  return best && best[1] >= 2 && best[1] >= 2 * (second?.[1] ?? 0) ? MODEL_OF.get(best[0]) : undefined
}
