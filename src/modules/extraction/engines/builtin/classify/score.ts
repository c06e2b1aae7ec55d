/**
 * A type's score from what a document's first pages show, and the chances scores make (D243):
 * a softmax over the catalog's types and "none", whose score is fixed, so that a document that
 * shows little of any type is of none.
 */
import type { Candidate, Classification } from '../../../../catalog/classification'
import type { Compiled, PageReading } from './reading'
import { CHANCE, CLASSIFY_PAGES, EVIDENCE, SATURATION, TITLE } from './weights'

/** Each type's score from a document's pages: its first pages with text, the first counting most. */
export function typeScores(readings: readonly PageReading[], compiled: Compiled): number[] {
  const pages = readings.filter((reading) => reading.hasText).slice(0, CLASSIFY_PAGES)
  return compiled.types.map((type, index) => {
    let title = 0
    const fields = new Map<string, number>()
    const phrases = new Map<string, number>()
    let signs = 0
    pages.forEach((reading, order) => {
      const factor = order === 0 ? 1 : (TITLE.laterPages[order - 1] ?? TITLE.laterPages.at(-1)!)
      title = Math.max(title, reading.titles[index]! * factor)
      for (const [key, weight] of reading.fields[index]!) fields.set(key, Math.max(weight, fields.get(key) ?? 0))
      for (const [key, weight] of reading.phrases[index]!) phrases.set(key, Math.max(weight, phrases.get(key) ?? 0))
      for (const sign of type.cues.signs) signs = Math.max(signs, reading.signs[sign])
    })
    const sum = (values: Map<string, number>) => [...values.values()].reduce((total, value) => total + value, 0)
    return (
      EVIDENCE.title * title +
      EVIDENCE.labels * (1 - Math.exp(-sum(fields) / SATURATION.labels)) +
      EVIDENCE.phrases * (1 - Math.exp(-sum(phrases) / SATURATION.phrases)) +
      EVIDENCE.signs * signs
    )
  })
}

/** Scores into chances: a softmax over the types and "none", whose score is fixed (D243). */
export function classifyReadings(readings: readonly PageReading[], compiled: Compiled): Classification {
  const scores = typeScores(readings, compiled)
  const weights = scores.map((score) => Math.exp(score / CHANCE.temperature))
  const none = Math.exp(CHANCE.none / CHANCE.temperature)
  const total = weights.reduce((sum, weight) => sum + weight, none)
  const candidates: Candidate[] = compiled.types
    .map((type, index) => ({ documentType: type.slug, confidence: weights[index]! / total }))
    .sort((a, b) => b.confidence - a.confidence || (a.documentType < b.documentType ? -1 : 1))
  const best = candidates[0]
  const noneChance = none / total
  const listed = candidates.filter((candidate) => candidate.confidence >= CHANCE.listed).map(rounded)
  if (!best || best.confidence <= noneChance) return { documentType: null, confidence: round(noneChance), candidates: listed }
  return { documentType: best.documentType, confidence: round(best.confidence), candidates: listed }
}

const round = (value: number) => Math.round(value * 1000) / 1000
const rounded = (candidate: Candidate): Candidate => ({ ...candidate, confidence: round(candidate.confidence) })
