/**
 * Start-up benchmark of the compiled binary: its size, the time from exec to the first
 * /healthz 200 (median of several cold starts on fresh databases), and resident memory when idle.
 * Run with `bun run bench:startup` (it builds dist/extractd first).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')
const BINARY = join(ROOT, 'dist/extractd')
const STARTS = Number(process.env.STARTS ?? 15)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function rssMiB(pid: number): number {
  const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8') as string
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return kib / 1024
}

async function firstResponse(port: number, dir: string, db: string) {
  const started = performance.now()
  const proc = Bun.spawn([BINARY, 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', db, '--log-level', 'warn'], {
    cwd: dir,
    stdout: 'ignore',
    stderr: 'inherit',
  })
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`)
      if (response.status === 200) break
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 10_000) throw new Error('no answer within 10 s')
    await Bun.sleep(1)
  }
  return { ms: performance.now() - started, proc }
}

const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
if (build.exitCode !== 0) process.exit(1)

const dir = mkdtempSync(join(tmpdir(), 'extractd-bench-'))
try {
  const measure = async (database: (i: number) => string) => {
    const times: number[] = []
    for (let i = 0; i < STARTS; i++) {
      const { ms, proc } = await firstResponse(18_400 + i, dir, database(i))
      times.push(ms)
      proc.kill('SIGTERM')
      await proc.exited
    }
    return times
  }
  const fresh = await measure((i) => join(dir, `fresh-${i}.sqlite`))
  const restarts = await measure(() => join(dir, 'existing.sqlite'))
  const { proc } = await firstResponse(18_399, dir, join(dir, 'idle.sqlite'))
  await Bun.sleep(2000)
  const idle = rssMiB(proc.pid)
  for (let i = 0; i < 200; i++) await fetch('http://127.0.0.1:18399/healthz')
  await Bun.sleep(1000)
  const afterRequests = rssMiB(proc.pid)
  proc.kill('SIGTERM')
  await proc.exited

  const line = (label: string, times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b)
    console.log(`${label} median ${median(times).toFixed(1)} ms  (min ${sorted[0]!.toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)}, ${times.length} starts)`)
  }
  console.log(`binary size                       ${(statSync(BINARY).size / 1024 / 1024).toFixed(1)} MiB`)
  line('exec → first /healthz, restart   ', restarts)
  line('exec → first /healthz, new db    ', fresh)
  console.log(`idle RSS                          ${idle.toFixed(1)} MiB  (after 200 requests: ${afterRequests.toFixed(1)} MiB)`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
