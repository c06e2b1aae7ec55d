/**
 * Texts of two or three kinds of lines, repeated (D392): what bench:text-traps, which repeats one
 * line, cannot show. Each text is read at 16 and at 128 KiB through the whole extraction (reader,
 * then the built-in engine with the type's catalog fields, the invoice's with four named ones, as
 * a job of the type reads them), in a
 * process of its own stopped after `--give-up=<s>` (default 30 s). A text whose CPU time grows more
 * than twice as fast as its size (over 16× for 8× the bytes) or that is stopped is reported, and
 * the run exits 1. The slowest texts are listed either way.
 *
 *   bun run bench:text-combos                       the invoice type: each line alone, 150 pairs, 50 triples (~3 min)
 *   bun run bench:text-combos --types=all           every catalog type: each line alone, 40 pairs and 10 triples a type (~10 min)
 *   bun run bench:text-combos --types=contract,payslip
 */
import { TEXT_COMBO_LINES } from '../test/helpers/text-traps'
import { childReading, cpuMs, warmReader } from './text-child'

const SMALL = 16 * 1024
const LARGE = 128 * 1024
const giveUpMs = Number(process.argv.find((arg) => arg.startsWith('--give-up='))?.slice('--give-up='.length) ?? 30) * 1000

if (process.argv[2] === '--child') {
  const [unit, type] = JSON.parse(process.argv[3]!) as [string, string]
  console.log(JSON.stringify(await readAtTwoSizes(unit, type)))
  process.exit(0)
}

/** CPU milliseconds to extract the unit repeated to each size. */
async function readAtTwoSizes(unit: string, type: string): Promise<number[]> {
  const read = await warmReader(type)
  const times: number[] = []
  for (const size of [SMALL, LARGE]) {
    const started = cpuMs()
    await read(unit.repeat(Math.ceil(size / unit.length)).slice(0, size)).catch(() => undefined)
    times.push(cpuMs() - started)
  }
  return times
}

/** A seeded generator, so that a run's sample is the same every time. */
function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return state / 2 ** 32
  }
}

/** Every line alone, then pairs and triples of them drawn with a fixed seed. */
function textsFor(pairCount: number, tripleCount: number): string[] {
  const lines = TEXT_COMBO_LINES
  const random = seeded(7)
  // The first `count` of a Fisher–Yates shuffle.
  const pick = <T>(list: T[], count: number) => {
    const shuffled = [...list]
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
    }
    return shuffled.slice(0, count)
  }
  const pairs = lines.flatMap((a, i) => lines.slice(i + 1).map((b) => `${a}\n${b}\n`))
  const triples = Array.from({ length: tripleCount }, () => `${pick(lines, 3).join('\n')}\n`)
  return [...lines.map((line) => `${line}\n`), ...pick(pairs, pairCount), ...triples]
}

const typesArgument = process.argv.find((arg) => arg.startsWith('--types='))?.slice('--types='.length) ?? 'invoice'
const { loadCatalog } = await import('../src/modules/catalog/service')
const types = typesArgument === 'all' ? loadCatalog().slugs() : typesArgument.split(',')
const [pairCount, tripleCount] = types.length > 1 ? [40, 10] : [150, 50]
const jobs = types.flatMap((type) => textsFor(pairCount, tripleCount).map((unit) => ({ unit, type })))
console.log(`${jobs.length} texts (${types.join(', ')}), each at ${SMALL / 1024} and ${LARGE / 1024} KiB, two at a time\n`)

const results: { unit: string; type: string; small?: number; large?: number }[] = []
async function runOne(job: { unit: string; type: string }) {
  const [small, large] = (await childReading<number[]>(import.meta.path, ['--child', JSON.stringify([job.unit, job.type])], giveUpMs, 'ignore')) ?? []
  results.push({ ...job, small, large })
}
let next = 0
await Promise.all(
  [0, 1].map(async () => {
    while (next < jobs.length) await runOne(jobs[next++]!)
  }),
)

const faster = results.filter((result) => result.large === undefined || result.large / Math.max(result.small!, 5) > 16)
const show = (result: (typeof results)[number]) =>
  `${result.type} | ${JSON.stringify(result.unit)} | ${result.small === undefined ? '–' : Math.round(result.small)} | ${result.large === undefined ? `stopped after ${giveUpMs / 1000} s` : Math.round(result.large)}`
console.log('slowest at 128 KiB (type | text | CPU ms at 16 KiB | at 128 KiB):')
for (const result of [...results].sort((a, b) => (b.large ?? Infinity) - (a.large ?? Infinity)).slice(0, 10)) console.log(show(result))
console.log(faster.length ? `\n${faster.length} text(s) grow faster than their size:` : '\nno text grows faster than its size')
for (const result of faster) console.log(show(result))
process.exit(faster.length ? 1 : 0)
