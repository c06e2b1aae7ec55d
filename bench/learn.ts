/**
 * Learning from reviews (issue 32, D260–D279), measured in process. Run with `bun run bench:learn`.
 *
 * `--mode=eval` (the default) does what ../shared/eval/learn.mjs does over HTTP, on the labelled
 * sets (`--set=dev|dev-scans`, both by default; `--ocr-cache=<dir>` reads each scan once, see
 * bench/extract.ts): senders are told apart by the truth's company_name; for each sender with
 * several documents the first (in file order) is extracted on account A, then learned from with
 * its true values as a review would give them, and the sender's other documents are extracted on
 * A and scored against a baseline that learned nothing. Senders with one document are the control:
 * extracted on A too, their scores must not drop. A last pass extracts taught senders' documents
 * on account B, which learned nothing: any answer other than the baseline's is a leak. Senders are
 * split by their first document's number: odd-numbered senders are the half rules were tuned on,
 * even-numbered the half quoted. `--details` lists every later document's value that is wrong or
 * empty after learning.
 *
 * `--mode=cost` measures what 10,000 learned layouts of one account cost: the memory of their
 * index, the bytes a layout takes stored, and the time an extraction takes with a match among them
 * against the same extraction without (`--layouts=N` another count).
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { closeDatabase, openDatabase } from '../src/db/database'
import { resolveField } from '../src/lib/fields/resolve'
import type { JobField } from '../src/lib/fields/model'
import { loadCatalog } from '../src/modules/catalog/service'
import { type Answers, storedAnswers } from '../src/modules/extraction/answers'
import { builtinEngine } from '../src/modules/extraction/engines/builtin'
import { inProcessExtractor, type TaskOutput } from '../src/modules/extraction/extractor'
import { markWeight, similarity } from '../src/modules/extraction/learning/fingerprint'
import type { LearnedLayout } from '../src/modules/extraction/learning/layout'
import { hashKey, LayoutStore } from '../src/modules/extraction/learning/layout-index'
import { learnLayout, type ReadAnswer } from '../src/modules/extraction/learning/learn'
import { matchLayout, withLearnedLayouts } from '../src/modules/extraction/learning/read'
import { ownKeys } from '../src/modules/extraction/learning/words'
import { createKey } from '../src/modules/keys/service'
import { reviewsRepository } from '../src/modules/reviews/repository'
import { layoutCache } from '../src/modules/reviews/layout-cache'
import { detectMediaType, readDocument } from '../src/modules/extraction/readers'
import { DEFAULT_READ_LIMITS, type DocumentText } from '../src/modules/extraction/readers/types'
import { cachedReader, compare, isEmpty } from './dev-sets'
import { syntheticReceipt } from './synthetic-receipts'

const arg = (name: string) => process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3)
const EVAL_ROOT = resolve(arg('eval-root') ?? join(import.meta.dir, '../../shared/eval'))
const OCR_CACHE = arg('ocr-cache')
const MODE = arg('mode') ?? 'eval'
const SETS = arg('set') ? [arg('set')!] : ['dev', 'dev-scans']
const DETAILS = process.argv.includes('--details')
const LAYOUTS = Number(arg('layouts') ?? 10_000)

/** The reader, keeping what it read last: a review learns from the document its job read. */
const baseReader = OCR_CACHE ? cachedReader(resolve(OCR_CACHE)) : readDocument
let lastRead: DocumentText | undefined
const extractor = inProcessExtractor(builtinEngine, { read: async (...args: Parameters<typeof readDocument>) => (lastRead = await baseReader(...args)) })

/** The answers of a task that names its type. */
function answersOf(output: TaskOutput): Answers {
  if (output.kind !== 'answers') throw new Error('a task without typing answers its fields')
  return output.answers
}

