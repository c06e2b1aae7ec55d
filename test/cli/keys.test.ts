/**
 * `extractd keys …` works only on a database that exists (D230): a mistyped `--db` is an error
 * naming the path, and creates nothing; every database error names the database, never its password.
 */
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { keysCreate, keysList, keysRevoke, type Output } from '../../src/cli/keys'
import { closeDatabase, openDatabase } from '../../src/db/database'
import pg from 'pg'
import { freshPostgres, POSTGRES_URL } from '../helpers/postgres'
import { capturedOutput } from '../helpers/cli'
import { tempDir } from '../helpers/process'

const dir = tempDir('extractd-cli-keys-')
afterAll(() => dir.remove())
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** The three commands, each run on `location`. */
const commands = {
  'keys create': (location: string, io: Output) => keysCreate(location, 'acme', io),
  'keys list': (location: string, io: Output) => keysList(location, false, io),
  'keys revoke': (location: string, io: Output) => keysRevoke(location, 'key_01m8e79hf3js71pen6ggejcgh627ep', io),
}

describe('on a SQLite file', () => {
  test.each(Object.keys(commands))('%s on a missing file fails naming the path, and creates no file', async (name) => {
    const location = join(dir.path, 'nope.sqlite')
    const { io, lines } = capturedOutput()
    await expect(commands[name as keyof typeof commands](location, io)).rejects.toThrow(
      `database ${location}: no such file (only 'extractd serve' creates one)`,
    )
    expect(lines.out).toEqual([])
    expect(existsSync(location)).toBe(false)
    expect(readdirSync(dir.path).filter((file) => file.startsWith('nope'))).toEqual([])
  })

  test('keys list in a directory that does not exist names the path', async () => {
    const location = join(dir.path, 'missing-dir', 'extractd.sqlite')
    await expect(keysList(location, false, capturedOutput().io)).rejects.toThrow(`database ${location}: no such file`)
    expect(existsSync(join(dir.path, 'missing-dir'))).toBe(false)
  })

  test('keys list on a file that is not an extractd database fails naming it, and leaves it as it was', async () => {
    const empty = join(dir.path, 'empty.sqlite')
    writeFileSync(empty, '')
    await expect(keysList(empty, false, capturedOutput().io)).rejects.toThrow(`database ${empty}: is not an extractd database`)
    const text = join(dir.path, 'notes.txt')
    writeFileSync(text, 'not a database at all, but long enough to have a header of sorts\n')
    await expect(keysList(text, false, capturedOutput().io)).rejects.toThrow(`database ${text}: file is not a database`)
    expect(Bun.file(empty).size).toBe(0)
    // Opening it did not switch it to WAL or leave files beside it.
    expect(
      readdirSync(dir.path)
        .filter((file) => file.startsWith('empty') || file.startsWith('notes'))
        .sort(),
    ).toEqual(['empty.sqlite', 'notes.txt'])
  })

  test('on the database serve created, create, list and revoke work as before', async () => {
    const location = join(dir.path, 'served.sqlite')
    await closeDatabase(await openDatabase(location)) // what `serve` does first
    const created = capturedOutput()
    expect(await keysCreate(location, 'acme', created.io)).toBe(0)
    const key = created.lines.out.at(-1)!
    expect(key).toMatch(/^exd_/)
    const listed = capturedOutput()
    expect(await keysList(location, true, listed.io)).toBe(0)
    const [entry] = JSON.parse(listed.lines.out[0]!) as { id: string; account: string }[]
    expect(entry!.account).toBe('acme')
    const revoked = capturedOutput()
    expect(await keysRevoke(location, entry!.id, revoked.io)).toBe(0)
    expect(revoked.lines.out).toEqual([`Revoked key ${entry!.id}.`])
  })
})

describe.skipIf(!POSTGRES_URL)('on PostgreSQL', () => {
  test.each(Object.keys(commands))('%s on a database without extractd tables fails naming it without the password, and creates no table', async (name) => {
    const { url, drop } = await freshPostgres()
    cleanups.push(drop)
    const { password } = new URL(url)
    await expect(commands[name as keyof typeof commands](url, capturedOutput().io)).rejects.toThrow(
      `database ${url.replace(`:${password}@`, ':…@')}: holds no extractd tables (only 'extractd serve' creates one)`,
    )
    const tables = await rowsIn(url, "select table_name from information_schema.tables where table_schema in ('public', 'drizzle')")
    expect(tables).toEqual([])
  })

  test('a wrong password is an error naming the database without any password', async () => {
    const url = new URL(POSTGRES_URL!)
    url.password = 'wrong-secret'
    const error = await keysList(url.toString(), false, capturedOutput().io).catch((failed: Error) => failed)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toStartWith(`database ${url.protocol}//${url.username}:…@${url.host}${url.pathname}: `)
    expect((error as Error).message).not.toContain('wrong-secret')
  })
})

/** The rows of a query on one database of the test server, on a connection of its own. */
async function rowsIn(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}
