/**
 * The CLI as a user runs it, and what it must not do by mistake (D230, D231): the compiled
 * binary writes nothing when its port is taken or its database is mistyped, and the sources run
 * every command through `npm run extractd --` right after `npm install` (D232).
 */
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { buildBinary, lastLine, ROOT, runCli, tempDir } from '../helpers/process'

// These tests build and start real processes.
setDefaultTimeout(60_000)

const dir = tempDir('extractd-cli-e2e-')
afterAll(() => dir.remove())

test('serve on a port in use fails with one line naming the port, and writes no database and prints no key', async () => {
  const binary = await buildBinary()
  const taken = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('someone else') })
  const home = tempDir()
  try {
    const result = await runCli([binary], ['serve', '--host', '127.0.0.1', '--port', String(taken.port)], home.path)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`extractd: port ${taken.port} is in use on 127.0.0.1 (choose another with --port or PORT)\n`)
    expect(readdirSync(home.path)).toEqual([])
  } finally {
    taken.stop(true)
    home.remove()
  }
})

test('keys list with a mistyped --db fails with one line naming the path, and creates no file', async () => {
  const binary = await buildBinary()
  const result = await runCli([binary], ['keys', 'list', '--db', 'nope.sqlite'], dir.path)
  expect(result.code).toBe(1)
  expect(result.stdout).toBe('')
  expect(result.stderr).toBe("extractd: database nope.sqlite: no such file (only 'extractd serve' creates one)\n")
  expect(readdirSync(dir.path)).toEqual([])
})

test('npm run extractd -- runs the CLI from the sources: keys create, list and revoke on the database serve made', async () => {
  const db = join(dir.path, 'npm.sqlite')
  await closeDatabase(await openDatabase(db)) // what `serve` makes first
  // No bun on PATH, as after `npm install` on a machine with Node.js alone: npm finds the pinned one.
  const PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((entry) => !existsSync(join(entry, 'bun')))
    .join(':')
  const npm = (...args: string[]) => runCli(['npm', 'run', '--silent', 'extractd', '--', ...args], ['--db', db], ROOT, { PATH })
  const created = await npm('keys', 'create', '--account', 'acme')
  expect(created.code).toBe(0)
  expect(lastLine(created.stdout)).toMatch(/^exd_[A-Za-z0-9_-]{43}$/)
  const listed = await npm('keys', 'list', '--json')
  expect(listed.code).toBe(0)
  const [key] = JSON.parse(listed.stdout) as { id: string; account: string }[]
  expect(key!.account).toBe('acme')
  const revoked = await npm('keys', 'revoke', key!.id)
  expect(revoked.code).toBe(0)
  expect(revoked.stdout.trim()).toBe(`Revoked key ${key!.id}.`)
})
