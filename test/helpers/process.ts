/** Runs extractd as a real process: the compiled binary (built once per test run) or the sources. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dir, '../..')
const BUN = process.execPath

/** The command that starts extractd from the sources, for tests that need processes but not the binary. */
export const FROM_SOURCE = [BUN, join(ROOT, 'src/main.ts')]

/** Every server a test started and has not stopped. */
const spawned = new Set<ReturnType<typeof Bun.spawn>>()

/** Kills the servers still running, even after a failed test; test/setup.ts runs it after every test file. */
export function killServers(): void {
  for (const proc of spawned) if (proc.exitCode === null) proc.kill('SIGKILL')
}
process.on('exit', killServers)

let built: Promise<string> | undefined

/** Compiles the binary with the project's build command into a temporary directory, once. */
export function buildBinary(): Promise<string> {
  built ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'extractd-bin-'))
    const outfile = join(outDir, 'extractd')
    // The project's own build command, with the output moved to a temporary directory.
    const pkg = (await Bun.file(join(ROOT, 'package.json')).json()) as { scripts: { build: string } }
    const args = pkg.scripts.build
      .split(' ')
      .slice(1)
      .map((arg) => (arg === 'dist/extractd' ? outfile : arg))
    const build = Bun.spawn([BUN, ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
    if ((await build.exited) !== 0) throw new Error(`build failed: ${await new Response(build.stderr).text()}`)
    return outfile
  })()
  return built
}

export function tempDir(prefix = 'extractd-test-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export async function runCli(command: string[], args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const proc = Bun.spawn([...command, ...args], { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}

export interface RunningServer {
  url: string
  port: number
  proc: ReturnType<typeof Bun.spawn>
  /** Everything printed on stdout so far, line by line. */
  lines: string[]
  /** Everything printed on stderr since it started (its extraction processes' too). */
  stderr(): string
  /** The key printed on first start, if one was. */
  firstKey: string | undefined
  /** Sends a signal and waits for the exit status. */
  stop(signal?: NodeJS.Signals): Promise<number>
}

/** Starts `serve` on a free port and waits for its start-up log line. */
export async function startServer(command: string[], args: string[], cwd: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const proc = Bun.spawn([...command, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  spawned.add(proc)
  void proc.exited.then(() => spawned.delete(proc))
  const lines: string[] = []
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  let port: number | undefined
  const deadline = Date.now() + 15_000
  while (port === undefined) {
    // A server that prints nothing more must not leave read() waiting past the deadline.
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          proc.kill('SIGKILL')
          reject(new Error(`server did not start within 15 s: ${lines.join('\n')}`))
        },
        Math.max(0, deadline - Date.now()),
      )
    })
    const { value, done } = await Promise.race([reader.read(), timedOut]).finally(() => clearTimeout(timer))
    if (done) throw new Error(`server exited: ${lines.join('\n')}\n${await new Response(proc.stderr).text()}`)
    buffered += decoder.decode(value, { stream: true })
    const parts = buffered.split('\n')
    buffered = parts.pop()!
    for (const line of parts) {
      lines.push(line)
      if (line.includes('"extractd started"')) port = Number(JSON.parse(line).listen.split(':').pop())
    }
  }
  // Keep draining stdout so the process never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffered += decoder.decode(value, { stream: true })
      const parts = buffered.split('\n')
      buffered = parts.pop()!
      lines.push(...parts)
    }
  })()
  // And stderr, for what a test wants to see there.
  let stderr = ''
  void (async () => {
    const errors = new TextDecoder()
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) stderr += errors.decode(chunk, { stream: true })
  })()
  const firstKey = lines.find((line) => /^exd_[A-Za-z0-9_-]{43}$/.test(line))
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    proc,
    lines,
    stderr: () => stderr,
    firstKey,
    async stop(signal = 'SIGTERM') {
      proc.kill(signal)
      return proc.exited
    },
  }
}

/** The key printed alone on the last line of `keys create`. */
export function lastLine(text: string): string {
  return text.trimEnd().split('\n').pop()!
}
