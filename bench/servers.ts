/**
 * The extractd processes a benchmark runs: started, waited for until /healthz answers, stopped, and
 * killed with everything else when the benchmark fails.
 */
import { readdirSync, readFileSync } from 'node:fs'

export type Server = ReturnType<typeof Bun.spawn>

/**
 * A memory figure of a process and its descendants together, in KiB: a server with its extraction
 * processes (D190). `VmRSS` is resident now; `VmHWM` sums each live process's own peak.
 */
export function treeKiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  let total = 0
  try {
    total = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    for (const task of readdirSync(`/proc/${pid}/task`))
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) total += treeKiB(Number(child), field)
  } catch {
    // It ended meanwhile.
  }
  return total
}

export function serverPool(benchmark: string) {
  const running = new Set<Server>()

  function fail(message: string): never {
    console.error(`${benchmark}: ${message}`)
    for (const proc of running) proc.kill('SIGKILL')
    process.exit(1)
  }

  /** Starts `command` and resolves once it answers /healthz on `port`. */
  async function start(command: string[], port: number, options: { cwd?: string; timeoutMs: number; pollMs: number }): Promise<Server> {
    const proc = Bun.spawn(command, { cwd: options.cwd, stdout: 'ignore', stderr: 'inherit' })
    running.add(proc)
    const started = performance.now()
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return proc
      } catch {
        // not listening yet
      }
      if (proc.exitCode !== null) fail('extractd exited during start')
      if (performance.now() - started > options.timeoutMs) fail(`extractd did not answer /healthz within ${options.timeoutMs / 1000} s`)
      await Bun.sleep(options.pollMs)
    }
  }

  async function stopAll(): Promise<void> {
    for (const proc of running) proc.kill('SIGTERM')
    await Promise.all([...running].map((proc) => proc.exited))
    running.clear()
  }

  return { running, fail, start, stopAll }
}
