/**
 * The console at /console of the compiled binary, in headless Chromium with every other host
 * blocked: sign in, upload an invoice made here, see its fields and each field's box drawn where
 * the API's bbox says (from the DOM's geometry and the page's own pixels), design a schema with a
 * typed table field and run it, and find the jobs in the list. CI installs Debian's chromium;
 * elsewhere the test is skipped when it is not installed.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { browserRuns } from '../helpers/browser'
import { consoleServer, openConsolePage, signIn as signInAs } from '../helpers/console-page'
import { eventually } from '../helpers/eventually'
import { renderPage, toPng } from '../helpers/images'
import { makeInvoice } from '../helpers/invoice'

setDefaultTimeout(90_000)

const runs = browserRuns

const running = consoleServer('extractd-console-')

const openPage = (viewport?: { width: number; height: number }) => openConsolePage(running.browser, running.server, viewport)
const signIn = (page: Page) => signInAs(page, running.server)

async function apiJob(id: string) {
  const response = await fetch(`${running.server.url}/api/v1/jobs/${id}`, { headers: { authorization: `Bearer ${running.server.firstKey}` } })
  return ((await response.json()) as { job: any }).job
}

test.skipIf(!runs)('signs in, reads an invoice and draws each field where the API says it was printed', async () => {
  const { page, blocked, problems, refused } = await openPage()

  // A wrong key is refused and nothing is kept.
  await page.goto(`${running.server.url}/console`)
  await page.getByLabel('API key').fill('exd_wrong')
  await page.getByRole('button', { name: 'Sign in' }).click()
  expect(await page.getByRole('alert').textContent()).toContain('Invalid API key')

  // The page may show the refusal before the test runner hears of the response that carried it.
  await eventually(() => refused.length > 0)
  expect(refused).toEqual(['401 /api/v1/document-types'])
  refused.length = 0
  await signIn(page)
  // The key stays in this tab's session storage, never in the URL or local storage.
  expect(await page.evaluate(() => [sessionStorage.length, localStorage.length])).toEqual([1, 0])
  expect(page.url()).not.toContain(running.server.firstKey!)

  await page
    .getByLabel('Document', { exact: true })
    .setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makeInvoice()) })
  await page.getByLabel('Document type').selectOption('invoice')
  await page.getByRole('button', { name: 'Extract' }).click()

  const numberRow = page.locator('table.fields tr[data-key="invoice_number"]')
  await numberRow.waitFor({ timeout: 30_000 })
  expect(await numberRow.locator('td.value').innerText()).toBe('NW-2026-0417')
  expect(await page.locator('tr[data-key="total"] td.value').innerText()).toBe('195.60')
  expect(await numberRow.locator('.confidence').innerText()).toMatch(/^\d+ %$/)
  expect(await page.getByRole('status').filter({ hasText: 'pages read' }).innerText()).toContain('1 of 1 pages read')
  // The line items are a table of rows.
  const lines = page.locator('tr[data-rows-of="line_items"] table.rows')
  expect(await lines.locator('tbody tr').count()).toBe(2)
  expect(await lines.locator('tbody tr').first().innerText()).toContain('Printer paper A4')

  // The page is drawn by pdf.js, and each box sits where the API's bbox says.
  const canvas = page.locator('.page canvas[data-rendered="1"]')
  await canvas.waitFor({ timeout: 20_000 })
  const jobId = (await page.locator('.progress a').innerText()).trim()
  const job = await apiJob(jobId)
  const bbox = job.fields_meta.invoice_number.bbox as { left: number; top: number; width: number; height: number }
  const pageBox = (await canvas.boundingBox())!
  const fieldBox = (await page.locator('.box[data-key="invoice_number"]').boundingBox())!
  expect(Math.abs(fieldBox.x - (pageBox.x + bbox.left * pageBox.width))).toBeLessThan(1.5)
  expect(Math.abs(fieldBox.y - (pageBox.y + bbox.top * pageBox.height))).toBeLessThan(1.5)
  expect(Math.abs(fieldBox.width - bbox.width * pageBox.width)).toBeLessThan(1.5)
  expect(Math.abs(fieldBox.height - bbox.height * pageBox.height)).toBeLessThan(1.5)
  // The page's own pixels: ink inside the box (the printed number), blank paper just below the letterhead's right.
  const ink = await canvas.evaluate((element: any, box) => {
    const context = element.getContext('2d')!
    const darkShare = (left: number, top: number, width: number, height: number) => {
      const data = context.getImageData(
        left * element.width,
        top * element.height,
        Math.max(1, width * element.width),
        Math.max(1, height * element.height),
      ).data
      let dark = 0
      for (let at = 0; at < data.length; at += 4) if (data[at]! + data[at + 1]! + data[at + 2]! < 300 && data[at + 3]! > 0) dark++
      return dark / (data.length / 4)
    }
    return { inBox: darkShare(box.left, box.top, box.width, box.height), blank: darkShare(0.6, 0.12, 0.3, 0.05) }
  }, bbox)
  expect(ink.inBox).toBeGreaterThan(0.05)
  expect(ink.blank).toBe(0)

  // Hovering a field lights its box; hovering a box lights its field (and only it).
  await numberRow.locator('th button').hover()
  await page.locator('.box.active[data-key="invoice_number"]').waitFor({ timeout: 5000 })
  await page.locator('.box[data-key="total"]').hover()
  await page.locator('tr.active[data-key="total"]').waitFor({ timeout: 5000 })
  await page.locator('.box.active[data-key="invoice_number"]').waitFor({ state: 'detached', timeout: 5000 })
  expect(await page.locator('.box.active').count()).toBe(1)
  // By keyboard: a field's button selects it, and its box stays lit.
  await numberRow.locator('th button').focus()
  await page.keyboard.press('Enter')
  await numberRow.locator('th button[aria-pressed="true"]').waitFor({ timeout: 5000 })
  await page.locator('.box[aria-pressed="true"][data-key="invoice_number"]').waitFor({ timeout: 5000 })

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)('designs a schema with a typed table field, runs it on a document, and finds the job in the list', async () => {
  const { page, blocked, problems, refused } = await openPage()
  await signIn(page)

  await page.getByRole('link', { name: 'Schemas' }).click()
  await page.getByRole('link', { name: 'New schema' }).click()
  await page.getByLabel('Name', { exact: true }).fill('Supplier invoices')
  await page.getByRole('button', { name: 'Add a field' }).click()
  const first = page.getByRole('listitem', { name: 'Field 1' })
  await first.getByLabel('Key', { exact: true }).fill('invoice_number')
  await first.getByLabel('Type', { exact: true }).selectOption('text')
  await page.getByRole('button', { name: 'Add a field' }).click()
  const second = page.getByRole('listitem', { name: 'Field 2' })
  await second.getByLabel('Key', { exact: true }).fill('line_items')
  await second.getByLabel('Description', { exact: true }).fill('Line items')
  await second.getByLabel('Type', { exact: true }).selectOption('table')
  for (const [key, type] of [
    ['description', 'text'],
    ['qty', 'number'],
    ['amount', 'amount'],
  ]) {
    await second.getByRole('button', { name: 'Add a column' }).click()
    await second.getByLabel('Column key').last().fill(key!)
    await second.getByLabel('Column type').last().selectOption(type!)
  }
  await page.getByRole('button', { name: 'Create schema' }).click()
  await page.getByRole('heading', { name: 'Supplier invoices · version 1' }).waitFor()

  // What the API stored is what was designed.
  const listed = await (await fetch(`${running.server.url}/api/v1/schemas`, { headers: { authorization: `Bearer ${running.server.firstKey}` } })).json()
  const schema = (listed as { schemas: any[] }).schemas.find((entry) => entry.name === 'Supplier invoices')
  expect(schema.fields.map((field: any) => [field.key, field.type])).toEqual([
    ['invoice_number', 'text'],
    ['line_items', 'table'],
  ])
  expect(schema.fields[1].columns.map((column: any) => [column.key, column.type])).toEqual([
    ['description', 'text'],
    ['qty', 'number'],
    ['amount', 'amount'],
  ])

  await page.getByRole('button', { name: 'Run on a document' }).click()
  await page.getByRole('heading', { name: 'Try a document', level: 1 }).waitFor()
  const schemaPicker = page.getByLabel('Schema', { exact: true })
  await schemaPicker.locator('option', { hasText: 'Supplier invoices' }).waitFor({ state: 'attached' })
  expect(await schemaPicker.inputValue()).toBe(schema.id)
  await page
    .getByLabel('Document', { exact: true })
    .setInputFiles({ name: 'supplier.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makeInvoice()) })
  await page.getByRole('button', { name: 'Extract' }).click()
  const items = page.locator('tr[data-rows-of="line_items"] table.rows')
  await items.waitFor({ timeout: 30_000 })
  expect(await items.locator('thead').innerText()).toMatch(/description\s+qty\s+amount/)
  expect(await items.locator('tbody tr').count()).toBe(2)
  expect(await items.locator('tbody tr').nth(1).innerText()).toMatch(/Toner cartridge\s+2\s+118\.00/)
  const jobId = (await page.locator('.progress a').innerText()).trim()
  const job = await apiJob(jobId)
  expect(job.schema_id).toBe(schema.id)

  // The job is in the list, under its status too, and opens with its result.
  await page.getByRole('link', { name: 'Jobs' }).click()
  await page.getByLabel('Status').selectOption('succeeded')
  const entry = page.getByRole('region', { name: 'Job list' }).locator(`a[href="#/jobs/${jobId}"]`)
  await entry.waitFor()
  expect(await entry.innerText()).toContain('supplier.pdf')
  await page.getByLabel('Status').selectOption('failed')
  await entry.waitFor({ state: 'detached' })
  await page.getByLabel('Status').selectOption('')
  await entry.click()
  await page.locator('tr[data-rows-of="line_items"] table.rows').waitFor()

  expect(problems).toEqual([])
  // The server keeps no document after its job here (no --keep-files): the job is shown without its
  // page, says how to keep pages, and the document is not asked for (no 404, D331).
  await page.getByText('start the server with --keep-files').waitFor()
  expect(refused).toEqual([])

  // Deleted from its view, the job leaves the list and the API.
  page.on('dialog', (dialog) => dialog.accept())
  await page.getByRole('button', { name: 'Delete job' }).click()
  await entry.waitFor({ state: 'detached' })
  expect((await fetch(`${running.server.url}/api/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${running.server.firstKey}` } })).status).toBe(404)
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)('works by keyboard alone and fits a phone', async () => {
  const { page, problems } = await openPage({ width: 390, height: 844 })
  await page.goto(`${running.server.url}/console`)
  // The key's field has the focus from the start.
  await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'api-key')
  await page.keyboard.type(running.server.firstKey!)
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name: 'Try a document', level: 1 }).waitFor()
  // Nothing is wider than the phone's screen.
  expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  // Tab reaches the navigation; Enter on a link opens its screen.
  let reached = false
  for (let presses = 0; presses < 10 && !reached; presses++) {
    await page.keyboard.press('Tab')
    reached = await page.evaluate(() => (globalThis as any).document.activeElement?.textContent === 'Schemas')
  }
  expect(reached).toBe(true)
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name: 'Schemas', level: 1 }).waitFor()
  expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

  // Fields typed in on the spot, with their types, read from a document at phone width.
  await page.getByRole('link', { name: 'Try a document' }).click()
  await page.getByLabel('Fields typed here').check()
  const typed = page.getByRole('listitem', { name: 'Field 1' })
  await typed.getByLabel('Key', { exact: true }).fill('amount_due')
  await typed.getByLabel('Description', { exact: true }).fill('The total to pay')
  await typed.getByLabel('Type', { exact: true }).selectOption('amount')
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'phone.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makeInvoice()) })
  await page.getByRole('button', { name: 'Extract' }).click()
  const due = page.locator('tr[data-key="amount_due"]')
  await due.waitFor({ timeout: 30_000 })
  expect(await due.locator('td.value').innerText()).toBe('195.60')
  expect(await due.locator('.type').innerText()).toBe('amount')
  await page.locator('.page canvas[data-rendered="1"]').waitFor({ timeout: 20_000 })
  expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  expect(problems).toEqual([])
  await page.close()
})

test.skipIf(!runs)('the designer starts from catalog suggestions, keeps versions, exports and imports JSON Schema, deletes and restores', async () => {
  const { page, blocked, problems, refused } = await openPage()
  page.on('dialog', (dialog) => dialog.accept())
  await signIn(page)
  await page.getByRole('link', { name: 'Schemas' }).click()
  await page.getByRole('link', { name: 'New schema' }).click()
  await page.getByLabel('Start from a catalog type').selectOption('invoice')
  await page.getByRole('button', { name: 'Add suggested fields' }).click()
  await page.getByRole('listitem', { name: 'Field 6: total' }).waitFor()
  expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Invoice')
  await page.getByLabel('Name', { exact: true }).fill('From the catalog')
  await page.getByRole('button', { name: 'Create schema' }).click()
  await page.getByRole('heading', { name: 'From the catalog · version 1' }).waitFor()

  // An enum field makes version 2, and the versions say what changed.
  await page.getByRole('button', { name: 'Add a field' }).click()
  const added = page.getByRole('listitem', { name: 'Field 7' })
  await added.getByLabel('Key', { exact: true }).fill('status')
  await added.getByLabel('Type', { exact: true }).selectOption('enum')
  await added.getByLabel('Allowed values (comma-separated)').fill('open, paid')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await page.getByRole('heading', { name: 'From the catalog · version 2' }).waitFor()
  const versions = page.getByRole('region', { name: 'Versions', exact: true })
  await versions.getByText('added status').waitFor()
  await versions.getByText('created with 6 fields').waitFor()

  // Export the JSON Schema of its results; import one written elsewhere as a new schema.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON Schema' }).click()])
  const exported = JSON.parse(await Bun.file((await download.path())!).text())
  expect(exported.title).toBe('From the catalog')
  expect(exported.properties.status.anyOf).toEqual([{ enum: ['open', 'paid'] }, { type: 'null' }])
  const written = {
    title: 'Receipts',
    type: 'object',
    properties: {
      merchant: { type: 'string', title: 'Merchant' },
      paid_on: { type: 'string', format: 'date' },
      items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } } },
    },
  }
  await page
    .getByLabel('Import JSON Schema')
    .setInputFiles({ name: 'receipts.schema.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(written)) })
  await page.getByRole('status').getByText('Imported “Receipts” with 3 fields.').waitFor()
  await page.getByRole('heading', { name: 'Receipts · version 1' }).waitFor()
  const imported = page.getByRole('listitem', { name: 'Field 3: items' })
  expect(await imported.getByLabel('Type', { exact: true }).inputValue()).toBe('table')
  expect(await imported.getByLabel('Column type').last().inputValue()).toBe('number')

  // Delete, then restore from the same screen.
  await page.getByRole('link', { name: /From the catalog/ }).click()
  await page.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('button', { name: 'Restore From the catalog' }).click()
  await page.getByRole('status').getByText('Restored “From the catalog”.').waitFor()
  await page.getByRole('link', { name: /From the catalog/ }).waitFor()

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)('adds a webhook endpoint, shows its secret once, lists its deliveries and deletes it', async () => {
  const { page, blocked, problems, refused } = await openPage()
  page.on('dialog', (dialog) => dialog.accept())
  const headers = { authorization: `Bearer ${running.server.firstKey}` }
  await signIn(page)
  await page.getByRole('link', { name: 'Webhooks' }).click()
  await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/extractd')
  await page.getByLabel('job.failed').uncheck()
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  expect(await page.locator('code.secret').innerText()).toMatch(/^whsec_/)
  const listed = (await (await fetch(`${running.server.url}/api/v1/webhooks`, { headers })).json()) as { webhooks: { url: string; events: string[] }[] }
  expect(listed.webhooks.map((webhook) => [webhook.url, webhook.events])).toEqual([['https://hooks.example.com/extractd', ['job.succeeded']]])
  await page.getByRole('button', { name: 'I have stored it' }).click()
  await page.locator('code.secret').waitFor({ state: 'detached' })

  await page.getByRole('link', { name: /hooks\.example\.com/ }).click()
  await page.getByText('No delivery attempts yet.').waitFor()
  await page.getByRole('button', { name: 'Delete endpoint' }).click()
  await page.getByText('No endpoints yet.').waitFor()
  expect(((await (await fetch(`${running.server.url}/api/v1/webhooks`, { headers })).json()) as { webhooks: unknown[] }).webhooks).toEqual([])

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})

test.skipIf(!runs)('a scanned receipt: the image itself is the page, and every box sits where its bbox says', async () => {
  const { page, blocked, problems, refused } = await openPage()
  await signIn(page)
  const scan = toPng(
    await renderPage({ lines: ['CORNER CAFE', 'Receipt No: R-1234', 'Date: 12/03/2026', 'Coffee        3.50', 'Cake          4.00', 'TOTAL         7.50'] }),
  )
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: Buffer.from(scan) })
  await page.getByRole('button', { name: 'Extract' }).click()
  await page.locator('tr[data-key="total"]').waitFor({ timeout: 30_000 })
  const picture = page.locator('.page img')
  await picture.waitFor()
  await page.waitForFunction(() => ((globalThis as any).document.querySelector('.page img')?.naturalWidth ?? 0) > 0)
  const jobId = (await page.locator('.progress a').innerText()).trim()
  const job = await apiJob(jobId)
  expect(job.file.media_type).toBe('image/png')
  const placed = Object.entries(job.fields_meta as Record<string, { bbox: { left: number; top: number; width: number; height: number } | null }>).filter(
    ([, meta]) => meta.bbox !== null,
  )
  expect(placed.length).toBeGreaterThan(0)
  const image = (await picture.boundingBox())!
  for (const [key, { bbox }] of placed) {
    const drawn = (await page.locator(`.box[data-key="${key}"]`).boundingBox())!
    expect(Math.abs(drawn.x - (image.x + bbox!.left * image.width))).toBeLessThan(1.5)
    expect(Math.abs(drawn.y - (image.y + bbox!.top * image.height))).toBeLessThan(1.5)
    expect(Math.abs(drawn.width - bbox!.width * image.width)).toBeLessThan(1.5)
  }
  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})
