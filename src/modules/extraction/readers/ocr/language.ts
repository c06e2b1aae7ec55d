/**
 * The language a page is printed in, for choosing its OCR model. A lexicon's common words and
 * the words of its labels, titles and date leads tell its language ("vom", "Rechnung #",
 * "Kundennummer"); a word that two lexicons share ("total", "datum") tells none. Labels count
 * because the top of an invoice is mostly labels, names and numbers, with few common words.
 */
import { LEXICONS } from '../../normalise/lexicon'
import { fold } from '../../normalise/text'
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

const TELLING_WORDS = (() => {
  const wordsOf = (phrases: string[]) => new Set(phrases.flatMap((phrase) => fold(phrase).split(/[^\p{L}]+/u)).filter((word) => word.length >= 3))
  const lexicons = LEXICONS.map((lexicon) => ({
    language: lexicon.language,
    words: wordsOf([
      ...lexicon.common_words,
      ...Object.values(lexicon.labels).flat(),
      ...lexicon.document_titles,
      ...lexicon.date_leads,
      ...lexicon.number_marks,
    ]),
  }))
  const lexiconsOf = new Map<string, number>()
  for (const { words } of lexicons) for (const word of words) lexiconsOf.set(word, (lexiconsOf.get(word) ?? 0) + 1)
  return lexicons.map(({ language, words }) => ({ language, words: new Set([...words].filter((word) => lexiconsOf.get(word) === 1)) }))
})()

/** The model of the language the words show, when one language clearly leads and has a model. */
export function modelShown(words: readonly { text: string }[]): OcrLanguage | undefined {
  const counts = new Map<string, number>()
  for (const { text } of words) for (const word of fold(text).split(/[^\p{L}]+/u)) if (word) counts.set(word, (counts.get(word) ?? 0) + 1)
  const scores = TELLING_WORDS.map(({ language, words }) => ({
    language,
    score: [...words].reduce((sum, word) => sum + Math.min(counts.get(word) ?? 0, MAX_REPEATS), 0),
  })).sort((a, b) => b.score - a.score)
  const [best, second] = [scores[0]!, scores[1]?.score ?? 0]
  return best.score >= 2 && best.score >= 2 * second ? MODEL_OF.get(best.language) : undefined
}
