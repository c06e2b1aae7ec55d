/**
 * HTTP benchmark of the compiled binary against a bare Bun.serve baseline (bench/baseline.ts)
 * on the same machine, in the same run, alternating: baseline, extractd, baseline, extractd...
 * Absolute numbers move a lot on a shared machine; the ratio of two runs of one round does not,
 * so the summary quotes the median of the per-round ratios, with their range.
 *
 *   bun run bench:api                 builds dist/extractd, then ROUNDS rounds
 *   EXTRACTD=/path/to/extractd        measure this binary instead (no build)
 *   BEFORE=/path/to/older/extractd    also measure an older binary in every round
 *   ROUNDS=3 DURATION=5 WARMUP=2 CONNS=64 KEYS=4000 STARTS=5 PORT=18780 ENDPOINTS="fields schemas"
 *   RESULTS=file.md                   also write the summary there
 *
 * Needs wrk (`apt-get install wrk`); with taskset (util-linux) and two cores or more, the server
 * runs on core 0 and wrk on core 1. Each run starts the server on a fresh copy of a database
 * seeded with extractd's own code: a read account with 10 schemas of 10 fields, and KEYS write
 * accounts whose keys take turns on POST (40 creates each, below the limit of 50 schemas).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { closeDatabase, openDatabase } from '../src/db/database'
import { newId } from '../src/lib/ids'
import { createKey } from '../src/modules/keys/service'
import { createSchema } from '../src/modules/schemas/service'

const ROOT = resolve(import.meta.dir, '..')
const env = process.env
const ROUNDS = Number(env.ROUNDS ?? 3)
const DURATION = Number(env.DURATION ?? 5)
const WARMUP = Number(env.WARMUP ?? 2)
const CONNS = Number(env.CONNS ?? 64)
const KEYS = Number(env.KEYS ?? 4000)
const STARTS = Number(env.STARTS ?? 5)
const PORT = Number(env.PORT ?? 18780)
const BODY_FILE = join(import.meta.dir, 'fixtures/schema-body.json')
const WRK_SCRIPT = join(import.meta.dir, 'wrk.lua')
const INVALID_BODY = '{"name":"","fields":[{"key":"total amount","label":"Total","required":true}]}'

interface Endpoint {
  name: string
  what: string
  path: string
  status: number
  post?: 'create' | 'invalid'
  /** For an error answer: the endpoint of the 200 on the same route it is compared with. */
  okOfRoute?: string
}

const work = mkdtempSync(join(tmpdir(), 'extractd-bench-api-'))
const template = join(work, 'template.sqlite')
const keysFile = join(work, 'write.keys')
const bodyFile = join(work, 'invalid.json')

let running: ReturnType<typeof Bun.spawn> | undefined

function fail(message: string): never {
  console.error(`bench:api: ${message}`)
  running?.kill('SIGKILL')
  process.exit(1)
}