/** What the scorer sends: its datasets' fields and descriptions (../shared/eval/score.mjs), not values. */
const scorer = (await import(join(EVAL_ROOT, 'score.mjs'))) as {
  DATASETS: Record<string, { type: string; fields: string[] }>
  DESCRIPTIONS: Record<string, string>
}

/** The job's fields as the API resolves `{"fields": {"<key>": "<description>"}}` (service.ts resolveFields). */
function requestFields(documentType: string, keys: string[]): JobField[] {
  const known = new Map(
    loadCatalog()
      .get(documentType)!
      .fields.map((field) => [field.key, field]),
  )
  return keys.map((key) => resolveField({ key, label: key, description: scorer.DESCRIPTIONS[key]! }, known.get(key)))
}

interface Doc {
  stem: string
  file: string
  number: number
  truth: Record<string, unknown>
  sender: string
}

interface Extracted {
  answers: Answers
  result: Record<string, unknown>
  document: DocumentText
}

async function extract(doc: Doc, documentType: string, fields: JobField[], account?: LayoutStore): Promise<Extracted> {
  const bytes = new Uint8Array(readFileSync(doc.file))
  const mediaType = detectMediaType(bytes)!
  const general = answersOf(
    await extractor({ content: bytes, mediaType, documentType, issuedBySeller: documentType === 'invoice', fields, limits: DEFAULT_READ_LIMITS }),
  )
  // As the job runner does (D274): the document as read, again with the account's layouts.
  const answers = account ? await withLearnedLayouts(lastRead!, fields, general, account.source) : general
  return { answers, result: storedAnswers(Object.keys(answers), answers).result, document: lastRead! }
}

/** A truth value as a review sends it: dates as YYYY-MM-DD, amounts as numbers, text as printed (learn.mjs `typed`). */
function reviewed(field: JobField, value: unknown): unknown {
  if (field.type === 'amount' || field.type === 'number') return Number(value)
  return value
}

interface Score {
  docs: number
  values: number
  right: number
  wrong: number
  learned: number
}

const emptyScore = (): Score => ({ docs: 0, values: 0, right: 0, wrong: 0, learned: 0 })

function scoreInto(score: Score, doc: Doc, keys: string[], extracted: Extracted): { key: string; outcome: string }[] {
  score.docs++
  const misses: { key: string; outcome: string }[] = []
  for (const key of keys) {
    const truth = doc.truth[key]
    if (isEmpty(truth)) continue
    score.values++
    const predicted = extracted.result[key]
    if (extracted.answers[key]?.learned) score.learned++
    if (isEmpty(predicted)) misses.push({ key, outcome: 'empty' })
    else if (compare(key, predicted, truth).match) score.right++
    else {
      score.wrong++
      misses.push({ key, outcome: 'wrong' })
    }
  }
  return misses
}

const show = (score: Score) =>
  `accuracy ${(score.values ? score.right / score.values : 0).toFixed(3)} precision ${(score.right + score.wrong ? score.right / (score.right + score.wrong) : 0).toFixed(3)} ` +
  `(${score.right}/${score.values} right, ${score.wrong} wrong; ${score.docs} documents, ${score.learned} values from a learned layout)`

