/**
 * extractd on PostgreSQL against extractd on SQLite, and two instances against one, on this
 * machine and in the same run (so the ratios per round are what to quote):
 *
 * - the three benchmarked endpoints (GET /fields, GET /schemas, POST /schemas) under wrk: one
 *   instance on SQLite, one on PostgreSQL, and two on one PostgreSQL (one wrk per instance at
 *   once, with half the connections each; their answers are added up);
 * - jobs per minute of the built-in engine draining one queue of PDF invoices, queued through
 *   one instance: one instance and two instances on PostgreSQL, and one on SQLite for reference.
 *
 *   bun run bench:postgres
 *   PG=postgres://user:pass@127.0.0.1:5432/postgres   a role that may create databases (default: EXTRACTD_TEST_POSTGRES)
 *   EXTRACTD=/path/to/extractd                        measure this binary instead of building dist/extractd
 *   ROUNDS=3 DURATION=5 WARMUP=2 CONNS=64 KEYS=4000 JOBS=60 WORKERS=2 RESULTS=file.md
 *
 * Needs wrk (`apt-get install wrk`). PostgreSQL runs on the same machine and shares its cores
 * with the servers and wrk, so nothing is pinned.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import pg from 'pg'
import { closeDatabase, openDatabase } from '../src/db/database'
import { createKey } from '../src/modules/keys/service'
import { createSchema } from '../src/modules/schemas/service'
import { type Server, serverPool } from './servers'

const ROOT = resolve(import.meta.dir, '..')
const env = process.env
const ROUNDS = Number(env.ROUNDS ?? 3)
const DURATION = Number(env.DURATION ?? 5)
const WARMUP = Number(env.WARMUP ?? 2)
const CONNS = Number(env.CONNS ?? 64)
const KEYS = Number(env.KEYS ?? 4000)
const JOBS = Number(env.JOBS ?? 60)
const WORKERS = Number(env.WORKERS ?? 2)
const PORTS = [18790, 18791]
const PG = env.PG ?? env.EXTRACTD_TEST_POSTGRES
const BODY_FILE = join(import.meta.dir, 'fixtures/schema-body.json')
const WRK_SCRIPT = join(import.meta.dir, 'wrk.lua')

const work = mkdtempSync(join(tmpdir(), 'extractd-bench-pg-'))
const servers = serverPool('bench:postgres')
const { start, stopAll } = servers
// Typed where it is declared, so that code after a call to it is known not to run.
const fail: (message: string) => never = servers.fail

if (!PG) fail('set PG (or EXTRACTD_TEST_POSTGRES) to a PostgreSQL URL whose role may create databases')
if (!Bun.which('wrk')) fail('wrk is not installed (apt-get install wrk)')

function run(command: string[], extraEnv: Record<string, string> = {}): string {
  const result = Bun.spawnSync(command, { cwd: ROOT, env: { ...env, ...extraEnv }, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) fail(`${command.join(' ')} failed:\n${result.stderr.toString()}`)
  return result.stdout.toString()
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

let extractd = env.EXTRACTD
if (!extractd) {
  console.log('building dist/extractd …')
  run([process.execPath, 'run', 'build'])
  extractd = join(ROOT, 'dist/extractd')
}

// ---- databases: a seeded template of each dialect, copied for every run -----------------------------
const admin = new pg.Pool({ connectionString: PG, max: 1 })
const prefix = `extractd_bench_${process.pid}`
const pgUrl = (name: string) => {
  const url = new URL(PG)
  url.pathname = `/${name}`
  return url.toString()
}
const sqliteTemplate = join(work, 'template.sqlite')
const pgTemplate = `${prefix}_template`

/**
 * A read account with 10 schemas of 10 fields, and KEYS write accounts whose keys take turns on
 * POST (written to a file for wrk).
 */
