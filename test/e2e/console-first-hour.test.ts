/**
 * The console as a newcomer meets it (issue 35), in headless Chromium on the compiled binary: a
 * document shown before it is read, past jobs' pages, finding and exporting jobs, keys, schema
 * versions, and errors that say what to do. Skipped where Chromium is not installed (not in CI).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { browserRuns, launchBrowser } from '../helpers/browser'
import { apiGet, extracted, openConsolePage, overflowing, signIn } from '../helpers/console-page'
import { renderPage, textPdf, toPng } from '../helpers/images'
import { makeInvoice } from '../helpers/invoice'
import { buildBinary, type RunningServer, startServer, tempDir } from '../helpers/process'

setDefaultTimeout(90_000)

const runs = browserRuns
const dir = tempDir('extractd-console-first-')
const keptDir = tempDir('extractd-console-kept-')
/** The default settings: documents deleted when their job ends. */
let server: RunningServer
/** Documents kept for a day after their job. */
let keeping: RunningServer
let browser: Browser

beforeAll(async () => {
  if (!runs) return
  const binary = await buildBinary()
  ;[server, keeping] = await Promise.all([startServer([binary], [], dir.path), startServer([binary], ['--keep-files', '1d'], keptDir.path)])
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await keeping?.stop()
  dir.remove()
  keptDir.remove()
})

/** Sends a document through the API and waits for its job to end. */
test.skipIf(!runs)('shows a chosen PDF, image and text before reading it, with page thumbnails and zoom', async () => {
  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  await signIn(page, server)
  const requests: string[] = []
  page.on('request', (request) => requests.push(new URL(request.url()).pathname))

  const twoPages = await textPdf([{ lines: ['FIRST PAGE', 'Invoice No: A-1'] }, { lines: ['SECOND PAGE', 'Total 12.00'] }])
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'two-pages.pdf', mimeType: 'application/pdf', buffer: Buffer.from(twoPages) })
  const preview = page.getByRole('region', { name: 'Preview' })
  const main = preview.locator('.page canvas[data-rendered="1"]')
  await main.waitFor({ timeout: 20_000 })
  expect(await preview.locator('figcaption').innerText()).toBe('Page 1 of 2')
  // Both pages have a thumbnail, drawn; the first is the current one.
  const thumbnails = preview.getByRole('list', { name: 'Pages' }).getByRole('button')
  expect(await thumbnails.count()).toBe(2)
  await preview.locator('.thumbnail canvas[data-rendered="2"]').waitFor()
  expect(await thumbnails.first().getAttribute('aria-current')).toBe('page')
  // A thumbnail turns to its page.
  await preview.getByRole('button', { name: 'Page 2' }).click()
  await preview.locator('.page canvas[data-rendered="2"]').waitFor()
  expect(await preview.locator('figcaption').innerText()).toBe('Page 2 of 2')
  // Zoom: the page is drawn wider, and back to the column's width.
  const fitted = (await preview.locator('.page canvas').boundingBox())!.width
  await preview.getByRole('button', { name: 'Zoom in' }).click()
  await preview.getByRole('button', { name: 'Zoom in' }).click()
  expect(await preview.getByRole('status', { name: 'Zoom' }).innerText()).toBe('150 %')
  await page.waitForFunction(
    (width) => ((globalThis as any).document.querySelector('.preview .page canvas')?.getBoundingClientRect().width ?? 0) > width * 1.45,
    fitted,
  )
  await preview.getByRole('button', { name: 'Fit' }).click()
  await page.waitForFunction(
    (width) => Math.abs((globalThis as any).document.querySelector('.preview .page canvas').getBoundingClientRect().width - width) < 1,
    fitted,
  )
  // Nothing was sent to the server to show it.
  expect(requests.filter((path) => path === '/api/v1/extract')).toEqual([])

  // An image is shown as it is, one page.
  const scan = toPng(await renderPage({ lines: ['CORNER CAFE', 'TOTAL 7.50'] }))
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: Buffer.from(scan) })
  await page.waitForFunction(() => ((globalThis as any).document.querySelector('.preview .page img')?.naturalWidth ?? 0) > 0)
  expect(await preview.locator('figcaption').innerText()).toBe('Page 1 of 1')
  expect(await preview.getByRole('list', { name: 'Pages' }).getByRole('button').count()).toBe(1)
  const small = (await preview.locator('.page img').boundingBox())!.width
  await preview.getByRole('button', { name: 'Zoom in' }).click()
  await page.waitForFunction((width) => (globalThis as any).document.querySelector('.preview .page img').getBoundingClientRect().width > width * 1.2, small)

  // A text file is shown as its text.
  await page
    .getByLabel('Document', { exact: true })
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Invoice number: T-77\nTotal due: 40.00 EUR\n') })
  await preview.getByLabel('Text of notes.txt').getByText('Invoice number: T-77').waitFor()

  expect(requests.filter((path) => path === '/api/v1/extract')).toEqual([])
  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)("a past job's page is shown while the server keeps its document, and never asked for after (no 404)", async () => {
  // Kept (--keep-files 1d): the page is drawn from the stored document, with its boxes.
  const kept = await extracted(keeping, 'kept.pdf', await makeInvoice(), 'application/pdf')
  expect(kept.status).toBe('succeeded')
  {
    const { page, blocked, problems, refused } = await openConsolePage(browser, keeping)
    await signIn(page, keeping)
    await page.goto(`${keeping.url}/console#/jobs/${kept.id}`)
    await page.locator('.page canvas[data-rendered="1"]').waitFor({ timeout: 20_000 })
    await page.locator('.box[data-key="invoice_number"]').waitFor()
    expect(problems).toEqual([])
    expect(refused).toEqual([])
    expect(blocked).toEqual([])
    await page.close()
  }
  // Default settings: the document went with the job's end; the console says how to keep pages and asks for nothing.
  const gone = await extracted(server, 'gone.pdf', await makeInvoice(), 'application/pdf')
  expect((await fetch(`${server.url}/api/v1/jobs/${gone.id}/file`, { headers: { authorization: `Bearer ${server.firstKey}` } })).status).toBe(404)
  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  const asked: string[] = []
  page.on('request', (request) => asked.push(new URL(request.url()).pathname))
  await signIn(page, server)
  await page.goto(`${server.url}/console#/jobs/${gone.id}`)
  await page.locator('table.fields tr[data-key="invoice_number"]').waitFor()
  await page.getByText('start the server with --keep-files').waitFor()
  expect(asked.filter((path) => path.endsWith('/file'))).toEqual([])
  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  expect((await apiGet(server, `/api/v1/jobs/${gone.id}`)).job.status).toBe('succeeded')
  await page.close()
})

