/**
 * Reviewing in the console (issue 32, D340–D345), in headless Chromium against the compiled
 * binary: the jobs that need review come first; a value is corrected by clicking it and typing,
 * two by drawing a box around them on the page, a table's cell corrected and a row added and one
 * removed, the rest confirmed by keyboard; the next document of that sender, reached with the
 * "next to review" key, is read right with what the review taught.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { browserRuns } from '../helpers/browser'
import { apiGet, consoleServer, extracted, openConsolePage, signIn } from '../helpers/console-page'
import { eventually } from '../helpers/eventually'
import { boxAround, FIRST_ORDER as FIRST, makeOrder, NEXT_ORDER as NEXT, type Order } from '../helpers/order'

setDefaultTimeout(120_000)

const runs = browserRuns
// Documents are kept, so that a past job's page is shown and a box can be drawn on it.
const running = consoleServer('extractd-console-review-', ['--keep-files', '1d'])

const FIELDS = {
  seller: { type: 'text', description: 'The seller' },
  reference: { type: 'text', description: 'Order reference' },
  deposit: { type: 'amount', description: 'Deposit paid' },
  total: { type: 'amount', description: 'Total' },
  date: { type: 'date', description: 'Order date' },
  items: { type: 'table', description: 'Items', columns: [{ key: 'description' }, { key: 'amount', type: 'amount' }] },
}

const extractOrder = async (order: Order, part: Record<string, unknown> = {}) =>
  extracted(running.server, `order-${order.reference}.pdf`, await makeOrder(order), 'application/pdf', { document_type: 'invoice', fields: FIELDS, ...part })

/** Drags a box on the drawn page around a place given in fractions of the page. */
async function drawBox(page: Page, box: { left: number; top: number; width: number; height: number }) {
  const layer = page.locator('.draw-layer')
  await layer.waitFor()
  const frame = (await layer.boundingBox())!
  await page.mouse.move(frame.x + box.left * frame.width, frame.y + box.top * frame.height)
  await page.mouse.down()
  await page.mouse.move(frame.x + (box.left + box.width) * frame.width, frame.y + (box.top + box.height) * frame.height, { steps: 5 })
  await page.mouse.up()
  await layer.waitFor({ state: 'detached' })
}

/** Waits until the focus is on a field's value. */
const focusOn = (page: Page, key: string) =>
  page.waitForFunction((wanted) => (globalThis as any).document.activeElement?.closest('tr')?.dataset.key === wanted, key)

