/**
 * OCR inside the compiled binary (D67): the engine and its language models travel in the one
 * executable, started in an empty directory with no network. A JPEG receipt is read at once; a
 * scanned PDF made of several pages runs asynchronously and shows its progress.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { imagePdf, renderPage, renderPages, toJpeg } from '../helpers/images'
import { buildBinary, type RunningServer, startServer, tempDir } from '../helpers/process'

setDefaultTimeout(120_000)

let binary: string
let server: RunningServer
const dir = tempDir('extractd-ocr-')

beforeAll(async () => {
  binary = await buildBinary()
  const home = join(dir.path, 'home')
  await Bun.$`mkdir -p ${home}`
  server = await startServer([binary], [], home)
}, 120_000)

afterAll(async () => {
  await server?.stop()
  dir.remove()
})

function upload(content: Uint8Array, name: string, extract: object): FormData {
  const form = new FormData()
  form.set('file', new File([content], name))
  form.set('extract', JSON.stringify(extract))
  return form
}

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(server.url + path, { ...init, headers: { authorization: `Bearer ${server.firstKey ?? ''}` } })
  return { status: response.status, body: (await response.json()) as any }
}

test('the binary reads a photographed receipt (JPEG) with its embedded OCR', async () => {
  const jpeg = toJpeg(
    await renderPage({ lines: ['CORNER GROCER LTD', 'Receipt No: CG-3390', 'Date: 05/11/2024', 'Apples       2   3.20', 'TOTAL          12.40'] }),
  )
  const { status, body } = await api('/api/v1/extract', {
    method: 'POST',
    body: upload(jpeg, 'receipt.jpg', { document_type: 'invoice', fields: { invoice_number: 'Receipt number', date: 'Date', total: 'Total' } }),
  })
  expect(status).toBe(200)
  expect(body.job).toMatchObject({
    status: 'succeeded',
    file: { name: 'receipt.jpg', media_type: 'image/jpeg' },
    progress: { pages_done: 1, pages_total: 1 },
    result: { invoice_number: 'CG-3390', date: '2024-11-05', total: '12.40' },
  })
  expect(body.job.fields_meta.total).toMatchObject({ page: 1, snippet: 'TOTAL 12.40', bbox: { left: expect.any(Number), top: expect.any(Number) } })
})

test('a scanned three-page PDF extracts asynchronously, its progress visible on the job', async () => {
  const pages = await renderPages([
    { lines: ['NORTHWIND TRADERS LIMITED', 'Invoice Number: NW-8812', 'Invoice Date: 14/03/2024'], width: 400 },
    { lines: ['Item            Qty   Amount', 'Consulting        4   800.00'], width: 400 },
    { lines: ['Subtotal:        800.00', 'Total Due:       800.00 EUR'], width: 400 },
  ])
  const pdf = await imagePdf(pages.map((page) => ({ jpeg: toJpeg(page) })))
  const queued = await api('/api/v1/extract?async=true', {
    method: 'POST',
    body: upload(pdf, 'scan.pdf', { document_type: 'invoice', fields: { invoice_number: 'Invoice number', total: 'Total due' } }),
  })
  expect(queued.status).toBe(202)
  expect(queued.body.job).toMatchObject({ status: 'queued', progress: null })
  const seen = new Set<string>()
  let job = queued.body.job
  const deadline = Date.now() + 90_000
  while (!['succeeded', 'failed'].includes(job.status) && Date.now() < deadline) {
    await Bun.sleep(50)
    job = (await api(`/api/v1/jobs/${job.id}`)).body.job
    if (job.status === 'running' && job.progress) seen.add(`${job.progress.pages_done}/${job.progress.pages_total}`)
  }
  expect(job).toMatchObject({
    status: 'succeeded',
    file: { media_type: 'application/pdf' },
    progress: { pages_done: 3, pages_total: 3 },
    result: { invoice_number: 'NW-8812', total: '800.00' },
  })
  expect(job.fields_meta.invoice_number.page).toBe(1)
  expect(job.fields_meta.total.page).toBe(3)
  // Pages are counted as they are read: a poll while it ran saw fewer than all three done.
  expect([...seen].some((step) => step === '1/3' || step === '2/3')).toBe(true)
})
