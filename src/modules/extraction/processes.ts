/**
 * A pool of extraction processes (D190, was threads: D63): children of the same executable, one
 * task at a time each, spoken to over IPC. Whatever a child's native code is doing (ONNX Runtime,
 * libvips), its end cannot take the server with it: a canceled or timed-out task kills its child.
 * Children start on the first job and end after a while without work, so an idle server holds
 * none and their memory goes back to the system; while all are busy, one more waits started, for
 * the task that takes a killed one's place (D191).
 */
import { fileURLToPath } from 'node:url'
import type { Subprocess } from 'bun'
import type { Logger } from '../../lib/log'
import type { OpenAiEngineOptions } from './engines/openai'
import { ExtractionError, type JobErrorCode, UNEXPECTED } from './errors'
import type { ExtractionTask, Extractor, Progress, TaskOutput } from './extractor'
import type { DocumentText, RecogniserName } from './readers/types'

/**
 * What the pool tells a child: `init` once, with the jobs running in the whole pool, by which
 * its OCR takes its share of the cores, and `ocrThreads`, the most it takes (undefined: up to
 * four; D175), and the operator's choice of word reader (D160); `running` whenever that count changes; `task`, one at a time, whose document's
 * `size` bytes follow on the child's standard input (D198: written there without a copy on the
 * server's thread, where the IPC channel would serialize them).
 */
export type ChildMessage =
  | { type: 'init'; llm: OpenAiEngineOptions | undefined; ocrThreads: number | undefined; recogniser: RecogniserName; running: number }
  | { type: 'running'; count: number }
  | { type: 'task'; id: number; task: Omit<ExtractionTask, 'content'>; size: number; read: boolean }

export type ChildReply =
  | { id: number; ok: true; output: TaskOutput }
  | { id: number; ok: false; error: { code: JobErrorCode; message: string }; detail?: string }
  | { id: number; progress: Progress }
  | { id: number; read: DocumentText }

/** The hidden command of the executable that runs a child (`extractd extract-worker`, as `ps` shows it). */
const CHILD_COMMAND = 'extract-worker'

/**
 * How a child is started: the binary runs itself with the hidden command; from the sources, bun
 * runs the entry file with it.
 */
const CHILD = import.meta.url.includes('/$bunfs/')
  ? [process.execPath, CHILD_COMMAND]
  : [process.execPath, fileURLToPath(new URL('../../main.ts', import.meta.url)), CHILD_COMMAND]

/** How long a child without work lives (D191): well within a minute of the last job, its memory is back. */
const CHILD_IDLE_MS = 20_000

export interface ProcessPoolOptions {
  size: number
  llm: OpenAiEngineOptions | undefined
  /** Longest a task may run before its child is killed. */
  timeoutMs: number
  idleMs?: number
  /** The most threads one page's OCR model runs on (D175). */
  ocrThreads?: number
  /** The word reader of scanned pages (D160); `auto` when not given. */
  recogniser?: RecogniserName
  log: Logger
}

interface Pending {
  id: number
  task: ExtractionTask
  onProgress?: (progress: Progress) => void
  onRead?: (document: DocumentText) => void
  resolve: (output: TaskOutput) => void
  reject: (error: ExtractionError) => void
}

interface Child {
  proc: Subprocess<'pipe', 'inherit', 'inherit'>
  current?: Pending & { timer: ReturnType<typeof setTimeout> }
  idleTimer?: ReturnType<typeof setTimeout>
  /** Killed by the pool: its end is expected, and its task already settled. */
  killed: boolean
}

/** The rejection of a canceled task; its job is already marked canceled, so nothing stores it. */
const CANCELED = () => new ExtractionError(UNEXPECTED.code, 'The extraction was canceled')

