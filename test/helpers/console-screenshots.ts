/**
 * The README's screenshots of the console: `bun test/helpers/console-screenshots.ts` starts
 * extractd from the sources, drives Debian's Chromium through the screens and writes PNGs to
 * docs/console/.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { launchBrowser } from './browser'
import { makeInvoice } from './invoice'
import { FROM_SOURCE, ROOT, startServer, tempDir } from './process'

const OUT = join(ROOT, 'docs/console')

const dir = tempDir('extractd-shots-')
const server = await startServer(FROM_SOURCE, ['--keep-files', '1d', '--webhooks-allow-private'], dir.path)
const browser = await launchBrowser()
const key = server.firstKey!
const invoice = Buffer.from(await makeInvoice())

async function signedIn(viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1, colorScheme: 'light' })
  await page.goto(`${server.url}/console`)
  await page.getByLabel('API key').fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Try a document', level: 1 }).waitFor()
  return page
}

async function tryInvoice(page: Page) {
  await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: invoice })
  await page.getByRole('button', { name: 'Extract' }).click()
  await page.locator('.page canvas[data-rendered="1"]').waitFor({ timeout: 30_000 })
}

try {
  const page = await signedIn({ width: 1280, height: 800 })
  await tryInvoice(page)
  await page.locator('.box[data-key="total"]').hover()
  await page.screenshot({ path: join(OUT, 'try.png'), fullPage: true })

  // A schema with a typed table field, built through the API so the designer opens on it.
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const created = await fetch(`${server.url}/api/v1/schemas`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Supplier invoices',
      description: 'What accounts payable keys in',
      fields: [
        { key: 'invoice_number', label: 'Invoice number', required: true, type: 'text' },
        { key: 'status', label: 'Status', required: false, type: 'enum', values: ['open', 'paid', 'overdue'] },
        {
          key: 'line_items',
          label: 'Line items',
          required: true,
          type: 'table',
          columns: [
            { key: 'description', type: 'text' },
            { key: 'qty', type: 'number' },
            { key: 'amount', type: 'amount' },
          ],
        },
      ],
    }),
  })
  const { schema } = (await created.json()) as { schema: { id: string } }
  await fetch(`${server.url}/api/v1/schemas/${schema.id}`, { method: 'PATCH', headers, body: JSON.stringify({ description: 'Keyed in by accounts payable' }) })
  await page.goto(`${server.url}/console#/schemas/${schema.id}`)
  await page.getByRole('heading', { name: /Supplier invoices/ }).waitFor()
  await page.screenshot({ path: join(OUT, 'schemas.png'), fullPage: true })

  await page.goto(`${server.url}/console#/jobs`)
  await page.locator('.items a').first().click()
  await page.locator('.page canvas[data-rendered="1"]').waitFor({ timeout: 30_000 })
  await page.screenshot({ path: join(OUT, 'jobs.png') })

  await fetch(`${server.url}/api/v1/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: `${server.url}/hooks/not-here`, events: ['job.succeeded'] }),
  })
  await page.goto(`${server.url}/console#/try`)
  await tryInvoice(page)
  await page.goto(`${server.url}/console#/webhooks`)
  await page.locator('.items a').first().click()
  await page.waitForTimeout(2000)
  await page.getByRole('button', { name: 'Refresh' }).click()
  await page.waitForTimeout(500)
  await page.screenshot({ path: join(OUT, 'webhooks.png') })

  const phone = await signedIn({ width: 390, height: 844 })
  await tryInvoice(phone)
  await phone.locator('.result').scrollIntoViewIfNeeded()
  await phone.screenshot({ path: join(OUT, 'phone.png'), fullPage: true })
  console.log(`wrote ${OUT}/{try,schemas,jobs,webhooks,phone}.png`)
} finally {
  await browser.close()
  await server.stop()
  dir.remove()
}