async function evaluate(set: string, dataset: string): Promise<void> {
  const dir = join(EVAL_ROOT, set, dataset)
  if (!existsSync(dir)) return
  const spec = scorer.DATASETS[dataset]!
  const fields = requestFields(spec.type, spec.fields)
  const files = readdirSync(dir)
  const docs: Doc[] = files
    .filter((name) => name.endsWith('.truth.json'))
    .sort()
    .flatMap((name) => {
      const stem = name.slice(0, -'.truth.json'.length)
      const file = files.find((other) => other.startsWith(`${stem}.`) && !other.endsWith('.json'))
      if (!file) return []
      const truth = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>
      const sender = String(truth.company_name ?? '')
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, ' ')
        .trim()
      return [{ stem, file: join(dir, file), number: Number(/(\d+)$/.exec(stem)?.[1] ?? Number.NaN), truth, sender }]
    })
  const groups = new Map<string, Doc[]>()
  for (const doc of docs) if (doc.sender) groups.set(doc.sender, [...(groups.get(doc.sender) ?? []), doc])
  const taught = [...groups.values()].filter((group) => group.length > 1)
  const control = [...groups.values()].filter((group) => group.length === 1).flat()
  // Halves: by the number of a sender's first document (file order where names have no number).
  const half = (doc: Doc) => (Number.isNaN(doc.number) ? (docs.indexOf(doc) % 2 === 0 ? 'odd' : 'even') : doc.number % 2 === 1 ? 'odd' : 'even')
  console.log(
    `\n## ${set}/${dataset}: ${docs.length} documents, ${groups.size} senders; ${taught.length} taught (${taught.length} reviewed, ` +
      `${taught.reduce((sum, group) => sum + group.length - 1, 0)} after), ${control.length} single documents as control`,
  )

  const accountA = new LayoutStore()
  const started = performance.now()
  // 1. baseline: every document on an account that learned nothing.
  const baseline = new Map<Doc, Extracted>()
  for (const doc of docs) baseline.set(doc, await extract(doc, spec.type, fields))
  // 2. teach: the first document of each sender extracted on A, then reviewed with its true values.
  for (const group of taught) {
    const first = group[0]!
    const extracted = await extract(first, spec.type, fields, accountA)
    const stored = storedAnswers(Object.keys(extracted.answers), extracted.answers)
    const values = Object.fromEntries(
      fields.filter((field) => !isEmpty(first.truth[field.key])).map((field) => [field.key, reviewed(field, first.truth[field.key])]),
    )
    const read: Record<string, ReadAnswer> = Object.fromEntries(
      fields.map((field) => [
        field.key,
        { value: stored.result[field.key], page: stored.fieldsMeta[field.key]!.page, bbox: stored.fieldsMeta[field.key]!.bbox ?? null },
      ]),
    )
    const readWith = Object.values(extracted.answers).find((answer) => answer.learned)?.learned?.layout
    const layout = learnLayout(
      { job: `job_${first.stem}`, document: extracted.document, fields, values, read },
      { into: readWith ? accountA.get(readWith) : undefined, id: `lay_${String(accountA.size).padStart(6, '0')}`, now: new Date().toISOString() },
    )
    accountA.put(layout)
  }
  // 3. after: the other documents of taught senders, and the control, on A.
  const scores = { before: { odd: emptyScore(), even: emptyScore() }, after: { odd: emptyScore(), even: emptyScore() } }
  const controlScores = { before: { odd: emptyScore(), even: emptyScore() }, after: { odd: emptyScore(), even: emptyScore() } }
  const matched = { odd: 0, even: 0 }
  const perField = new Map<string, { before: number; after: number; wrongBefore: number; wrongAfter: number; n: number }>()
  for (const group of taught) {
    const part = half(group[0]!)
    for (const doc of group.slice(1)) {
      const after = await extract(doc, spec.type, fields, accountA)
      const before = baseline.get(doc)!
      const keys = ownKeys(after.document)
      const match = matchLayout(keys, await accountA.source(() => keys))
      if (match) matched[part]++
      else if (DETAILS) {
        const closest = taught.find((other) => other.includes(doc))![0]!
        const layout = accountA.all().find((one) => Object.values(one.fields).some((field) => field.job === `job_${closest.stem}`))
        console.log(`  ${part} no layout matched ${doc.stem} (${doc.sender}): its sender's ${JSON.stringify(layout && similarity(layout.fingerprint, keys))}`)
      }
      scoreInto(scores.before[part], doc, spec.fields, before)
      const misses = scoreInto(scores.after[part], doc, spec.fields, after)
      for (const key of spec.fields) {
        if (isEmpty(doc.truth[key])) continue
        const entry = perField.get(key) ?? { before: 0, after: 0, wrongBefore: 0, wrongAfter: 0, n: 0 }
        perField.set(key, entry)
        entry.n++
        const judge = (value: unknown) => (isEmpty(value) ? 'empty' : compare(key, value, doc.truth[key]).match ? 'right' : 'wrong')
        const [b, a] = [judge(before.result[key]), judge(after.result[key])]
        if (b === 'right') entry.before++
        if (a === 'right') entry.after++
        if (b === 'wrong') entry.wrongBefore++
        if (a === 'wrong') entry.wrongAfter++
      }
      if (DETAILS)
        for (const miss of misses)
          console.log(
            `  ${part} ${miss.outcome.padEnd(5)} ${doc.stem} ${miss.key}: got ${JSON.stringify(after.result[miss.key])}` +
              `${after.answers[miss.key]?.learned ? ` (learned ${after.answers[miss.key]!.learned!.how})` : ''}, baseline ${JSON.stringify(before.result[miss.key])}, want ${JSON.stringify(doc.truth[miss.key])}`,
          )
    }
  }
  for (const doc of control) {
    const part = Number.isNaN(doc.number) ? 'odd' : doc.number % 2 === 1 ? 'odd' : 'even'
    scoreInto(controlScores.before[part], doc, spec.fields, baseline.get(doc)!)
    const after = await extract(doc, spec.type, fields, accountA)
    const misses = scoreInto(controlScores.after[part], doc, spec.fields, after)
    if (DETAILS)
      for (const miss of misses.filter((entry) => after.answers[entry.key]?.learned))
        console.log(
          `  control ${miss.outcome} ${doc.stem} ${miss.key}: got ${JSON.stringify(after.result[miss.key])} (learned), want ${JSON.stringify(doc.truth[miss.key])}`,
        )
  }
  if (DETAILS) {
    // How close the nearest layout comes to each document: a sender's own (later documents) and another's (the control), by half.
    const all = accountA.all()
    const closest = (doc: Doc) => {
      const keys = ownKeys(baseline.get(doc)!.document)
      return all.map((layout) => similarity(layout.fingerprint, keys)).sort((a, b) => b.score - a.score)[0]
    }
    const format = (list: (ReturnType<typeof closest> | undefined)[]) =>
      list
        .filter((entry) => entry !== undefined)
        .sort((a, b) => a!.score - b!.score)
        .map((entry) => `${entry!.score.toFixed(2)}/${entry!.head.toFixed(2)}`)
        .join(' ')
    for (const doc of control) {
      const near = closest(doc)
      if (near && (near.score >= 0.35 || near.head >= 0.5))
        console.log(`  control ${doc.stem} (${doc.sender}) is close to a layout: ${near.score.toFixed(2)}/${near.head.toFixed(2)}`)
    }
    for (const part of ['odd', 'even'] as const) {
      console.log(
        `  ${part}: own layout, lowest: ${format(
          taught
            .filter((group) => half(group[0]!) === part)
            .flatMap((group) => group.slice(1))
            .map(closest),
        ).slice(0, 120)}`,
      )
      const controls = format(control.filter((doc) => (doc.number % 2 === 1 ? 'odd' : 'even') === part).map(closest))
      console.log(`  ${part}: control's nearest, highest: ${controls.slice(-120)}`)
    }
  }
  // 4. leaks: taught senders' documents on account B, which learned nothing of its own.
  const accountB = new LayoutStore()
  const sample = taught.flatMap((group) => group.slice(1)).slice(0, 20)
  let leaks = 0
  for (const doc of sample) {
    const again = await extract(doc, spec.type, fields, accountB)
    if (JSON.stringify(again.result) !== JSON.stringify(baseline.get(doc)!.result)) leaks++
  }
  const seconds = (performance.now() - started) / 1000

  for (const part of ['odd', 'even'] as const) {
    const name = part === 'odd' ? 'tuned on (odd-numbered senders)' : 'quoted (even-numbered senders)'
    console.log(`  ${name}: baseline ${show(scores.before[part])}`)
    console.log(`  ${' '.repeat(name.length)}  after    ${show(scores.after[part])}`)
  }
  console.log(
    `  later documents read with a learned layout: ${matched.odd} of ${scores.after.odd.docs} (odd), ${matched.even} of ${scores.after.even.docs} (even)`,
  )
  for (const [key, entry] of perField)
    console.log(`    ${key.padEnd(15)} ${entry.before}/${entry.n} -> ${entry.after}/${entry.n} right, wrong ${entry.wrongBefore} -> ${entry.wrongAfter}`)
  for (const part of ['odd', 'even'] as const)
    console.log(`  control, ${part}-numbered: before ${show(controlScores.before[part])}\n                       after  ${show(controlScores.after[part])}`)
  console.log(`  leaks: ${leaks} of ${sample.length} documents of taught senders read differently on an account that learned nothing`)
  console.log(`  ${accountA.size} layouts learned; ${seconds.toFixed(1)} s`)
}

