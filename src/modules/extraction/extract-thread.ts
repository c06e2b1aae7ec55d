/**
 * Entry point of an extraction worker thread: reads documents and runs the engine, one task at
 * a time, off the server's event loop. Built into the binary as a second entry point.
 */
import { builtinEngine } from './engines/builtin'
import { createOpenAiEngine } from './engines/openai'
import type { Engine } from './engines/types'
import { ExtractionError, UNEXPECTED } from './errors'
import { inProcessExtractor } from './extractor'
import { shareRunningJobs } from './readers/ocr/onnx'
import type { ThreadMessage, ThreadReply } from './threads'

declare const self: Worker

let extract: ReturnType<typeof inProcessExtractor> | undefined

self.onmessage = async ({ data }: MessageEvent<ThreadMessage>) => {
  if (data.type === 'init') {
    const engine: Engine = data.llm ? createOpenAiEngine(data.llm) : builtinEngine
    extract = inProcessExtractor(engine, { recogniser: data.recogniser })
    shareRunningJobs(data.runningJobs, data.ocrThreads)
    return
  }
  let reply: ThreadReply
  try {
    const id = data.id
    const output = await extract!(data.task, (progress) => postMessage({ id, progress } satisfies ThreadReply))
    reply = { id: data.id, ok: true, output }
  } catch (error) {
    reply =
      error instanceof ExtractionError
        ? { id: data.id, ok: false, error: { code: error.code, message: error.message }, ...(error.detail && { detail: error.detail }) }
        : { id: data.id, ok: false, error: UNEXPECTED, detail: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
  postMessage(reply)
}
