/**
 * The console's routes: / points to /console, the page and its assets carry a strict CSP, assets
 * are served under a version that changes with their contents, and what is committed is what
 * `bun run console:build` makes from the sources, within its size budget.
 */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ASSETS_DIR, buildConsole } from '../../src/modules/console/build'
import { makeTestApp } from '../helpers/app'

async function get(path: string, headers: Record<string, string> = {}) {
  const t = await makeTestApp()
  return t.app.handle(new Request(`http://localhost${path}`, { headers }))
}

async function assetsBase(): Promise<string> {
  const html = await (await get('/console')).text()
  return html.match(/href="(\/console\/assets\/[0-9a-f]{16})\/console\.css"/)![1]!
}

describe('the console', () => {
  test('/ redirects to /console', async () => {
    const response = await get('/')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/console')
  })

  test('/console is a page with no inline script, behind a strict CSP, needing no key', async () => {
    const response = await get('/console')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).toContain("frame-ancestors 'none'")
    const html = await response.text()
    // Every script is a file from the server; no inline code, no style attributes.
    expect([...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])).toEqual([
      expect.stringMatching(/^<script type="module" src="\/console\/assets\/[0-9a-f]{16}\/console\.js">$/),
    ])
    expect(html).not.toMatch(/<script[^>]*>[^<]+<\/script>/)
    expect(html).not.toContain('style=')
  })

  test('assets are served under their version, cached for good, with their types', async () => {
    const base = await assetsBase()
    for (const [name, type] of [
      ['console.js', 'text/javascript; charset=utf-8'],
      ['console.css', 'text/css; charset=utf-8'],
      ['pdf.mjs', 'text/javascript; charset=utf-8'],
      ['pdf.worker.mjs', 'text/javascript; charset=utf-8'],
    ]) {
      const response = await get(`${base}/${name}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(type!)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000)
    }
    const served = await (await get(`${base}/console.js`)).text()
    expect(served).toBe(await Bun.file(join(ASSETS_DIR, 'console.js')).text())
  })

  test('an unknown asset or an old version is 404', async () => {
    const base = await assetsBase()
    for (const path of [
      `${base}/secrets.js`,
      `${base}/constructor`,
      `${base}/__proto__`,
      '/console/assets/0000000000000000/console.js',
      `${base}/console.d.ts`,
    ]) {
      const response = await get(path)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: 'Console asset not found', code: 'not_found' })
    }
  })

  test('the API stays behind the key, and the console adds no operation to the OpenAPI document', async () => {
    expect((await get('/api/v1/schemas')).status).toBe(401)
    const document = (await (await get('/openapi.json')).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/'))).toEqual(['/healthz', '/readyz'])
  })
})

describe('the console build', () => {
  test('the committed assets are what `bun run console:build` makes from src/modules/console/ui', async () => {
    const built = await buildConsole()
    expect([...built.keys()].sort()).toEqual(['console.css', 'console.js'])
    for (const [name, text] of built) expect(text, `${name} is out of date: run bun run console:build`).toBe(await Bun.file(join(ASSETS_DIR, name)).text())
  })

  test("the console's own scripts and styles stay within 300 KB gzipped (pdf.js apart)", async () => {
    let gzipped = 0
    for (const name of ['console.js', 'console.css']) gzipped += Bun.gzipSync(await Bun.file(join(ASSETS_DIR, name)).bytes()).length
    expect(gzipped).toBeLessThan(300 * 1024)
  })
})
