/**
 * The signed-in account's own keys through the API (D337): listed by prefix and never in full,
 * created with the key shown once, revoked at once; another account's keys are not there (404).
 * Runs on SQLite and, with EXTRACTD_TEST_DATABASE=postgres, on PostgreSQL.
 */
import { describe, expect, test } from 'bun:test'
import { createKey } from '../../src/modules/keys/service'
import { createSchema, makeTestApp } from '../helpers/app'

const KEY_SHAPE = /^exd_[A-Za-z0-9_-]{43}$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('GET /api/v1/keys', () => {
  test("lists the account's keys by prefix, marks the key of the request, and shows no other account's key", async () => {
    const t = await makeTestApp()
    const second = await createKey(t.database, 'account-a')
    const response = await t.call('GET', '/api/v1/keys')
    expect(response.status).toBe(200)
    expect(response.body).toStrictEqual({
      keys: [
        { id: t.keyA.id, prefix: t.keyA.key.slice(0, 10), created_at: t.keyA.createdAt, revoked_at: null, current: true },
        { id: second.id, prefix: second.key.slice(0, 10), created_at: second.createdAt, revoked_at: null, current: false },
      ],
    })
    for (const key of [t.keyA.key, second.key, t.keyB.key]) expect(response.text).not.toContain(key)
    expect(response.text).not.toContain(t.keyB.id)
    // Account B sees its own key only, as the current one.
    const other = await t.call('GET', '/api/v1/keys', { key: t.keyB.key })
    expect(other.body.keys.map((key: any) => [key.id, key.current])).toEqual([[t.keyB.id, true]])
  })
})

describe('POST /api/v1/keys', () => {
  test('makes a key for the same account, shown once; it works at once and is listed by prefix only', async () => {
    const t = await makeTestApp()
    const schema = await createSchema(t, { name: 'Of A' })
    const response = await t.call('POST', '/api/v1/keys')
    expect(response.status).toBe(201)
    const made = response.body.key
    expect(made).toStrictEqual({
      id: expect.stringMatching(/^key_/),
      prefix: made.key.slice(0, 10),
      created_at: expect.stringMatching(TIMESTAMP),
      revoked_at: null,
      current: false,
      key: expect.stringMatching(KEY_SHAPE),
    })
    // Its account is the caller's: it reads A's schema, and B's key does not see it.
    const read = await t.call('GET', `/api/v1/schemas/${schema.id}`, { key: made.key })
    expect(read.status).toBe(200)
    const listed = await t.call('GET', '/api/v1/keys')
    expect(listed.body.keys.map((key: any) => key.id)).toEqual([t.keyA.id, made.id])
    expect(listed.text).not.toContain(made.key)
    expect((await t.call('GET', '/api/v1/keys', { key: t.keyB.key })).body.keys.map((key: any) => key.id)).toEqual([t.keyB.id])
    // Only the hash is stored.
    const stored = await t.rows<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = ?', [made.id])
    expect(stored).toEqual([{ key_hash: new Bun.CryptoHasher('sha256').update(made.key).digest('hex') }])
  })
})

describe('DELETE /api/v1/keys/:id', () => {
  test('revokes a key of the account at once; revoking it again changes nothing', async () => {
    const t = await makeTestApp()
    const spare = (await t.call('POST', '/api/v1/keys')).body.key
    const response = await t.call('DELETE', `/api/v1/keys/${spare.id}`)
    expect(response.status).toBe(200)
    expect(response.body).toStrictEqual({
      key: { id: spare.id, prefix: spare.prefix, created_at: spare.created_at, revoked_at: expect.stringMatching(TIMESTAMP), current: false },
    })
    const refused = await t.call('GET', '/api/v1/schemas', { key: spare.key })
    expect(refused.status).toBe(401)
    const again = await t.call('DELETE', `/api/v1/keys/${spare.id}`)
    expect(again.status).toBe(200)
    expect(again.body).toStrictEqual(response.body)
    // The key that revoked it still works.
    expect((await t.call('GET', '/api/v1/schemas')).status).toBe(200)
  })

  test("another account's key, an unknown one and a malformed id are 404, and the other account's key still works", async () => {
    const t = await makeTestApp()
    for (const id of [t.keyB.id, 'key_01m7zvb9bb611cmatkr3ef5dhzw8cw', 'nope']) {
      const response = await t.call('DELETE', `/api/v1/keys/${id}`)
      expect(response.status).toBe(404)
      expect(response.body).toStrictEqual({ error: 'API key not found', code: 'not_found' })
    }
    expect((await t.call('GET', '/api/v1/keys', { key: t.keyB.key })).body.keys[0].revoked_at).toBeNull()
    expect((await t.call('GET', '/api/v1/schemas', { key: t.keyB.key })).status).toBe(200)
  })

  test('the key of the request may revoke itself: the answer says so, and the next request with it is 401', async () => {
    const t = await makeTestApp()
    const response = await t.call('DELETE', `/api/v1/keys/${t.keyA.id}`)
    expect(response.status).toBe(200)
    expect(response.body.key).toMatchObject({ id: t.keyA.id, current: true, revoked_at: expect.stringMatching(TIMESTAMP) })
    const after = await t.call('GET', '/api/v1/keys')
    expect(after.status).toBe(401)
    expect(after.body).toStrictEqual({ error: 'Invalid API key', code: 'invalid_api_key' })
  })
})
