/**
 * The key lookup and its per-process cache (D64): a key revoked anywhere, by this process or by
 * another one on the same file (`extractd keys revoke`), is refused from the next lookup on.
 * Two connections to one file stand for the server and the CLI process.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openDb } from '../../src/db/client'
import { migrate } from '../../src/db/migrate'
import { authenticateKey, createKey, revokeKey } from '../../src/modules/keys/service'
import { tempDir } from '../helpers/process'

const dir = tempDir('extractd-keys-')
afterAll(() => dir.remove())
let files = 0

/** A server's connection and a CLI's connection to one new database file. */
function serverAndCli() {
  const path = join(dir.path, `keys-${files++}.sqlite`)
  const server = openDb(path)
  migrate(server.db)
  const cli = openDb(path)
  return { server: server.db, cli: cli.db }
}

describe('authenticateKey', () => {
  test('finds the account of an active key, and the same again from the cache', () => {
    const { server } = serverAndCli()
    const issued = createKey(server, 'acme')
    const expected = { accountId: issued.accountId, keyId: issued.id }
    expect(authenticateKey(server, issued.key)).toEqual(expected)
    expect(authenticateKey(server, issued.key)).toEqual(expected)
  })

  test('refuses a key revoked through the same connection at once, although it was cached', () => {
    const { server } = serverAndCli()
    const issued = createKey(server, 'acme')
    expect(authenticateKey(server, issued.key)).toBeDefined()
    expect(revokeKey(server, issued.id)).toBe('revoked')
    expect(authenticateKey(server, issued.key)).toBeUndefined()
  })

  test('refuses a key revoked by another process from the next lookup, although it was cached', () => {
    const { server, cli } = serverAndCli()
    const issued = createKey(server, 'acme')
    expect(authenticateKey(server, issued.key)).toBeDefined()
    expect(revokeKey(cli, issued.id)).toBe('revoked')
    expect(authenticateKey(server, issued.key)).toBeUndefined()
  })

  test('after another process revokes one key, the other cached keys still work and the revoked one never does', () => {
    const { server, cli } = serverAndCli()
    const keys = ['a', 'b', 'c'].map((account) => createKey(cli, account))
    for (const key of keys) expect(authenticateKey(server, key.key)?.keyId).toBe(key.id)
    expect(revokeKey(cli, keys[1]!.id)).toBe('revoked')
    for (let i = 0; i < 3; i++) {
      expect(authenticateKey(server, keys[0]!.key)?.keyId).toBe(keys[0]!.id)
      expect(authenticateKey(server, keys[1]!.key)).toBeUndefined()
      expect(authenticateKey(server, keys[2]!.key)?.keyId).toBe(keys[2]!.id)
    }
  })

  test('accepts a key issued by another process while the server runs', () => {
    const { server, cli } = serverAndCli()
    expect(authenticateKey(server, createKey(server, 'first').key)).toBeDefined()
    const later = createKey(cli, 'acme')
    expect(authenticateKey(server, later.key)).toEqual({ accountId: later.accountId, keyId: later.id })
  })

  test('refuses unknown and malformed keys, and a key that differs in one character', () => {
    const { server } = serverAndCli()
    const issued = createKey(server, 'acme')
    expect(authenticateKey(server, issued.key)).toBeDefined()
    const last = issued.key.at(-1) === 'A' ? 'B' : 'A'
    expect(authenticateKey(server, issued.key.slice(0, -1) + last)).toBeUndefined()
    expect(authenticateKey(server, 'exd_' + 'x'.repeat(43))).toBeUndefined()
    expect(authenticateKey(server, 'not a key')).toBeUndefined()
  })
})
