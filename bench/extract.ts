/**
 * Accuracy and speed of the built-in engine on the labelled development sets (../shared/eval/dev,
 * and ../shared/eval/dev-scans read through OCR; scored as their README says; `--set=` one of
 * them), a throughput check on a generated 10-page PDF,
 * and documents per second through the HTTP API with `--workers 1` and `2` (every document of the
 * set, sent by as many clients as twice the workers). Run with `bun run bench:extract`;
 * `--details` lists every wrong and empty value, `--http-only` runs only the HTTP part (on the
 * scans and photos with `--set=dev-scans`, with the server's memory).
 * `--ocr-cache=<dir>` keeps what the readers return for each document in <dir> and reads it from
 * there next time, to measure changes of the engine's rules in seconds instead of re-running OCR;
 * an entry is keyed by the document's bytes and a hash of every reader source file, so a change to
 * the readers (OCR, layout, photo crop) reads the documents again. Report final numbers without it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { loadCatalog } from '../src/modules/catalog/service'
import { builtinEngine } from '../src/modules/extraction/engines/builtin'
import { type Answers, storedAnswers } from '../src/modules/extraction/answers'
import { inProcessExtractor } from '../src/modules/extraction/extractor'
import { detectMediaType, readDocument } from '../src/modules/extraction/readers'
import { jpegFrameSize } from '../src/modules/extraction/readers/ocr/jpeg-header'
import { DEFAULT_READ_LIMITS, type RecogniserName } from '../src/modules/extraction/readers/types'
import { cachedReader, compare, fieldSpecs, isEmpty } from './dev-sets'

/** The built-in catalog: whether each set's document type is issued by the seller (D220). */
const CATALOG = loadCatalog()

/** `--eval-root=<dir>` reads the sets from another directory laid out alike (bench/photograph.ts makes one). */
const EVAL_ROOT = resolve(
  process.argv.find((arg) => arg.startsWith('--eval-root='))?.slice('--eval-root='.length) ?? join(import.meta.dir, '../../shared/eval'),
)
/** The text documents, also sent through the HTTP API for throughput. */
const DEV_DIR = join(EVAL_ROOT, 'dev')
/** Text documents, and the same kinds as scans and photos (read through OCR). */
const EVAL_SETS = ['dev', 'dev-scans'] as const
const SET = process.argv.find((arg) => arg.startsWith('--set='))?.slice('--set='.length)
const OCR_CACHE = process.argv.find((arg) => arg.startsWith('--ocr-cache='))?.slice('--ocr-cache='.length)
const DETAILS = process.argv.includes('--details')
const ONLY = process.argv.find((arg) => arg.startsWith('--dataset='))?.slice('--dataset='.length)
const HTTP_ONLY = process.argv.includes('--http-only')
/** `--scores-only` skips the throughput checks after the scores (to compare readings). */
const SCORES_ONLY = process.argv.includes('--scores-only')
/**
 * `--split` also scores each dataset's odd- and even-numbered documents apart (tune on one half,
 * report the other) and its phone photos (JPEGs of 13 MP or more) on their own.
 */
const SPLIT = process.argv.includes('--split')
/** `--files=<regexp>` reads only the documents whose file name matches (to re-measure a few). */
const FILES = new RegExp(process.argv.find((arg) => arg.startsWith('--files='))?.slice('--files='.length) ?? '')
const PHOTO_PIXELS = 13_000_000
/**
 * `--dump=<file>` writes every document's stored answers (result and fields_meta, as a job keeps
 * them) to <file>, keyed by set, dataset and file: two dumps compared byte for byte tell whether a
 * change of structure left every answer as it was.
 */
const DUMP = process.argv.find((arg) => arg.startsWith('--dump='))?.slice('--dump='.length)
const dumped: Record<string, unknown> = {}
/**
 * `--values=<file>` writes every value with truth: its set, dataset, file and half (odd or even
 * number; documents without one by their place in name order), the engine's own score, the
 * evidence kinds and confidence calibration gave it, and whether it is right. `bun run calibrate`
 * refits data/calibration.json from it (D283).
 */
