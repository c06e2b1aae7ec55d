/**
 * Start-up benchmark of the compiled binary against two yardsticks compiled the same way, in the
 * same run, taking turns: bare Bun.serve (bench/bare-serve.ts) and a bare Elysia app with
 * extractd's routes (bench/bare-elysia.ts). Ratios and targets are to the compiled bare Elysia
 * app; the same app run from source (`bun bare-elysia.ts`) is shown for comparison. For each:
 * the time from exec to the first /healthz 200 (median of STARTS cold starts), the CPU time used
 * until then (all threads; it moves much less with the machine's load than the time does), and
 * resident memory when idle. extractd starts on a new database every time, and on a populated
 * one (accounts, schemas and finished jobs with their documents, made by extractd's own code).
 * Absolute numbers move a lot on a shared machine; the ratios of one run much less.
 *
 *   bun run bench:startup           builds dist/extractd, then measures
 *   EXTRACTD=/path/to/extractd      measure this binary instead (no build)
 *   BEFORE=/path/to/older/extractd  also measure an older binary, in the same turns
 *   STARTS=15 IDLE_RUNS=3 SCHEMAS=300 JOBS=300 PORT=18400
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createApp } from '../src/app'
import { closeDatabase, openDatabase } from '../src/db/database'
import { silentLogger } from '../src/lib/log'
import { loadCatalog } from '../src/modules/catalog/service'
import { builtinEngine } from '../src/modules/extraction/engines/builtin'
import { inProcessExtractor } from '../src/modules/extraction/extractor'
import { DEFAULT_READ_LIMITS } from '../src/modules/extraction/readers/types'
import { createJob, resolveFields } from '../src/modules/extraction/service'
import { createJobRunner } from '../src/modules/extraction/worker'
import { createKey } from '../src/modules/keys/service'
import { createSchema } from '../src/modules/schemas/service'

const ROOT = resolve(import.meta.dir, '..')
const env = process.env
const STARTS = Number(env.STARTS ?? 15)
const IDLE_RUNS = Number(env.IDLE_RUNS ?? 3)
const SCHEMAS = Number(env.SCHEMAS ?? 300)
const JOBS = Number(env.JOBS ?? 300)
const PORT = Number(env.PORT ?? 18400)
/** How long a server is left alone before its idle memory is read. */
const IDLE_MS = 2000
/** Under the limit of 50 schemas an account may have. */
const SCHEMAS_PER_ACCOUNT = 40
/** The targets of issue 21: start-up within 1.5× bare Elysia's, idle memory within 10 MiB of it. */
const MAX_START_RATIO = 1.5
const MAX_EXTRA_RSS_MIB = 10

const INVOICE = `ACME Supplies Ltd
12 Harbour Road, Leeds LS1 4AB
INVOICE
Invoice number: INV-2024-0117
Invoice date: 14 March 2024
Due date: 13 April 2024
Bill to: Northwind Traders
Description              Qty   Unit price   Amount
Paper A4 (box)             4        12.50    50.00
Toner cartridge            1        89.00    89.00
Subtotal                                    139.00
VAT 20%                                      27.80
Total due                              GBP 166.80
`

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

/**
 * CPU time a process has used so far, over all its threads (the JIT and GC work on threads of
 * their own), from the scheduler's nanosecond counts. Unlike the time to the first answer, it
 * hardly moves with the load of a shared machine.
 */
function cpuMs(pid: number): number {
  let ns = 0
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6
}

function run(command: string[], cwd = ROOT): void {
  const done = Bun.spawnSync(command, { cwd, stdout: 'ignore', stderr: 'inherit', env: { ...env, PATH: `${join(ROOT, 'node_modules/.bin')}:${env.PATH}` } })
  if (done.exitCode !== 0) throw new Error(`failed: ${command.join(' ')}`)
}

/** The flags `bun run build` compiles extractd with, so the yardsticks are compiled the same way. */
function buildFlags(): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build
  const words = script.split(/\s+/)
  return words.filter((word, i) => word.startsWith('--') && word !== '--outfile' && words[i - 1] !== '--outfile')
}

