/**
 * An extraction process (D190): `extractd extract-worker`, started by the server's process pool
 * with an IPC channel. Reads documents and runs the engine, one task at a time; the server alone
 * decides when it ends (a signal to the whole process group, such as a terminal's Ctrl-C or a
 * service manager's SIGTERM, is the server's to act on), and it ends with the server.
 */
import { dlopen } from 'bun:ffi'
import { builtinClassifier } from './engines/builtin/classify'
import { builtinEngine } from './engines/builtin'
import { createOpenAiEngine } from './engines/openai'
import type { Engine } from './engines/types'
import { ExtractionError, UNEXPECTED } from './errors'
import { type Extractor, inProcessExtractor } from './extractor'
import type { ChildMessage, ChildReply } from './processes'
import { shareRunningJobs } from './readers/ocr/onnx'

/** Linux: the kernel kills this process when the server's ends, even mid-call in native code. */
function dieWithParent(): void {
  if (process.platform !== 'linux') return
  try {
    const libc = dlopen('libc.so.6', { prctl: { args: ['i32', 'u64', 'u64', 'u64', 'u64'], returns: 'i32' } })
    libc.symbols.prctl(1 /* PR_SET_PDEATHSIG */, 9 /* SIGKILL */, 0, 0, 0)
    libc.close()
  } catch {
    // The IPC channel's end stops it too, once its current call returns.
  }
}

/**
 * A task that left the process this much larger is followed by a full collection, once its answer
 * is sent: what reading the document allocated goes back to the system before the next task, so a
 * process kept warm does not carry one large document's garbage into another's peak (D390). An
 * 11 MB HTML page left a process at 189 MiB from 79; collected, 77. The native memory of OCR is
 * not the collector's and grows once, at a process's first page.
 */
const COLLECT_AFTER_GROWTH_BYTES = 64 * 1024 * 1024

/** Reads the documents the server writes on standard input, each of the size its task gives (D198). */
function documentReader() {
  const input = Bun.stdin.stream().getReader()
  const chunks: Uint8Array[] = []
  let buffered = 0
  return async (size: number): Promise<Uint8Array> => {
    while (buffered < size) {
      const { value, done } = await input.read()
      if (done) throw new Error('the server closed the documents pipe')
      chunks.push(value)
      buffered += value.byteLength
    }
    const document = new Uint8Array(size)
    for (let at = 0; at < size; ) {
      const chunk = chunks[0]!
      const taken = Math.min(chunk.byteLength, size - at)
      document.set(chunk.subarray(0, taken), at)
      at += taken
      if (taken === chunk.byteLength) chunks.shift()
      else chunks[0] = chunk.subarray(taken)
    }
    buffered -= size
    return document
  }
}

/** Runs the process until the server ends it; false when it was not started by a server. */
export function runExtractionProcess(): boolean {
  if (!process.send) return false
  const send = (reply: ChildReply, sent?: () => void) => process.send!(reply, undefined, undefined, sent)
  dieWithParent()
  process.on('SIGTERM', () => {})
  process.on('SIGINT', () => {})
  process.on('disconnect', () => process.exit(0))

  // The pool's count of tasks running, kept here as it tells each change (D175).
  const running = new Int32Array(1)
  const readDocument = documentReader()
  let extract: Extractor | undefined

  process.on('message', async (message: ChildMessage) => {
    if (message.type === 'running') return void Atomics.store(running, 0, message.count)
    if (message.type === 'init') {
      const engine: Engine = message.llm ? createOpenAiEngine(message.llm) : builtinEngine
      // Whatever engine extracts, the built-in classifier knows the types (D248).
      extract = inProcessExtractor(engine, { classifier: builtinClassifier, recogniser: message.recogniser })
      Atomics.store(running, 0, message.running)
      shareRunningJobs(running, message.ocrThreads)
      return
    }
    const id = message.id
    const rssBefore = process.memoryUsage.rss()
    let reply: ChildReply
    try {
      const content = await readDocument(message.size)
      const output = await extract!(
        { ...message.task, content },
        (progress) => send({ id, progress }),
        undefined,
        // The document as read goes back only when the runner asks for it (D274).
        message.read ? (read) => send({ id, read }) : undefined,
      )
      reply = { id, ok: true, output }
    } catch (error) {
      reply =
        error instanceof ExtractionError
          ? { id, ok: false, error: { code: error.code, message: error.message }, ...(error.detail && { detail: error.detail }) }
          : { id, ok: false, error: UNEXPECTED, detail: error instanceof Error ? (error.stack ?? error.message) : String(error) }
    }
    // Collected once the answer has gone: the collection does not hold it up.
    send(reply, () => {
      if (process.memoryUsage.rss() - rssBefore > COLLECT_AFTER_GROWTH_BYTES) Bun.gc(true)
    })
  })
  return true
}