function run(command: string[], options: { env?: Record<string, string> } = {}) {
  const result = Bun.spawnSync(command, { cwd: ROOT, env: { ...env, ...options.env }, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) fail(`${command.join(' ')} failed:\n${result.stderr.toString()}`)
  return result.stdout.toString()
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

// ---- the binaries ---------------------------------------------------------------------------------
if (!Bun.which('wrk')) fail('wrk is not installed (apt-get install wrk)')
const pinned = Bun.which('taskset') !== null && navigator.hardwareConcurrency >= 2
const onCore = (core: number, command: string[]) => (pinned ? ['taskset', '-c', String(core), ...command] : command)

let extractd = env.EXTRACTD
if (!extractd) {
  console.log('building dist/extractd …')
  run([process.execPath, 'run', 'build'])
  extractd = join(ROOT, 'dist/extractd')
}
const baseline = join(work, 'baseline')
run([process.execPath, 'build', '--compile', '--minify', join(import.meta.dir, 'baseline.ts'), '--outfile', baseline])

const servers: { label: string; command: string[] }[] = [
  { label: 'baseline', command: [baseline] },
  ...(env.BEFORE ? [{ label: 'before', command: [env.BEFORE, 'serve'] }] : []),
  { label: 'extractd', command: [extractd, 'serve'] },
]

// ---- the database every run starts from ------------------------------------------------------------
const { readKey, schemaId } = await (async () => {
  const database = await openDatabase(template)
  const read = await createKey(database, 'bench-read')
  const writers: string[] = []
  for (let i = 0; i < KEYS; i++) writers.push((await createKey(database, `bench-w${i}`)).key)
  const body = readFileSync(BODY_FILE, 'utf8')
  const ids: string[] = []
  for (let i = 0; i < 10; i++) {
    const schema = JSON.parse(await createSchema(database, read.accountId, JSON.parse(body.replace('__N__', String(i + 1)))))
    ids.push(schema.id)
  }
  if (database.kind === 'sqlite') database.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  await closeDatabase(database)
  writeFileSync(keysFile, `${writers.join('\n')}\n`)
  writeFileSync(bodyFile, INVALID_BODY)
  return { readKey: read.key, schemaId: ids[0]! }
})()

const ALL_ENDPOINTS: Endpoint[] = [
  { name: 'fields', what: 'GET /api/v1/fields?type=invoice', path: '/api/v1/fields?type=invoice', status: 200 },
  { name: 'fields-404', what: 'GET /api/v1/fields?type=nope', path: '/api/v1/fields?type=nope', status: 404, okOfRoute: 'fields' },
  { name: 'schemas', what: 'GET /api/v1/schemas', path: '/api/v1/schemas', status: 200 },
  { name: 'create', what: 'POST /api/v1/schemas', path: '/api/v1/schemas', status: 201, post: 'create' },
  { name: 'create-400', what: 'POST /api/v1/schemas, invalid body', path: '/api/v1/schemas', status: 400, post: 'invalid', okOfRoute: 'create' },
  { name: 'schema', what: 'GET /api/v1/schemas/:id', path: `/api/v1/schemas/${schemaId}`, status: 200 },
  { name: 'schema-404', what: 'GET /api/v1/schemas/:id, unknown', path: `/api/v1/schemas/${newId('sch')}`, status: 404, okOfRoute: 'schema' },
]
const wanted = env.ENDPOINTS?.split(/\s+/).filter(Boolean)
const endpoints = wanted ? ALL_ENDPOINTS.filter((endpoint) => wanted.includes(endpoint.name)) : ALL_ENDPOINTS

// ---- one run: start, idle memory, load -----------------------------------------------------------
const base = `http://127.0.0.1:${PORT}`

async function start(command: string[], log: string) {
  const db = join(work, 'run.sqlite')
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true })
  copyFileSync(template, db)
  const started = performance.now()
  const proc = Bun.spawn(onCore(0, command), {
    env: { ...env, HOST: '127.0.0.1', PORT: String(PORT), EXTRACTD_DB: db },
    stdout: Bun.file(log),
    stderr: 'inherit',
  })
  running = proc
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) break
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) fail(`${command[0]} exited during start; see ${log}`)
    if (performance.now() - started > 15_000) fail(`${command[0]} did not answer /healthz within 15 s`)
    await Bun.sleep(0.5)
  }
  return { proc, startupMs: performance.now() - started }
}

async function stop(proc: ReturnType<typeof Bun.spawn>) {
  proc.kill('SIGTERM')
  await proc.exited
  running = undefined
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
}
const CLOCK_TICKS = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim() || 100)

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
}

