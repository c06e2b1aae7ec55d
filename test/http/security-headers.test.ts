/**
 * Browser-facing headers (D128): every response is `nosniff` and unframeable, the API's answers
 * and downloads let nothing run, and /docs runs its own scripts only, keeping no key in storage.
 */
import { describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app'

const NOTHING_RUNS = "default-src 'none'; frame-ancestors 'none'; sandbox"

function expectUnsniffable(headers: Headers) {
  expect(headers.get('x-content-type-options')).toBe('nosniff')
  expect(headers.get('x-frame-options')).toBe('DENY')
}

describe('every response', () => {
  test.each([
    ['GET', '/healthz', null, 200],
    ['GET', '/readyz', null, 200],
    ['GET', '/openapi.json', null, 200],
    ['GET', '/api/v1/schemas', undefined, 200],
    ['GET', '/api/v1/schemas', null, 401],
    ['GET', '/api/v1/jobs/job_00000000000000000000000000', undefined, 404],
    ['GET', '/no/such/route', null, 404],
    ['POST', '/api/v1/schemas', undefined, 400],
  ] as const)('%s %s is nosniff, unframeable and runs nothing', async (method, path, key, status) => {
    const t = await makeTestApp()
    const response = await t.call(method, path, { key, ...(method === 'POST' && { body: '{', headers: { 'content-type': 'application/json' } }) })
    expect(response.status).toBe(status)
    expectUnsniffable(response.headers)
    expect(response.headers.get('content-security-policy')).toBe(NOTHING_RUNS)
  })

  test("a job's document downloaded again is never sniffed, even when it is HTML", async () => {
    const t = await makeTestApp({ keepFileMs: 60_000 })
    const form = new FormData()
    form.append('file', new Blob(['<html><body><script>alert(1)</script>Invoice No.: X-1</body></html>']), 'page.html')
    form.append('extract', JSON.stringify({ document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }))
    const job = (await t.call('POST', '/api/v1/extract', { body: form })).body.job
    const download = await t.call('GET', `/api/v1/jobs/${job.id}/file`)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toStartWith('text/html')
    expectUnsniffable(download.headers)
    expect(download.headers.get('content-security-policy')).toBe(NOTHING_RUNS)
    expect(download.headers.get('content-disposition')).toStartWith('attachment')
  })
})

describe('/docs', () => {
  test('has a policy of its own: its scripts only, this origin only, framed by no one', async () => {
    const t = await makeTestApp()
    for (const path of ['/docs', '/docs/swagger-init.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']) {
      const response = await t.call('GET', path, { key: null })
      expect(response.status).toBe(200)
      expectUnsniffable(response.headers)
      const policy = response.headers.get('content-security-policy')!
      expect(policy).toContain("script-src 'self';")
      expect(policy).toContain("connect-src 'self';")
      expect(policy).toContain("frame-ancestors 'none'")
      expect(policy).not.toContain('unsafe-eval')
    }
  })

  test('runs no inline script, and Swagger UI keeps no key in storage', async () => {
    const t = await makeTestApp()
    const page = (await t.call('GET', '/docs', { key: null })).text
    const scripts = [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBe(2)
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/ src="\/docs\//)
      expect(body!.trim()).toBe('')
    }
    const init = (await t.call('GET', '/docs/swagger-init.js', { key: null })).text
    expect(init).toContain('persistAuthorization: false')
    expect(init).toContain("url: '/openapi.json'")
  })
})
