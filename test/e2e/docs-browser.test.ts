/**
 * Swagger UI at /docs of the compiled binary, in headless Chromium with every other host
 * blocked: it renders all operations, and "Authorize" then "Try it out" lists schemas.
 * CI installs Debian's chromium; elsewhere the test is skipped when it is not installed.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { browserRuns } from '../helpers/browser'
import { consoleServer } from '../helpers/console-page'

// These tests build and start real processes.
setDefaultTimeout(60_000)

const runs = browserRuns

const running = consoleServer('extractd-docs-')

test.skipIf(!runs)('renders every operation offline, authorizes with a key, lists schemas and uploads a document through "Try it out"', async () => {
  const page = await running.browser.newPage()
  // The page's Content-Security-Policy (D128) must block nothing it needs.
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text())
  })
  const origin = new URL(running.server.url).host
  const blocked: string[] = []
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (url.host === origin) return route.continue()
    blocked.push(url.href)
    return route.abort()
  })

  // One schema exists, so the listing has something to show.
  const create = await fetch(`${running.server.url}/api/v1/schemas`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.server.firstKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Seen in the browser' }),
  })
  expect(create.status).toBe(201)

  await page.goto(`${running.server.url}/docs`)
  await page.waitForSelector('.opblock', { timeout: 15_000 })
  const doc = (await (await fetch(`${running.server.url}/openapi.json`)).json()) as { paths: Record<string, object>; webhooks: Record<string, object> }
  const operationCount = [...Object.values(doc.paths), ...Object.values(doc.webhooks)].reduce((n, ops) => n + Object.keys(ops).length, 0)
  expect(await page.locator('.opblock').count()).toBe(operationCount)
  expect(await page.locator('.opblock-summary-path', { hasText: '/api/v1/schemas/{id}/restore' }).count()).toBe(1)
  // The webhook events, in a section of their own (D321).
  for (const event of Object.keys(doc.webhooks)) expect(await page.locator('.opblock-summary-path', { hasText: event }).count()).toBe(1)

  await page.locator('button.authorize').first().click()
  await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(running.server.firstKey!)
  await page.locator('.modal-ux button.authorize').click()
  await page.locator('.modal-ux button.btn-done').click()
  // The key lives in the page only: nothing in storage for the next person at this browser (D128).
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain(running.server.firstKey!)

  const listOperation = page.locator('#operations-Schemas-listSchemas')
  await listOperation.locator('.opblock-summary').click()
  await listOperation.locator('button.try-out__btn').click()
  await listOperation.locator('button.execute').click()
  const responseBody = listOperation.locator('.live-responses-table .response-col_description pre').first()
  await responseBody.waitFor({ timeout: 10_000 })
  expect(await responseBody.innerText()).toContain('Seen in the browser')
  expect(await listOperation.locator('.live-responses-table tr.response .response-col_status').first().innerText()).toContain('200')

  // The multipart upload through "Try it out" as well.
  const extract = page.locator('#operations-Extraction-extract')
  await extract.locator('.opblock-summary').click()
  await extract.locator('button.try-out__btn').click()
  await extract.locator('input[type=file]').setInputFiles({
    name: 'invoice.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Invoice No.: UI-7\nTotal: 12.00 EUR\n'),
  })
  // The part is described as JSON (D320): Swagger UI edits it as JSON and sends it as text.
  await extract
    .locator('tr[data-property-name="extract"] textarea')
    .fill(JSON.stringify({ document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }))
  await extract.locator('button.execute').click()
  const extractBody = extract.locator('.live-responses-table .response-col_description pre').first()
  await extractBody.waitFor({ timeout: 10_000 })
  const answer = await extractBody.innerText()
  expect(answer).toContain('"succeeded"')
  expect(answer).toContain('UI-7')
  expect(blocked).toEqual([])
  expect(violations).toEqual([])
})