/** Seeds a database with extractd's own code and returns extractd's routes as [method, path]. */
async function seed(path: string): Promise<[string, string][]> {
  const database = await openDatabase(path)
  const catalog = loadCatalog()
  const runner = createJobRunner({
    database,
    extract: inProcessExtractor(builtinEngine),
    catalog,
    concurrency: 2,
    keepFileMs: 7 * 24 * 3600 * 1000,
    readLimits: DEFAULT_READ_LIMITS,
    log: silentLogger,
  })
  const app = createApp({ database, catalog, extraction: { runner, engineName: builtinEngine.name, maxUploadBytes: 1 } })
  const routes = app.routes.map((route): [string, string] => [route.method, route.path])

  const accounts = Math.max(1, Math.ceil(SCHEMAS / SCHEMAS_PER_ACCOUNT))
  const accountIds: string[] = []
  for (let a = 0; a < accounts; a++) accountIds.push((await createKey(database, `bench-${a}`)).accountId)
  for (let i = 0; i < SCHEMAS; i++) {
    const fields = Array.from({ length: 10 }, (_, f) => ({ key: `field_${f}`, label: `Field ${f}`, description: '', required: f < 3 }))
    await createSchema(database, accountIds[i % accounts]!, { name: `Schema ${i + 1}`, description: 'Seeded by bench:startup', fields })
  }
  const content = new TextEncoder().encode(INVOICE)
  const sha256 = new Bun.CryptoHasher('sha256').update(content).digest('hex')
  const finished: Promise<void>[] = []
  for (let i = 0; i < JOBS; i++) {
    const accountId = accountIds[i % accounts]!
    const fields = await resolveFields(database, catalog, accountId, { document_type: 'invoice' })
    const job = await createJob(database, {
      ...fields,
      accountId,
      engine: builtinEngine.name,
      split: false,
      file: { name: `invoice-${i}.txt`, mediaType: 'text/plain', content, sha256 },
    })
    finished.push(runner.submit(job.id))
  }
  await Promise.all(finished)
  await runner.stop(0)
  if (database.kind === 'sqlite') database.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  await closeDatabase(database)
  return routes
}

interface Server {
  label: string
  /** The command that starts it on a port and a database file. */
  command: (port: number, db: string) => string[]
  env?: Record<string, string>
  /** The database each start gets; none for the yardsticks. */
  database?: (start: number) => string
}

