/**
 * The compiled binary on PostgreSQL (skipped without EXTRACTD_TEST_POSTGRES): instances sharing
 * one database cooperate (D10, D25, D100; the takeover of a killed instance's job is in
 * extraction.test.ts, on both dialects), a lost database gives 503s and service comes back by
 * itself (D78), and `db copy` moves a SQLite database over with every answer unchanged.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { api, llmStub, upload } from '../helpers/llm-stub'
import { freshPostgres, POSTGRES_URL } from '../helpers/postgres'
import { buildBinary, lastLine, type RunningServer, runCli, startServer, tempDir } from '../helpers/process'
import { tcpProxy } from '../helpers/tcp-proxy'

setDefaultTimeout(90_000)

let binary: string
const dir = tempDir('extractd-pg-e2e-')
const cleanups: (() => unknown)[] = []

beforeAll(async () => {
  if (POSTGRES_URL) binary = await buildBinary()
}, 90_000)
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(() => dir.remove())

async function database(): Promise<string> {
  const { url, drop } = await freshPostgres()
  cleanups.push(drop)
  return url
}

async function serve(url: string, flags: string[] = []): Promise<RunningServer> {
  const server = await startServer([binary], ['--db', url, ...flags], dir.path)
  cleanups.push(() => server.proc.exitCode === null && server.stop())
  return server
}

async function get(server: RunningServer, key: string, path: string) {
  const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } })
  return { path, status: response.status, type: response.headers.get('content-type'), body: await response.text() }
}

/**
 * Reads and creates schemas one after another until stopped, keeping every status; a 5xx must be
 * 503 `service_unavailable`.
 */
