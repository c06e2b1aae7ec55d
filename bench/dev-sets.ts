/**
 * What the benchmarks that score the development sets share (bench/extract.ts, bench/learn.ts):
 * the comparison rules of the sets' README, the reader that keeps each reading in
 * `--ocr-cache=<dir>`, and the catalog's fields of a document type as a job holds them.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { JobField } from '../src/lib/fields/model'
import { resolveField } from '../src/lib/fields/resolve'
import { loadCatalog } from '../src/modules/catalog/service'
import { readDocument } from '../src/modules/extraction/readers'
import type { DocumentText, MediaType, ReadOptions } from '../src/modules/extraction/readers/types'

// ---------------------------------------------------------------- comparison (eval README)

const LEGAL_FORMS = new Set(
  (
    'inc incorporated ltd limited llc llp lp plc corp corporation co company gmbh mbh ag kg kgaa ohg ug ev eg bv nv vof ' +
    'sa sas sasu sarl eurl sl slu srl spa sapa oy oyj ab as asa aps pty pte pvt sdn bhd berhad sb kk nv se ' +
    'spolka akcyjna spółka z oo zoo sp'
  ).split(' '),
)

function nfkcFold(text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

function strictName(text: string): string {
  return nfkcFold(text)
    .replace(/[\p{P}\p{S}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
}

function nameTokens(text: string): string[] {
  return nfkcFold(text)
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .split(/\s+/)
    .filter((token) => token && !LEGAL_FORMS.has(token))
}

function tokenF1(a: string[], b: string[]): number {
  const setA = new Set(a)
  const setB = new Set(b)
  if (!setA.size || !setB.size) return 0
  let common = 0
  for (const token of setA) if (setB.has(token)) common++
  if (!common) return 0
  const precision = common / setA.size
  const recall = common / setB.size
  return (2 * precision * recall) / (precision + recall)
}

function nameMatches(predicted: string, truth: string): { strict: boolean; lenient: boolean } {
  const strict = strictName(predicted) === strictName(truth)
  const a = nameTokens(predicted)
  const b = nameTokens(truth)
  const lenient = strict || (a.join(' ') === b.join(' ') && a.length > 0) || tokenF1(a, b) >= 0.8
  return { strict, lenient }
}

function parseDecimal(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value !== 'string') return undefined
  let text = value.trim().replace(/\s/g, '')
  if (text.includes(',') && !text.includes('.')) text = text.replace(',', '.')
  const number = Number(text)
  return Number.isFinite(number) ? number : undefined
}

function parseIsoDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim())
  if (!match) return undefined
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10)
}

function invoiceNumberKey(value: string): string {
  return value
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/^(?:#|no\.?|nr\.?|n°|nº)+/, '')
    .replace(/^#/, '')
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  eighteen: 18,
  twenty: 20,
  'twenty-four': 24,
  thirty: 30,
  'thirty-six': 36,
  sixty: 60,
}

function termKey(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const text = value.toLowerCase().replace(/\([^)]*\)/g, ' ')
  const match = /(\d+(?:\.\d+)?|[a-z]+(?:-[a-z]+)?)\s*(year|month|week|day)s?\b/.exec(text)
  if (!match) return undefined
  const number = /^\d/.test(match[1]!) ? Number(match[1]) : NUMBER_WORDS[match[1]!]
  return number === undefined ? undefined : `${number} ${match[2]}`
}

/** Per-document F1 of two name sets, names matched leniently and one to one. */
function partiesF1(predicted: unknown, truth: string[]): number {
  const names = Array.isArray(predicted) ? predicted.filter((item): item is string => typeof item === 'string') : []
  if (!names.length || !truth.length) return names.length === truth.length ? 1 : 0
  const used = new Set<number>()
  let matched = 0
  for (const name of names) {
    const index = truth.findIndex((candidate, i) => !used.has(i) && nameMatches(name, candidate).lenient)
    if (index >= 0) {
      used.add(index)
      matched++
    }
  }
  if (!matched) return 0
  const precision = matched / names.length
  const recall = matched / truth.length
  return (2 * precision * recall) / (precision + recall)
}