async function seed(location: string, keysFile: string) {
  const database = await openDatabase(location)
  const read = await createKey(database, 'bench-read')
  const keys: string[] = []
  for (let i = 0; i < KEYS; i++) keys.push((await createKey(database, `bench-w${i}`)).key)
  const body = readFileSync(BODY_FILE, 'utf8')
  for (let i = 0; i < 10; i++) await createSchema(database, read.accountId, JSON.parse(body.replace('__N__', String(i + 1))))
  if (database.kind === 'sqlite') database.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  await closeDatabase(database)
  writeFileSync(keysFile, `${keys.join('\n')}\n`)
  return { readKey: read.key, keysFile }
}

await admin.query(`create database "${pgTemplate}"`)
console.log(`seeding ${KEYS} keys and 10 schemas into each template …`)
const seeded = {
  sqlite: await seed(sqliteTemplate, join(work, 'sqlite.keys')),
  postgres: await seed(pgUrl(pgTemplate), join(work, 'postgres.keys')),
}

let copies = 0
/** A fresh copy of the dialect's template: the location to start servers on. */
async function freshDatabase(dialect: 'sqlite' | 'postgres'): Promise<string> {
  copies++
  if (dialect === 'sqlite') {
    const path = join(work, `run-${copies}.sqlite`)
    copyFileSync(sqliteTemplate, path)
    return path
  }
  const name = `${prefix}_${copies}`
  await admin.query(`create database "${name}" template "${pgTemplate}"`)
  return pgUrl(name)
}

// ---- servers ---------------------------------------------------------------------------------------
function startServer(location: string, port: number): Promise<Server> {
  return start(
    [extractd!, 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', location, '--workers', String(WORKERS), '--log-level', 'warn'],
    port,
    { timeoutMs: 20_000, pollMs: 5 },
  )
}

// ---- load: wrk, one process per instance at once ---------------------------------------------------
type Endpoint = { name: string; path: string; post?: boolean }
const ENDPOINTS: Endpoint[] = [
  { name: 'GET /api/v1/fields?type=invoice', path: '/api/v1/fields?type=invoice' },
  { name: 'GET /api/v1/schemas', path: '/api/v1/schemas' },
  { name: 'POST /api/v1/schemas', path: '/api/v1/schemas', post: true },
]

interface WrkResult {
  rps: number
  p99_ms: number
  /** Per wrk process: the first write key it did not use. */
  nextKeys: number[]
}

function wrkArgs(port: number, endpoint: Endpoint, seconds: number, conns: number) {
  return ['wrk', '-t1', `-c${conns}`, `-d${seconds}s`, '--timeout', '5s', '-s', WRK_SCRIPT, `http://127.0.0.1:${port}${endpoint.path}`]
}

/** Each instance's wrk takes its POST keys from its own share of the keys (from `firstKeys`), so no account reaches its limit. */
async function wrkAt(
  ports: number[],
  { readKey, keysFile }: { readKey: string; keysFile: string },
  endpoint: Endpoint,
  seconds: number,
  firstKeys: number[],
): Promise<WrkResult> {
  const conns = Math.max(1, Math.floor(CONNS / ports.length))
  const procs = ports.map((port, i) => {
    const luaEnv: Record<string, string> = { BENCH_KEY: readKey }
    if (endpoint.post)
      Object.assign(luaEnv, {
        BENCH_METHOD: 'POST',
        BENCH_BODY_FILE: BODY_FILE,
        BENCH_KEYS_FILE: keysFile,
        BENCH_KEY_OFFSET: String(firstKeys[i]),
      })
    return Bun.spawn(wrkArgs(port, endpoint, seconds, conns), { env: { ...env, ...luaEnv }, stdout: 'pipe', stderr: 'pipe' })
  })
  const results = await Promise.all(
    procs.map(async (proc) => {
      const out = await new Response(proc.stdout).text()
      if ((await proc.exited) !== 0) fail(`wrk failed: ${await new Response(proc.stderr).text()}`)
      const line = out.split('\n').find((l) => l.startsWith('RESULT '))
      if (!line) fail(`no RESULT from wrk:\n${out}`)
      const result = Object.fromEntries(
        line
          .slice(7)
          .split(' ')
          .map((kv) => kv.split('='))
          .map(([k, v]) => [k!, Number(v)]),
      )
      if (result.errors! > 0 || result.non2xx! > 0)
        fail(`${endpoint.name}: ${result.errors} socket errors, ${result.non2xx} of ${result.requests} answers not 2xx`)
      return result as unknown as WrkResult
    }),
  )
  return {
    rps: results.reduce((sum, result) => sum + result.rps, 0),
    p99_ms: Math.max(...results.map((result) => result.p99_ms)),
    nextKeys: results.map((result) => (result as unknown as { next_key: number }).next_key),
  }
}

// ---- jobs: one queue drained by the instances ------------------------------------------------------
async function invoicePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const page = pdf.addPage([595, 842])
  const lines = [
    'Northwind Traders Ltd',
    'Harbour Road 12, 20457 Hamburg',
    '',
    'Invoice No.: NW-2024-0042',
    'Invoice Date: 14 March 2024',
    'Bill To: Contoso GmbH',
    '',
    'Description                Qty    Price     Amount',
    'Freight Hamburg-Rotterdam    1   900.00     900.00',
    'Handling                     2   100.00     200.00',
    '',
    'Subtotal: EUR 1,100.00',
    'VAT 19%: EUR 209.00',
    'Total: EUR 1,309.00',
  ]
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 11, font }))
  return pdf.save()
}
const pdf = await invoicePdf()