export function createProcessPool({ size, llm, timeoutMs, idleMs = CHILD_IDLE_MS, ocrThreads, recogniser = 'auto', log }: ProcessPoolOptions) {
  const children = new Set<Child>()
  const waiting: Pending[] = []
  let running = 0
  let nextId = 1
  let closed = false

  function send(child: Child, message: ChildMessage): void {
    try {
      child.proc.send(message)
    } catch {
      // The child has just exited: its exit settles its task.
    }
  }

  /** Each change of the count of tasks running goes to every child, by which their OCR shares the cores (D175). */
  function count(change: number): void {
    running += change
    for (const child of children) send(child, { type: 'running', count: running })
  }

  function kill(child: Child): void {
    clearTimeout(child.idleTimer)
    children.delete(child)
    child.killed = true
    child.proc.kill('SIGKILL')
  }

  function settle(child: Child, settleTask: (pending: Pending) => void): void {
    const current = child.current
    if (!current) return
    clearTimeout(current.timer)
    child.current = undefined
    count(-1)
    settleTask(current)
  }

  function reply(child: Child, data: ChildReply): void {
    if (data.id !== child.current?.id) return
    if ('progress' in data) {
      child.current.onProgress?.(data.progress)
      return
    }
    if ('read' in data) {
      child.current.onRead?.(data.read)
      return
    }
    if (!data.ok && data.detail) {
      // The detail of an engine's failure (its server and what it said) is the operator's only (D127).
      if (data.error.code === UNEXPECTED.code) log.error('extraction failed unexpectedly', { error: data.detail })
      else log.warn('extraction failed', { code: data.error.code, detail: data.detail })
    }
    settle(child, (pending) => (data.ok ? pending.resolve(data.output) : pending.reject(new ExtractionError(data.error.code, data.error.message))))
    dispatch()
  }

  function spawn(): Child {
    const child = {
      killed: false,
      proc: Bun.spawn(CHILD, {
        stdio: ['pipe', 'inherit', 'inherit'],
        serialization: 'advanced',
        ipc: (message: ChildReply) => reply(child, message),
        onExit: (_, exitCode, signalCode) => {
          if (child.killed) return
          children.delete(child)
          clearTimeout(child.idleTimer)
          log.error('extraction process died', { exit_code: exitCode, signal: signalCode })
          settle(child, (pending) => pending.reject(new ExtractionError(UNEXPECTED.code, UNEXPECTED.message)))
          dispatch()
        },
      }),
    } as Child
    send(child, { type: 'init', llm, ocrThreads, recogniser, running })
    children.add(child)
    return child
  }

  function start(child: Child, pending: Pending): void {
    clearTimeout(child.idleTimer)
    child.idleTimer = undefined
    const timer = setTimeout(() => {
      log.warn('extraction timed out; stopping its process', { timeout_ms: timeoutMs })
      stop(child, new ExtractionError('extraction_timeout', `The extraction took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`))
    }, timeoutMs)
    child.current = { ...pending, timer }
    count(1)
    const { content, ...task } = pending.task
    send(child, { type: 'task', id: pending.id, task, size: content.byteLength, read: Boolean(pending.onRead) })
    try {
      child.proc.stdin.write(content)
      // A child that has just exited closed its end: its exit settles its task.
      Promise.resolve(child.proc.stdin.flush()).catch(() => {})
    } catch {
      // As above.
    }
  }

  const idle = () => [...children].filter((child) => !child.current)

  function dispatch(): void {
    while (!closed && waiting.length > 0 && running < size) start(idle()[0] ?? spawn(), waiting.shift()!)
    // While every worker is busy, one more process waits, started: a task that takes the place of
    // one killed (canceled, timed out, given way, D194) starts at once (D191).
    if (!closed && running >= size && idle().length === 0) spawn()
    for (const child of idle()) {
      if (child.idleTimer) continue
      child.idleTimer = setTimeout(() => retire(child), idleMs)
      child.idleTimer.unref()
    }
  }

  /** Ends a child idle for `idleMs`, unless it is the one spare of a pool whose workers are all busy. */
  function retire(child: Child): void {
    child.idleTimer = undefined
    if (running >= size && idle().length === 1) dispatch()
    else kill(child)
  }

  /** Stops a task: taken out of the queue, or its child killed (a new one takes the next task). */
  function cancel(id: number): void {
    const queued = waiting.findIndex((pending) => pending.id === id)
    if (queued !== -1) {
      waiting.splice(queued, 1)[0]!.reject(CANCELED())
      return
    }
    const child = [...children].find((candidate) => candidate.current?.id === id)
    if (child) stop(child, CANCELED())
  }

  /**
   * Ends a child's task with `error` and the child with it. A new child starts at once, so the next
   * task does not wait for one to start (D191); unused, it ends after the idle time like any other.
   */
  function stop(child: Child, error: ExtractionError): void {
    settle(child, (pending) => pending.reject(error))
    kill(child)
    if (!closed && idle().length === 0) spawn()
    dispatch()
  }

  const extract: Extractor = (task, onProgress, signal, onRead) =>
    new Promise<TaskOutput>((resolve, reject) => {
      if (closed) return reject(new ExtractionError(UNEXPECTED.code, 'The server is stopping'))
      if (signal?.aborted) return reject(CANCELED())
      const id = nextId++
      signal?.addEventListener('abort', () => cancel(id), { once: true })
      waiting.push({ id, task, onProgress, onRead, resolve, reject })
      dispatch()
    })

  return {
    extract,
    /** Children alive now (for tests and logs). */
    get size(): number {
      return children.size
    },
    /** Their process IDs (for tests). */
    get pids(): number[] {
      return [...children].map((child) => child.proc.pid)
    },
    /** Tasks running now (for tests). */
    get running(): number {
      return running
    },
    /** Kills every child; the runner's stop has given their jobs back to the queue (D193). */
    close(): void {
      closed = true
      for (const child of [...children]) kill(child)
    },
  }
}