function wrk(endpoint: Endpoint, seconds: number, keyOffset: number) {
  const luaEnv: Record<string, string> = { BENCH_KEY: readKey }
  if (endpoint.post) Object.assign(luaEnv, { BENCH_METHOD: 'POST', BENCH_BODY_FILE: endpoint.post === 'create' ? BODY_FILE : bodyFile })
  if (endpoint.post === 'create') Object.assign(luaEnv, { BENCH_KEYS_FILE: keysFile, BENCH_KEY_OFFSET: String(keyOffset) })
  const command = ['wrk', '-t1', `-c${CONNS}`, `-d${seconds}s`, '--timeout', '5s', '-s', WRK_SCRIPT, base + endpoint.path]
  const out = run(onCore(1, command), { env: luaEnv })
  const line = out.split('\n').find((l) => l.startsWith('RESULT '))
  if (!line) fail(`no RESULT from wrk:\n${out}`)
  const result = Object.fromEntries(
    line
      .slice(7)
      .split(' ')
      .map((kv) => kv.split('=') as [string, string])
      .map(([k, v]) => [k, Number(v)]),
  )
  const expectedNon2xx = endpoint.status >= 400 ? result.requests! : 0
  if (result.errors! > 0 || result.non2xx !== expectedNon2xx)
    fail(`${endpoint.name}: ${result.errors} socket errors, ${result.non2xx} of ${result.requests} answers not ${endpoint.status}`)
  return result as { rps: number; p50_ms: number; p99_ms: number; requests: number; next_key: number }
}

async function smoke(endpoint: Endpoint) {
  const init: RequestInit = { headers: { authorization: `Bearer ${readKey}` } }
  if (endpoint.post) {
    init.method = 'POST'
    init.headers = { ...init.headers, 'content-type': 'application/json' }
    init.body = endpoint.post === 'invalid' ? INVALID_BODY : readFileSync(BODY_FILE, 'utf8').replace('__N__', 'smoke')
    if (endpoint.post === 'create') init.headers = { ...init.headers, authorization: `Bearer ${readFileSync(keysFile, 'utf8').split('\n').at(-2)}` }
  }
  const response = await fetch(base + endpoint.path, init)
  await response.arrayBuffer()
  if (response.status !== endpoint.status) fail(`${endpoint.name}: answered ${response.status}, expected ${endpoint.status}`)
}

/** cpu: the server's CPU time per answer, in µs, which other load on the machine changes far less than req/s. */
type Sample = { rps: number; p50: number; p99: number; cpu: number }
const results = new Map<string, { startup: number[]; idle: number[]; runs: Map<string, Sample[]> }>()
for (const server of servers) results.set(server.label, { startup: [], idle: [], runs: new Map() })

console.log(
  `${ROUNDS} rounds of ${servers.map((s) => s.label).join(', ')}; ${CONNS} connections, ${WARMUP} s warm-up + ${DURATION} s per endpoint${pinned ? ', server on core 0, wrk on core 1' : ''}`,
)
for (let round = 1; round <= ROUNDS; round++) {
  for (const server of servers) {
    const mine = results.get(server.label)!
    const log = join(work, `${server.label}.log`)
    let proc: ReturnType<typeof Bun.spawn> | undefined
    for (let s = 0; s < STARTS; s++) {
      if (proc) await stop(proc)
      const started = await start(server.command, log)
      proc = started.proc
      mine.startup.push(started.startupMs)
    }
    await Bun.sleep(1000)
    mine.idle.push(rssMiB(proc!.pid))
    const line: string[] = []
    for (const endpoint of endpoints) {
      await smoke(endpoint)
      const warm = wrk(endpoint, WARMUP, 0)
      const cpuBefore = cpuSeconds(proc!.pid)
      const measured = wrk(endpoint, DURATION, warm.next_key)
      const cpu = ((cpuSeconds(proc!.pid) - cpuBefore) * 1e6) / measured.requests
      const samples = mine.runs.get(endpoint.name) ?? []
      samples.push({ rps: measured.rps, p50: measured.p50_ms, p99: measured.p99_ms, cpu })
      mine.runs.set(endpoint.name, samples)
      line.push(`${endpoint.name} ${Math.round(measured.rps)}/s p99 ${measured.p99_ms.toFixed(2)}ms ${cpu.toFixed(0)}µs`)
    }
    await stop(proc!)
    console.log(
      `round ${round} ${server.label.padEnd(8)} start ${mine.startup.at(-1)!.toFixed(1)} ms, idle ${mine.idle.at(-1)!.toFixed(1)} MiB | ${line.join(' | ')}`,
    )
  }
}

