/**
 * A pool of extraction threads (D63). Threads start on the first job and stop after a minute
 * without work, so an idle server holds none. A task that runs past its time limit has its
 * thread terminated and fails as `extraction_timeout`; a thread that dies is replaced.
 */
import type { OpenAiEngineOptions } from './engines/openai'
import type { Logger } from '../../lib/log'
import type { Answers } from './answers'
import { ExtractionError, type JobErrorCode, UNEXPECTED } from './errors'
import type { ExtractionTask, Extractor, Progress } from './extractor'
import type { RecogniserName } from './readers/types'

/**
 * `init` shares the pool's count of tasks running with every thread (its OCR takes its share of
 * the cores by it), `ocrThreads`, the most it takes (undefined: up to four; D175), and the
 * operator's choice of word reader (D160).
 */
export type ThreadMessage =
  | { type: 'init'; llm: OpenAiEngineOptions | undefined; runningJobs: Int32Array; ocrThreads: number | undefined; recogniser: RecogniserName }
  | { type: 'task'; id: number; task: ExtractionTask }

export type ThreadReply =
  | { id: number; ok: true; output: Answers }
  | { id: number; ok: false; error: { code: JobErrorCode; message: string }; detail?: string }
  | { id: number; progress: Progress }

export interface ThreadPoolOptions {
  size: number
  llm: OpenAiEngineOptions | undefined
  /** Longest a task may run before its thread is stopped. */
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
  resolve: (output: Answers) => void
  reject: (error: ExtractionError) => void
}

interface Thread {
  worker: Worker
  current?: Pending & { timer: ReturnType<typeof setTimeout> }
  idleTimer?: ReturnType<typeof setTimeout>
}

/**
 * The thread's entry point. In the binary, entry points are addressed by their path below the
 * common root of `bun run build`'s entry points (src/); from the sources, it sits beside this file.
 */
const THREAD_ENTRY = import.meta.url.includes('/$bunfs/') ? './modules/extraction/extract-thread.ts' : new URL('./extract-thread.ts', import.meta.url).href

/** The rejection of a canceled task; its job is already marked canceled, so nothing stores it. */
const CANCELED = () => new ExtractionError(UNEXPECTED.code, 'The extraction was canceled')

export function createThreadPool({ size, llm, timeoutMs, idleMs = 60_000, ocrThreads, recogniser = 'auto', log }: ThreadPoolOptions) {
  const threads = new Set<Thread>()
  const waiting: Pending[] = []
  const runningJobs = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
  let nextId = 1
  let closed = false

  function retire(thread: Thread): void {
    clearTimeout(thread.idleTimer)
    threads.delete(thread)
    thread.worker.terminate()
  }

  function settle(thread: Thread, settleTask: (pending: Pending) => void): void {
    const current = thread.current
    if (!current) return
    clearTimeout(current.timer)
    thread.current = undefined
    Atomics.sub(runningJobs, 0, 1)
    settleTask(current)
  }

  function spawn(): Thread {
    const thread: Thread = { worker: new Worker(THREAD_ENTRY) }
    thread.worker.onmessage = ({ data }: MessageEvent<ThreadReply>) => {
      if (data.id !== thread.current?.id) return
      if ('progress' in data) return thread.current.onProgress?.(data.progress)
      if (!data.ok && data.detail) {
        // The detail of an engine's failure (its server and what it said) is the operator's only (D127).
        if (data.error.code === UNEXPECTED.code) log.error('extraction failed unexpectedly', { error: data.detail })
        else log.warn('extraction failed', { code: data.error.code, detail: data.detail })
      }
      settle(thread, (pending) => (data.ok ? pending.resolve(data.output) : pending.reject(new ExtractionError(data.error.code, data.error.message))))
      dispatch()
    }
    thread.worker.onerror = (event) => {
      log.error('extraction thread died', { error: event.message })
      stop(thread, new ExtractionError(UNEXPECTED.code, UNEXPECTED.message))
    }
    thread.worker.postMessage({ type: 'init', llm, runningJobs, ocrThreads, recogniser } satisfies ThreadMessage)
    threads.add(thread)
    return thread
  }

  function start(thread: Thread, pending: Pending): void {
    clearTimeout(thread.idleTimer)
    thread.idleTimer = undefined
    const timer = setTimeout(() => {
      log.warn('extraction timed out; stopping its thread', { timeout_ms: timeoutMs })
      stop(thread, new ExtractionError('extraction_timeout', `The extraction took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`))
    }, timeoutMs)
    thread.current = { ...pending, timer }
    Atomics.add(runningJobs, 0, 1)
    const { content, ...rest } = pending.task
    // The bytes are copied into a buffer of their own, which moves to the thread without a second copy.
    const bytes = content.slice()
    thread.worker.postMessage({ type: 'task', id: pending.id, task: { ...rest, content: bytes } } satisfies ThreadMessage, [bytes.buffer])
  }

  function dispatch(): void {
    while (!closed && waiting.length > 0) {
      const free = [...threads].find((thread) => !thread.current) ?? (threads.size < size ? spawn() : undefined)
      if (!free) return
      start(free, waiting.shift()!)
    }
    for (const thread of threads) {
      if (thread.current || thread.idleTimer) continue
      thread.idleTimer = setTimeout(() => retire(thread), idleMs)
      thread.idleTimer.unref()
    }
  }

  /** Stops a task: taken out of the queue, or its thread terminated (a new one takes the next task). */
  function cancel(id: number): void {
    const queued = waiting.findIndex((pending) => pending.id === id)
    if (queued !== -1) {
      waiting.splice(queued, 1)[0]!.reject(CANCELED())
      return
    }
    const thread = [...threads].find((candidate) => candidate.current?.id === id)
    if (thread) stop(thread, CANCELED())
  }

  /** Ends a thread's task with `error` and the thread with it; the next task gets a new thread. */
  function stop(thread: Thread, error: ExtractionError): void {
    settle(thread, (pending) => pending.reject(error))
    retire(thread)
    dispatch()
  }

  const extract: Extractor = (task, onProgress, signal) =>
    new Promise<Answers>((resolve, reject) => {
      if (closed) return reject(new ExtractionError(UNEXPECTED.code, 'The server is stopping'))
      if (signal?.aborted) return reject(CANCELED())
      const id = nextId++
      signal?.addEventListener('abort', () => cancel(id), { once: true })
      waiting.push({ id, task, onProgress, resolve, reject })
      dispatch()
    })

  return {
    extract,
    /** Threads running now (for tests and logs). */
    get size(): number {
      return threads.size
    },
    /** Tasks running now (for tests). */
    get running(): number {
      return Atomics.load(runningJobs, 0)
    },
    /** Stops every thread; tasks still running fail and their jobs resume at the next start. */
    close(): void {
      closed = true
      for (const thread of threads) retire(thread)
    },
  }
}