// ---------------------------------------------------------------- cost of 10,000 layouts

function heapMiB(): number {
  Bun.gc(true)
  return process.memoryUsage().heapUsed / 2 ** 20
}

async function cost(): Promise<void> {
  const fields = requestFields('invoice', ['company_name', 'date', 'total'])
  console.log(`\n## cost: ${LAYOUTS} learned layouts of one account`)
  // The layouts: those of made-up senders, and those the dev set's receipts teach (each sender's
  // first receipt with its truth, as the evaluation teaches them), whose later receipts then match.
  const learnStarted = performance.now()
  const layouts: string[] = []
  for (let sender = 0; sender < LAYOUTS; sender++) {
    const { document, values } = syntheticReceipt(sender, 0)
    const layout = learnLayout({ job: `job_${sender}`, document, fields, values }, { id: `lay_${layouts.length}`, now: new Date().toISOString() })
    layouts.push(JSON.stringify(layout))
  }
  const learnMillis = (performance.now() - learnStarted) / LAYOUTS
  const dir = join(EVAL_ROOT, 'dev', 'sroie')
  const receipts = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.txt'))
        .sort()
        .map((name) => {
          const truth = JSON.parse(readFileSync(join(dir, name.replace(/\.txt$/, '.truth.json')), 'utf8')) as Record<string, unknown>
          return {
            document: { pages: [readFileSync(join(dir, name), 'utf8')] } as DocumentText,
            truth,
            sender: String(truth.company_name)
              .toUpperCase()
              .replace(/[^A-Z0-9]+/g, ' ')
              .trim(),
          }
        })
    : []
  const firsts = new Map<string, (typeof receipts)[number]>()
  const counts = new Map<string, number>()
  for (const receipt of receipts) {
    counts.set(receipt.sender, (counts.get(receipt.sender) ?? 0) + 1)
    if (!firsts.has(receipt.sender)) firsts.set(receipt.sender, receipt)
  }
  for (const [sender, first] of firsts) {
    if (counts.get(sender)! < 2) continue
    const values = Object.fromEntries(fields.map((field) => [field.key, reviewed(field, first.truth[field.key])]))
    layouts.push(
      JSON.stringify(
        learnLayout({ job: `job_${sender}`, document: first.document, fields, values }, { id: `lay_${layouts.length}`, now: new Date().toISOString() }),
      ),
    )
  }
  const bytes = layouts.reduce((sum, json) => sum + json.length, 0)
  const marks = layouts.reduce((sum, json) => sum + (JSON.parse(json) as LearnedLayout).fingerprint.marks.length, 0)
  console.log(
    `  ${layouts.length} layouts (${layouts.length - LAYOUTS} taught by the dev set's receipts); learning one: ${learnMillis.toFixed(2)} ms; ` +
      `stored as JSON: ${(bytes / layouts.length / 1024).toFixed(2)} KiB a layout, ${(bytes / 2 ** 20).toFixed(1)} MiB for all; ${(marks / layouts.length).toFixed(1)} fingerprint words a layout`,
  )

  // The server's own form (D270, D300): the layouts stored by the reviews repository in a SQLite
  // file, found by an instance's layout cache; a second account has none.
  const file = join(tmpdir(), `extractd-bench-learn-${process.pid}.sqlite`)
  const database = await openDatabase(file)
  const { accountId } = await createKey(database, 'bench')
  const { accountId: emptyAccount } = await createKey(database, 'bench-none')
  // A third account holds only the layouts the dev set's receipts teach: the difference between it
  // and the account of 10,000 is what finding the match among them costs, the reading with the
  // match being the same for both.
  const { accountId: fewAccount } = await createKey(database, 'bench-few')
  const repository = reviewsRepository(database)
  const now = new Date().toISOString()
  const save = async (account: string, stored: string[], prefix: string) => {
    for (let i = 0; i < stored.length; i += 500) {
      const started = performance.now()
      await database.transaction(function* (tx) {
        for (const json of stored.slice(i, i + 500)) {
          const layout = JSON.parse(json) as LearnedLayout
          const marks = layout.fingerprint.marks.map((mark) => ({ word: hashKey(mark.key) | 0, weight: markWeight(mark) }))
          const body = JSON.stringify({ ...layout, id: prefix + layout.id })
          yield* repository.save(tx, { id: prefix + layout.id, accountId: account, jobId: layout.id, body, marks, createdAt: now, updatedAt: now })
        }
      })
      if (account === accountId) saveMillis += performance.now() - started
    }
  }
  let saveMillis = 0
  await save(accountId, layouts, '')
  await save(fewAccount, layouts.slice(LAYOUTS), 'few_')
  if (database.kind !== 'sqlite') throw new Error('a SQLite database')
  const pages = (database.sqlite.query('PRAGMA page_count').get() as { page_count: number }).page_count
  const pageSize = (database.sqlite.query('PRAGMA page_size').get() as { page_size: number }).page_size
  console.log(
    `  as the server stores them (layouts, layout_marks, layout_words and their indexes): ${((pages * pageSize) / 2 ** 20).toFixed(1)} MiB in the database; ` +
      `storing one as a review does: ${(saveMillis / layouts.length).toFixed(2)} ms`,
  )

  // An instance's cache of the account (D300), built after its first lookup: the memory it adds.
  const heapBefore = heapMiB()
  const rssBefore = await settledRssMiB()
  const cache = layoutCache(database)
  const loadStarted = performance.now()
  await cache.of(accountId)(() => new Set())
  await cache.settled()
  const loadMillis = performance.now() - loadStarted
  const heapAfter = heapMiB()
  const rssAfter = await settledRssMiB()
  console.log(
    `  an instance's index of them (${cache.held().layouts} layouts), built after the first lookup in ${loadMillis.toFixed(0)} ms: ` +
      `+${(heapAfter - heapBefore).toFixed(1)} MiB of heap, +${(rssAfter - rssBefore).toFixed(1)} MiB of RSS (${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB)`,
  )
  // The same account looked up in the database, as the server does for an account with more layouts than it holds.
  const viaDatabase = layoutCache(database, 0)
  await viaDatabase.of(accountId)(() => new Set())
  await viaDatabase.settled()

  const documents = receipts.map((receipt) => receipt.document)
  const sources = {
    none: cache.of(emptyAccount),
    few: cache.of(fewAccount),
    memory: cache.of(accountId),
    database: viaDatabase.of(accountId),
  }
  await sources.few(() => new Set())
  await cache.settled()
  // Each receipt is extracted without layouts, then its answers are read again with each source:
  // the second part is what learning adds to an extraction. Interleaved per receipt, so that the
  // machine's load weighs on all alike; the medians of five rounds are compared, for the receipts
  // that match a layout (later receipts of taught senders) and for the others apart.
  const encoder = new TextEncoder()
  const matches = await Promise.all(
    documents.map(async (document) => matchLayout(ownKeys(document), await sources.memory(() => ownKeys(document))) !== undefined),
  )
  type Source = keyof typeof sources
  const names = Object.keys(sources) as Source[]
  type Times = Record<'extraction' | Source, number[]>
  const empty = (): Times => ({ extraction: [], none: [], few: [], memory: [], database: [] })
  const rounds = { matched: empty(), others: empty() }
  for (let round = 0; round < 6; round++) {
    const zero = () => ({ extraction: 0, none: 0, few: 0, memory: 0, database: 0 })
    const total = { matched: zero(), others: zero() }
    for (const [i, document] of documents.entries()) {
      const group = total[matches[i] ? 'matched' : 'others']
      let started = performance.now()
      const general = answersOf(
        await inProcessExtractor(builtinEngine, { read: async () => document })({
          content: encoder.encode(document.pages[0]!),
          mediaType: 'text/plain',
          documentType: 'invoice',
          issuedBySeller: true,
          fields,
          limits: DEFAULT_READ_LIMITS,
        }),
      )
      group.extraction += performance.now() - started
      // Each receipt takes the sources in another order, so that none always runs first (cold).
      for (const name of [...names.slice(i % names.length), ...names.slice(0, i % names.length)]) {
        started = performance.now()
        await withLearnedLayouts(document, fields, general, sources[name])
        group[name] += performance.now() - started
      }
    }
    // The first round warms up.
    if (round > 0)
      for (const group of ['matched', 'others'] as const) {
        const count = matches.filter((matched) => matched === (group === 'matched')).length
        for (const name of ['extraction', ...names] as const) rounds[group][name].push(total[group][name] / Math.max(1, count))
      }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const taught = layouts.length - LAYOUTS
  for (const group of ['matched', 'others'] as const) {
    const none = median(rounds[group].extraction)
    const added = (name: Source) => `+${median(rounds[group][name]).toFixed(3)} ms (${((100 * median(rounds[group][name])) / none).toFixed(1)} %)`
    console.log(
      `  ${matches.filter((matched) => matched === (group === 'matched')).length} dev text receipts ${group === 'matched' ? 'that match a layout' : 'that match none'}, per receipt, median of 5 rounds:\n` +
        `    extraction without layouts                        ${none.toFixed(2)} ms\n` +
        `    an account without layouts (its generation read)  ${added('none')}\n` +
        `    matching and reading, only the ${taught} taught layouts  ${added('few')}\n` +
        `    matching and reading, the instance's index        ${added('memory')}\n` +
        `    finding among ${layouts.length} rather than ${taught} (index − taught only)  ` +
        `+${(median(rounds[group].memory) - median(rounds[group].few)).toFixed(3)} ms (${((100 * (median(rounds[group].memory) - median(rounds[group].few))) / none).toFixed(1)} %)\n` +
        `    matching and reading, looked up in the database   ${added('database')}`,
    )
  }
  await closeDatabase(database)
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
}

/**
 * Resident memory once the allocator has given back what a burst left it: right after a build it
 * still holds the build's garbage (one run read 223 MiB then, 155 MiB a second later).
 */
async function settledRssMiB(): Promise<number> {
  Bun.gc(true)
  await Bun.sleep(1500)
  Bun.gc(true)
  return process.memoryUsage.rss() / 2 ** 20
}

if (MODE === 'cost') await cost()
else
  for (const set of SETS) {
    if (!existsSync(join(EVAL_ROOT, set))) {
      console.log(`No evaluation set at ${join(EVAL_ROOT, set)}: skipping it.`)
      continue
    }
    console.log(`\n# ${set}`)
    for (const dataset of ['sroie', 'zugferd', 'invoice2data']) await evaluate(set, dataset)
  }
