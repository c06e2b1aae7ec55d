/**
 * Refits data/calibration.json (D283, D310, D311) from what the built-in engine scored on the
 * development sets, text and scans, and whether each value was right: the `--values` files of
 * bench/extract.ts. Give both sets: a set left out loses its kinds.
 *
 *   bun bench/extract.ts --split --scores-only --values=/tmp/values-dev.json --set=dev
 *   bun bench/extract.ts --split --scores-only --values=/tmp/values-scans.json --set=dev-scans --ocr-cache=/tmp/ocr
 *   bun run calibrate /tmp/values-dev.json /tmp/values-scans.json [--fit=odd] [--threshold=0.95]
 *                     [--score-json=/tmp/calibrated] [--dry-run] [--raw]
 *
 * The values of the fitting half (`--fit`, odd-numbered by default) give every evidence kind its
 * step function (scripts/calibration-fit.ts). Then each set and half is scored with the new table:
 * the calibration error (ECE, in the bands of ../shared/eval/calibration.py), and the share of all
 * values with truth at or above the threshold with their precision. `--score-json=PREFIX` writes
 * each set and half as the JSON of ../shared/eval/score.mjs (PREFIX-<set>-<half>.json), for
 * `python3 calibration.py`. `--raw` scores the engine's own scores instead (what confidence said
 * before calibration).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ValueRecord } from '../bench/extract'
import { type CalibrationTable, confidenceOf, roleKindOf } from '../src/modules/extraction/calibration'
import { DEFAULT_REVIEW_THRESHOLD } from '../src/lib/fields/types'
import { FIT, fitKinds } from './calibration-fit'

/** What a value of a field no kind measures may be given at most (see CalibrationTable). */
const UNMEASURED_CAP = 0.9

const args = process.argv.slice(2)
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3)
const files = args.filter((arg) => !arg.startsWith('--'))
if (!files.length) {
  console.error('usage: bun run calibrate VALUES.json … [--fit=odd|even] [--threshold=0.95] [--score-json=PREFIX] [--dry-run] [--raw]')
  process.exit(2)
}
const fitHalf = option('fit') ?? 'odd'
const threshold = Number(option('threshold') ?? DEFAULT_REVIEW_THRESHOLD)
const RAW = args.includes('--raw')
const records: ValueRecord[] = files.flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as { values: ValueRecord[] }).values)

const fitting = records.filter((record) => record.half === fitHalf && record.score !== null)
const kinds = fitKinds(
  fitting.map((record) => ({ kinds: record.kinds, score: record.score!, right: record.verdict === 'correct' })),
  { ...FIT, threshold },
)

const table: CalibrationTable = {
  fitted: {
    on: `${fitHalf}-numbered half of ${[...new Set(records.map((record) => record.set))].join(', ')}`,
    values: fitting.length,
    min_values_per_kind: FIT.minValues,
    min_values_per_step: FIT.minStep,
    prior: FIT.prior,
    band_precision: FIT.bandPrecision,
  },
  kinds,
  measured: [...new Set(fitting.flatMap((record) => roleKindOf(record.kinds) ?? []))].sort(),
  unmeasuredCap: UNMEASURED_CAP,
}

/** The confidence the table gives a recorded value, as calibration.ts gives it. */
function calibrated(record: ValueRecord): number {
  return RAW ? record.score! : confidenceOf(table, record.kinds, record.score!)
}

const BANDS = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01]
function report(label: string, group: ValueRecord[]): void {
  const answered = group.filter((record) => record.score !== null)
  const rows = BANDS.slice(0, -1).map(() => ({ n: 0, right: 0, sum: 0 }))
  let sure = 0
  let sureRight = 0
  for (const record of answered) {
    const confidence = calibrated(record)
    const right = record.verdict === 'correct'
    const band = BANDS.findIndex((low, i) => confidence >= low && confidence < BANDS[i + 1]!)
    rows[band]!.n++
    rows[band]!.right += right ? 1 : 0
    rows[band]!.sum += confidence
    if (confidence >= threshold) {
      sure++
      sureRight += right ? 1 : 0
    }
  }
  const ece = rows.reduce((acc, row) => acc + (row.n ? (row.n / answered.length) * Math.abs(row.right / row.n - row.sum / row.n) : 0), 0)
  console.log(
    `${label.padEnd(24)} values ${String(group.length).padStart(4)}  answered ${String(answered.length).padStart(4)}  ECE ${ece.toFixed(3)}  ` +
      `>= ${threshold}: ${((100 * sure) / group.length).toFixed(1)} % of values, precision ${sure ? (sureRight / sure).toFixed(3) : '–'}`,
  )
}

for (const set of [...new Set(records.map((record) => record.set))])
  for (const half of ['odd', 'even'] as const) report(`${set} ${half}${half === fitHalf ? ' (fit)' : ' (check)'}`, records.filter((r) => r.set === set && r.half === half))

const scoreJson = option('score-json')
if (scoreJson)
  for (const set of [...new Set(records.map((record) => record.set))])
    for (const half of ['odd', 'even'] as const) {
      const documents = new Map<string, { dataset: string; doc: string; meta: Record<string, { confidence: number }>; fields: Record<string, { verdict: string; truth: true }> }>()
      for (const record of records.filter((r) => r.set === set && r.half === half)) {
        const id = `${record.dataset}/${record.file}`
        const doc = documents.get(id) ?? { dataset: record.dataset, doc: record.file, meta: {}, fields: {} }
        documents.set(id, doc)
        doc.fields[record.key] = { verdict: record.verdict, truth: true }
        if (record.score !== null) doc.meta[record.key] = { confidence: calibrated(record) }
      }
      const path = resolve(`${scoreJson}-${set}-${half}.json`)
      writeFileSync(path, JSON.stringify({ documents: [...documents.values()] }))
      console.log(`wrote ${path}`)
    }

if (!args.includes('--dry-run')) {
  const path = resolve(import.meta.dir, '../data/calibration.json')
  const comment = 'Confidence as the measured chance of being right (D283), written by `bun run calibrate` (scripts/calibrate.ts): do not edit by hand.'
  // One line per kind: its steps side by side, as a reader compares them.
  const lines = Object.entries(kinds).map(([kind, steps]) => `    ${JSON.stringify(kind)}: ${JSON.stringify(steps)}`)
  const text = [
    '{',
    `  "$comment": ${JSON.stringify(comment)},`,
    `  "fitted": ${JSON.stringify(table.fitted)},`,
    '  "kinds": {',
    lines.join(',\n'),
    '  },',
    `  "measured": ${JSON.stringify(table.measured)},`,
    `  "unmeasuredCap": ${UNMEASURED_CAP}`,
    '}',
  ].join('\n')
  writeFileSync(path, `${text}\n`)
  console.log(`wrote ${path}: ${Object.keys(kinds).length} kinds, ${table.measured.length} roles measured`)
}
