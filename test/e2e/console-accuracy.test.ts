/**
 * The console's Accuracy screen (issue 33) on the compiled binary, in headless Chromium: two
 * receipts read and reviewed through the API, one value corrected; the screen shows per field and
 * in all what `GET /api/v1/accuracy` answers, at the default threshold and at one picked, and
 * filters by document type. Skipped where Chromium is not installed.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { browserRuns } from '../helpers/browser'
import { apiGet, consoleServer, openConsolePage, signIn } from '../helpers/console-page'

setDefaultTimeout(90_000)

const running = consoleServer('extractd-console-accuracy-')

const receipt = (no: string) =>
  [
    'SANYU SUPPLY SDN BHD',
    'NO 12 JALAN PASAR BARU, 43000 KAJANG',
    `Doc No: ${no}`,
    'Date: 12/03/2018',
    'PEN BLUE   1   3.00',
    'Total Sales (Incl GST)   3.00',
    '',
  ].join('\n')

async function readAndReview(no: string, fields: Record<string, unknown>) {
  const headers = { authorization: `Bearer ${running.server.firstKey}` }
  const form = new FormData()
  form.set('file', new File([receipt(no)], `${no}.txt`))
  form.set('extract', JSON.stringify({ document_type: 'invoice', fields: { company_name: 'The seller', date: 'Date', total: 'Total paid' } }))
  const { job } = (await (await fetch(`${running.server.url}/api/v1/extract`, { method: 'POST', headers, body: form })).json()) as { job: { id: string } }
  const reviewed = await fetch(`${running.server.url}/api/v1/jobs/${job.id}/review`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ fields }),
  })
  expect(reviewed.status).toBe(200)
}

const cells = (row: { locator: (selector: string) => { allInnerTexts: () => Promise<string[]> } }) => row.locator('th, td').allInnerTexts()

test.skipIf(!browserRuns)('shows per field what the reviews say, at the default threshold and at one picked, and filters by document type', async () => {
  await readAndReview('CS001', { company_name: 'SANYU STATIONERY SHOP' })
  await readAndReview('CS002', {})
  const expected = await apiGet(running.server, '/api/v1/accuracy')
  expect(expected.jobs).toBe(2)

  const { page, blocked, problems, refused } = await openConsolePage(running.browser, running.server)
  await signIn(page, running.server)
  await page.getByRole('link', { name: 'Accuracy' }).click()
  await page.getByRole('heading', { name: 'Accuracy', level: 1 }).waitFor()
  const table = page.locator('table.accuracy')
  await table.waitFor()

  expect(await table.locator('tbody th').allInnerTexts()).toEqual(expected.fields.map((field: { key: string }) => field.key))
  const company = await cells(table.locator('tr[data-key="company_name"]'))
  const field = expected.fields.find((entry: { key: string }) => entry.key === 'company_name')
  expect(company.slice(0, 4)).toEqual(['company_name', String(field.reviewed), '1', String(field.missed)])
  const total = await cells(table.locator('tfoot tr'))
  expect(total.slice(0, 3)).toEqual(['All fields', String(expected.total.reviewed), '1'])
  expect(await page.getByRole('status').innerText()).toContain('2 reviewed jobs')
  expect(await table.locator('thead').innerText()).toContain('Unchecked at 0.95')

  // A threshold picked: the column and the summary say what it lets through.
  const lower = await apiGet(running.server, '/api/v1/accuracy?threshold=0.8')
  await page.getByRole('button', { name: '0.8', exact: true }).click()
  await table.locator('thead th', { hasText: 'Unchecked at 0.8' }).waitFor()
  const through = `${(lower.total.unchecked.share * 100).toFixed(1)} % (${lower.total.unchecked.values})`
  expect(await table.locator('tfoot td').nth(-2).innerText()).toBe(through)

  // No reviewed job of another document type.
  await page.getByLabel('Document type').selectOption('purchase_order')
  await page.getByText('No reviewed jobs match.').waitFor()

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})