/** Queues JOBS extractions through the first port, then waits until all ended: jobs per minute. */
async function drain(ports: number[], readKey: string): Promise<number> {
  const base = `http://127.0.0.1:${ports[0]}`
  const headers = { authorization: `Bearer ${readKey}` }
  const started = performance.now()
  for (let i = 0; i < JOBS; i++) {
    const form = new FormData()
    form.set('file', new File([pdf], `invoice-${i}.pdf`))
    form.set('extract', JSON.stringify({ document_type: 'invoice' }))
    const response = await fetch(`${base}/api/v1/extract?async=true`, { method: 'POST', headers, body: form })
    if (response.status !== 202) fail(`extract answered ${response.status}: ${await response.text()}`)
  }
  for (;;) {
    const open = await Promise.all(
      ['queued', 'running'].map(async (status) => {
        const response = await fetch(`${base}/api/v1/jobs?status=${status}&limit=1`, { headers })
        return ((await response.json()) as { jobs: unknown[] }).jobs.length
      }),
    )
    if (open[0] === 0 && open[1] === 0) break
    await Bun.sleep(20)
  }
  const minutes = (performance.now() - started) / 60_000
  const failed = await fetch(`${base}/api/v1/jobs?status=failed&limit=1`, { headers })
  if (((await failed.json()) as { jobs: unknown[] }).jobs.length > 0) fail('a job failed')
  return JOBS / minutes
}

// ---- rounds ---------------------------------------------------------------------------------------
const SETUPS = [
  { label: 'sqlite ×1', dialect: 'sqlite' as const, instances: 1 },
  { label: 'postgres ×1', dialect: 'postgres' as const, instances: 1 },
  { label: 'postgres ×2', dialect: 'postgres' as const, instances: 2 },
]
const rps = new Map<string, number[]>()
const p99 = new Map<string, number[]>()
const jobsPerMinute = new Map<string, number[]>()
const push = (map: Map<string, number[]>, key: string, value: number) => map.set(key, [...(map.get(key) ?? []), value])

