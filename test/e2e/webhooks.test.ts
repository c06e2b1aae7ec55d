/**
 * Webhooks through the compiled binary (D80–D86): a receiver in this test, on 127.0.0.1, checks
 * every signature with the docs' verification code; deliveries are retried with backoff and
 * survive a restart of the server.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { buildBinary, type RunningServer, startServer, tempDir } from '../helpers/process'
import { startReceiver, verifyWebhook } from '../helpers/webhooks'
import { eventually } from '../helpers/eventually'

setDefaultTimeout(90_000)

let binary: string
const dir = tempDir('extractd-webhooks-')
const stops: (() => unknown)[] = []

beforeAll(async () => {
  binary = await buildBinary()
}, 90_000)
afterAll(async () => {
  for (const stop of stops.reverse()) await stop()
  dir.remove()
})

async function home(name: string): Promise<string> {
  const path = join(dir.path, name)
  await Bun.$`mkdir -p ${path}`
  return path
}

async function api(server: RunningServer, key: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  headers.set('authorization', `Bearer ${key}`)
  if (typeof init.body === 'string') headers.set('content-type', 'application/json')
  const response = await fetch(server.url + path, { ...init, headers })
  return { status: response.status, body: (await response.json()) as any }
}

function upload(text: string): FormData {
  const form = new FormData()
  form.set('file', new File([text], 'invoice.txt'))
  form.set('extract', JSON.stringify({ document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }))
  return form
}

/**
 * A receiver that answers `failing` requests with 500 first, then accepts each request whose
 * signature the docs' code verifies (and refuses, with 401, any that it does not).
 */
function signatureCheckingReceiver(secretOf: () => string, failing: () => boolean) {
  const accepted: string[] = []
  const receiver = startReceiver((_n, request) => {
    if (!verifyWebhook(secretOf(), request.headers, request.body)) return new Response('bad signature', { status: 401 })
    if (failing()) return new Response('not now', { status: 500 })
    accepted.push(request.headers.get('webhook-id')!)
    return new Response(null, { status: 204 })
  })
  stops.push(receiver.stop)
  return { ...receiver, accepted }
}

test('without --webhooks-allow-private, a loopback receiver is refused at registration', async () => {
  const server = await startServer([binary], [], await home('refusing'))
  stops.push(() => server.proc.exitCode === null && server.stop())
  const key = server.firstKey!
  const refused = await api(server, key, '/api/v1/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['job.succeeded'] }),
  })
  expect(refused.status).toBe(400)
  expect(refused.body).toMatchObject({ code: 'validation_failed', details: [{ path: '/url', message: expect.stringContaining('private') }] })
  expect(await server.stop()).toBe(0)
})

test('a receiver that fails twice, then verifies the signature and accepts, gets exactly one accepted delivery; the list shows 3 attempts', async () => {
  let secret = ''
  let calls = 0
  const receiver = signatureCheckingReceiver(
    () => secret,
    () => ++calls <= 2,
  )
  const server = await startServer([binary], ['--webhooks-allow-private', '--webhook-retry-delay', '200ms'], await home('retries'))
  stops.push(() => server.proc.exitCode === null && server.stop())
  const key = server.firstKey!

  const created = await api(server, key, '/api/v1/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url: `${receiver.url}/extractd`, events: ['job.succeeded', 'job.failed'] }),
  })
  expect(created.status).toBe(201)
  secret = created.body.webhook.secret
  expect(secret).toMatch(/^whsec_/)

  const extracted = await api(server, key, '/api/v1/extract', { method: 'POST', body: upload('Invoice No.: WH-1\nTotal: 5.00 EUR\n') })
  expect(extracted.status).toBe(200)
  expect(extracted.body.job.status).toBe('succeeded')

  await eventually(() => receiver.accepted.length === 1, 20_000)
  await Bun.sleep(800) // time for a retry that must not come
  expect(receiver.received).toHaveLength(3)
  expect(receiver.accepted).toHaveLength(1)
  const body = JSON.parse(receiver.received[2]!.body)
  expect(body).toEqual({ type: 'job.succeeded', timestamp: extracted.body.job.completed_at, data: { job: extracted.body.job } })
  expect(new Set(receiver.received.map((request) => request.headers.get('webhook-id')))).toEqual(new Set(receiver.accepted))

  const deliveries = await eventually(async () => {
    const list = await api(server, key, `/api/v1/webhooks/${created.body.webhook.id}/deliveries`)
    return list.body.deliveries?.length === 3 && list
  })
  expect(deliveries.status).toBe(200)
  expect(deliveries.body.deliveries.map((d: any) => [d.attempt, d.status_code, d.error, d.job_id])).toEqual([
    [3, 204, null, extracted.body.job.id],
    [2, 500, 'HTTP 500', extracted.body.job.id],
    [1, 500, 'HTTP 500', extracted.body.job.id],
  ])
  expect(JSON.stringify(deliveries.body)).not.toContain(secret)
  expect(await server.stop()).toBe(0)
})

test('deliveries continue after the server is restarted on the same database', async () => {
  let secret = ''
  let down = true
  const receiver = signatureCheckingReceiver(
    () => secret,
    () => down,
  )
  const path = await home('restart')
  const env = { EXTRACTD_WEBHOOKS_ALLOW_PRIVATE: '1', EXTRACTD_WEBHOOK_RETRY_DELAY: '300ms' }
  const first = await startServer([binary], [], path, env)
  stops.push(() => first.proc.exitCode === null && first.stop())
  const key = first.firstKey!
  const created = await api(first, key, '/api/v1/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url: receiver.url, events: ['job.failed', 'job.succeeded'] }),
  })
  expect(created.status).toBe(201)
  secret = created.body.webhook.secret
  const job = (await api(first, key, '/api/v1/extract', { method: 'POST', body: upload('Invoice No.: WH-2\n') })).body.job

  // The receiver is down: the first attempt fails, and the server stops with the message pending.
  await eventually(() => receiver.received.length >= 1, 20_000)
  expect(await first.stop()).toBe(0)
  const whileStopped = receiver.received.length
  down = false
  await Bun.sleep(700) // longer than the next retry: nobody sends while the server is down
  expect(receiver.received).toHaveLength(whileStopped)
  expect(receiver.accepted).toHaveLength(0)

  const second = await startServer([binary], [], path, env)
  stops.push(() => second.proc.exitCode === null && second.stop())
  expect(second.firstKey).toBeUndefined()
  await eventually(() => receiver.accepted.length === 1, 20_000)
  await Bun.sleep(500)
  expect(receiver.accepted).toHaveLength(1)
  expect(new Set(receiver.received.map((request) => request.headers.get('webhook-id'))).size).toBe(1)
  expect(JSON.parse(receiver.received.at(-1)!.body).data.job.id).toBe(job.id)

  const deliveries = await eventually(async () => {
    const list = await api(second, key, `/api/v1/webhooks/${created.body.webhook.id}/deliveries`)
    return list.body.deliveries?.length === whileStopped + 1 && list
  })
  const attempts = deliveries.body.deliveries
  expect(attempts[0]).toMatchObject({ attempt: whileStopped + 1, status_code: 204, error: null })
  expect(attempts.slice(1).every((d: any) => d.status_code === 500 && d.error === 'HTTP 500')).toBe(true)
  expect(await second.stop()).toBe(0)
})
