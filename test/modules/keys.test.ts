/**
 * Keys and their lookup (D24, D64): a key revoked anywhere, by this process or by another one
 * on the same database (`extractd keys revoke`, another instance), is refused from the next
 * lookup on, although SQLite's processes remember active keys. Two handles on one database stand
 * for the server and the CLI process (two connections to one SQLite file, or two pools).
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { authenticateKey, createFirstKey, createKey, listKeys, revokeKey } from '../../src/modules/keys/service'
import { anotherHandle, openTestDatabase } from '../helpers/database'
import { tempDir } from '../helpers/process'

const dir = tempDir('extractd-keys-')
afterAll(() => dir.remove())
let files = 0

async function serverAndCli() {
  const server = await openTestDatabase(join(dir.path, `keys-${files++}.sqlite`))
  return { server, cli: await anotherHandle(server) }
}

describe('authenticateKey', () => {
  test('finds the account of an active key, and the same again', async () => {
    const { server } = await serverAndCli()
    const issued = await createKey(server, 'acme')
    const expected = { accountId: issued.accountId, keyId: issued.id }
    expect(await authenticateKey(server, issued.key)).toEqual(expected)
    expect(await authenticateKey(server, issued.key)).toEqual(expected)
  })

  test('refuses a key revoked through the same handle at once, although it was looked up before', async () => {
    const { server } = await serverAndCli()
    const issued = await createKey(server, 'acme')
    expect(await authenticateKey(server, issued.key)).toBeDefined()
    expect(await revokeKey(server, issued.id)).toBe('revoked')
    expect(await authenticateKey(server, issued.key)).toBeUndefined()
  })

  test('refuses a key revoked by another process from the next lookup, although it was looked up before', async () => {
    const { server, cli } = await serverAndCli()
    const issued = await createKey(server, 'acme')
    expect(await authenticateKey(server, issued.key)).toBeDefined()
    expect(await revokeKey(cli, issued.id)).toBe('revoked')
    expect(await authenticateKey(server, issued.key)).toBeUndefined()
  })

  test('after another process revokes one key, the other keys still work and the revoked one never does', async () => {
    const { server, cli } = await serverAndCli()
    const keys = [await createKey(cli, 'a'), await createKey(cli, 'b'), await createKey(cli, 'c')]
    for (const key of keys) expect((await authenticateKey(server, key.key))?.keyId).toBe(key.id)
    expect(await revokeKey(cli, keys[1]!.id)).toBe('revoked')
    for (let i = 0; i < 3; i++) {
      expect((await authenticateKey(server, keys[0]!.key))?.keyId).toBe(keys[0]!.id)
      expect(await authenticateKey(server, keys[1]!.key)).toBeUndefined()
      expect((await authenticateKey(server, keys[2]!.key))?.keyId).toBe(keys[2]!.id)
    }
  })

  test('accepts a key issued by another process while the server runs', async () => {
    const { server, cli } = await serverAndCli()
    expect(await authenticateKey(server, (await createKey(server, 'first')).key)).toBeDefined()
    const later = await createKey(cli, 'acme')
    expect(await authenticateKey(server, later.key)).toEqual({ accountId: later.accountId, keyId: later.id })
  })

  test('refuses unknown and malformed keys, and a key that differs in one character', async () => {
    const { server } = await serverAndCli()
    const issued = await createKey(server, 'acme')
    expect(await authenticateKey(server, issued.key)).toBeDefined()
    const last = issued.key.at(-1) === 'A' ? 'B' : 'A'
    expect(await authenticateKey(server, issued.key.slice(0, -1) + last)).toBeUndefined()
    expect(await authenticateKey(server, `exd_${'x'.repeat(43)}`)).toBeUndefined()
    expect(await authenticateKey(server, 'not a key')).toBeUndefined()
  })
})

describe('issuing and revoking', () => {
  test('a second key of an account joins the same account; revoking twice says so', async () => {
    const { server } = await serverAndCli()
    const first = await createKey(server, 'acme')
    const second = await createKey(server, 'acme')
    expect(second.accountId).toBe(first.accountId)
    expect(await revokeKey(server, second.id)).toBe('revoked')
    expect(await revokeKey(server, second.id)).toBe('already_revoked')
    expect(await revokeKey(server, 'key_nope')).toBe('not_found')
    const listed = await listKeys(server)
    expect(listed.map((key) => [key.id, key.accountName, key.revokedAt === null])).toEqual([
      [first.id, 'acme', true],
      [second.id, 'acme', false],
    ])
  })

  test('eight processes starting on one new database issue one first key between them (D25)', async () => {
    const { server } = await serverAndCli()
    const handles = [server, ...(await Promise.all(Array.from({ length: 7 }, () => anotherHandle(server))))]
    const issued = await Promise.all(handles.map((handle) => createFirstKey(handle, 'default')))
    expect(issued.filter((key) => key !== undefined)).toHaveLength(1)
    expect(await listKeys(server)).toHaveLength(1)
    expect(await createFirstKey(server, 'default')).toBeUndefined()
  })
})
