/** The compiled binary, started in an empty directory, driven over HTTP and through its CLI. */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary, lastLine, runCli, type RunningServer, startServer, tempDir } from '../helpers/process'

// These tests build and start real processes.
setDefaultTimeout(60_000)

let binary: string
const dir = tempDir('extractd-e2e-')
let server: RunningServer

beforeAll(async () => {
  binary = await buildBinary()
  server = await startServer([binary], [], dir.path)
}, 60_000)

afterAll(async () => {
  // `server` is unset when beforeAll failed; its own error is the one to see.
  if (server && server.proc.exitCode === null) await server.stop()
  dir.remove()
})

function api(path: string, key: string | undefined, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  if (key) headers.set('authorization', `Bearer ${key}`)
  return fetch(server.url + path, { ...init, headers })
}

describe('the compiled binary', () => {
  test('runs from an empty directory and creates its database there with the default name', () => {
    expect(existsSync(join(dir.path, 'extractd.sqlite'))).toBe(true)
  })

  test('prints a first API key on a new database, and it works (D25)', async () => {
    expect(server.firstKey).toMatch(/^exd_/)
    const response = await api('/api/v1/schemas', server.firstKey)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ schemas: [] })
  })

  test('prints version, listen address, database path and the docs URL at start', () => {
    const started = JSON.parse(server.lines.find((line) => line.includes('"extractd started"'))!)
    expect(started).toMatchObject({ level: 'info', version: expect.any(String), db: './extractd.sqlite' })
    expect(started.docs).toBe(`http://127.0.0.1:${server.port}/docs`)
  })

  test('logs each request as one JSON line on stdout with its ID, status and account', async () => {
    const response = await api('/api/v1/fields?type=invoice', server.firstKey, { headers: { 'x-request-id': 'e2e-log-1' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBe('e2e-log-1')
    // The line is written a moment after the answer (D66): ask until it is there.
    let line: string | undefined
    while (!(line = server.lines.find((l) => l.includes('"e2e-log-1"')))) await (await fetch(`${server.url}/healthz`)).text()
    expect(JSON.parse(line)).toMatchObject({
      msg: 'request',
      request_id: 'e2e-log-1',
      method: 'GET',
      route: '/api/v1/fields',
      path: '/api/v1/fields',
      status: 200,
      duration_ms: expect.any(Number),
      account_id: expect.stringMatching(/^acc_/),
    })
    expect(line).not.toContain(server.firstKey!)
  })

  test('serves /healthz and /readyz without a key', async () => {
    const health = await fetch(`${server.url}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ok' })
  })

  test('keys create, list and revoke work while the server runs on the same file (D24)', async () => {
    const created = await runCli([binary], ['keys', 'create', '--account', 'acme'], dir.path)
    expect(created.code).toBe(0)
    const key = lastLine(created.stdout)
    expect(key).toMatch(/^exd_[A-Za-z0-9_-]{43}$/)

    const create = await api('/api/v1/schemas', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Invoices', fields: [{ key: 'total', label: 'Total', required: true }] }),
    })
    expect(create.status).toBe(201)
    const { schema } = (await create.json()) as { schema: { id: string } }

    // Another account cannot see it.
    const foreign = await api(`/api/v1/schemas/${schema.id}`, server.firstKey)
    expect(foreign.status).toBe(404)
    expect(((await foreign.json()) as { code: string }).code).toBe('not_found')

    const listed = await runCli([binary], ['keys', 'list', '--json'], dir.path)
    expect(listed.code).toBe(0)
    const keys = JSON.parse(listed.stdout) as { id: string; account: string; revoked_at: string | null }[]
    const acme = keys.find((k) => k.account === 'acme')!
    expect(acme.revoked_at).toBeNull()
    expect(listed.stdout).not.toContain(key)

    const revoked = await runCli([binary], ['keys', 'revoke', acme.id], dir.path)
    expect(revoked.code).toBe(0)
    const after = await api('/api/v1/schemas', key)
    expect(after.status).toBe(401)
    expect(await after.json()).toEqual({ error: 'Invalid API key', code: 'invalid_api_key' })
  })

  test('healthcheck exits 0 while the server answers and 1 where nothing listens', async () => {
    expect((await runCli([binary], ['healthcheck', '--port', String(server.port)], dir.path)).code).toBe(0)
    const down = await runCli([binary], ['healthcheck', '--port', '1'], dir.path)
    expect(down.code).toBe(1)
    expect(down.stderr.trim().split('\n')).toHaveLength(1)
  })

  test('--catalog-dir adds an operator type; a bad file stops the start with exit 2 naming file and path (D18)', async () => {
    const other = tempDir()
    try {
      const types = join(other.path, 'types')
      const receipt = {
        slug: 'receipt',
        label: 'Receipt',
        description: 'Till receipts.',
        fields: [{ key: 'total', label: 'Total', description: 'Amount paid', required: true, kind: 'amount', aliases: ['Total'] }],
      }
      await Bun.write(join(types, 'receipt.json'), JSON.stringify(receipt))
      const running = await startServer([binary], ['--catalog-dir', types], other.path)
      const listed = await fetch(`${running.url}/api/v1/document-types`, { headers: { authorization: `Bearer ${running.firstKey}` } })
      const slugs = ((await listed.json()) as { document_types: { slug: string }[] }).document_types.map((t) => t.slug)
      expect(slugs).toContain('receipt')
      expect(slugs).toHaveLength(10)
      expect(await running.stop()).toBe(0)

      await Bun.write(join(types, 'receipt.json'), JSON.stringify({ ...receipt, fields: [{ ...receipt.fields[0], key: 'to-tal' }] }))
      const failed = await runCli([binary], ['serve', '--port', '0', '--catalog-dir', types], other.path)
      expect(failed.code).toBe(2)
      expect(failed.stderr.trim().split('\n')).toHaveLength(1)
      expect(failed.stderr).toContain('receipt.json')
      expect(failed.stderr).toContain('/fields/0/key')
    } finally {
      other.remove()
    }
  })

  test('keys revoke of an unknown ID fails with status 1', async () => {
    const result = await runCli([binary], ['keys', 'revoke', 'key_unknown'], dir.path)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('key_unknown')
  })

  test('--help, --version and a bad flag behave like a CLI should (D27)', async () => {
    const help = await runCli([binary], ['--help'], dir.path)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('serve')
    const serveHelp = await runCli([binary], ['serve', '--help'], dir.path)
    expect(serveHelp.code).toBe(0)
    expect(serveHelp.stdout).toContain('--port')
    const version = await runCli([binary], ['--version'], dir.path)
    expect(version.code).toBe(0)
    expect(version.stdout.trim()).toMatch(/^extractd \d+\.\d+\.\d+/)
    const bad = await runCli([binary], ['serve', '--nope'], dir.path)
    expect(bad.code).toBe(2)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
    expect(bad.stderr).toContain('--nope')
  })

  test('a second start on the same database prints no new key', async () => {
    const other = tempDir()
    try {
      const first = await startServer([binary], ['--db', join(other.path, 'data.sqlite')], other.path)
      expect(first.firstKey).toBeDefined()
      expect(await first.stop()).toBe(0)
      const second = await startServer([binary], ['--db', join(other.path, 'data.sqlite')], other.path)
      expect(second.firstKey).toBeUndefined()
      const response = await fetch(`${second.url}/api/v1/schemas`, { headers: { authorization: `Bearer ${first.firstKey}` } })
      expect(response.status).toBe(200)
      expect(await second.stop()).toBe(0)
      expect(readdirSync(other.path)).toContain('data.sqlite')
    } finally {
      other.remove()
    }
  })

  test.each(['SIGTERM', 'SIGINT'] as const)('%s lets an in-flight request finish, closes the database and exits 0', async (signal) => {
    const other = tempDir()
    try {
      const running = await startServer([binary], [], other.path)
      const body = JSON.stringify({ name: `sent across ${signal}` })
      const chunks: string[] = []
      let closed!: () => void
      const done = new Promise<void>((resolve) => (closed = resolve))
      const socket = await Bun.connect({
        hostname: '127.0.0.1',
        port: running.port,
        socket: { data: (_, data) => void chunks.push(data.toString()), close: () => closed() },
      })
      // Headers now, body after the signal: the request is in flight when the signal arrives.
      socket.write(
        `POST /api/v1/schemas HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${running.firstKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      )
      await Bun.sleep(100)
      running.proc.kill(signal)
      await Bun.sleep(200)
      socket.write(body)
      await done
      expect(chunks.join('')).toStartWith('HTTP/1.1 201')
      expect(await running.proc.exited).toBe(0)
      expect(running.lines.some((line) => line.includes('"stopped"'))).toBe(true)
      // The database was closed cleanly: its WAL was checkpointed and removed.
      expect(readdirSync(other.path).filter((name) => name.endsWith('-wal'))).toEqual([])
    } finally {
      other.remove()
    }
  })

  test('stops on SIGTERM with exit status 0', async () => {
    expect(await server.stop('SIGTERM')).toBe(0)
  })
})
