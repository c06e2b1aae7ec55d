/**
 * Classification and splitting (issue 34), in process: what ../shared/eval/bundles.mjs measures
 * through the HTTP API, in seconds with `--ocr-cache=<dir>` (bench/ocr-cache.ts).
 *
 *   bun run bench:classify --ocr-cache=/work/ocr-cache [--eval-root=DIR] [--set=dev|dev-scans|generated]
 *                          [--seeds=1,2] [--bundles=20] [--max-pages=8] [--details] [--calibrate]
 *
 * 1. Every document of `dev` and `dev-scans` classified alone (invoice2data, zugferd and sroie are
 *    invoices, kleister_nda contracts), scored per half: odd-numbered files (tuned on) and even.
 *    The text receipts of `dev` are classified too, though bundles.mjs sends PDFs and images only.
 * 2. Bundles as bundles.mjs draws them: the same documents (PDFs and images of at most
 *    --max-pages pages), the same seeded generator, 2–5 documents each. A bundle's reading is its
 *    documents' readings one after another (each page is read on its own, so this is what reading
 *    the joined PDF gives, but for a receipt photo that bundles.mjs makes a PDF page of, which the
 *    PDF reader takes without the photo's straightening). Scored: page-range F1 and types right.
 * 3. The same for the documents of every catalog type, and of none, written for the tests
 *    (test/helpers/documents.ts), as the `generated` set: the dev sets hold invoices, receipts and
 *    contracts only.
 * `--calibrate` fits the chance model's temperature and the score of "none" on the odd half of the
 * dev sets and the generated documents, and reports how well confidences match the share right.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Classification, FoundDocument } from '../src/modules/catalog/classification'
import { loadCatalog } from '../src/modules/catalog/service'
import { classifyDocument, splitDocument } from '../src/modules/extraction/engines/builtin/classify'
import { compile, readPages } from '../src/modules/extraction/engines/builtin/classify/reading'
import { typeScores } from '../src/modules/extraction/engines/builtin/classify/score'
import { CHANCE } from '../src/modules/extraction/engines/builtin/classify/weights'
import { detectMediaType, readDocument } from '../src/modules/extraction/readers'
import { DEFAULT_READ_LIMITS, type DocumentText } from '../src/modules/extraction/readers/types'
import { SAMPLE_DOCUMENTS } from '../test/helpers/documents'
import { cachedReader } from './dev-sets'

const arg = (name: string) => process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3)
const EVAL_ROOT = resolve(arg('eval-root') ?? join(import.meta.dir, '../../shared/eval'))
const OCR_CACHE = arg('ocr-cache')
const read = OCR_CACHE ? cachedReader(resolve(OCR_CACHE)) : readDocument
const SETS = (arg('set') ?? 'dev,dev-scans,generated').split(',')
const SEEDS = (arg('seeds') ?? '1,2').split(',').map(Number)
const BUNDLES = Number(arg('bundles') ?? 20)
const MAX_PAGES = Number(arg('max-pages') ?? 8)
const DETAILS = process.argv.includes('--details')
const CALIBRATE = process.argv.includes('--calibrate')

/** What each dataset's documents are, as bundles.mjs scores them. */
const TYPE: Record<string, string> = { zugferd: 'invoice', invoice2data: 'invoice', sroie: 'invoice', kleister_nda: 'contract' }

const types = loadCatalog().classifiable()

interface Item {
  set: string
  dataset: string
  stem: string
  truth: string | null
  half: 'odd' | 'even'
  document: DocumentText
  /** Sent in bundles as bundles.mjs sends them: a PDF or an image, of at most --max-pages pages. */
  bundled: boolean
  /** Seconds to read it, and to classify it. */
  readSeconds: number
}

/** A file's half: odd or even by the number in its name, else by its place in its dataset. */
function halfOf(stem: string, index: number): 'odd' | 'even' {
  const number = Number(/(\d+)(?!.*\d)/.exec(stem)?.[1] ?? index)
  return number % 2 === 1 ? 'odd' : 'even'
}

async function evalItems(set: string): Promise<Item[]> {
  const items: Item[] = []
  const root = join(EVAL_ROOT, set)
  if (!existsSync(root)) {
    console.log(`No evaluation set at ${root}: skipping it.`)
    return items
  }
  // In bundles.mjs's order: its datasets, then files by name.
  for (const dataset of Object.keys(TYPE)) {
    const dir = join(root, dataset)
    if (!existsSync(dir)) continue
    const stems = readdirSync(dir)
      .filter((name) => name.endsWith('.truth.json'))
      .sort()
      .map((name) => name.slice(0, -'.truth.json'.length))
    for (const [index, stem] of stems.entries()) {
      const file = ['pdf', 'jpg', 'txt'].map((extension) => join(dir, `${stem}.${extension}`)).find(existsSync)
      if (!file) continue
      const bytes = new Uint8Array(readFileSync(file))
      const started = performance.now()
      // Read as bench:extract reads (a doubtful scan's second reading too, which classifying ignores), to share its cache.
      const document = await read(bytes, detectMediaType(bytes)!, { limits: DEFAULT_READ_LIMITS, readTwice: true })
      const pages = document.pageCount ?? document.pages.length
      items.push({
        set,
        dataset,
        stem,
        truth: TYPE[dataset]!,
        half: halfOf(stem, index),
        document,
        bundled: !file.endsWith('.txt') && pages >= 1 && pages <= MAX_PAGES,
        readSeconds: (performance.now() - started) / 1000,
      })
    }
  }
  return items
}

