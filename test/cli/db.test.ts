/**
 * `extractd db copy` reads only an existing extractd database and names every database that
 * fails, the target without its password (D230). The copy itself is tested in test/db/copy.test.ts.
 */
import { afterAll, afterEach, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { dbCopy } from '../../src/cli/db'
import { keysCreate } from '../../src/cli/keys'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { freshPostgres, POSTGRES_URL } from '../helpers/postgres'
import { capturedOutput } from '../helpers/cli'
import { tempDir } from '../helpers/process'

const dir = tempDir('extractd-cli-db-')
afterAll(() => dir.remove())
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function servedDatabase(name: string): Promise<string> {
  const location = join(dir.path, name)
  await closeDatabase(await openDatabase(location))
  return location
}

test('a missing source is an error naming it; nothing is created', async () => {
  const from = join(dir.path, 'typo.sqlite')
  const { io, lines } = capturedOutput()
  // An address where nothing listens: the source is refused before the target is reached.
  await expect(dbCopy(from, 'postgres://extractd:secret@127.0.0.1:1/extractd', io)).rejects.toThrow(
    `database ${from}: no such file (only 'extractd serve' creates one)`,
  )
  expect(lines.out).toEqual([])
  expect(existsSync(from)).toBe(false)
})

test('a target that cannot be reached is an error naming it without the password', async () => {
  const from = await servedDatabase('unreachable.sqlite')
  const error = await dbCopy(from, 'postgres://extractd:secret@127.0.0.1:1/extractd', capturedOutput().io).catch((failed: Error) => failed)
  expect(error).toBeInstanceOf(Error)
  expect((error as Error).message).toStartWith('database postgres://extractd:…@127.0.0.1:1/extractd: ')
  expect((error as Error).message).not.toContain('secret')
})

test.skipIf(!POSTGRES_URL)('a target that holds rows is refused with status 1, naming it without the password', async () => {
  const { url, drop } = await freshPostgres()
  cleanups.push(drop)
  const from = await servedDatabase('twice.sqlite')
  expect(await keysCreate(from, 'acme', capturedOutput().io)).toBe(0)
  expect(await dbCopy(from, url, capturedOutput().io)).toBe(0)
  const again = capturedOutput()
  expect(await dbCopy(from, url, again.io)).toBe(1)
  const { password } = new URL(url)
  expect(again.lines.err).toEqual([`extractd: database ${url.replace(`:${password}@`, ':…@')}: the target database is not empty: accounts has 1 row`])
})
