/**
 * One language's lexicon file, data/lexicon/<lang>.json (D95): checked here, by the build-time
 * macro, so a bad file fails the build as a bad catalog file does (D18). Plain checks, no framework.
 */

export interface Lexicon {
  /** ISO 639-1 code; the file is named after it. */
  language: string
  /** The language's own name, for people reading the file. */
  name: string
  /** Twelve lists, January first: full names and printed abbreviations. */
  months: string[][]
  /** Words that answer yes and no (boolean fields). */
  yes: string[]
  no: string[]
  /** ISO 4217 code → names of the currency in this language. */
  currencies: Record<string, string[]>
  /** Legal forms of companies as printed ("GmbH", "S.A.R.L.", "Sdn. Bhd."): dots and spaces are optional when matching. */
  legal_forms: string[]
  /** Labels of the final amount to pay ("Grand total", "Zu zahlen"): they win over other totals. */
  final_totals: string[]
  /** Number words from zero up, in order ("zero", "one", … ): a count written out. */
  numbers: string[]
  /** Printed labels of the fields the built-in engine knows (its concepts, by id) in this language. */
  labels: Record<string, string[]>
}

export class LexiconError extends Error {
  override name = 'LexiconError'
}

const KEYS = ['language', 'name', 'months', 'yes', 'no', 'currencies', 'legal_forms', 'final_totals', 'numbers', 'labels']

function words(value: unknown, path: string, file: string): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new LexiconError(`${file}: ${path}: expected a non-empty array of words`)
  value.forEach((word, index) => {
    if (typeof word !== 'string' || word.trim() === '' || word !== word.trim())
      throw new LexiconError(`${file}: ${path}/${index}: expected a word without surrounding spaces`)
  })
  return value as string[]
}

/** Parses and checks one lexicon file; a problem names the file and the JSON path. */
export function parseLexiconFile({ file, text }: { file: string; text: string }): Lexicon {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new LexiconError(`${file}: not valid JSON: ${(error as Error).message}`)
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new LexiconError(`${file}: /: expected an object`)
  const record = data as Record<string, unknown>
  for (const key of Object.keys(record)) if (!KEYS.includes(key)) throw new LexiconError(`${file}: /${key}: unknown property`)
  for (const key of KEYS) if (!Object.hasOwn(record, key)) throw new LexiconError(`${file}: /${key}: missing`)
  const { language, name, months, currencies } = record
  if (typeof language !== 'string' || !/^[a-z]{2}$/.test(language))
    throw new LexiconError(`${file}: /language: expected an ISO 639-1 code such as "de"`)
  if (!file.endsWith(`/${language}.json`) && file !== `${language}.json`)
    throw new LexiconError(`${file}: /language: the file must be named ${language}.json`)
  if (typeof name !== 'string' || name.trim() === '') throw new LexiconError(`${file}: /name: expected the language's name`)
  if (!Array.isArray(months) || months.length !== 12) throw new LexiconError(`${file}: /months: expected 12 lists, January first`)
  months.forEach((names, index) => words(names, `/months/${index}`, file))
  words(record.yes, '/yes', file)
  words(record.no, '/no', file)
  words(record.legal_forms, '/legal_forms', file)
  words(record.final_totals, '/final_totals', file)
  words(record.numbers, '/numbers', file)
  const { labels } = record
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels))
    throw new LexiconError(`${file}: /labels: expected an object of concept → labels`)
  for (const [concept, names] of Object.entries(labels)) {
    if (!/^[a-z_]+$/.test(concept)) throw new LexiconError(`${file}: /labels/${concept}: expected a concept id such as "invoice_number"`)
    words(names, `/labels/${concept}`, file)
  }
  if (typeof currencies !== 'object' || currencies === null || Array.isArray(currencies))
    throw new LexiconError(`${file}: /currencies: expected an object of ISO 4217 code → names`)
  for (const [code, names] of Object.entries(currencies)) {
    if (!/^[A-Z]{3}$/.test(code)) throw new LexiconError(`${file}: /currencies/${code}: expected an ISO 4217 code`)
    words(names, `/currencies/${code}`, file)
  }
  return data as Lexicon
}