/** Compares one predicted value with its truth; returns the match and, for names, the strict match. */
export function compare(field: string, predicted: unknown, truth: unknown): { match: boolean; strict: boolean; score: number } {
  const result = (match: boolean, strict = match) => ({ match, strict, score: match ? 1 : 0 })
  switch (field) {
    case 'date':
    case 'due_date':
    case 'effective_date':
      return result(parseIsoDate(predicted) !== undefined && parseIsoDate(predicted) === parseIsoDate(truth))
    case 'subtotal':
    case 'tax':
    case 'total': {
      const a = parseDecimal(predicted)
      const b = parseDecimal(truth)
      return result(a !== undefined && b !== undefined && Math.abs(a - b) < 0.005 + 1e-9)
    }
    case 'currency':
      return result(typeof predicted === 'string' && predicted.toUpperCase() === String(truth).toUpperCase())
    case 'invoice_number':
      return result(typeof predicted === 'string' && invoiceNumberKey(predicted) === invoiceNumberKey(String(truth)))
    case 'term': {
      const a = termKey(predicted)
      return result(a !== undefined && a === termKey(truth))
    }
    case 'parties': {
      const f1 = partiesF1(predicted, Array.isArray(truth) ? truth.map(String) : [String(truth)])
      return { match: f1 === 1, strict: f1 === 1, score: f1 }
    }
    default: {
      if (typeof predicted !== 'string') return result(false)
      const { strict, lenient } = nameMatches(predicted, String(truth))
      return { match: lenient, strict, score: lenient ? 1 : 0 }
    }
  }
}

// ---------------------------------------------------------------- reading, with --ocr-cache

/**
 * Hash of the readers' source files, the shared code and data they use (the lexicons: OCR mends
 * misread label words towards them and picks its languages by them), the OCR models and the pinned
 * dependencies: what a cached reading depends on.
 */
function readersHash(): string {
  const hash = createHash('sha256')
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else {
        hash.update(path.slice(import.meta.dir.length))
        hash.update(readFileSync(path))
      }
    }
  }
  for (const dir of ['../src/modules/extraction/readers', '../src/lib', '../data/ocr', '../data/lexicon']) visit(resolve(import.meta.dir, dir))
  for (const file of ['../src/modules/extraction/normalise/currency.ts', '../data/concepts.json', '../package-lock.json']) {
    hash.update(file)
    hash.update(readFileSync(resolve(import.meta.dir, file)))
  }
  return hash.digest('hex').slice(0, 16)
}

/** readDocument, keeping each reading in `dir` under the hash of the document, the options and the readers. */
export function cachedReader(dir: string) {
  mkdirSync(dir, { recursive: true })
  const readers = readersHash()
  return async (bytes: Uint8Array, mediaType: MediaType, options?: ReadOptions): Promise<DocumentText> => {
    const key = createHash('sha256')
      .update(bytes)
      // The recogniser `--recogniser=` picks changes the reading as much as the readers' code does.
      .update(JSON.stringify([mediaType, options?.limits, options?.readTwice === true, readers, options?.recogniser ?? '']))
      .digest('hex')
    const path = join(dir, `${key}.json`)
    if (existsSync(path)) {
      const document = JSON.parse(readFileSync(path, 'utf8')) as DocumentText
      options?.onPage?.(document.pages.length, document.pages.length)
      return revive(document)
    }
    const document = await readDocument(bytes, mediaType, options)
    writeFileSync(path, JSON.stringify(document))
    return document
  }
}

/** JSON writes a page without layout as null; the engines expect undefined there. */
function revive(document: DocumentText): DocumentText {
  const layout = document.layout?.map((page) => page ?? undefined)
  const second = document.secondReading ? revive(document.secondReading) : undefined
  return { pages: document.pages, ...(layout ? { layout } : {}), ...(second ? { secondReading: second } : {}) }
}

export function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
}

/** Every field of a catalog type as a job of that type reads it: typed, with its columns and aliases (as the service resolves them). */
export function fieldSpecs(documentType: string): JobField[] {
  const entry = loadCatalog().get(documentType)
  if (!entry) throw new Error(`unknown document type ${documentType}`)
  return entry.fields.map((field) => resolveField(field, field))
}
