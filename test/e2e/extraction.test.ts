/**
 * Extraction through the compiled binary: a PDF read by the built-in engine inside it, and jobs
 * that survive the process being killed, driven through an OpenAI-compatible endpoint the test
 * runs itself (it can hold an answer back, so a job is provably running at the kill).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { api, llmStub, upload } from '../helpers/llm-stub'
import { freshPostgres, POSTGRES_URL } from '../helpers/postgres'
import { buildBinary, startServer, tempDir } from '../helpers/process'

setDefaultTimeout(60_000)

let binary: string
const dir = tempDir('extractd-extract-')

beforeAll(async () => {
  binary = await buildBinary()
}, 60_000)
afterAll(() => dir.remove())

async function invoicePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const page = pdf.addPage([595, 842])
  const lines = ['Northwind Traders Ltd', '', 'Invoice No.: NW-2024-0042', 'Invoice Date: 14 March 2024', 'Bill To: Contoso GmbH', '', 'Total: EUR 1,250.00']
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font }))
  return pdf.save()
}

test('the binary reads a PDF with its built-in engine and answers the finished job', async () => {
  const home = join(dir.path, 'builtin')
  await Bun.$`mkdir -p ${home}`
  const server = await startServer([binary], [], home)
  try {
    const pdf = await invoicePdf()
    const { status, body } = await api(server, '/api/v1/extract', {
      method: 'POST',
      body: upload(pdf, 'northwind.pdf', {
        document_type: 'invoice',
        fields: { invoice_number: 'Invoice number', date: 'Invoice date', total: 'Total due' },
      }),
    })
    expect(status).toBe(200)
    expect(body.job).toMatchObject({
      status: 'succeeded',
      engine: 'builtin',
      file: { name: 'northwind.pdf', media_type: 'application/pdf' },
      result: { invoice_number: 'NW-2024-0042', date: '2024-03-14', total: '1250.00' },
    })
    expect(body.job.fields_meta.invoice_number.page).toBe(1)
    const box = { left: expect.any(Number), top: expect.any(Number), width: expect.any(Number), height: expect.any(Number) }
    const found = { confidence: expect.any(Number), page: 1, snippet: expect.any(String), bbox: box, needs_review: expect.any(Boolean) }
    expect(body.job).toEqual({
      id: expect.stringMatching(/^job_[0-9a-hjkmnp-tv-z]{30}$/),
      status: 'succeeded',
      document_type: 'invoice',
      schema_id: null,
      schema_version: null,
      fields: [
        { key: 'invoice_number', label: 'invoice_number', description: 'Invoice number', type: 'text' },
        { key: 'date', label: 'date', description: 'Invoice date', type: 'date' },
        { key: 'total', label: 'total', description: 'Total due', type: 'amount' },
      ],
      file: { name: 'northwind.pdf', size: pdf.byteLength, media_type: 'application/pdf', sha256: new Bun.CryptoHasher('sha256').update(pdf).digest('hex') },
      progress: { pages_done: 1, pages_total: 1 },
      result: { invoice_number: 'NW-2024-0042', date: '2024-03-14', total: '1250.00' },
      fields_meta: { invoice_number: found, date: found, total: found },
      review_threshold: 0.95,
      needs_review: expect.any(Boolean),
      reviewed_at: null,
      error: null,
      engine: 'builtin',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      completed_at: expect.any(String),
    })
    expect((await api(server, `/api/v1/jobs/${body.job.id}`)).body).toEqual({ job: body.job })
  } finally {
    await server.stop()
  }
})

test('jobs queued or running when the process is killed finish after the next start', async () => {
  // The language-model endpoint: holds every answer back while `hold` is set.
  let hold = true
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const llm = llmStub(async (number) => {
    if (hold) await released
    return number
  })
  const home = join(dir.path, 'recovery')
  await Bun.$`mkdir -p ${home}`
  const flags = ['--engine', 'openai', '--llm-url', `http://127.0.0.1:${llm.server.port}/v1`, '--llm-model', 'stub', '--workers', '1', '--job-lease', '2s']
  try {
    const first = await startServer([binary], flags, home)
    const key = first.firstKey!
    const ids: string[] = []
    for (const n of [1, 2, 3]) {
      const { status, body } = await api(first, '/api/v1/extract?async=true', {
        method: 'POST',
        body: upload(`Invoice No.: R-${n}\nTotal: 10.00 EUR\n`, `r${n}.txt`, { document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }),
      })
      expect(status).toBe(202)
      expect(body.job.status).toBe('queued')
      ids.push(body.job.id)
    }
    // One worker: the first job is running (its answer held back), the other two are queued.
    while (llm.requests() === 0) await Bun.sleep(10)
    expect((await api(first, `/api/v1/jobs/${ids[0]}`)).body.job.status).toBe('running')
    first.proc.kill('SIGKILL')
    await first.proc.exited

    hold = false
    release()
    const second = await startServer([binary], flags, home)
    second.firstKey = key
    const deadline = Date.now() + 20_000
    let jobs: any[] = []
    while (Date.now() < deadline) {
      jobs = await Promise.all(ids.map(async (id) => (await api(second, `/api/v1/jobs/${id}`)).body.job))
      if (jobs.every((job) => job.status === 'succeeded' || job.status === 'failed')) break
      await Bun.sleep(50)
    }
    expect(jobs.map((job) => [job.status, job.result?.invoice_number, job.engine])).toEqual([
      ['succeeded', 'R-1', 'openai:stub'],
      ['succeeded', 'R-2', 'openai:stub'],
      ['succeeded', 'R-3', 'openai:stub'],
    ])
    expect(second.lines.some((line) => line.includes('"resuming jobs"'))).toBe(true)
    await second.stop()
  } finally {
    llm.server.stop(true)
  }
})

/** Where the takeover runs: a SQLite file, and PostgreSQL when the tests have one (D100). */
const SHARED_DATABASES = [
  { dialect: 'SQLite', location: async (home: string) => join(home, 'extractd.sqlite') },
  ...(POSTGRES_URL
    ? [
        {
          dialect: 'PostgreSQL',
          location: async () => {
            const { url, drop } = await freshPostgres()
            drops.push(drop)
            return url
          },
        },
      ]
    : []),
]
const drops: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const drop of drops) await drop()
})

