/** The extraction thread pool, run from the sources with the built-in engine. */
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import { afterEach, expect, setDefaultTimeout, test } from 'bun:test'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import type { ExtractionTask } from '../../../src/modules/extraction/extractor'
import { createThreadPool } from '../../../src/modules/extraction/threads'
import type { LlmConfig } from '../../../src/config'
import { type Logger, silentLogger } from '../../../src/lib/log'
import { split } from '../../helpers/answers'

setDefaultTimeout(30_000)

const pools: ReturnType<typeof createThreadPool>[] = []
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close()
})

function pool(options: { size?: number; timeoutMs?: number; idleMs?: number; llm?: LlmConfig; log?: Logger } = {}) {
  const created = createThreadPool({
    size: options.size ?? 2,
    llm: options.llm,
    timeoutMs: options.timeoutMs ?? 20_000,
    idleMs: options.idleMs,
    log: options.log ?? silentLogger,
  })
  pools.push(created)
  return created
}

function textTask(text: string): ExtractionTask {
  return {
    content: new TextEncoder().encode(text),
    mediaType: 'text/plain',
    documentType: 'invoice',
    fields: [{ key: 'invoice_number', label: 'Invoice Number', description: 'As printed', type: 'text' }],
    limits: DEFAULT_READ_LIMITS,
  }
}

/** A long document: many pages of labelled lines, so extracting it takes a while. */
const LONG_DOCUMENT = Array.from({ length: 4000 }, (_, i) => `Item ${i}: Widget ${i}    Qty 3    Price 12.50 EUR    Date 2024-03-0${(i % 9) + 1}`).join('\n')

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return error as ExtractionError
  }
  throw new Error('expected the extraction to fail')
}

test('extracts a document in a worker thread', async () => {
  const threads = pool()
  const output = split(await threads.extract(textTask('ACME Ltd\nInvoice No.: T-123\nTotal: 10.00 EUR\n')))
  expect(output.values.invoice_number).toBe('T-123')
  expect(output.meta.invoice_number).toMatchObject({ page: 1, snippet: 'Invoice No.: T-123' })
  expect(output.meta.invoice_number).toEqual({ confidence: expect.any(Number), page: 1, snippet: 'Invoice No.: T-123', bbox: null })
  expect(Object.keys(output.values)).toEqual(['invoice_number'])
})

test('a document that cannot be read rejects with its own error code', async () => {
  const threads = pool()
  const error = await failure(
    threads.extract({ ...textTask(''), content: new TextEncoder().encode('%PDF-1.4\nnot really a pdf'), mediaType: 'application/pdf' }),
  )
  expect(error.code).toBe('corrupt_document')
})

test("leaves the caller's event loop free while it works", async () => {
  const threads = pool()
  const order: string[] = []
  const extraction = threads.extract(textTask(LONG_DOCUMENT)).then(() => order.push('extraction'))
  await Bun.sleep(1)
  order.push('timer')
  await extraction
  expect(order).toEqual(['timer', 'extraction'])
})

test('a canceled task is stopped: waiting, it never starts; running, its thread is terminated and a new one takes the next task', async () => {
  const threads = pool({ size: 1 })
  const running = new AbortController()
  const waiting = new AbortController()
  const first = failure(threads.extract(textTask(LONG_DOCUMENT), undefined, running.signal))
  const second = failure(threads.extract(textTask(LONG_DOCUMENT), undefined, waiting.signal))
  await Bun.sleep(20)
  // The count of tasks running, by which their OCR shares the cores (D175): one running, one waiting.
  expect(threads.running).toBe(1)
  waiting.abort()
  expect((await second).message).toBe('The extraction was canceled')
  running.abort()
  expect((await first).message).toBe('The extraction was canceled')
  expect(threads.size).toBe(0)
  expect(threads.running).toBe(0)
  const output = split(await threads.extract(textTask('Invoice No.: T-9\n')))
  expect(output.values.invoice_number).toBe('T-9')
  expect(threads.size).toBe(1)
})

test('stops a task that runs past its time limit, and a new thread takes the next task', async () => {
  const threads = pool({ size: 1, timeoutMs: 5 })
  const error = await failure(threads.extract(textTask(LONG_DOCUMENT)))
  expect(error.code).toBe('extraction_timeout')
  expect(error.message).toContain('was stopped')
  expect(threads.size).toBe(0)

  // A task queued behind a stopped one is started on a new thread at once, not left waiting.
  const stuck = threads.extract(textTask(LONG_DOCUMENT))
  const next = threads.extract(textTask('Invoice No.: N-1\n')).then(
    () => 'succeeded',
    (failed: ExtractionError) => failed.code,
  )
  expect((await failure(stuck)).code).toBe('extraction_timeout')
  expect(threads.size).toBe(1)
  // With a 5 ms limit the new thread may well be stopped too; either way the task was taken and settled.
  expect(['succeeded', 'extraction_timeout']).toContain(await next)
  expect(threads.running).toBe(0)
})

test('runs several tasks on a bounded number of threads', async () => {
  const threads = pool({ size: 2 })
  const pending = Array.from({ length: 6 }, (_, i) => threads.extract(textTask(`Invoice No.: N-${i}\n`)))
  // Six tasks at once start exactly two threads; the other four wait for them.
  expect(threads.size).toBe(2)
  expect(threads.running).toBe(2)
  const outputs = await Promise.all(pending)
  expect(outputs.map((output) => output.invoice_number!.value)).toEqual(['N-0', 'N-1', 'N-2', 'N-3', 'N-4', 'N-5'])
  expect(threads.size).toBeLessThanOrEqual(2)
  expect(threads.running).toBe(0)
})

test('retires idle threads', async () => {
  const threads = pool({ idleMs: 20 })
  await threads.extract(textTask('Invoice No.: I-1\n'))
  expect(threads.size).toBe(1)
  for (let i = 0; i < 100 && threads.size > 0; i++) await Bun.sleep(20)
  expect(threads.size).toBe(0)
  expect((await threads.extract(textTask('Invoice No.: I-2\n'))).invoice_number!.value).toBe('I-2')
})

test('refuses work once closed', async () => {
  const threads = pool()
  threads.close()
  expect((await failure(threads.extract(textTask('Invoice No.: X\n')))).code).toBe('extraction_failed')
})

test("a model server's failure fails the job without its address or words; the operator's log has both (D127)", async () => {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => Response.json({ error: { message: 'upstream 10.2.3.4:8000 overloaded' } }, { status: 503 }),
  })
  const logged: { message: string; fields: Record<string, unknown> }[] = []
  const log = { ...silentLogger, warn: (message: string, fields: Record<string, unknown> = {}) => logged.push({ message, fields }) } as Logger
  try {
    const baseUrl = `http://127.0.0.1:${server.port}/v1`
    const threads = pool({ llm: { baseUrl, model: 'm', apiKey: undefined, timeoutMs: 5_000 }, log })
    const error = await failure(threads.extract(textTask('Invoice No.: T-1')))
    expect(error.code).toBe('engine_unavailable')
    expect(error.message).toBe('The model server answered with status 503')
    expect(error.detail).toBeUndefined()
    expect(logged).toEqual([
      {
        message: 'extraction failed',
        fields: { code: 'engine_unavailable', detail: `${baseUrl}/chat/completions answered with status 503: upstream 10.2.3.4:8000 overloaded` },
      },
    ])
  } finally {
    server.stop(true)
  }
})