const VALUES = process.argv.find((arg) => arg.startsWith('--values='))?.slice('--values='.length)
const valueRecords: ValueRecord[] = []

export interface ValueRecord {
  set: string
  dataset: string
  file: string
  half: 'odd' | 'even'
  key: string
  /** The engine's own score, before calibration; null when the value is empty. */
  score: number | null
  kinds: string[]
  /** For a value read by OCR: the least confidence of the words it was judged by (locate.ts), to study what tells right from wrong. */
  read?: number
  confidence: number | null
  verdict: 'correct' | 'wrong' | 'empty'
}
/** `--recogniser=tesseract|paddle|mix` reads the scans with that OCR (D160); the default is the server's. */
const RECOGNISER = process.argv.find((arg) => arg.startsWith('--recogniser='))?.slice('--recogniser='.length) as RecogniserName | undefined
const extract = inProcessExtractor(builtinEngine, {
  read: OCR_CACHE ? cachedReader(resolve(OCR_CACHE)) : readDocument,
  recogniser: RECOGNISER,
})

/** Truth keys that are compared with a differently named catalog field. */
const FIELD_FOR_TRUTH: Record<string, string> = { jurisdiction: 'governing_law' }

/** Datasets where a missing truth key means "no value" (a prediction there is wrong). */
const ABSENT_MEANS_NONE = new Set(['kleister_nda'])

type Outcome = 'match' | 'empty' | 'wrong' | 'none-ok'

interface FieldScore {
  truths: number
  matches: number
  strictMatches: number
  empty: number
  wrong: number
  /** Values given where the truth says there is none (counted in `wrong` too). */
  extra: number
  noneOk: number
}

// ---------------------------------------------------------------- running