console.log(
  `${ROUNDS} rounds of ${SETUPS.map((setup) => setup.label).join(', ')}; ${CONNS} connections in all, ${WARMUP} s warm-up + ${DURATION} s per endpoint; ${JOBS} jobs, ${WORKERS} workers per instance`,
)
for (let round = 1; round <= ROUNDS; round++) {
  for (const setup of SETUPS) {
    const seeds = seeded[setup.dialect]
    const ports = PORTS.slice(0, setup.instances)
    // The load: a fresh copy for the endpoints, another for the jobs.
    const location = await freshDatabase(setup.dialect)
    for (const port of ports) await startServer(location, port)
    const line: string[] = []
    for (const endpoint of ENDPOINTS) {
      const shares = ports.map((_, i) => Math.floor((i * KEYS) / ports.length))
      const warm = await wrkAt(ports, seeds, endpoint, WARMUP, shares)
      const measured = await wrkAt(ports, seeds, endpoint, DURATION, warm.nextKeys)
      push(rps, `${setup.label}|${endpoint.name}`, measured.rps)
      push(p99, `${setup.label}|${endpoint.name}`, measured.p99_ms)
      line.push(`${endpoint.name.split(' ')[0]} ${endpoint.name.split('/').at(-1)} ${Math.round(measured.rps)}/s`)
    }
    await stopAll()
    const jobsLocation = await freshDatabase(setup.dialect)
    for (const port of ports) await startServer(jobsLocation, port)
    const perMinute = await drain(ports, seeds.readKey)
    push(jobsPerMinute, setup.label, perMinute)
    await stopAll()
    console.log(`round ${round} ${setup.label.padEnd(12)} | ${line.join(' | ')} | ${Math.round(perMinute)} jobs/min`)
  }
}

// ---- summary --------------------------------------------------------------------------------------
const fmt = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en') : value.toPrecision(3))
const spread = (values: number[]) => `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`
const perRound = (a: number[], b: number[]) => spread(a.map((value, i) => value / b[i]!))
const rows = [
  '| endpoint | sqlite ×1 req/s | postgres ×1 req/s | postgres ×2 req/s | postgres ×1 / sqlite ×1 | postgres ×2 / postgres ×1 | p99 ms (sqlite ×1, pg ×1, pg ×2) |',
  '|---|---|---|---|---|---|---|',
]
for (const endpoint of ENDPOINTS) {
  const of = (label: string) => rps.get(`${label}|${endpoint.name}`)!
  const p = (label: string) => fmt(median(p99.get(`${label}|${endpoint.name}`)!))
  rows.push(
    `| ${endpoint.name} | ${spread(of('sqlite ×1'))} | ${spread(of('postgres ×1'))} | ${spread(of('postgres ×2'))} | ${perRound(of('postgres ×1'), of('sqlite ×1'))} | ${perRound(of('postgres ×2'), of('postgres ×1'))} | ${p('sqlite ×1')}, ${p('postgres ×1')}, ${p('postgres ×2')} |`,
  )
}
const jobs = (label: string) => jobsPerMinute.get(label)!
rows.push(
  '',
  '| jobs per minute (built-in engine, one-page PDF invoices) | sqlite ×1 | postgres ×1 | postgres ×2 | postgres ×1 / sqlite ×1 | postgres ×2 / postgres ×1 |',
  '|---|---|---|---|---|---|',
)
rows.push(
  `| ${JOBS} jobs queued through one instance, ${WORKERS} workers each | ${spread(jobs('sqlite ×1'))} | ${spread(jobs('postgres ×1'))} | ${spread(jobs('postgres ×2'))} | ${perRound(jobs('postgres ×1'), jobs('sqlite ×1'))} | ${perRound(jobs('postgres ×2'), jobs('postgres ×1'))} |`,
)
const summary = [
  `bench:postgres, ${new Date().toISOString()}, ${navigator.hardwareConcurrency} cores, ${ROUNDS} rounds; median (min–max); ratios per round.`,
  '',
  ...rows,
  '',
].join('\n')
console.log(`\n${summary}`)
if (env.RESULTS) writeFileSync(env.RESULTS, summary)

for (let i = 1; i <= copies; i++) await admin.query(`drop database if exists "${prefix}_${i}" with (force)`)
await admin.query(`drop database if exists "${pgTemplate}" with (force)`)
await admin.end()
rmSync(work, { recursive: true, force: true })
