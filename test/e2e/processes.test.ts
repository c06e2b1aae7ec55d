/** Two server processes and the CLI on one database file (D10, D24). */
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { FROM_SOURCE, lastLine, runCli, startServer, tempDir } from '../helpers/process'

// These tests build and start real processes.
setDefaultTimeout(60_000)

const dir = tempDir('extractd-procs-')
afterAll(() => dir.remove())

test('100 concurrent creates across two server processes give exactly 50 × 201 and 50 × 429', async () => {
  const db = join(dir.path, 'shared.sqlite')
  const [a, b] = await Promise.all([startServer(FROM_SOURCE, ['--db', db], dir.path), startServer(FROM_SOURCE, ['--db', db], dir.path)])
  try {
    const created = await runCli(FROM_SOURCE, ['keys', 'create', '--account', 'racer', '--db', db], dir.path)
    expect(created.code).toBe(0)
    const key = lastLine(created.stdout)
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const response = await fetch(`${(i % 2 === 0 ? a : b).url}/api/v1/schemas`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `race ${i}` }),
        })
        return response.status
      }),
    )
    expect(statuses.filter((s) => s === 201)).toHaveLength(50)
    expect(statuses.filter((s) => s === 429)).toHaveLength(50)
    const list = await fetch(`${b.url}/api/v1/schemas`, { headers: { authorization: `Bearer ${key}` } })
    expect(((await list.json()) as { schemas: unknown[] }).schemas).toHaveLength(50)
  } finally {
    await Promise.all([a.stop(), b.stop()])
  }
})

test('two processes starting on a new database at once both start, and only one first key is issued (D25)', async () => {
  // Repeated, because the two starts collide at different steps each time (WAL switch, migrations, first key).
  for (let round = 0; round < 5; round++) {
    const db = join(dir.path, `fresh-${round}.sqlite`)
    const servers = await Promise.all([startServer(FROM_SOURCE, ['--db', db], dir.path), startServer(FROM_SOURCE, ['--db', db], dir.path)])
    try {
      expect(servers.filter((s) => s.firstKey !== undefined)).toHaveLength(1)
      const listed = await runCli(FROM_SOURCE, ['keys', 'list', '--json', '--db', db], dir.path)
      expect(JSON.parse(listed.stdout)).toHaveLength(1)
    } finally {
      await Promise.all(servers.map((s) => s.stop()))
    }
  }
})

test('one Idempotency-Key sent to two server processes at once makes exactly one schema (D75)', async () => {
  const db = join(dir.path, 'idempotent.sqlite')
  const [a, b] = await Promise.all([startServer(FROM_SOURCE, ['--db', db], dir.path), startServer(FROM_SOURCE, ['--db', db], dir.path)])
  try {
    const created = await runCli(FROM_SOURCE, ['keys', 'create', '--account', 'retrier', '--db', db], dir.path)
    const key = lastLine(created.stdout)
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(`${(i % 2 === 0 ? a : b).url}/api/v1/schemas`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'once' },
          body: JSON.stringify({ name: 'only one' }),
        })
        return { status: response.status, body: (await response.json()) as { schema?: { id: string }; code?: string } }
      }),
    )
    const created201 = answers.filter((answer) => answer.status === 201)
    const busy = answers.filter((answer) => answer.status === 409)
    expect(created201.length + busy.length).toBe(20)
    expect(created201.length).toBeGreaterThanOrEqual(1)
    for (const answer of busy) expect(answer.body.code).toBe('idempotency_key_in_use')
    expect(new Set(created201.map((answer) => answer.body.schema!.id)).size).toBe(1)
    const list = await fetch(`${a.url}/api/v1/schemas`, { headers: { authorization: `Bearer ${key}` } })
    expect(((await list.json()) as { schemas: unknown[] }).schemas).toHaveLength(1)
  } finally {
    await Promise.all([a.stop(), b.stop()])
  }
})

test('a second server started on a port that is taken exits with an error instead of sharing the port (D79)', async () => {
  const free = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = String(free.port)
  free.stop(true)
  const db = join(dir.path, 'port.sqlite')
  const first = await startServer(FROM_SOURCE, ['--db', db, '--port', port], dir.path)
  try {
    const second = await runCli(FROM_SOURCE, ['serve', '--host', '127.0.0.1', '--port', port, '--db', join(dir.path, 'other.sqlite')], dir.path)
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(`port ${port}`)
    const health = await fetch(`${first.url}/healthz`)
    expect(health.status).toBe(200)
  } finally {
    await first.stop()
  }
})
