/**
 * A Chromium page on the console of a running server, for the console's browser tests: a request
 * to any other host fails (launchBrowser) and is noted, and so are the server's answers of 400
 * and more and what the console logs as an error.
 */
import { afterAll, beforeAll, expect } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { browserRuns, launchBrowser } from './browser'
import { buildBinary, type RunningServer, startServer, tempDir } from './process'

export interface ConsolePage {
  page: Page
  /** Requests to any other host, refused. */
  blocked: string[]
  /** Errors the page logged or threw. */
  problems: string[]
  /** Answers of 400 and more, as `status path`. */
  refused: string[]
}

export async function openConsolePage(browser: Browser, server: RunningServer, viewport = { width: 1280, height: 800 }): Promise<ConsolePage> {
  const page = await browser.newPage({ viewport })
  const origin = new URL(server.url).host
  const blocked: string[] = []
  const problems: string[] = []
  const refused: string[] = []
  // No request is intercepted: a route handler holds every request until the test runner answers
  // it, and at a load of 6–8 a console screen failed to appear within 30 s in 3 of 13 runs of
  // console-first-hour (once in CI), with nothing else found that could hold it. Other hosts do not
  // resolve in this browser (launchBrowser), so a request to one fails there; each is noted here.
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.protocol !== 'blob:' && url.protocol !== 'data:' && url.host !== origin) blocked.push(url.href)
  })
  page.on('response', (response) => {
    if (response.status() >= 400) refused.push(`${response.status()} ${new URL(response.url()).pathname}`)
  })
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  return { page, blocked, problems, refused }
}

/** Signs in with the key and waits for the first screen. */
export async function signIn(page: Page, server: RunningServer, key = server.firstKey!) {
  await page.goto(server.url)
  expect(new URL(page.url()).pathname).toBe('/console')
  await page.getByLabel('API key').fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Try a document', level: 1 }).waitFor()
}

/**
 * Elements that stick out of the viewport: their right edge past its width, unless a scrolling
 * ancestor holds them (a wide table in its own scroll box is not an overflow of the page).
 */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document
    const view = (globalThis as any).window
    const viewport = doc.documentElement.clientWidth
    const held = (element: any) => {
      for (let at = element.parentElement; at && at !== doc.body; at = at.parentElement) if (view.getComputedStyle(at).overflowX !== 'visible') return true
      return false
    }
    const out: string[] = []
    if (doc.documentElement.scrollWidth > viewport) out.push(`the page scrolls sideways (${doc.documentElement.scrollWidth} > ${viewport})`)
    for (const element of doc.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect()
      if (box.width > 0 && (box.right > viewport + 0.5 || box.left < -0.5) && !held(element) && !element.closest('.skip, .hidden'))
        out.push(
          `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''} (${Math.round(box.left)}–${Math.round(box.right)})`,
        )
    }
    return out
  })
}

export async function apiGet(server: RunningServer, path: string, key = server.firstKey!): Promise<any> {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  return response.json()
}

/** A document extracted through the API (synchronously), as the account of `key`: its job. */
export async function extracted(
  target: RunningServer,
  name: string,
  content: Uint8Array,
  type: string,
  part: Record<string, unknown> = { document_type: 'invoice' },
  key = target.firstKey!,
) {
  const form = new FormData()
  form.append('file', new File([content], name, { type }))
  form.append('extract', JSON.stringify(part))
  const response = await fetch(`${target.url}/api/v1/extract`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form })
  expect(response.status).toBe(200)
  return ((await response.json()) as { job: any }).job
}

/**
 * The compiled binary started in an empty temporary directory (with `args`), and a Chromium,
 * before a file's tests, both stopped after them; nothing is started where Chromium does not run.
 * Read `server` and `browser` inside the tests.
 */
export function consoleServer(prefix: string, args: string[] = []): { server: RunningServer; browser: Browser } {
  const dir = tempDir(prefix)
  const started = {} as { server: RunningServer; browser: Browser }
  beforeAll(async () => {
    if (!browserRuns) return
    started.server = await startServer([await buildBinary()], args, dir.path)
    started.browser = await launchBrowser()
  }, 120_000)
  afterAll(async () => {
    await started.browser?.close()
    await started.server?.stop()
    dir.remove()
  })
  return started
}