function generatedItems(): Item[] {
  return SAMPLE_DOCUMENTS.map((sample, index) => ({
    set: 'generated',
    dataset: sample.type ?? 'none',
    stem: sample.name,
    truth: sample.type,
    half: index % 2 === 0 ? 'odd' : 'even',
    document: { pages: sample.pages.map((lines) => lines.join('\n')) },
    bundled: true,
    readSeconds: 0,
  }))
}

// ---------------------------------------------------------------- classification

interface Tally {
  n: number
  right: number
  /** Confidence and whether right, for calibration. */
  points: [number, boolean][]
}

const tally = (): Tally => ({ n: 0, right: 0, points: [] })

function classifyAll(items: Item[]): Map<Item, Classification> {
  const answers = new Map<Item, Classification>()
  for (const item of items) answers.set(item, classifyDocument(item.document, types))
  return answers
}

function report(set: string, items: Item[], answers: Map<Item, Classification>): void {
  const groups = new Map<string, Tally>()
  const add = (name: string, right: boolean, confidence: number) => {
    const group = groups.get(name) ?? groups.set(name, tally()).get(name)!
    group.n++
    if (right) group.right++
    group.points.push([confidence, right])
  }
  for (const item of items) {
    const answer = answers.get(item)!
    const right = answer.documentType === item.truth
    for (const name of [`${item.dataset}`, `${item.dataset} ${item.half}`, `all ${item.half}`, 'all']) add(name, right, answer.confidence)
    if (DETAILS && !right)
      console.log(
        `  wrong ${item.dataset}/${item.stem}: ${answer.documentType} (${answer.confidence}) want ${item.truth}; ${answer.candidates.map((c) => `${c.documentType} ${c.confidence}`).join(', ')}`,
      )
  }
  console.log(`\n# ${set}: classification, each document alone`)
  for (const [name, group] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    console.log(
      `  ${name.padEnd(22)} ${String(group.right).padStart(4)}/${String(group.n).padEnd(4)} ${(group.right / group.n).toFixed(3)}   mean confidence ${mean(group.points.map(([c]) => c)).toFixed(3)}, ECE ${ece(group.points).toFixed(3)}`,
    )
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)

/** Expected calibration error over ten bands of confidence. */
function ece(points: [number, boolean][]): number {
  let error = 0
  for (let band = 0; band < 10; band++) {
    const inBand = points.filter(([confidence]) => Math.min(9, Math.floor(confidence * 10)) === band)
    if (!inBand.length) continue
    error += (inBand.length / points.length) * Math.abs(mean(inBand.map(([c]) => c)) - inBand.filter(([, right]) => right).length / inBand.length)
  }
  return error
}

// ---------------------------------------------------------------- bundles

/** bundles.mjs's seeded generator (mulberry32). */
function generator(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The documents' readings one after another: what reading them joined into one file gives. */
function joined(documents: DocumentText[]): DocumentText {
  const pages = documents.flatMap((document) => document.pages)
  if (!documents.some((document) => document.layout)) return { pages }
  return { pages, layout: documents.flatMap((document) => document.layout ?? document.pages.map(() => undefined)) }
}

function bundles(items: Item[], seed: number): { f1: number; types: number; line: string } {
  const pool = items.filter((item) => item.bundled)
  const rand = generator(seed)
  let truths = 0
  let found = 0
  let exact = 0
  let typeRight = 0
  let seconds = 0
  let pages = 0
  for (let bundle = 0; bundle < BUNDLES; bundle++) {
    const k = 2 + Math.floor(rand() * 4)
    const parts = Array.from({ length: k }, () => pool[Math.floor(rand() * pool.length)]!)
    let page = 1
    const truth = parts.map((part) => {
      const range = { item: part, first: page, last: page + part.document.pages.length - 1 }
      page += part.document.pages.length
      return range
    })
    const document = joined(parts.map((part) => part.document))
    const started = performance.now()
    const documents: FoundDocument[] = splitDocument(document, types)
    seconds += (performance.now() - started) / 1000
    pages += document.pages.length
    truths += truth.length
    found += documents.length
    for (const range of truth) {
      const match = documents.find((found) => found.firstPage === range.first && found.lastPage === range.last)
      if (!match) continue
      exact++
      if (match.classification.documentType === range.item.truth) typeRight++
      else if (DETAILS) console.log(`  seed ${seed} bundle ${bundle}: ${range.item.dataset}/${range.item.stem} typed ${match.classification.documentType}`)
    }
    if (DETAILS && documents.some((found) => !truth.some((range) => range.first === found.firstPage && range.last === found.lastPage)))
      console.log(
        `  seed ${seed} bundle ${bundle}: truth ${truth.map((range) => `${range.first}-${range.last} ${range.item.dataset}/${range.item.stem}`).join(', ')}; found ${documents.map((found) => `${found.firstPage}-${found.lastPage}`).join(', ')}`,
      )
  }
  const precision = found ? exact / found : 0
  const recall = truths ? exact / truths : 0
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0
  const typesShare = exact ? typeRight / exact : 0
  return {
    f1,
    types: typesShare,
    line: `  seed ${seed}: ${BUNDLES} bundles, ${pages} pages (${((1000 * seconds) / pages).toFixed(1)} ms a page); documents ${truths}, found ${found}, exact ${exact}; split F1 ${f1.toFixed(3)}, types ${typeRight}/${exact} = ${typesShare.toFixed(3)}`,
  }
}

// ---------------------------------------------------------------- calibration

/** Fits the temperature and the score of none on the odd half, by the log-likelihood of the right answer. */
function calibrate(items: Item[]): void {
  const compiled = compile(types)
  const rows = items.map((item) => {
    const readings = readPages(item.document, compiled, Math.min(item.document.pages.length, 4))
    return { item, scores: typeScores(readings, compiled) }
  })
  const slugs = types.map((type) => type.slug)
  const loss = (temperature: number, none: number, half: 'odd' | 'even') => {
    let total = 0
    let count = 0
    const points: [number, boolean][] = []
    for (const { item, scores } of rows) {
      if (item.half !== half) continue
      const weights = scores.map((score) => Math.exp(score / temperature))
      const noneWeight = Math.exp(none / temperature)
      const sum = weights.reduce((a, b) => a + b, noneWeight)
      const truthIndex = item.truth === null ? -1 : slugs.indexOf(item.truth)
      const chance = (truthIndex < 0 ? noneWeight : weights[truthIndex]!) / sum
      total -= Math.log(Math.max(chance, 1e-6))
      count++
      const best = Math.max(noneWeight, ...weights)
      const answer = best === noneWeight ? null : slugs[weights.indexOf(best)]!
      points.push([best / sum, answer === item.truth])
    }
    return { loss: total / count, ece: ece(points), right: points.filter(([, right]) => right).length / points.length }
  }
  let best: { temperature: number; none: number; loss: number } = { temperature: CHANCE.temperature, none: CHANCE.none, loss: Number.POSITIVE_INFINITY }
  for (let temperature = 0.05; temperature <= 2.001; temperature += 0.05)
    for (let none = 0; none <= 4.001; none += 0.1) {
      const { loss: value } = loss(temperature, none, 'odd')
      if (value < best.loss) best = { temperature, none, loss: value }
    }
  const fmt = (r: ReturnType<typeof loss>) => `log-loss ${r.loss.toFixed(3)}, right ${r.right.toFixed(3)}, ECE ${r.ece.toFixed(3)}`
  console.log(`\n# calibration (${rows.length} documents)`)
  console.log(
    `  now (temperature ${CHANCE.temperature}, none ${CHANCE.none}): odd ${fmt(loss(CHANCE.temperature, CHANCE.none, 'odd'))}; even ${fmt(loss(CHANCE.temperature, CHANCE.none, 'even'))}`,
  )
  console.log(
    `  fitted on odd (temperature ${best.temperature.toFixed(2)}, none ${best.none.toFixed(1)}): odd ${fmt(loss(best.temperature, best.none, 'odd'))}; even ${fmt(loss(best.temperature, best.none, 'even'))}`,
  )
}

// ---------------------------------------------------------------- main

const everything: Item[] = []
for (const set of SETS) {
  const started = performance.now()
  const items = set === 'generated' ? generatedItems() : await evalItems(set)
  if (!items.length) continue
  const readSeconds = (performance.now() - started) / 1000
  const classifyStarted = performance.now()
  const answers = classifyAll(items)
  const classifySeconds = (performance.now() - classifyStarted) / 1000
  report(set, items, answers)
  console.log(
    `  read in ${readSeconds.toFixed(1)} s; classified in ${classifySeconds.toFixed(2)} s (${((1000 * classifySeconds) / items.length).toFixed(1)} ms a document)`,
  )
  console.log(`# ${set}: bundles (${items.filter((item) => item.bundled).length} documents drawn from)`)
  for (const seed of SEEDS) console.log(bundles(items, seed).line)
  everything.push(...items)
}
if (CALIBRATE) calibrate(everything)