test.skipIf(!runs)('corrects by clicking and by drawing a box, confirms the rest, and the next document of the sender is read right', async () => {
  const first = await extractOrder(FIRST)
  expect(first.needs_review).toBe(true)
  expect(first.result.reference).toBeNull()
  expect(first.result.deposit).toBeNull()
  // A newer job that needs no review (its threshold is 0) is listed after the one that does.
  const sure = await extracted(running.server, 'sure.txt', new TextEncoder().encode('Invoice No.: INV-7\nTotal: 10.00 EUR\n'), 'text/plain', {
    document_type: 'invoice',
    review_threshold: 0,
  })
  expect(sure.needs_review).toBe(false)

  const { page, blocked, problems, refused } = await openConsolePage(running.browser, running.server)
  await signIn(page, running.server)
  await page.getByRole('link', { name: 'Jobs' }).click()
  const list = page.getByRole('region', { name: 'Job list' })
  const entry = (job: { id: string }) => list.locator(`a[href="#/jobs/${job.id}"]`)
  await entry(sure).waitFor()
  await entry(first).waitFor()
  expect(await list.locator('.items a').first().getAttribute('href')).toBe(`#/jobs/${first.id}`)
  expect(await entry(first).locator('.mark').innerText()).toBe('needs review')
  expect(await entry(sure).locator('.mark').count()).toBe(0)
  // Newest first, on asking.
  await list.getByLabel('Order').selectOption('any')
  await list.locator('.items a').first().and(entry(sure)).waitFor()
  await list.getByLabel('Order').selectOption('first')
  await list.locator('.items a').first().and(entry(first)).waitFor()

  await entry(first).click()
  await page.locator('.page canvas[data-rendered="1"]').waitFor({ timeout: 30_000 })
  const row = (key: string) => page.locator(`tr[data-key="${key}"]`)
  const status = page.locator('.review-bar [role="status"]')
  // The keys are shown.
  expect(await page.locator('.review-bar .shortcuts').innerText()).toContain('Ctrl+Enter')

  // Click a value, type the right one, Enter: saved here, and the next field has the focus.
  await row('seller').locator('.value-button').click()
  await row('seller').locator('input.editor').fill('Lindqvist Kontor')
  await page.keyboard.press('Enter')
  await row('seller').locator('.mark.edited').waitFor()
  expect(await row('seller').locator('.value-button').innerText()).toBe('Lindqvist Kontor')
  await focusOn(page, 'reference')

  // B draws a box for the field with the focus: the words under it become its value.
  await page.keyboard.press('b')
  await drawBox(page, boxAround(FIRST, 'AX-7731', 50))
  await status.filter({ hasText: 'Read “AX-7731” as AX-7731.' }).waitFor()
  expect(await row('reference').locator('.value-button').innerText()).toBe('AX-7731')
  // J goes to the next field; an amount under the box is read as an amount is.
  await page.keyboard.press('j')
  await focusOn(page, 'deposit')
  await page.keyboard.press('b')
  await drawBox(page, boxAround(FIRST, '1.234,50 €', 60))
  await status.filter({ hasText: 'Read “1.234,50 €” as 1234.50.' }).waitFor()
  await row('deposit').locator('.mark.edited').waitFor()

  // E edits the field with the focus; Escape cancels.
  await page.keyboard.press('j')
  await page.keyboard.press('j')
  await focusOn(page, 'date')
  await page.keyboard.press('e')
  const dateEditor = row('date').locator('input.editor[type="date"]')
  await dateEditor.fill('2026-04-05')
  await page.keyboard.press('Escape')
  await dateEditor.waitFor({ state: 'detached' })
  expect(await row('date').locator('.value-button').innerText()).toBe('2026-04-03')
  await focusOn(page, 'date')

  // A table: a cell corrected (Enter goes on to the next cell), a row added, the wrong one removed.
  const items = page.locator('tr[data-rows-of="items"] table.rows tbody tr')
  expect(await items.count()).toBe(2)
  await items.nth(0).locator('td[data-column="description"] .value-button').click()
  await items.nth(0).locator('td[data-column="description"] input.editor').fill('Regalsystem Eiche, 5 Böden')
  await page.keyboard.press('Enter')
  await items.nth(0).locator('td[data-column="amount"] input.editor').waitFor()
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Add a row to Items' }).click()
  await items.nth(2).locator('td[data-column="description"] input.editor').fill('Montage')
  await page.keyboard.press('Enter')
  await items.nth(2).locator('td[data-column="amount"] input.editor').fill('150')
  await page.keyboard.press('Enter')
  await page.getByRole('button', { name: 'Remove row 2 of Items' }).click()
  expect(await items.count()).toBe(2)
  expect(await items.nth(1).innerText()).toMatch(/Montage\s+150/)

  // Ctrl+Enter confirms: the corrections sent, the rest confirmed as read.
  await page.keyboard.press('Control+Enter')
  await status.filter({ hasText: 'Reviewed: 4 corrected, the rest confirmed as read.' }).waitFor()
  await page.locator('.review-bar .notice').filter({ hasText: 'Reviewed' }).waitFor()
  for (const key of ['seller', 'reference', 'deposit', 'items']) await row(key).locator('.mark.corrected').waitFor()
  expect(await row('total').locator('.mark').count()).toBe(0)
  const reviewed = (await apiGet(running.server, `/api/v1/jobs/${first.id}`)).job
  expect(reviewed.reviewed_at).not.toBeNull()
  expect(reviewed.needs_review).toBe(false)
  expect(reviewed.result).toEqual({
    seller: 'Lindqvist Kontor',
    reference: 'AX-7731',
    deposit: '1234.50',
    total: '4980.00',
    date: '2026-04-03',
    items: [
      { description: 'Regalsystem Eiche, 5 Böden', amount: '4980.00' },
      { description: 'Montage', amount: '150.00' },
    ],
  })
  expect(Object.fromEntries(Object.entries(reviewed.fields_meta).map(([key, meta]: [string, any]) => [key, meta.corrected]))).toEqual({
    seller: true,
    reference: true,
    deposit: true,
    total: false,
    date: false,
    items: true,
  })
  // The list marks it reviewed.
  await entry(first).locator('.mark.reviewed').waitFor()
  // Confirmed again as shown, the corrections stand (a review starts from what the engine read).
  const firstReview = reviewed.reviewed_at
  await page.keyboard.press('Control+Enter')
  await eventually(async () => (await apiGet(running.server, `/api/v1/jobs/${first.id}`)).job.reviewed_at !== firstReview, 30_000)
  await status.filter({ hasText: 'Reviewed: 4 corrected, the rest confirmed as read.' }).waitFor()
  expect((await apiGet(running.server, `/api/v1/jobs/${first.id}`)).job.result).toEqual(reviewed.result)

  // The sender's next document: N opens it, as the next job that needs review, read with what the review taught.
  const next = await extractOrder(NEXT)
  expect(next.needs_review).toBe(true)
  expect(next.result).toMatchObject({ seller: 'Lindqvist Kontor', reference: 'BQ-1208', deposit: '310.00', total: '1550.00', date: '2026-05-17' })
  expect(next.fields_meta.reference.learned.job).toBe(first.id)
  await page.keyboard.press('n')
  await page.getByRole('heading', { name: 'order-BQ-1208.pdf' }).waitFor()
  expect(new URL(page.url()).hash).toBe(`#/jobs/${next.id}`)
  expect(await row('seller').locator('.value-button').innerText()).toBe('Lindqvist Kontor')
  expect(await row('reference').locator('.value-button').innerText()).toBe('BQ-1208')
  expect(await row('deposit').locator('.value-button').innerText()).toBe('310.00')
  // No other job needs review once it is confirmed as read.
  await page.locator('.page canvas[data-rendered="1"]').waitFor({ timeout: 30_000 })
  await page.keyboard.press('Control+Enter')
  await status.filter({ hasText: 'Reviewed: 0 corrected' }).waitFor()
  await page.keyboard.press('n')
  await page.getByText('No other job needs review.').waitFor()

  expect(problems).toEqual([])
  expect(refused).toEqual([])
  expect(blocked).toEqual([])
  await page.close()
})