function underLoad(server: RunningServer) {
  const statuses: number[] = []
  let loading = true
  const load = (async () => {
    for (let i = 0; loading; i++) {
      const response = await fetch(`${server.url}/api/v1/schemas`, {
        method: i % 2 ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${server.firstKey}`, 'content-type': 'application/json' },
        body: i % 2 ? JSON.stringify({ name: `n${i % 40}` }) : undefined,
      })
      statuses.push(response.status)
      if (response.status >= 500) expect(await response.json()).toMatchObject({ code: 'service_unavailable' })
      else await response.arrayBuffer()
    }
  })()
  return {
    statuses,
    async stop() {
      loading = false
      await load
    },
  }
}

describe.skipIf(!POSTGRES_URL)('two instances on one PostgreSQL', () => {
  test('starting at once they migrate once and issue one first key; 100 creates split across both give exactly 50 × 201', async () => {
    const url = await database()
    const [a, b] = await Promise.all([serve(url), serve(url)])
    const keys = [a.firstKey, b.firstKey].filter((key) => key !== undefined)
    expect(keys).toHaveLength(1)
    const key = keys[0]!
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const response = await fetch(`${(i % 2 ? a : b).url}/api/v1/schemas`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `race ${i}` }),
        })
        return response.status
      }),
    )
    expect(statuses.filter((status) => status === 201)).toHaveLength(50)
    expect(statuses.filter((status) => status === 429)).toHaveLength(50)
    expect(JSON.parse((await get(a, key, '/api/v1/schemas')).body).schemas).toHaveLength(50)
  })

  test('jobs queued through one instance are all run, each once, by both', async () => {
    const llm = llmStub(async (number) => {
      await Bun.sleep(50)
      return number
    })
    cleanups.push(() => llm.server.stop(true))
    const url = await database()
    const flags = ['--engine', 'openai', '--llm-url', `http://127.0.0.1:${llm.server.port}/v1`, '--llm-model', 'stub', '--workers', '2']
    const [a, b] = [await serve(url, flags), await serve(url, flags)]
    b.firstKey = a.firstKey
    const ids: string[] = []
    for (let n = 0; n < 12; n++) {
      const { body } = await api(a, '/api/v1/extract?async=true', {
        method: 'POST',
        body: upload(`Invoice No.: Q-${n}\n`, `q${n}.txt`, { document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }),
      })
      ids.push(body.job.id)
    }
    const deadline = Date.now() + 30_000
    let jobs: any[] = []
    while (Date.now() < deadline) {
      jobs = await Promise.all(ids.map(async (id) => (await api(b, `/api/v1/jobs/${id}`)).body.job))
      if (jobs.every((job) => job.status === 'succeeded')) break
      await Bun.sleep(100)
    }
    expect(jobs.map((job) => job.result?.invoice_number)).toEqual(ids.map((_, n) => `Q-${n}`))
    expect(llm.requests()).toBe(12)
  })
})

describe.skipIf(!POSTGRES_URL)('PostgreSQL lost under load', () => {
  test('while it is gone every answer is 503 service_unavailable (never another 5xx) and /readyz is 503; then service resumes by itself', async () => {
    const url = new URL(await database())
    const proxy = await tcpProxy({ hostname: url.hostname, port: Number(url.port || 5432) })
    cleanups.push(() => proxy.close())
    url.hostname = '127.0.0.1'
    url.port = String(proxy.port)
    const server = await serve(url.toString())
    const { statuses, stop } = underLoad(server)
    await Bun.sleep(300)
    proxy.cut()
    await Bun.sleep(1000)
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    const during = statuses.length
    proxy.restore()
    const deadline = Date.now() + 15_000
    while (Date.now() < deadline && (await fetch(`${server.url}/readyz`)).status !== 200) await Bun.sleep(100)
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
    await Bun.sleep(500)
    await stop()
    expect(server.proc.exitCode).toBeNull()
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([])
    expect(statuses.slice(0, during).filter((status) => status === 503).length).toBeGreaterThan(0)
    expect(statuses.slice(-5).every((status) => status < 500)).toBe(true)
  })
})

/** A command that restarts the test server (CI sets it; it needs the rights to restart PostgreSQL). */
const RESTART = process.env.EXTRACTD_TEST_POSTGRES_RESTART

describe.skipIf(!POSTGRES_URL || !RESTART)('PostgreSQL restarted under load', () => {
  test('answers are 503 service_unavailable while it restarts, never another 5xx; then service resumes by itself', async () => {
    const server = await serve(await database())
    const { statuses, stop } = underLoad(server)
    await Bun.sleep(300)
    const restarted = Bun.spawnSync(['sh', '-c', RESTART!], { stdout: 'pipe', stderr: 'pipe' })
    expect(restarted.exitCode).toBe(0)
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline && (await fetch(`${server.url}/readyz`)).status !== 200) await Bun.sleep(100)
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
    const afterRestart = statuses.length
    await Bun.sleep(500)
    await stop()
    expect(server.proc.exitCode).toBeNull()
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([])
    expect(statuses.slice(afterRestart).length).toBeGreaterThan(0)
    expect(statuses.slice(-5).every((status) => status < 500)).toBe(true)
  })
})

describe.skipIf(!POSTGRES_URL)('moving over with db copy', () => {
  test('keys, schemas, jobs and kept files copied from SQLite answer exactly as before; the CLI manages keys on PostgreSQL', async () => {
    const home = join(dir.path, 'copy')
    await Bun.$`mkdir -p ${home}`
    const sqlite = join(home, 'extractd.sqlite')
    const before = await startServer([binary], ['--db', sqlite, '--keep-files', '1d'], home)
    const key = before.firstKey!
    const schema = await fetch(`${before.url}/api/v1/schemas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Invoices', fields: [{ key: 'invoice_number', label: 'Invoice number', description: '', required: true }] }),
    })
    const schemaId = ((await schema.json()) as any).schema.id
    await fetch(`${before.url}/api/v1/schemas/${schemaId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'second version' }),
    })
    const extracted = await fetch(`${before.url}/api/v1/extract`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: upload('Invoice No.: C-1\nTotal: 5.00 EUR\n', 'c1.txt', { document_type: 'invoice', schema_id: schemaId }),
    })
    const jobId = ((await extracted.json()) as any).job.id
    const paths = [
      '/api/v1/schemas',
      `/api/v1/schemas/${schemaId}`,
      `/api/v1/schemas/${schemaId}/versions`,
      `/api/v1/schemas/${schemaId}/versions/1`,
      '/api/v1/jobs',
      `/api/v1/jobs/${jobId}`,
      `/api/v1/jobs/${jobId}/file`,
    ]
    const answers = await Promise.all(paths.map((path) => get(before, key, path)))
    await before.stop()

    const url = await database()
    const copied = await runCli([binary], ['db', 'copy', '--from', sqlite, '--to', url], home)
    expect(copied.code).toBe(0)
    expect(copied.stdout).toMatch(/^schemas +1$/m)
    expect(copied.stdout).toMatch(/^jobs +1$/m)
    const again = await runCli([binary], ['db', 'copy', '--from', sqlite, '--to', url], home)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('not empty')

    const after = await serve(url, ['--keep-files', '1d'])
    expect(after.firstKey).toBeUndefined()
    for (const [i, path] of paths.entries()) expect(await get(after, key, path)).toEqual(answers[i]!)

    const issued = await runCli([binary], ['keys', 'create', '--account', 'second', '--db', url], home)
    expect(issued.code).toBe(0)
    const second = lastLine(issued.stdout)
    expect((await get(after, second, '/api/v1/schemas')).status).toBe(200)
    const listed = JSON.parse((await runCli([binary], ['keys', 'list', '--json', '--db', url], home)).stdout)
    expect(listed.map((entry: { account: string }) => entry.account)).toEqual(['default', 'second'])
    const revoked = await runCli([binary], ['keys', 'revoke', listed[1].id, '--db', url], home)
    expect(revoked.code).toBe(0)
    expect((await get(after, second, '/api/v1/schemas')).status).toBe(401)
  })
})