function percentile(values: number[], p: number): number {
  if (!values.length) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

interface DatasetResult {
  set: string
  name: string
  pages: number
  docs: number
  fields: Map<string, FieldScore>
  partiesF1: number[]
  millis: number[]
  failures: number
  /** With --split: the same scores for the odd- and even-numbered documents and the photos. */
  parts: Map<string, DatasetResult>
}

/** The --split parts a document falls in: its number's half, and the photos. */
function splitParts(file: string, bytes: Uint8Array): string[] {
  if (!SPLIT) return []
  const number = Number(/(\d+)\.[^.]+$/.exec(file)?.[1] ?? Number.NaN)
  const parts = Number.isNaN(number) ? [] : [number % 2 === 1 ? 'odd-numbered' : 'even-numbered']
  const size = jpegFrameSize(bytes)
  if (size && size.width * size.height >= PHOTO_PIXELS) parts.push('photos (>= 13 MP)')
  return parts
}

async function runDataset(set: string, name: string): Promise<DatasetResult> {
  const dir = join(EVAL_ROOT, set, name)
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { document_type: string }
  const specs = fieldSpecs(manifest.document_type)
  const files = readdirSync(dir)
    .filter((file) => !file.endsWith('.json') && FILES.test(file))
    .sort()
  const emptyResult = (): DatasetResult => ({ set, name, pages: 0, docs: 0, fields: new Map(), partiesF1: [], millis: [], failures: 0, parts: new Map() })
  const result = emptyResult()
  const scoredKeys = new Set<string>()
  const truths = files.map((file) => {
    const truth = JSON.parse(readFileSync(join(dir, file.replace(/\.[^.]+$/, '.truth.json')), 'utf8')) as Record<string, unknown>
    for (const key of Object.keys(truth)) scoredKeys.add(key)
    return truth
  })

  for (const [index, file] of files.entries()) {
    const truth = truths[index]!
    const bytes = new Uint8Array(readFileSync(join(dir, file)))
    const targets = [result]
    for (const part of splitParts(file, bytes)) {
      if (!result.parts.has(part)) result.parts.set(part, emptyResult())
      targets.push(result.parts.get(part)!)
    }
    const started = performance.now()
    let values: Record<string, unknown> = {}
    let answers: Answers = {}
    let pages = 0
    let failed = false
    try {
      const mediaType = detectMediaType(bytes)
      if (!mediaType) throw new Error('media type not recognised')
      pages = 1
      const issuedBySeller = CATALOG.get(manifest.document_type)?.issued_by_seller === true
      const task = { content: bytes, mediaType, documentType: manifest.document_type, issuedBySeller, fields: specs, limits: DEFAULT_READ_LIMITS }
      const output = await extract(task, (progress) => (pages = progress.pages_total))
      if (output.kind !== 'answers') throw new Error('a task without typing answers its fields')
      answers = output.answers
      const stored = storedAnswers(Object.keys(answers), answers)
      values = stored.result
      if (DUMP) dumped[`${set}/${name}/${file}`] = stored
    } catch (error) {
      failed = true
      pages = 0
      console.log(`  ${name}/${file}: ${(error as Error).message}`)
    }
    const millis = performance.now() - started
    for (const target of targets) {
      target.docs++
      target.pages += pages
      if (failed) target.failures++
      target.millis.push(millis)
      scoreDocument(target, name, file, scoredKeys, truth, values, target === result)
    }
    if (VALUES) recordValues(set, name, file, index, truth, answers)
  }
  return result
}

/** The document's values with truth, for `--values`. */
function recordValues(set: string, name: string, file: string, index: number, truth: Record<string, unknown>, answers: Answers): void {
  const number = Number(/(\d+)\.[^.]+$/.exec(file)?.[1] ?? index + 1)
  for (const [truthKey, expected] of Object.entries(truth)) {
    if (expected === undefined || expected === null) continue
    const key = FIELD_FOR_TRUTH[truthKey] ?? truthKey
    const answer = Object.hasOwn(answers, key) ? answers[key] : undefined
    const empty = !answer || isEmpty(answer.value)
    valueRecords.push({
      set,
      dataset: name,
      file,
      half: number % 2 === 1 ? 'odd' : 'even',
      key,
      score: empty ? null : (answer.score?.confidence ?? answer.confidence),
      kinds: answer?.score?.kinds ?? [],
      ...(answer?.read !== undefined && !empty ? { read: answer.read } : {}),
      confidence: empty ? null : answer.confidence,
      verdict: empty ? 'empty' : compare(truthKey, answer.value, expected).match ? 'correct' : 'wrong',
    })
  }
}

/** Adds one document's values, against its truth, to a result's field scores. */
function scoreDocument(
  result: DatasetResult,
  name: string,
  file: string,
  scoredKeys: Set<string>,
  truth: Record<string, unknown>,
  values: Record<string, unknown>,
  report: boolean,
): void {
  for (const truthKey of scoredKeys) {
    const fieldKey = FIELD_FOR_TRUTH[truthKey] ?? truthKey
    const expected = truth[truthKey]
    const predicted = values[fieldKey]
    const absent = expected === undefined || expected === null
    if (absent && !ABSENT_MEANS_NONE.has(name)) continue
    const score = result.fields.get(truthKey) ?? { truths: 0, matches: 0, strictMatches: 0, empty: 0, wrong: 0, extra: 0, noneOk: 0 }
    result.fields.set(truthKey, score)
    let outcome: Outcome
    if (absent) {
      outcome = isEmpty(predicted) ? 'none-ok' : 'wrong'
      if (outcome === 'none-ok') score.noneOk++
      else {
        score.wrong++
        score.extra++
      }
    } else {
      score.truths++
      if (isEmpty(predicted)) {
        outcome = 'empty'
        score.empty++
        if (truthKey === 'parties') result.partiesF1.push(0)
      } else {
        const { match, strict, score: partial } = compare(truthKey, predicted, expected)
        if (truthKey === 'parties') result.partiesF1.push(partial)
        if (match) score.matches++
        if (strict) score.strictMatches++
        outcome = match ? 'match' : 'wrong'
        if (!match) score.wrong++
      }
    }
    if (DETAILS && report && (outcome === 'wrong' || outcome === 'empty'))
      console.log(`  ${outcome.padEnd(5)} ${name}/${file} ${truthKey}: got ${JSON.stringify(predicted)} want ${JSON.stringify(expected)}`)
  }
}

// ---------------------------------------------------------------- reporting

const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)}%` : '–')

function printDataset(result: DatasetResult): void {
  console.log(
    `\n${result.name} (${result.docs} documents, ${result.failures} failed; ` +
      `median ${percentile(result.millis, 50).toFixed(1)} ms, p95 ${percentile(result.millis, 95).toFixed(1)} ms per document)`,
  )
  console.log(
    `  ${'field'.padEnd(16)}${'truths'.padStart(7)}${'right'.padStart(7)}${'accuracy'.padStart(10)}${'empty'.padStart(7)}${'wrong'.padStart(7)}   notes`,
  )
  for (const [key, score] of [...result.fields.entries()].sort()) {
    const notes: string[] = []
    if (['company_name', 'client_name', 'jurisdiction'].includes(key)) notes.push(`strict ${pct(score.strictMatches, score.truths)} (accuracy is lenient)`)
    if (key === 'parties') {
      const meanF1 = result.partiesF1.reduce((a, b) => a + b, 0) / Math.max(1, result.partiesF1.length)
      notes.push(`right = F1 1.0; mean F1 ${meanF1.toFixed(3)}`)
    }
    if (ABSENT_MEANS_NONE.has(result.name)) notes.push(`no truth: ${score.noneOk} rightly empty, ${score.extra} answered (counted wrong)`)
    console.log(
      `  ${key.padEnd(16)}${String(score.truths).padStart(7)}${String(score.matches).padStart(7)}` +
        `${pct(score.matches, score.truths).padStart(10)}${String(score.empty).padStart(7)}${String(score.wrong).padStart(7)}   ${notes.join('; ')}`,
    )
  }
}

function printGroup(label: string, results: DatasetResult[]): void {
  let truths = 0
  let matches = 0
  let wrong = 0
  let empty = 0
  let scored = 0
  for (const result of results)
    for (const score of result.fields.values()) {
      truths += score.truths
      matches += score.matches
      wrong += score.wrong
      empty += score.empty
      scored += score.truths + score.noneOk + score.extra
    }
  console.log(
    `${label}: ${matches}/${truths} right (${pct(matches, truths)}), ${empty} empty (${pct(empty, truths)}), ` +
      `${wrong} wrong (${pct(wrong, scored)} of ${scored} scored values, ${pct(wrong, matches + wrong)} of ${matches + wrong} answered)`,
  )
}

// ---------------------------------------------------------------- throughput

async function tenPagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (let page = 1; page <= 10; page++) {
    const sheet = pdf.addPage([595, 842])
    const lines = [
      'ACME Supplies GmbH',
      'Musterstraße 1, 10115 Berlin',
      `Invoice No: INV-2024-${String(page).padStart(4, '0')}`,
      'Invoice Date: 14.03.2024',
      'Due Date: 13.04.2024',
      'Bill To: Example Customer Ltd',
      'Description                         Qty      Unit price       Amount',
    ]
    for (let item = 1; item <= 30; item++)
      lines.push(`Item ${page}-${item} consulting services          ${item}        120,00 €       ${(item * 120).toLocaleString('de-DE')},00 €`)
    lines.push('Subtotal: 55.800,00 €', 'VAT 19%: 10.602,00 €', 'Total: 66.402,00 €')
    lines.forEach((text, i) => sheet.drawText(text, { x: 40, y: 800 - i * 18, size: 10, font }))
  }
  return pdf.save()
}

async function throughput(): Promise<void> {
  const bytes = await tenPagePdf()
  const specs = fieldSpecs('invoice')
  const runs: number[] = []
  for (let run = 0; run < 12; run++) {
    const started = performance.now()
    const document = await readDocument(bytes, 'application/pdf')
    await builtinEngine.extract({ document, documentType: 'invoice', issuedBySeller: true, fields: specs })
    if (run >= 2) runs.push(performance.now() - started)
  }
  const median = percentile(runs, 50)
  console.log(
    `\n10-page text PDF (${(bytes.length / 1024).toFixed(0)} KiB), read + extract all invoice fields: ` +
      `median ${median.toFixed(1)} ms over ${runs.length} runs (target < 200 ms: ${median < 200 ? 'met' : 'NOT met'})`,
  )
}

// ---------------------------------------------------------------- throughput through the HTTP API

interface DevDocument {
  name: string
  documentType: string
  bytes: Uint8Array
}

/**
 * The documents sent through the HTTP API: the text documents of `dev`, or with `--set=dev-scans`
 * its scans and photos (`--dataset=` and `--files=` narrow either).
 */
function httpDocuments(): DevDocument[] {
  const root = SET === 'dev-scans' ? join(EVAL_ROOT, 'dev-scans') : DEV_DIR
  return readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'manifest.json')) && (!ONLY || name === ONLY))
    .sort()
    .flatMap((name) => {
      const dir = join(root, name)
      const { document_type } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { document_type: string }
      return readdirSync(dir)
        .filter((file) => !file.endsWith('.json') && FILES.test(file))
        .sort()
        .map((file) => ({ name: `${name}/${file}`, documentType: document_type, bytes: new Uint8Array(readFileSync(join(dir, file))) }))
    })
}

/** The server's resident memory now and at its peak (Linux), in MiB. */
function serverMemory(pid: number): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const mib = (key: string) => Math.round(Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024)
    return `, server RSS ${mib('VmRSS')} MiB, peak ${mib('VmHWM')} MiB`
  } catch {
    return ''
  }
}

/** `extractd serve` from the sources on a new database; resolves with its URL and first key. */
async function startServer(workers: number, dir: string) {
  const port = freePort()
  const proc = Bun.spawn(
    [
      process.execPath,
      resolve(import.meta.dir, '../src/main.ts'),
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--workers',
      String(workers),
      '--log-level',
      'warn',
      ...(RECOGNISER ? ['--ocr', RECOGNISER] : []),
    ],
    { cwd: dir, env: { ...process.env, EXTRACTD_DB: join(dir, 'extractd.sqlite') }, stdout: 'pipe', stderr: 'inherit' },
  )
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  let text = ''
  while (!/^exd_[A-Za-z0-9_-]{43}$/m.test(text)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the server stopped during start:\n${text}`)
    text += new TextDecoder().decode(value)
  }
  const key = /^exd_[A-Za-z0-9_-]{43}$/m.exec(text)![0]
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break
    } catch {
      await Bun.sleep(5) // not listening yet
    }
  }
  return { proc, key, url: `http://127.0.0.1:${port}` }
}