// ---- summary: medians and per-round ratios ---------------------------------------------------------
const fmt = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en') : value.toPrecision(3))
const spread = (values: number[]) => `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`
const ratios = (a: number[], b: number[]) => a.map((value, i) => value / b[i]!)
const baselineResults = results.get('baseline')!
const rows: string[] = []
const others = servers.filter((server) => server.label !== 'baseline').map((server) => server.label)
rows.push(`| endpoint | metric | baseline | ${others.join(' | ')} | ${others.map((label) => `${label}/baseline per round`).join(' | ')} |`)
rows.push(`|---|---|---|${others.map(() => '---|').join('')}${others.map(() => '---|').join('')}`)
for (const endpoint of endpoints) {
  const metrics = [
    ['req/s', (s: Sample) => s.rps],
    ['p99 ms', (s: Sample) => s.p99],
    ['server CPU µs per answer', (s: Sample) => s.cpu],
  ] as const
  for (const [metric, pick] of metrics) {
    const of = (label: string) => results.get(label)!.runs.get(endpoint.name)!.map(pick)
    rows.push(
      `| ${endpoint.what} | ${metric} | ${spread(of('baseline'))} | ${others.map((label) => spread(of(label))).join(' | ')} | ${others.map((label) => spread(ratios(of(label), of('baseline')))).join(' | ')} |`,
    )
  }
}
const startupOf = (label: string) => results.get(label)!.startup
const roundMedians = (values: number[]) => Array.from({ length: ROUNDS }, (_, r) => median(values.slice(r * STARTS, (r + 1) * STARTS)))
rows.push(
  `| exec → first /healthz 200 | ms | ${spread(startupOf('baseline'))} | ${others.map((label) => spread(startupOf(label))).join(' | ')} | ${others.map((label) => spread(ratios(roundMedians(startupOf(label)), roundMedians(startupOf('baseline'))))).join(' | ')} |`,
)
rows.push(
  `| idle, 1 s after start | RSS MiB | ${spread(baselineResults.idle)} | ${others.map((label) => spread(results.get(label)!.idle)).join(' | ')} | ${others.map((label) => spread(ratios(results.get(label)!.idle, baselineResults.idle))).join(' | ')} |`,
)

const errorRows: string[] = [
  '| error answer | vs the 200 of the route | ' + servers.map((s) => `${s.label} per round`).join(' | ') + ' |',
  `|---|---|${servers.map(() => '---|').join('')}`,
]
for (const endpoint of endpoints.filter((e) => e.okOfRoute && endpoints.some((o) => o.name === e.okOfRoute))) {
  const ok = endpoints.find((e) => e.name === endpoint.okOfRoute)!
  const rpsOf = (label: string, name: string) =>
    results
      .get(label)!
      .runs.get(name)!
      .map((s) => s.rps)
  errorRows.push(
    `| ${endpoint.what} (${endpoint.status}) | ${ok.what} (${ok.status}) | ${servers.map((s) => spread(ratios(rpsOf(s.label, endpoint.name), rpsOf(s.label, ok.name)))).join(' | ')} |`,
  )
}

const summary = [
  `bench:api, ${new Date().toISOString()}, ${navigator.hardwareConcurrency} cores, ${ROUNDS} rounds; each cell: median (min–max) over the rounds; ratios are taken per round.`,
  '',
  ...rows,
  '',
  ...errorRows,
  '',
].join('\n')
console.log(`\n${summary}`)
if (env.RESULTS) writeFileSync(env.RESULTS, summary)
rmSync(work, { recursive: true, force: true })
