/**
 * The per-request log line and X-Request-Id (README, D42, D48): every answer, whatever built it,
 * carries the ID, and every request gives one line with all its fields and never a key or a body.
 */
import { describe, expect, test } from 'bun:test'
import { batchedLines, createLogger } from '../../src/lib/log'
import { makeTestApp } from '../helpers/app'

const FIELDS = ['account_id', 'duration_ms', 'level', 'method', 'msg', 'path', 'request_id', 'route', 'status', 'time']

/** The request log runs after the answer is sent, in a later turn of the event loop. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

async function loggedApp() {
  const lines: string[] = []
  const t = await makeTestApp({ log: createLogger('info', (line) => lines.push(line)) })
  const logged = async () => {
    await nextTurn()
    await nextTurn()
    return lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request')
  }
  return { t, lines, logged }
}

describe('request log', () => {
  const CASES = [
    { name: 'a catalog answer', method: 'GET', path: '/api/v1/fields?type=invoice', status: 200, route: '/api/v1/fields', signedIn: true },
    { name: 'a list of schemas', method: 'GET', path: '/api/v1/schemas', status: 200, route: '/api/v1/schemas', signedIn: true },
    { name: 'a created schema', method: 'POST', path: '/api/v1/schemas', body: { name: 'Secret body' }, status: 201, route: '/api/v1/schemas', signedIn: true },
    { name: 'a validation error', method: 'POST', path: '/api/v1/schemas', body: { name: '' }, status: 400, route: '/api/v1/schemas', signedIn: true },
    {
      name: 'an unknown schema',
      method: 'GET',
      path: '/api/v1/schemas/sch_01m7zvb9bb611cmatkr3ef5dhzw8cw',
      status: 404,
      route: '/api/v1/schemas/:id',
      signedIn: true,
    },
    { name: 'an unknown document type', method: 'GET', path: '/api/v1/fields?type=nope', status: 404, route: '/api/v1/fields', signedIn: true },
    { name: 'a bad key', method: 'GET', path: '/api/v1/schemas', key: 'exd_bad', status: 401, route: null, signedIn: false },
    { name: 'an unknown route', method: 'GET', path: '/nope', status: 404, route: null, signedIn: false },
    { name: 'a wrong method', method: 'PUT', path: '/api/v1/schemas', status: 405, route: null, signedIn: true },
    { name: 'the health check', method: 'GET', path: '/healthz', key: null, status: 200, route: '/healthz', signedIn: false },
  ] as const

  test.each(CASES)('$name → one line with every field, its ID echoed in X-Request-Id', async (c) => {
    const { t, lines, logged } = await loggedApp()
    const response = await t.call(c.method, c.path, { body: 'body' in c ? c.body : undefined, key: 'key' in c ? c.key : undefined })
    expect(response.status).toBe(c.status)
    const entries = await logged()
    expect(entries).toHaveLength(1)
    const entry = entries[0]
    expect(Object.keys(entry).sort()).toEqual(FIELDS)
    expect(entry).toMatchObject({ level: 'info', method: c.method, route: c.route, path: c.path.split('?')[0], status: c.status })
    expect(entry.account_id).toBe(c.signedIn ? t.keyA.accountId : null)
    expect(typeof entry.duration_ms).toBe('number')
    expect(entry.request_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.headers.get('x-request-id')).toBe(entry.request_id)
    for (const line of lines) {
      expect(line).not.toContain(t.keyA.key)
      expect(line).not.toContain('Secret body')
      expect(line).not.toContain('type=')
    }
  })

  test("a client's own X-Request-Id is kept, logged and echoed; a malformed one is replaced (D48)", async () => {
    const { t, logged } = await loggedApp()
    const kept = await t.call('GET', '/api/v1/schemas', { headers: { 'x-request-id': 'trace-42:a.b_c' } })
    const replaced = await t.call('GET', '/api/v1/schemas', { headers: { 'x-request-id': 'not an id' } })
    expect(kept.headers.get('x-request-id')).toBe('trace-42:a.b_c')
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect((await logged()).map((entry) => entry.request_id)).toEqual(['trace-42:a.b_c', replaced.headers.get('x-request-id')])
  })

  test('each request gets its own ID', async () => {
    const { t } = await loggedApp()
    const ids = new Set<string | null>()
    for (let i = 0; i < 5; i++) ids.add((await t.call('GET', '/api/v1/fields?type=invoice')).headers.get('x-request-id'))
    expect(ids.size).toBe(5)
  })
})

describe('batchedLines', () => {
  test('writes the lines of one turn of the event loop together, in order, in the next turn', async () => {
    const writes: string[] = []
    const write = batchedLines((text) => writes.push(text))
    write('one')
    write('two')
    write('three')
    expect(writes).toEqual([])
    await nextTurn()
    expect(writes).toEqual(['one\ntwo\nthree'])
    write('four')
    await nextTurn()
    expect(writes).toEqual(['one\ntwo\nthree', 'four'])
  })
})