/** A port no one listens on now. */
function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const { port } = probe
  probe.stop(true)
  return port!
}

async function httpThroughput(): Promise<void> {
  const documents = httpDocuments()
  console.log(`\nThrough the HTTP API (POST /api/v1/extract, waiting for each result), ${documents.length} documents of ${SET ?? basename(DEV_DIR)}:`)
  for (const workers of [1, 2]) {
    const dir = mkdtempSync(join(tmpdir(), 'extractd-bench-extract-'))
    const server = await startServer(workers, dir)
    try {
      const send = async (document: DevDocument) => {
        const form = new FormData()
        form.set('file', new File([document.bytes], basename(document.name)))
        form.set('extract', JSON.stringify({ document_type: document.documentType }))
        const response = await fetch(`${server.url}/api/v1/extract`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.key}` },
          body: form,
        })
        const body = (await response.json()) as { job?: { status: string } }
        return response.status === 200 && body.job?.status === 'succeeded'
      }
      await send(documents[0]!) // starts the extraction processes
      let next = 0
      let failed = 0
      const started = performance.now()
      const client = async () => {
        while (next < documents.length) if (!(await send(documents[next++]!))) failed++
      }
      await Promise.all(Array.from({ length: workers * 2 }, client))
      const seconds = (performance.now() - started) / 1000
      console.log(
        `  --workers ${workers}: ${(documents.length / seconds).toFixed(1)} documents/s ` +
          `(${documents.length} in ${seconds.toFixed(1)} s, ${failed} not succeeded, ${navigator.hardwareConcurrency} cores${serverMemory(server.proc.pid)})`,
      )
    } finally {
      server.proc.kill('SIGTERM')
      await server.proc.exited
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

// ---------------------------------------------------------------- main

const results: DatasetResult[] = []
for (const set of EVAL_SETS.filter((name) => !HTTP_ONLY && (!SET || name === SET))) {
  const root = join(EVAL_ROOT, set)
  if (!existsSync(root)) {
    console.log(`No evaluation set at ${root}: skipping it.`)
    continue
  }
  const names = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'manifest.json')))
    .filter((name) => !ONLY || name === ONLY)
    .sort()
  console.log(`\n# ${set}`)
  const ofSet: DatasetResult[] = []
  for (const name of names) {
    const result = await runDataset(set, name)
    ofSet.push(result)
    printDataset(result)
  }
  results.push(...ofSet)
  console.log('')
  const receipts = ofSet.filter((result) => result.name === 'sroie')
  const invoices = ofSet.filter((result) => ['invoice2data', 'zugferd'].includes(result.name))
  const contracts = ofSet.filter((result) => result.name === 'kleister_nda')
  if (receipts.length) printGroup(`${set} receipts (sroie)`, receipts)
  for (const result of ofSet)
    for (const [part, scores] of [...result.parts].sort()) {
      const seconds = scores.millis.reduce((p, q) => p + q, 0) / 1000
      printGroup(
        `${set} ${result.name}, ${part} (${scores.docs} documents, ${scores.failures} failed, ${(seconds / Math.max(1, scores.docs)).toFixed(2)} s each)`,
        [scores],
      )
    }
  if (invoices.length) printGroup(`${set} invoices (invoice2data + zugferd)`, invoices)
  if (invoices.length || receipts.length) printGroup(`${set} invoice fields (invoice2data + zugferd + sroie)`, [...invoices, ...receipts])
  if (contracts.length) printGroup(`${set} contract fields (kleister_nda)`, contracts)
  if (set === 'dev-scans') {
    const pages = ofSet.reduce((sum, result) => sum + result.pages, 0)
    const seconds = ofSet.reduce((sum, result) => sum + result.millis.reduce((p, q) => p + q, 0), 0) / 1000
    console.log(
      `${set}: ${pages} pages read in ${seconds.toFixed(1)} s, ${(seconds / pages).toFixed(2)} s per page (one at a time, as a job alone on the server, ${navigator.hardwareConcurrency} cores)`,
    )
  }
}
if (DUMP) writeFileSync(resolve(DUMP), `${JSON.stringify(dumped, null, 1)}\n`)
if (VALUES) writeFileSync(resolve(VALUES), `${JSON.stringify({ values: valueRecords })}\n`)
if (!HTTP_ONLY && !SCORES_ONLY) await throughput()
if (existsSync(DEV_DIR) && !SCORES_ONLY) await httpThroughput()
