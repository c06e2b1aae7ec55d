/** The pool of extraction processes (D190), run from the sources with the built-in engine. */
import { DEFAULT_READ_LIMITS } from '../../../src/modules/extraction/readers/types'
import { afterEach, expect, setDefaultTimeout, test } from 'bun:test'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import type { ExtractionTask } from '../../../src/modules/extraction/extractor'
import { createProcessPool } from '../../../src/modules/extraction/processes'
import type { LlmConfig } from '../../../src/config'
import { type Logger, silentLogger } from '../../../src/lib/log'
import { readFileSync } from 'node:fs'
import { split, taskAnswers } from '../../helpers/answers'
import { eventually } from '../../helpers/eventually'

// Each test starts processes from the sources, which load the readers as they start.
setDefaultTimeout(120_000)

const pools: ReturnType<typeof createProcessPool>[] = []
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close()
})

function pool(options: { size?: number; timeoutMs?: number; idleMs?: number; llm?: LlmConfig; log?: Logger } = {}) {
  const created = createProcessPool({
    size: options.size ?? 2,
    llm: options.llm,
    timeoutMs: options.timeoutMs ?? 60_000,
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
    issuedBySeller: true,
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

/** Whether a process with this ID is alive (a zombie not yet reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

test('extracts a document in a child process of its own', async () => {
  const children = pool()
  const output = split(taskAnswers(await children.extract(textTask('ACME Ltd\nInvoice No.: T-123\nTotal: 10.00 EUR\n'))))
  expect(output.values.invoice_number).toBe('T-123')
  expect(output.meta.invoice_number).toEqual({ confidence: expect.any(Number), page: 1, snippet: 'Invoice No.: T-123', bbox: null })
  expect(Object.keys(output.values)).toEqual(['invoice_number'])
  const [pid] = children.pids
  expect(children.pids).toHaveLength(1)
  expect(pid).not.toBe(process.pid)
  expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('extract-worker')
})

test('a document that cannot be read rejects with its own error code', async () => {
  const children = pool()
  const error = await failure(
    children.extract({ ...textTask(''), content: new TextEncoder().encode('%PDF-1.4\nnot really a pdf'), mediaType: 'application/pdf' }),
  )
  expect(error.code).toBe('corrupt_document')
})

test('a document that is a view of a larger buffer is read as the view alone', async () => {
  const children = pool()
  // Read whole, the first number would be the answer.
  const whole = new TextEncoder().encode('Invoice No.: W-1\nInvoice No.: V-7\n')
  const view = whole.subarray(whole.indexOf(0x0a) + 1)
  expect(taskAnswers(await children.extract({ ...textTask(''), content: view })).invoice_number!.value).toBe('V-7')
})

test("leaves the caller's event loop free while it works", async () => {
  const children = pool()
  const order: string[] = []
  const extraction = children.extract(textTask(LONG_DOCUMENT)).then(() => order.push('extraction'))
  await Bun.sleep(1)
  order.push('timer')
  await extraction
  expect(order).toEqual(['timer', 'extraction'])
})

test('a canceled task is stopped: waiting, it never starts; running, its process is killed and the one waiting started takes the next task', async () => {
  const children = pool({ size: 1 })
  const running = new AbortController()
  const waiting = new AbortController()
  const first = failure(children.extract(textTask(LONG_DOCUMENT), undefined, running.signal))
  const second = failure(children.extract(textTask(LONG_DOCUMENT), undefined, waiting.signal))
  // The count of tasks running, by which their OCR shares the cores (D175): one running, one waiting;
  // a second process waits, started, to take the place of the first if it is killed.
  expect(children.running).toBe(1)
  expect(children.size).toBe(2)
  const [pid, spare] = children.pids
  waiting.abort()
  expect((await second).message).toBe('The extraction was canceled')
  running.abort()
  expect((await first).message).toBe('The extraction was canceled')
  expect(children.running).toBe(0)
  await eventually(() => !alive(pid!))
  // The spare takes the next task.
  expect(children.pids).toEqual([spare!])
  const output = split(taskAnswers(await children.extract(textTask('Invoice No.: T-9\n'))))
  expect(output.values.invoice_number).toBe('T-9')
  expect(children.pids[0]).toBe(spare!)
})

test('stops a task that runs past its time limit, and a new process takes the next task', async () => {
  const children = pool({ size: 1, timeoutMs: 5 })
  const [pid] = children.pids
  const error = await failure(children.extract(textTask(LONG_DOCUMENT)))
  expect(error.code).toBe('extraction_timeout')
  expect(error.message).toContain('was stopped')
  await eventually(() => !alive(pid!))

  // A task queued behind a stopped one is started in a new process at once, not left waiting.
  const stuck = children.extract(textTask(LONG_DOCUMENT))
  const next = children.extract(textTask('Invoice No.: N-1\n')).then(
    () => 'succeeded',
    (failed: ExtractionError) => failed.code,
  )
  expect((await failure(stuck)).code).toBe('extraction_timeout')
  // With a 5 ms limit the new process may well be stopped too; either way the task was taken and settled.
  expect(['succeeded', 'extraction_timeout']).toContain(await next)
  expect(children.running).toBe(0)
})

test('a process that dies mid-task fails its task, is logged, and a new one takes the next task', async () => {
  const logged: string[] = []
  const log = { ...silentLogger, error: (message: string) => logged.push(message) } as Logger
  const children = pool({ size: 1, log })
  const doomed = failure(children.extract(textTask(LONG_DOCUMENT)))
  process.kill(children.pids[0]!, 'SIGKILL')
  const error = await doomed
  expect([error.code, error.message]).toEqual(['extraction_failed', 'The extraction failed unexpectedly'])
  expect(logged).toEqual(['extraction process died'])
  expect(taskAnswers(await children.extract(textTask('Invoice No.: D-2\n'))).invoice_number!.value).toBe('D-2')
})

test('runs several tasks on a bounded number of processes', async () => {
  const children = pool({ size: 2 })
  const pending = Array.from({ length: 6 }, (_, i) => children.extract(textTask(`Invoice No.: N-${i}\n`)))
  // Six tasks at once run on exactly two processes, a third waits started for one to be killed, and four tasks wait.
  expect(children.size).toBe(3)
  expect(children.running).toBe(2)
  const outputs = await Promise.all(pending)
  expect(outputs.map((output) => taskAnswers(output).invoice_number!.value)).toEqual(['N-0', 'N-1', 'N-2', 'N-3', 'N-4', 'N-5'])
  expect(children.size).toBeLessThanOrEqual(3)
  expect(children.running).toBe(0)
})

test('ends idle processes', async () => {
  const children = pool({ idleMs: 20 })
  await children.extract(textTask('Invoice No.: I-1\n'))
  const [pid] = children.pids
  await eventually(() => children.size === 0)
  await eventually(() => !alive(pid!))
  expect(taskAnswers(await children.extract(textTask('Invoice No.: I-2\n'))).invoice_number!.value).toBe('I-2')
})

/** A process's resident memory, in MiB (Linux). */
function residentMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
}

test('a process that read a large document gives back what the reading allocated before the next task (issue 30)', async () => {
  const children = pool({ size: 1 })
  await children.extract(textTask('Invoice No.: A-1\n'))
  const [pid] = children.pids
  const before = residentMiB(pid!)
  // 11 MB of markup, read in linear time: about 120 MiB of garbage the collector would leave for later.
  const deep = `<html><body>${'<div>'.repeat(1_000_000)}deep${'</div>'.repeat(1_000_000)}</body></html>`
  await children.extract({ ...textTask(''), content: new TextEncoder().encode(deep), mediaType: 'text/html' })
  expect(children.pids).toContain(pid!)
  // Left to itself the collector gives back part of it within seconds (189 → 114 MiB, from 79); collected, all of it at once.
  await eventually(() => residentMiB(pid!) < before + 20, 2000)
})

test('refuses work once closed, and its processes are gone', async () => {
  const children = pool()
  await children.extract(textTask('Invoice No.: C-1\n'))
  const [pid] = children.pids
  children.close()
  expect((await failure(children.extract(textTask('Invoice No.: X\n')))).code).toBe('extraction_failed')
  await eventually(() => !alive(pid!))
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
    const children = pool({ llm: { baseUrl, model: 'm', apiKey: undefined, timeoutMs: 5_000 }, log })
    const error = await failure(children.extract(textTask('Invoice No.: T-1')))
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
