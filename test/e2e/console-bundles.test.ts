/**
 * "Try a document" with a file of several documents of unknown type, in headless Chromium against
 * the compiled binary (issue 34): "Detect the type" and "Several documents in one file" send
 * `auto` and `split`, the documents found are listed with their pages and types, and each opens as
 * its own job. CI installs Debian's chromium; elsewhere the test is skipped when it is not installed.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { browserRuns } from '../helpers/browser'
import { consoleServer, openConsolePage, signIn } from '../helpers/console-page'
import { sample, samplesPdf } from '../helpers/documents'

setDefaultTimeout(90_000)

const running = consoleServer('extractd-console-bundles-')

test.skipIf(!browserRuns)('detects the types of the documents in one file, lists them with their pages, and opens each as its own job', async () => {
  const { page, blocked, problems } = await openConsolePage(running.browser, running.server)
  await signIn(page, running.server)
  const stack = await samplesPdf([sample('invoice-en'), sample('contract-en-three-pages')])
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'post.pdf', mimeType: 'application/pdf', buffer: Buffer.from(stack) })
  await page.getByLabel('Document type').selectOption({ label: 'Detect the type' })
  await page.getByLabel('Several documents in one file').check()
  await page.getByRole('button', { name: 'Extract' }).click()

  const found = page.getByRole('region', { name: 'Documents found' })
  await found.waitFor({ timeout: 60_000 })
  expect(await found.getByRole('heading').innerText()).toBe('2 documents found')
  const rows = found.locator('tbody tr')
  expect(await rows.allInnerTexts()).toEqual([expect.stringMatching(/^1\tInvoice\tjob_/), expect.stringMatching(/^2–4\tContract \/ Agreement\tjob_/)])

  // The request the page made is the one the API documents: `auto` and `split`.
  const curl = await page.locator('.curl-command').textContent()
  expect(curl).toContain('"document_type":"auto"')
  expect(curl).toContain('"split":true')

  // Each document is a job of its own: the contract opens with its type and its own result.
  const contractJob = (await rows.nth(1).getAttribute('data-job'))!
  await rows.nth(1).getByRole('link').click()
  await page.waitForURL(`**/console#/jobs/${contractJob}`)
  await page.locator('table.fields tr[data-key]').first().waitFor()
  const response = await fetch(`${running.server.url}/api/v1/jobs/${contractJob}`, { headers: { authorization: `Bearer ${running.server.firstKey}` } })
  const { job } = (await response.json()) as { job: { document_type: string; split_from: { first_page: number; last_page: number } } }
  expect(job.document_type).toBe('contract')
  expect(job.split_from).toMatchObject({ first_page: 2, last_page: 4 })
  expect(blocked).toEqual([])
  expect(problems).toEqual([])
})