/** A schema made through the API. */
async function createdSchema(target: RunningServer, name: string, fields: unknown[]) {
  const response = await fetch(`${target.url}/api/v1/schemas`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.firstKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, fields }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { schema: any }).schema
}

const LONG_NAME = `${'quarterly-supplier-statement-'.repeat(8)}final.pdf`

test.skipIf(!runs)('finds jobs by file name, type, schema and date, names schemas, and fits 360 px and 1280 px', async () => {
  const schema = await createdSchema(server, 'Supplier invoices', [{ key: 'invoice_number', label: 'Invoice number', required: true, type: 'text' }])
  const long = await extracted(server, LONG_NAME, await makeInvoice(), 'application/pdf', { document_type: 'invoice', schema_id: schema.id })
  const payslip = await extracted(server, 'march-payslip.txt', Buffer.from('Employee: Ana Silva\nNet pay: 2,100.00 EUR\n'), 'text/plain', {
    document_type: 'payslip',
  })
  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  await signIn(page, server)
  await page.getByRole('link', { name: 'Jobs' }).click()
  const list = page.getByRole('region', { name: 'Job list' })
  const entry = (job: { id: string }) => list.locator(`a[href="#/jobs/${job.id}"]`)
  await entry(long).waitFor()
  await entry(payslip).waitFor()
  // A job made from a schema names it, and its version; never its id.
  expect(await entry(long).innerText()).toContain('Supplier invoices v1')
  expect(await list.innerText()).not.toContain(schema.id)
  expect(await entry(payslip).innerText()).toContain('Payslip')

  // By file name, any part of it, in any case.
  await list.getByLabel('File name').fill('MARCH')
  await entry(long).waitFor({ state: 'detached' })
  expect(await list.locator('.items a').count()).toBe(1)
  await list.getByLabel('File name').fill('')
  await entry(long).waitFor()
  // By type.
  const clear = list.getByRole('button', { name: 'Clear filters' })
  const clearIs = (state: 'enabled' | 'disabled') => list.locator(`button:${state}`, { hasText: 'Clear filters' }).waitFor()
  await list.getByLabel('Document type').selectOption('payslip')
  await entry(long).waitFor({ state: 'detached' })
  await entry(payslip).waitFor()
  await clearIs('enabled')
  // A filter set back as it was leaves nothing to clear.
  await list.getByLabel('Document type').selectOption('')
  await clearIs('disabled')
  // By schema (the API's filter).
  await list.getByLabel('Schema').selectOption(schema.id)
  await entry(payslip).waitFor({ state: 'detached' })
  await entry(long).waitFor()
  await list.getByLabel('Schema').selectOption('')
  // The list read again without the schema (both jobs back) before the dates are typed: a date typed
  // while that read is under way could be typed into the form it replaces.
  await entry(payslip).waitFor()
  await list.getByRole('status').getByText('Loading…').waitFor({ state: 'detached' })
  // By date: from tomorrow finds nothing, to yesterday neither, today finds both.
  const day = (offset: number) => {
    const date = new Date()
    date.setDate(date.getDate() + offset)
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
  }
  await list.getByLabel('From').fill(day(1))
  await list.getByRole('status').getByText('0 jobs found').waitFor()
  await list.getByLabel('From').fill(day(0))
  await list.getByLabel('To').fill(day(-1))
  await list.getByRole('status').getByText('0 jobs found').waitFor()
  await list.getByLabel('To').fill(day(0))
  await entry(long).waitFor()
  await entry(payslip).waitFor()
  await clear.click()
  await clearIs('disabled')

  // The job's own view names its schema and links to it.
  await entry(long).click()
  const view = page.getByRole('region', { name: `Job ${long.id}` })
  expect(await view.getByRole('link', { name: 'Supplier invoices v1' }).getAttribute('href')).toBe(`#/schemas/${schema.id}`)
  await view.locator('table.fields tr[data-key="invoice_number"]').waitFor()
  // The long name wraps: nothing sticks out at desktop or phone width.
  expect(await overflowing(page)).toEqual([])
  await page.setViewportSize({ width: 360, height: 740 })
  await page.waitForFunction(() => (globalThis as any).document.documentElement.clientWidth === 360)
  expect(await overflowing(page)).toEqual([])
  await page.getByRole('link', { name: 'Try a document' }).click()
  expect(await overflowing(page)).toEqual([])

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

/** RFC 4180, as a spreadsheet reads it. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!
    if (quoted && char === '"' && text[at + 1] === '"') {
      cell += '"'
      at++
    } else if (char === '"') quoted = !quoted
    else if (quoted) cell += char
    else if (char === ',') {
      row.push(cell)
      cell = ''
    } else if (char === '\r' && text[at + 1] === '\n') {
      rows.push([...row, cell])
      row = []
      cell = ''
      at++
    } else cell += char
  }
  return rows
}

test.skipIf(!runs)('copies the request just made as curl that runs as written, exports the shown jobs as CSV and JSON, and links to /docs', async () => {
  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  await signIn(page, server)
  const name = 'north wind, 1.pdf'
  const invoice = Buffer.from(await makeInvoice())
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name, mimeType: 'application/pdf', buffer: invoice })
  await page.getByRole('button', { name: 'Extract' }).click()
  await page.locator('table.fields tr[data-key="invoice_number"]').waitFor({ timeout: 60_000 })
  await page.getByRole('button', { name: 'Copy as curl' }).click()
  await page.getByText('Copied. Set EXTRACTD_KEY').waitFor()
  const command = await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())
  expect(command).not.toContain(server.firstKey!)
  expect(await page.locator('pre.curl-command').textContent()).toBe(command)
  // Run as written, beside the file, with the key in the environment: the job comes back read.
  const shell = tempDir('extractd-curl-')
  await Bun.write(`${shell.path}/${name}`, invoice)
  const run = Bun.spawn(['bash', '-c', command], { cwd: shell.path, env: { ...process.env, EXTRACTD_KEY: server.firstKey! }, stdout: 'pipe', stderr: 'pipe' })
  const [output, code] = await Promise.all([new Response(run.stdout).text(), run.exited])
  shell.remove()
  expect(code).toBe(0)
  const { job: copied } = JSON.parse(output)
  expect(copied.status).toBe('succeeded')
  expect(copied.file.name).toBe(name)
  expect(copied.document_type).toBe('invoice')
  expect(copied.result.invoice_number).toBe('NW-2026-0417')

  // The API's own documentation is one click away.
  const docs = page.getByRole('link', { name: 'API docs' })
  expect(await docs.getAttribute('href')).toBe('/docs')
  expect((await fetch(`${server.url}/docs`)).status).toBe(200)

  // Export what the list shows: the two jobs of that name.
  await page.getByRole('link', { name: 'Jobs' }).click()
  const list = page.getByRole('region', { name: 'Job list' })
  await list.getByLabel('File name').fill('north wind')
  await list.getByRole('status').getByText('2 jobs found').waitFor()
  const shown = (await apiGet(server, '/api/v1/jobs?limit=100')).jobs.filter((job: any) => job.file.name === name)
  expect(shown.length).toBe(2)
  const saved = async (button: string) => {
    const [download] = await Promise.all([page.waitForEvent('download'), list.getByRole('button', { name: button, exact: true }).click()])
    return { name: download.suggestedFilename(), text: await Bun.file((await download.path())!).text() }
  }
  const perJob = await saved('CSV')
  expect(perJob.name).toBe('jobs.csv')
  const [header, ...rows] = parseCsv(perJob.text)
  expect(header!.slice(0, 7)).toEqual(['job_id', 'file_name', 'status', 'document_type', 'schema_id', 'schema_version', 'created_at'])
  expect(header).toContain('invoice_number')
  expect(header).not.toContain('line_items')
  expect(rows.map((row) => row[0]).sort()).toEqual(shown.map((job: any) => job.id).sort())
  for (const row of rows) {
    expect(row[1]).toBe(name)
    expect(row[header!.indexOf('invoice_number')]).toBe('NW-2026-0417')
    expect(row[header!.indexOf('total')]).toBe('195.60')
  }
  const tableRows = await saved('Table rows CSV')
  expect(tableRows.name).toBe('jobs-table-rows.csv')
  const [rowsHeader, ...lines] = parseCsv(tableRows.text)
  expect(rowsHeader!.slice(0, 4)).toEqual(['job_id', 'file_name', 'field', 'row'])
  expect(lines.length).toBe(4)
  expect(lines.filter((line) => line[0] === copied.id).map((line) => [line[2], line[3]])).toEqual([
    ['line_items', '1'],
    ['line_items', '2'],
  ])
  expect(lines[0]).toContain('Printer paper A4')
  const json = await saved('JSON')
  expect(json.name).toBe('jobs.json')
  expect(JSON.parse(json.text).jobs.map((job: any) => job.id)).toEqual(shown.map((job: any) => job.id))

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)("views a schema's versions, compares two field by field, and restores an old one as a new version", async () => {
  const headers = { authorization: `Bearer ${server.firstKey}`, 'content-type': 'application/json' }
  const first = [
    { key: 'invoice_number', label: 'Invoice number', description: 'As printed', required: true, type: 'text' },
    { key: 'total', label: 'Total', description: '', required: false, type: 'amount' },
  ]
  const schema = await createdSchema(server, 'Versioned', first)
  const patch = (fields: unknown[]) => fetch(`${server.url}/api/v1/schemas/${schema.id}`, { method: 'PATCH', headers, body: JSON.stringify({ fields }) })
  expect(
    (
      await patch([
        first[0],
        { ...first[1], label: 'Amount due', required: true },
        { key: 'due_date', label: 'Due date', description: '', required: false, type: 'date' },
      ])
    ).status,
  ).toBe(200)
  expect((await patch([{ ...first[1], label: 'Amount due', required: true }])).status).toBe(200)

  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  page.on('dialog', (dialog) => dialog.accept())
  await signIn(page, server)
  await page.goto(`${server.url}/console#/schemas/${schema.id}`)
  await page.getByRole('heading', { name: 'Versioned · version 3' }).waitFor()
  const versions = page.getByRole('region', { name: 'Versions', exact: true })
  // The versions are read after the schema: wait for the oldest.
  await versions.getByRole('listitem', { name: 'Version 1' }).waitFor()
  expect(await versions.getByRole('listitem', { name: /^Version \d$/ }).count()).toBe(3)

  // Version 1 as it was saved.
  await versions.getByRole('listitem', { name: 'Version 1' }).getByRole('button', { name: 'View' }).click()
  const saved = versions.getByRole('region', { name: 'Version 1 as saved' })
  expect(await saved.locator('tbody tr').allInnerTexts()).toEqual([
    expect.stringMatching(/^invoice_number\s+Invoice number\s+text\s+yes\s+As printed$/),
    expect.stringMatching(/^total\s+Total\s+amount\s+no/),
  ])

  // Version 1 against version 3, field by field.
  const compare = versions.getByRole('region', { name: 'Compare versions' })
  await compare.getByLabel('Compare version').selectOption('1')
  await compare.getByLabel('with version').selectOption('3')
  expect(await compare.locator('tr[data-key="invoice_number"]').innerText()).toMatch(/^invoice_number\s+removed/)
  expect(await compare.locator('tr[data-key="total"]').innerText()).toMatch(/changed\s+label: Total → Amount due\s+required: no → yes$/)
  // 1 → 2 adds the due date, with what it is.
  await compare.getByLabel('with version').selectOption('2')
  expect(await compare.locator('tr[data-key="due_date"]').innerText()).toMatch(/^due_date\s+added\s+label: Due date\s+type: date/)
  expect(await compare.locator('tr[data-key="invoice_number"]').innerText()).toMatch(/^invoice_number\s+same/)

  // Restored as version 4: the API holds version 1's fields as the current ones, and no version is lost.
  await versions.getByRole('listitem', { name: 'Version 1' }).getByRole('button', { name: 'Restore as v4' }).click()
  await page.getByRole('status').getByText('Restored version 1 of “Versioned” as version 4.').waitFor()
  await page.getByRole('heading', { name: 'Versioned · version 4' }).waitFor()
  const current = (await apiGet(server, `/api/v1/schemas/${schema.id}`)).schema
  expect(current.version).toBe(4)
  expect(current.fields).toEqual((await apiGet(server, `/api/v1/schemas/${schema.id}/versions/1`)).version.fields)
  expect((await apiGet(server, `/api/v1/schemas/${schema.id}/versions`)).versions.map((version: any) => version.version)).toEqual([4, 3, 2, 1])
  // The editor shows what is now current.
  expect(await page.getByRole('listitem', { name: 'Field 1: invoice_number' }).getByLabel('Key', { exact: true }).inputValue()).toBe('invoice_number')

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)('the required flag says what it does, and a required field not found is marked in the result', async () => {
  const schema = await createdSchema(server, 'Purchase invoices', [
    { key: 'invoice_number', label: 'Invoice number', required: true, type: 'text' },
    { key: 'po_number', label: 'PO number', description: 'The buyer’s purchase order number', required: true, type: 'text' },
    { key: 'notes', label: 'Notes', required: false, type: 'text' },
  ])
  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  await signIn(page, server)
  // As a person gets there: the Schemas screen, then the schema in its list.
  await page.getByRole('link', { name: 'Schemas' }).click()
  await page
    .getByRole('region', { name: 'Schema list' })
    .getByRole('link', { name: /^Purchase invoices/ })
    .click()
  await page.waitForURL(`**/console#/schemas/${schema.id}`)
  const field = page.getByRole('listitem', { name: 'Field 2: po_number' })
  const flag = field.getByRole('checkbox', { name: 'Required' })
  expect(await flag.isChecked()).toBe(true)
  // The words say what the flag does: the job does not fail, the value is null, and it is marked.
  const help = await flag.evaluate((element: any) => element.ownerDocument.getElementById(element.getAttribute('aria-describedby')).textContent)
  expect(help).toBe('When a document lacks it, the job still succeeds with null, and the result marks it “required, not found”.')
  expect(await page.locator('main').innerText()).not.toContain('Usually present')

  // The invoice prints no PO number: the job succeeds, and the required field is marked; the optional one is only "not found".
  await page.getByRole('button', { name: 'Run on a document' }).click()
  await page.getByLabel('Schema', { exact: true }).locator('option', { hasText: 'Purchase invoices' }).waitFor({ state: 'attached' })
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'po.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makeInvoice()) })
  await page.getByRole('button', { name: 'Extract' }).click()
  const po = page.locator('table.fields tr[data-key="po_number"]')
  await po.locator('.required-missing').waitFor({ timeout: 60_000 })
  expect(await po.locator('td.value').innerText()).toBe('required, not found')
  expect(await po.locator('.type').innerText()).toBe('text, required')
  expect(await page.locator('tr[data-key="notes"] td.value').innerText()).toBe('not found')
  expect(await page.locator('tr[data-key="invoice_number"] td.value').innerText()).toBe('NW-2026-0417')
  const jobId = (await page.locator('.progress a').innerText()).trim()
  const job = (await apiGet(server, `/api/v1/jobs/${jobId}`)).job
  expect([job.status, job.result.po_number]).toEqual(['succeeded', null])
  // The job's own view marks it too, from the schema version it used.
  await page.goto(`${server.url}/console#/jobs/${jobId}`)
  await page.locator('table.fields tr[data-key="po_number"] .required-missing').waitFor()

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)('every error says what to do, once', async () => {
  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  // A wrong key: how to make one.
  await page.goto(`${server.url}/console`)
  await page.getByLabel('API key').fill('exd_wrong')
  await page.getByRole('button', { name: 'Sign in' }).click()
  expect(await page.getByRole('alert').innerText()).toBe(
    'Invalid API key. Check the key, or create one with `npm run extractd -- keys create` (with the binary: `extractd keys create`).',
  )
  await signIn(page, server)

  // A private address: the reason once, and the flag that allows it once.
  await page.getByRole('link', { name: 'Webhooks' }).click()
  await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hooks')
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  const said = await page.getByRole('alert').innerText()
  expect(said).toBe(
    'Invalid request: /url: 127.0.0.1 is a private, loopback or reserved address, which webhooks may not reach unless the server is started with --webhooks-allow-private',
  )
  expect(said.split('--webhooks-allow-private').length).toBe(2)
  expect(said.split('127.0.0.1').length).toBe(2)

  // A document that cannot be read: what to do with it.
  await page.getByRole('link', { name: 'Try a document' }).click()
  await page
    .getByLabel('Document', { exact: true })
    .setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\nthis is no PDF at all\n') })
  await page.getByRole('button', { name: 'Extract' }).click()
  const result = page.getByRole('region', { name: 'Result' })
  await result.getByText('Failed:').waitFor({ timeout: 60_000 })
  expect(await result.innerText()).toMatch(
    /^Failed: .+ Check that the file opens on your computer, or save or export it again, and send the new file\. \(corrupt_document\)$/,
  )

  expect(problems).toEqual([])
  // The wrong key's 401 may reach the test runner after the page has moved on; every other refusal is the endpoint's 400.
  expect(refused.filter((entry) => entry !== '401 /api/v1/document-types')).toEqual(['400 /api/v1/webhooks'])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)('the signed-in account creates a key shown once, revokes it, and is warned before revoking its own', async () => {
  const made = await fetch(`${server.url}/api/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${server.firstKey}` } })
  const own = ((await made.json()) as { key: { id: string; key: string; prefix: string } }).key
  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  const dialogs: string[] = []
  let answer = false
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    return answer ? dialog.accept() : dialog.dismiss()
  })
  await signIn(page, server, own.key)
  await page.getByRole('link', { name: 'API keys' }).click()
  const table = page.getByRole('region', { name: 'Keys' })
  expect(await table.locator(`tr[data-key-id="${own.id}"]`).innerText()).toContain('(this console)')
  expect(await table.innerText()).not.toContain(own.key)

  // Created: shown once, works at once, listed by its prefix.
  await page.getByRole('button', { name: 'Create a key' }).click()
  const secret = await page.locator('code.secret').innerText()
  expect(secret).toMatch(/^exd_[A-Za-z0-9_-]{43}$/)
  expect((await fetch(`${server.url}/api/v1/schemas`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200)
  await page.getByRole('button', { name: 'I have stored it' }).click()
  await page.locator('code.secret').waitFor({ state: 'detached' })
  expect(await page.locator('main').innerText()).not.toContain(secret)
  const created = table.locator('tr', { hasText: secret.slice(0, 10) })
  expect(await created.innerText()).toContain('active')

  // Revoked: refused at once.
  answer = true
  await created.getByRole('button', { name: /^Revoke/ }).click()
  await created.getByText('revoked').waitFor()
  expect((await fetch(`${server.url}/api/v1/schemas`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401)

  // Its own key: a warning first; declined, nothing happens.
  answer = false
  await table
    .locator(`tr[data-key-id="${own.id}"]`)
    .getByRole('button', { name: /^Revoke/ })
    .click()
  expect(dialogs.at(-1)).toContain('is the key this console is signed in with. Revoking it signs you out now')
  expect((await fetch(`${server.url}/api/v1/schemas`, { headers: { authorization: `Bearer ${own.key}` } })).status).toBe(200)
  // Accepted: revoked, and the console is signed out, saying why.
  answer = true
  await table
    .locator(`tr[data-key-id="${own.id}"]`)
    .getByRole('button', { name: /^Revoke/ })
    .click()
  await page.getByRole('alert').getByText('You revoked the key this console was signed in with: sign in with another key.').waitFor()
  await page.getByLabel('API key').waitFor()
  expect((await fetch(`${server.url}/api/v1/schemas`, { headers: { authorization: `Bearer ${own.key}` } })).status).toBe(401)
  expect(await page.evaluate(() => (globalThis as any).sessionStorage.length)).toBe(0)

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)('draws a box on every table row and its cells where the API places them, each linked to its row in the table', async () => {
  const { page, blocked, problems, refused } = await openConsolePage(browser, server)
  await signIn(page, server)
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'rows.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makeInvoice()) })
  await page.getByRole('button', { name: 'Extract' }).click()
  const canvas = page.locator('.result .page canvas[data-rendered="1"]')
  await canvas.waitFor({ timeout: 60_000 })
  const jobId = (await page.locator('.progress a').innerText()).trim()
  const meta = (await apiGet(server, `/api/v1/jobs/${jobId}`)).job.fields_meta.line_items
  expect(meta.rows.length).toBe(2)
  const pageBox = (await canvas.boundingBox())!
  const near = (drawn: { x: number; y: number; width: number; height: number }, box: { left: number; top: number; width: number; height: number }) => {
    expect(Math.abs(drawn.x - (pageBox.x + box.left * pageBox.width))).toBeLessThan(1.5)
    expect(Math.abs(drawn.y - (pageBox.y + box.top * pageBox.height))).toBeLessThan(1.5)
    expect(Math.abs(drawn.width - box.width * pageBox.width)).toBeLessThan(1.5)
  }
  const rowBoxes = page.locator('.row-box[data-table="line_items"]')
  expect(await rowBoxes.count()).toBe(2)
  for (const [index, place] of meta.rows.entries()) {
    near((await rowBoxes.nth(index).boundingBox())!, place.bbox)
    for (const [column, cell] of Object.entries(place.cells as Record<string, any>)) {
      if (cell) near((await page.locator(`.cell-box[data-table="line_items"][data-row="${index}"][data-column="${column}"]`).boundingBox())!, cell)
    }
  }
  // The second row's amount cell sits on the printed 118.00: its box lies in the row's, right of the description's.
  const second = meta.rows[1]
  expect(second.cells.amount.left).toBeGreaterThan(second.cells.description.left + second.cells.description.width)
  expect(second.cells.amount.top).toBeGreaterThanOrEqual(second.bbox.top - 0.001)

  // A row of the table lights its box on the page, and the box its row.
  const tableRows = page.locator('tr[data-rows-of="line_items"] table.rows tbody tr')
  await tableRows.nth(1).hover()
  await page.locator('.row-box.active[data-table="line_items"][data-row="1"]').waitFor({ timeout: 5000 })
  expect(await page.locator('.row-box.active').count()).toBe(1)
  await rowBoxes.nth(0).hover()
  await page.locator('tr[data-rows-of="line_items"] table.rows tbody tr.active[data-row="0"]').waitFor({ timeout: 5000 })

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})