test.each(SHARED_DATABASES)(
  'two servers on one $dialect database: when the one running a job is killed, the other finishes it, once (D77)',
  async ({ location }) => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const llm = llmStub(async (number, attempt) => {
      if (attempt === 1) await released // the first server's call hangs until it is dead
      return `${number} (attempt ${attempt})`
    })
    const home = join(dir.path, `takeover-${Bun.randomUUIDv7()}`)
    await Bun.$`mkdir -p ${home}`
    const flags = [
      '--db',
      await location(home),
      '--engine',
      'openai',
      '--llm-url',
      `http://127.0.0.1:${llm.server.port}/v1`,
      '--llm-model',
      'stub',
      '--job-lease',
      '2s',
    ]
    try {
      const first = await startServer([binary], flags, home)
      const { status, body } = await api(first, '/api/v1/extract?async=true', {
        method: 'POST',
        body: upload('Invoice No.: T-1\nTotal: 10.00 EUR\n', 't1.txt', { document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }),
      })
      expect(status).toBe(202)
      const id = body.job.id
      while (llm.requests() === 0) await Bun.sleep(10)
      // Started once the first runs the job, so that it is the first, not the second, that holds it.
      const second = await startServer([binary], flags, home)
      second.firstKey = first.firstKey
      expect((await api(second, `/api/v1/jobs/${id}`)).body.job.status).toBe('running')
      first.proc.kill('SIGKILL')
      await first.proc.exited
      release()

      const deadline = Date.now() + 20_000
      let job: any
      while (Date.now() < deadline) {
        job = (await api(second, `/api/v1/jobs/${id}`)).body.job
        if (job.status !== 'running' && job.status !== 'queued') break
        await Bun.sleep(50)
      }
      expect(job).toMatchObject({ status: 'succeeded', result: { invoice_number: 'T-1 (attempt 2)' } })
      expect(llm.requests()).toBe(2)
      await Bun.sleep(500)
      expect((await api(second, `/api/v1/jobs/${id}`)).body.job).toEqual(job) // completed once, and left alone after
      await second.stop()
    } finally {
      llm.server.stop(true)
    }
  },
)