async function start(server: Server, port: number, round: number) {
  const began = performance.now()
  const proc = Bun.spawn(server.command(port, server.database?.(round) ?? ''), {
    cwd: dir,
    stdout: 'ignore',
    stderr: 'inherit',
    env: { ...env, HOST: '127.0.0.1', PORT: String(port), ...server.env },
  })
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`)
      if (response.status === 200) break
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) throw new Error(`${server.label} exited with status ${proc.exitCode}`)
    if (performance.now() - began > 10_000) throw new Error(`${server.label}: no answer within 10 s`)
    await Bun.sleep(1)
  }
  return { ms: performance.now() - began, cpu: cpuMs(proc.pid), proc }
}

async function stop(proc: Bun.Subprocess): Promise<void> {
  proc.kill('SIGTERM')
  await proc.exited
}

const dir = mkdtempSync(join(tmpdir(), 'extractd-bench-'))
try {
  const extractd = env.EXTRACTD ? resolve(env.EXTRACTD) : join(ROOT, 'dist/extractd')
  if (!env.EXTRACTD) run([process.execPath, 'run', 'build'])
  const flags = buildFlags()
  for (const bare of ['bare-serve', 'bare-elysia'])
    run([process.execPath, 'build', join(import.meta.dir, `${bare}.ts`), ...flags, '--outfile', join(dir, bare)])

  const populated = join(dir, 'populated.sqlite')
  const routes = await seed(populated)
  const seededSize = statSync(populated).size

  // Each measured from a fresh copy, as the yardsticks are fresh builds: a binary whose pages the
  // kernel has partly dropped from its cache shows a few MiB less resident memory than a new one.
  const binaries = [{ name: 'extractd', path: extractd }, ...(env.BEFORE ? [{ name: 'extractd before', path: resolve(env.BEFORE) }] : [])].map(
    ({ name, path }, b) => {
      const copy = join(dir, `extractd-${b}`)
      copyFileSync(path, copy)
      return { name, path: copy }
    },
  )
  const servers: Server[] = [
    { label: 'bare Bun.serve', command: () => [join(dir, 'bare-serve')] },
    { label: `bare Elysia, ${routes.length} routes`, command: () => [join(dir, 'bare-elysia')], env: { ROUTES: JSON.stringify(routes) } },
    // Not compiled: how issue 21 measured its yardsticks (bare Bun.serve 19 ms, bare Elysia 47 ms), for comparison only.
    {
      label: `  the same, run from source`,
      command: () => [process.execPath, join(import.meta.dir, 'bare-elysia.ts')],
      env: { ROUTES: JSON.stringify(routes) },
    },
    ...binaries.flatMap(({ name, path }, b): Server[] => {
      const serve = (port: number, db: string) => [path, 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', db, '--log-level', 'warn']
      // Each binary restarts on its own copy, so one's migrations never make the other's start look up to date.
      const own = join(dir, `populated-${b}.sqlite`)
      copyFileSync(populated, own)
      return [
        { label: `${name}, new database`, command: serve, database: (i) => join(dir, `new-${b}-${i}.sqlite`) },
        { label: `${name}, populated database`, command: serve, database: () => own },
      ]
    }),
  ]

  const times = new Map<Server, number[]>(servers.map((server) => [server, []]))
  const cpu = new Map<Server, number[]>(servers.map((server) => [server, []]))
  for (let i = 0; i < STARTS; i++) {
    for (const [s, server] of servers.entries()) {
      const { ms, cpu: used, proc } = await start(server, PORT + s, i)
      times.get(server)!.push(ms)
      cpu.get(server)!.push(used)
      await stop(proc)
    }
  }
  const idle = new Map<Server, number[]>(servers.map((server) => [server, []]))
  for (let i = 0; i < IDLE_RUNS; i++) {
    for (const [s, server] of servers.entries()) {
      const { proc } = await start(server, PORT + s, STARTS + i)
      await Bun.sleep(IDLE_MS)
      idle.get(server)!.push(rssMiB(proc.pid))
      await stop(proc)
    }
  }

  const elysia = servers[1]!
  const elysiaMs = median(times.get(elysia)!)
  const elysiaRss = median(idle.get(elysia)!)
  const elysiaCpu = median(cpu.get(elysia)!)
  console.log(`extractd binary ${(statSync(extractd).size / 1024 / 1024).toFixed(1)} MiB; populated database ${(seededSize / 1024 / 1024).toFixed(1)} MiB`)
  console.log(`(${SCHEMAS} schemas, ${JOBS} finished jobs); ${STARTS} starts each, idle memory after ${IDLE_MS / 1000} s, median of ${IDLE_RUNS}\n`)
  console.log(`${'server'.padEnd(36)} exec → first /healthz 200 (min–max)   ×Elysia   CPU used   ×Elysia   idle RSS   −Elysia`)
  for (const server of servers) {
    const ms = times.get(server)!
    const used = median(cpu.get(server)!)
    const rss = median(idle.get(server)!)
    const ratio = median(ms) / elysiaMs
    const extra = rss - elysiaRss
    const isExtractd = server.database !== undefined
    const verdict = isExtractd ? (ratio <= MAX_START_RATIO && extra <= MAX_EXTRA_RSS_MIB ? '  within target' : '  OVER target') : ''
    console.log(
      `${server.label.padEnd(36)} ${median(ms).toFixed(1).padStart(6)} ms (${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)})`.padEnd(74) +
        `${ratio.toFixed(2).padStart(5)}×  ${used.toFixed(1).padStart(6)} ms  ${(used / elysiaCpu).toFixed(2).padStart(5)}×  ` +
        `${rss.toFixed(1).padStart(5)} MiB  ${((extra >= 0 ? '+' : '') + extra.toFixed(1)).padStart(5)} MiB${verdict}`,
    )
  }
  console.log(`\ntargets: exec → /healthz ≤ ${MAX_START_RATIO}× bare Elysia; idle RSS ≤ bare Elysia + ${MAX_EXTRA_RSS_MIB} MiB`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
