/**
 * Webhooks (D80–D86): endpoints through the API, and real deliveries to a local receiver when
 * jobs end, signed, retried, refused and recorded as the decisions say.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Engine } from '../../src/modules/extraction/engines/types'
import { ExtractionError } from '../../src/modules/extraction/errors'
import { builtinEngine } from '../../src/modules/extraction/engines/builtin'
import { checkDeliveryHost, isPrivateAddress } from '../../src/modules/webhooks/addresses'
import { createDeliveryWorker, retryDelay } from '../../src/modules/webhooks/delivery'
import { webhooksRepository } from '../../src/modules/webhooks/repository'
import { createWebhook as createWebhookDirectly, sign } from '../../src/modules/webhooks/service'
import { silentLogger } from '../../src/lib/log'
import { ISO_MS, type TestApp, type TestAppOptions, expectEnvelope, expectValidation, makeTestApp } from '../helpers/app'
import { ROOT } from '../helpers/process'
import { snippetOf, startReceiver, verifyWebhook } from '../helpers/webhooks'
import { eventually } from '../helpers/eventually'

const WEBHOOK_ID = /^whk_[0-9a-hjkmnp-tv-z]{30}$/
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/

/** Everything a test started, stopped after it. */
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function receiver(...args: Parameters<typeof startReceiver>) {
  const r = startReceiver(...args)
  cleanups.push(r.stop)
  return r
}

/** An app whose delivery worker runs, private addresses allowed, fast retries. */
async function deliveringApp(options: TestAppOptions = {}) {
  const t = await makeTestApp({ ...options, webhooks: { allowPrivate: true, retryDelayMs: 20, timeoutMs: 2000, ...options.webhooks } })
  cleanups.push(() => t.deliveries?.stop(0))
  return t
}

/** Fails the job when the document says FAIL; otherwise the built-in engine. */
const failingOnDemand: Engine = {
  name: 'builtin',
  async extract(input) {
    if (input.document.pages.some((page) => page.includes('FAIL'))) throw new ExtractionError('corrupt_document', 'broken')
    return builtinEngine.extract(input)
  },
}

function upload(content: string): FormData {
  const form = new FormData()
  form.set('file', new File([content], 'invoice.txt'))
  form.set('extract', JSON.stringify({ document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }))
  return form
}

async function extract(t: TestApp, content = 'Invoice No.: INV-9\nTotal: 10.00 EUR\n', key?: string) {
  const response = await t.call('POST', '/api/v1/extract', { body: upload(content), key })
  expect(response.status).toBe(200)
  return response.body.job
}

async function createWebhook(t: TestApp, body: Record<string, unknown>, key?: string) {
  const response = await t.call('POST', '/api/v1/webhooks', { body, key })
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`)
  return response.body.webhook
}

const BOTH = ['job.succeeded', 'job.failed']

describe('registering endpoints', () => {
  test('POST answers 201 with the endpoint and its secret; the secret never shows again', async () => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/webhooks', { body: { url: 'https://example.com/hooks', events: BOTH } })
    expect(response.status).toBe(201)
    const webhook = response.body.webhook
    expect(response.body).toEqual({
      webhook: {
        id: expect.stringMatching(WEBHOOK_ID),
        url: 'https://example.com/hooks',
        events: BOTH,
        secret: expect.stringMatching(SECRET),
        created_at: expect.stringMatching(ISO_MS),
      },
    })
    expect(Object.keys(webhook)).toEqual(['id', 'url', 'events', 'created_at', 'secret'])
    expect(Buffer.from(webhook.secret.slice(6), 'base64')).toHaveLength(32)

    const { secret, ...shown } = webhook
    const list = await t.call('GET', '/api/v1/webhooks')
    expect(list.status).toBe(200)
    expect(list.body).toEqual({ webhooks: [shown] })
    const read = await t.call('GET', `/api/v1/webhooks/${webhook.id}`)
    expect(read.status).toBe(200)
    expect(read.body).toEqual({ webhook: shown })
    const deliveries = await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)
    expect(deliveries.body).toEqual({ deliveries: [], has_more: false })
    for (const answer of [list, read, deliveries]) expect(answer.text).not.toContain(secret)
  })

  test('each endpoint gets its own secret; the list is newest first', async () => {
    const t = await makeTestApp()
    const first = await createWebhook(t, { url: 'https://example.com/a', events: ['job.failed'] })
    const second = await createWebhook(t, { url: 'https://example.com/b', events: ['job.succeeded'] })
    expect(first.secret).not.toBe(second.secret)
    const list = (await t.call('GET', '/api/v1/webhooks')).body.webhooks
    expect(list.map((webhook: { id: string }) => webhook.id)).toEqual([second.id, first.id])
  })

  test('the URL is stored in its normalised form', async () => {
    const t = await makeTestApp()
    const webhook = await createWebhook(t, { url: 'HTTPS://Example.COM:443/a b?x=1', events: ['job.failed'] })
    expect(webhook.url).toBe('https://example.com/a%20b?x=1')
  })

  const invalid: [string, unknown, string[]][] = [
    ['no body properties', {}, ['/url', '/events']],
    ['an unknown property', { url: 'https://example.com', events: BOTH, secret: 'mine' }, ['/secret']],
    ['a URL that is not a string', { url: 42, events: BOTH }, ['/url']],
    ['a null URL', { url: null, events: BOTH }, ['/url']],
    ['an empty URL', { url: '', events: BOTH }, ['/url']],
    ['no events', { url: 'https://example.com', events: [] }, ['/events']],
    ['events that are not a list', { url: 'https://example.com', events: 'job.failed' }, ['/events']],
    ['an unknown event', { url: 'https://example.com', events: ['job.succeeded', 'job.deleted'] }, ['/events/1']],
    ['a repeated event', { url: 'https://example.com', events: ['job.failed', 'job.failed'] }, ['/events']],
    ['an ftp URL', { url: 'ftp://example.com/x', events: BOTH }, ['/url']],
    ['a URL without scheme', { url: 'example.com/hook', events: BOTH }, ['/url']],
    ['a javascript: URL', { url: 'javascript:alert(1)', events: BOTH }, ['/url']],
    ['a scheme-relative http: URL', { url: 'http:example.com', events: BOTH }, ['/url']],
    ['a URL with a user and password', { url: 'https://user:pass@example.com/hook', events: BOTH }, ['/url']],
    ['a URL with a user only', { url: 'https://user@example.com/hook', events: BOTH }, ['/url']],
    ['a URL without host', { url: 'http://', events: BOTH }, ['/url']],
    ['a URL of 2049 characters', { url: `https://example.com/${'a'.repeat(2029)}`, events: BOTH }, ['/url']],
  ]

  test.each(invalid)('%s → 400 naming the paths, nothing stored', async (_name, body, paths) => {
    const t = await makeTestApp()
    expectValidation(await t.call('POST', '/api/v1/webhooks', { body }), paths)
    expect((await t.call('GET', '/api/v1/webhooks')).body).toEqual({ webhooks: [] })
  })

  test('a URL of exactly 2048 characters is accepted', async () => {
    const t = await makeTestApp()
    const url = `https://example.com/${'a'.repeat(2028)}`
    expect(url).toHaveLength(2048)
    expect((await createWebhook(t, { url, events: BOTH })).url).toBe(url)
  })

  test('malformed JSON, a text body and no body are 400, 415 and 400', async () => {
    const t = await makeTestApp()
    expectEnvelope(await t.call('POST', '/api/v1/webhooks', { body: '{', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json')
    expectEnvelope(await t.call('POST', '/api/v1/webhooks', { body: 'x', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type')
    expectValidation(await t.call('POST', '/api/v1/webhooks'), [''])
  })

  test(`an account holds at most 20 endpoints: the 21st is 409 webhook_limit_reached; other accounts are not affected`, async () => {
    const t = await makeTestApp()
    for (let i = 0; i < 20; i++) await createWebhook(t, { url: `https://example.com/${i}`, events: BOTH })
    const refused = await t.call('POST', '/api/v1/webhooks', { body: { url: 'https://example.com/21', events: BOTH } })
    expectEnvelope(refused, 409, 'webhook_limit_reached', 'Webhook limit reached: an account can hold at most 20 webhooks')
    expect((await t.call('GET', '/api/v1/webhooks')).body.webhooks).toHaveLength(20)
    await createWebhook(t, { url: 'https://example.com/b', events: BOTH }, t.keyB.key)
    // Deleting one makes room again.
    const one = (await t.call('GET', '/api/v1/webhooks')).body.webhooks[0]
    expect((await t.call('DELETE', `/api/v1/webhooks/${one.id}`)).status).toBe(200)
    await createWebhook(t, { url: 'https://example.com/again', events: BOTH })
  })
})

describe('whatever a client sends gets a clear 4xx, never a 5xx (D86)', () => {
  const hostile: [string, string][] = [
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
    ['a JSON string', '"https://example.com"'],
    ['deeply nested JSON', `{"url":${'['.repeat(100)}${']'.repeat(100)},"events":["job.failed"]}`],
    ['a URL with spaces in the host', '{"url":"https://exa mple.com/","events":["job.failed"]}'],
    ['an unclosed IPv6 host', '{"url":"http://[::1/","events":["job.failed"]}'],
    ['an IPv6 zone', '{"url":"http://[fe80::1%25eth0]/","events":["job.failed"]}'],
    ['a port out of range', '{"url":"http://example.com:99999/","events":["job.failed"]}'],
    ['only whitespace', '{"url":"   ","events":["job.failed"]}'],
    ['an event of the wrong type', '{"url":"https://example.com/","events":[1, null, {}]}'],
    ['a huge list of events', `{"url":"https://example.com/","events":[${'"job.failed",'.repeat(10_000)}"job.failed"]}`],
  ]

  test.each(hostile)('%s → 4xx in the D1 envelope, nothing stored', async (_name, body) => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/webhooks', { body, headers: { 'content-type': 'application/json' } })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    expect(typeof response.body.code).toBe('string')
    expect((await t.call('GET', '/api/v1/webhooks')).body).toEqual({ webhooks: [] })
  })

  test('an international domain name is accepted in its ASCII form', async () => {
    const t = await makeTestApp()
    expect((await createWebhook(t, { url: 'https://bücher.example/hook', events: BOTH })).url).toBe('https://xn--bcher-kva.example/hook')
  })

  test('odd deliveries queries and paths are 4xx', async () => {
    const t = await makeTestApp()
    const webhook = await createWebhook(t, { url: 'https://example.com/a', events: BOTH })
    for (const path of [
      `/api/v1/webhooks/${webhook.id}/deliveries?limit=-1`,
      `/api/v1/webhooks/${webhook.id}/deliveries?limit=1e2`,
      `/api/v1/webhooks/${webhook.id}/deliveries?limit=99999999999999999999`,
      `/api/v1/webhooks/${webhook.id}/deliveries?starting_after=${webhook.id}`,
      '/api/v1/webhooks/%00/deliveries',
    ]) {
      const response = await t.call('GET', path)
      expect([path, response.status]).toEqual([path, path.includes('%00') ? 404 : 400])
    }
    const wrongMethod = await t.call('PATCH', `/api/v1/webhooks/${webhook.id}`, { body: { url: 'https://example.com/b' } })
    expectEnvelope(wrongMethod, 405, 'method_not_allowed')
    expect(wrongMethod.headers.get('allow')).toContain('DELETE')
  })
})

describe('private addresses (D83)', () => {
  const refused = [
    'http://localhost/hook',
    'http://LOCALHOST.:8080/hook',
    'http://api.localhost/hook',
    'http://127.0.0.1/hook',
    'http://127.1/hook',
    'http://2130706433/hook',
    'http://0x7f.0.0.1/hook',
    'http://0.0.0.0/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.1/hook',
    'http://172.31.255.255/hook',
    'http://192.168.1.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://224.0.0.1/hook',
    'http://255.255.255.255/hook',
    'http://[::1]/hook',
    'http://[::]/hook',
    'http://[fd00::1]/hook',
    'http://[fc00::1]/hook',
    'http://[fe80::1]/hook',
    'http://[ff02::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:a9fe:a9fe]/hook',
    'http://[64:ff9b::10.0.0.1]/hook',
  ]

  test.each(refused)('%s is refused by default with 400 at /url', async (url) => {
    const t = await makeTestApp()
    const response = await t.call('POST', '/api/v1/webhooks', { body: { url, events: BOTH } })
    expectValidation(response, ['/url'])
    expect(response.body.details[0].message).toMatch(/private|loopback|localhost/)
  })

  test.each(refused)('%s is accepted when the operator allows private addresses', async (url) => {
    const t = await makeTestApp({ webhooks: { allowPrivate: true } })
    cleanups.push(() => t.deliveries?.stop(0))
    expect((await t.call('POST', '/api/v1/webhooks', { body: { url, events: BOTH } })).status).toBe(201)
  })

  test.each([
    'https://example.com/hook',
    'http://93.184.216.34/hook',
    'http://172.32.0.1/',
    'http://100.128.0.1/',
    'http://[2606:4700::1111]/hook',
    'http://[::ffff:8.8.8.8]/',
  ])('%s is a public address and accepted', async (url) => {
    const t = await makeTestApp()
    expect((await t.call('POST', '/api/v1/webhooks', { body: { url, events: BOTH } })).status).toBe(201)
  })

  test('isPrivateAddress knows the ranges', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.20.1.1',
      '192.168.0.1',
      '169.254.1.1',
      '100.100.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd12::1',
      'fe80::1',
      '::ffff:192.168.0.1',
      '::ffff:c0a8:1',
      '::127.0.0.1',
      'not an ip',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, true])
    for (const address of ['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.0', '100.63.255.255', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect([address, isPrivateAddress(address)]).toEqual([address, false])
  })

  test('before each delivery the host is resolved: localhost is refused without retry, a name that does not resolve is retried', async () => {
    expect(await checkDeliveryHost('localhost')).toEqual({ ok: false, error: 'private address refused', retry: false })
    expect(await checkDeliveryHost('[::1]')).toEqual({ ok: false, error: 'private address refused', retry: false })
    expect(await checkDeliveryHost('93.184.216.34')).toEqual({ ok: true, address: '93.184.216.34' })
    expect(await checkDeliveryHost('no-such-host.invalid')).toEqual({ ok: false, error: 'dns lookup failed', retry: true })
  })

  test('an endpoint registered while private addresses were allowed gets one refused attempt once they are not, and no retries', async () => {
    const r = receiver()
    const t = await makeTestApp({ webhooks: { allowPrivate: false, retryDelayMs: 10 } })
    cleanups.push(() => t.deliveries?.stop(0))
    // Registered while the operator allowed private addresses (the service, as the API did then).
    const webhook = await createWebhookDirectly(t.database, t.keyA.accountId, { url: r.url, events: ['job.succeeded', 'job.failed'] }, true)
    const job = await extract(t)
    const deliveries = await eventually(async () => {
      const list = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries
      return list.length > 0 && list
    })
    expect(deliveries).toEqual([
      {
        id: expect.stringMatching(/^att_/),
        message_id: expect.stringMatching(/^msg_/),
        event: 'job.succeeded',
        job_id: job.id,
        attempt: 1,
        status_code: null,
        duration_ms: expect.any(Number),
        error: 'private address refused',
        created_at: expect.stringMatching(ISO_MS),
      },
    ])
    await Bun.sleep(100)
    expect(await messagesOfJob(t, job.id)).toEqual([{ endpointId: webhook.id, event: 'job.succeeded', status: 'failed', attempts: 1 }])
    expect(r.received).toHaveLength(0)
  })
})

/** The messages of a job: status and attempts per endpoint. */
async function messagesOfJob(t: TestApp, jobId: string) {
  const rows = await t.rows<{ endpoint_id: string; event: string; status: string; attempts: number }>(
    'select endpoint_id, event, status, attempts from webhook_messages where job_id = ? order by endpoint_id',
    [jobId],
  )
  return rows.map((row) => ({ endpointId: row.endpoint_id, event: row.event, status: row.status, attempts: Number(row.attempts) }))
}

describe('account isolation and deletion', () => {
  test("another account's endpoint is 404 for read, delete and deliveries, like an unknown one, and absent from its list", async () => {
    const t = await makeTestApp()
    const webhook = await createWebhook(t, { url: 'https://example.com/a', events: BOTH })
    const unknown = `${webhook.id.slice(0, -1)}${webhook.id.endsWith('0') ? '1' : '0'}`
    for (const [method, path] of [
      ['GET', `/api/v1/webhooks/${webhook.id}`],
      ['DELETE', `/api/v1/webhooks/${webhook.id}`],
      ['GET', `/api/v1/webhooks/${webhook.id}/deliveries`],
    ] as const) {
      const foreign = await t.call(method, path, { key: t.keyB.key })
      expectEnvelope(foreign, 404, 'not_found', 'Webhook not found')
      const missing = await t.call(method, path.replace(webhook.id, unknown), { key: t.keyB.key })
      expect(missing.text).toBe(foreign.text)
    }
    expect((await t.call('GET', '/api/v1/webhooks', { key: t.keyB.key })).body).toEqual({ webhooks: [] })
    expect((await t.call('GET', `/api/v1/webhooks/${webhook.id}`)).status).toBe(200)
  })

  test('IDs of the wrong shape are 404', async () => {
    const t = await makeTestApp()
    for (const id of ['nope', 'sch_01m7zvb9bb611cmatkr3ef5dhzw8cw', "whk_'%3B--", '%zz'])
      expect((await t.call('GET', `/api/v1/webhooks/${id}`)).status).toBe(404)
  })

  test('DELETE answers 200 {"ok": true}, then the endpoint is 404 everywhere and gone from the list', async () => {
    const t = await makeTestApp()
    const webhook = await createWebhook(t, { url: 'https://example.com/a', events: BOTH })
    const deleted = await t.call('DELETE', `/api/v1/webhooks/${webhook.id}`)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ ok: true })
    expectEnvelope(await t.call('DELETE', `/api/v1/webhooks/${webhook.id}`), 404, 'not_found')
    expectEnvelope(await t.call('GET', `/api/v1/webhooks/${webhook.id}`), 404, 'not_found')
    expectEnvelope(await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`), 404, 'not_found')
    expect((await t.call('GET', '/api/v1/webhooks')).body).toEqual({ webhooks: [] })
  })

  test('deliveries: limit must be 1–100 and starting_after one of its attempts', async () => {
    const t = await makeTestApp()
    const webhook = await createWebhook(t, { url: 'https://example.com/a', events: BOTH })
    for (const limit of ['0', '101', 'x', '1.5'])
      expectValidation(await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=${limit}`), ['query:/limit'])
    expectValidation(await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries?starting_after=att_nope`), ['query:/starting_after'])
  })
})

describe('deliveries', () => {
  test('a succeeded job is POSTed to the endpoint, signed, with the job exactly as GET /jobs/:id answers it', async () => {
    const r = receiver()
    const t = await deliveringApp()
    const webhook = await createWebhook(t, { url: `${r.url}/hook?x=1`, events: BOTH })
    const job = await extract(t)
    await eventually(() => r.received.length === 1)
    const [request] = r.received
    expect(request!.method).toBe('POST')
    expect(request!.path).toBe('/hook')
    expect(request!.headers.get('content-type')).toBe('application/json')
    expect(request!.headers.get('user-agent')).toMatch(/^extractd\//)
    expect(request!.headers.get('webhook-id')).toMatch(/^msg_[0-9a-hjkmnp-tv-z]{30}$/)
    const timestamp = Number(request!.headers.get('webhook-timestamp'))
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5)
    expect(request!.headers.get('webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
    expect(verifyWebhook(webhook.secret, request!.headers, request!.body)).toBe(true)
    expect(request!.headers.get('webhook-signature')).toBe(sign(webhook.secret, request!.headers.get('webhook-id')!, timestamp, request!.body))

    const current = (await t.call('GET', `/api/v1/jobs/${job.id}`)).body.job
    expect(JSON.parse(request!.body)).toEqual({ type: 'job.succeeded', timestamp: current.completed_at, data: { job: current } })

    const deliveries = await eventually(async () => {
      const list = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body
      return list.deliveries.length === 1 && list
    })
    expect(deliveries).toEqual({
      deliveries: [
        {
          id: expect.stringMatching(/^att_[0-9a-hjkmnp-tv-z]{30}$/),
          message_id: request!.headers.get('webhook-id'),
          event: 'job.succeeded',
          job_id: job.id,
          attempt: 1,
          status_code: 200,
          duration_ms: expect.any(Number),
          error: null,
          created_at: expect.stringMatching(ISO_MS),
        },
      ],
      has_more: false,
    })
    expect(JSON.stringify(deliveries)).not.toContain(webhook.secret)
  })

  test('the signature fails verification with another secret, another body, or an old timestamp', async () => {
    const r = receiver()
    const t = await deliveringApp()
    const webhook = await createWebhook(t, { url: r.url, events: BOTH })
    const other = await createWebhook(t, { url: `${r.url}/other`, events: ['job.failed'] })
    await extract(t)
    await eventually(() => r.received.length === 1)
    const { headers, body } = r.received[0]!
    expect(verifyWebhook(webhook.secret, headers, body)).toBe(true)
    expect(verifyWebhook(other.secret, headers, body)).toBe(false)
    expect(verifyWebhook(webhook.secret, headers, body.replace('job.succeeded', 'job.failed'))).toBe(false)
    const old = new Headers(headers)
    old.set('webhook-timestamp', String(Number(headers.get('webhook-timestamp')) - 600))
    expect(verifyWebhook(webhook.secret, old, body)).toBe(false)
    old.set('webhook-timestamp', 'soon')
    expect(verifyWebhook(webhook.secret, old, body)).toBe(false)
  })

  test('a failed job sends job.failed; an endpoint that did not subscribe to an event gets nothing of it', async () => {
    const r = receiver()
    const t = await deliveringApp({ engine: failingOnDemand })
    const onlyFailed = await createWebhook(t, { url: `${r.url}/failed`, events: ['job.failed'] })
    const onlySucceeded = await createWebhook(t, { url: `${r.url}/succeeded`, events: ['job.succeeded'] })
    const failed = await extract(t, 'FAIL this one')
    expect(failed.status).toBe('failed')
    const succeeded = await extract(t)
    await eventually(() => r.received.length === 2)
    await Bun.sleep(100) // nothing more comes
    expect(r.received.map((request) => [request.path, JSON.parse(request.body).type, JSON.parse(request.body).data.job.id]).sort()).toEqual(
      [
        ['/failed', 'job.failed', failed.id],
        ['/succeeded', 'job.succeeded', succeeded.id],
      ].sort(),
    )
    const failedBody = JSON.parse(r.received.find((request) => request.path === '/failed')!.body)
    expect(failedBody.data.job.error).toEqual({ code: 'corrupt_document', message: 'broken' })
    expect(verifyWebhook(onlyFailed.secret, r.received.find((request) => request.path === '/failed')!.headers, JSON.stringify(failedBody))).toBe(true)
    expect(
      verifyWebhook(
        onlySucceeded.secret,
        r.received.find((request) => request.path === '/succeeded')!.headers,
        r.received.find((request) => request.path === '/succeeded')!.body,
      ),
    ).toBe(true)
  })

  test("only the job's own account's endpoints are told", async () => {
    const r = receiver()
    const t = await deliveringApp()
    await createWebhook(t, { url: `${r.url}/b`, events: BOTH }, t.keyB.key)
    const a = await createWebhook(t, { url: `${r.url}/a`, events: BOTH })
    await extract(t)
    await eventually(() => r.received.length === 1)
    await Bun.sleep(100)
    expect(r.received.map((request) => request.path)).toEqual(['/a'])
    expect((await t.call('GET', `/api/v1/webhooks/${a.id}/deliveries`)).body.deliveries).toHaveLength(1)
  })

  test('a canceled job sends nothing', async () => {
    const r = receiver()
    const t = await deliveringApp({ paused: true })
    await createWebhook(t, { url: r.url, events: BOTH })
    const queued = await t.call('POST', '/api/v1/extract?async=true', { body: upload('Invoice No.: 1') })
    expect((await t.call('POST', `/api/v1/jobs/${queued.body.job.id}/cancel`)).status).toBe(200)
    await Bun.sleep(150)
    expect(r.received).toHaveLength(0)
    expect(await messagesOfJob(t, queued.body.job.id)).toEqual([])
  })

  test('a receiver that fails twice gets the same message again with backoff, and the list shows every attempt', async () => {
    const r = receiver((n) => new Response('no', { status: n <= 2 ? 500 : 204 }))
    const t = await deliveringApp()
    const webhook = await createWebhook(t, { url: r.url, events: BOTH })
    const job = await extract(t)
    await eventually(() => r.received.length === 3)
    await Bun.sleep(150) // no fourth
    expect(r.received).toHaveLength(3)
    const ids = new Set(r.received.map((request) => request.headers.get('webhook-id')))
    expect(ids.size).toBe(1)
    expect(new Set(r.received.map((request) => request.body)).size).toBe(1)
    for (const request of r.received) expect(verifyWebhook(webhook.secret, request.headers, request.body)).toBe(true)

    const list = await eventually(async () => {
      const body = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body
      return body.deliveries.length === 3 && body
    })
    const messageId = [...ids][0]
    expect(list.deliveries.map((d: any) => [d.attempt, d.status_code, d.error, d.message_id, d.job_id])).toEqual([
      [3, 204, null, messageId, job.id],
      [2, 500, 'HTTP 500', messageId, job.id],
      [1, 500, 'HTTP 500', messageId, job.id],
    ])
    expect(await messagesOfJob(t, job.id)).toEqual([{ endpointId: webhook.id, event: 'job.succeeded', status: 'delivered', attempts: 3 }])

    // Pages of the list.
    const first = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=2`)).body
    expect(first.deliveries.map((d: any) => d.attempt)).toEqual([3, 2])
    expect(first.has_more).toBe(true)
    const rest = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=2&starting_after=${first.deliveries[1].id}`)).body
    expect(rest).toEqual({ deliveries: [list.deliveries[2]], has_more: false })
  })

  test('a redirect is not followed: the 302 counts as a failure and the target is never called', async () => {
    const target = receiver()
    const r = receiver(() => new Response(null, { status: 302, headers: { location: `${target.url}/elsewhere` } }))
    const t = await deliveringApp({ webhooks: { retryDelayMs: 60_000 } })
    const webhook = await createWebhook(t, { url: r.url, events: BOTH })
    await extract(t)
    const deliveries = await eventually(async () => {
      const list = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries
      return list.length === 1 && list
    })
    expect(deliveries[0]).toMatchObject({ attempt: 1, status_code: 302, error: 'redirect not followed' })
    expect(target.received).toHaveLength(0)
  })

  test('a receiver slower than the timeout: the attempt is recorded as a timeout without a status code', async () => {
    const r = receiver(async () => {
      await Bun.sleep(1000)
      return new Response('late')
    })
    const t = await deliveringApp({ webhooks: { timeoutMs: 100, retryDelayMs: 60_000 } })
    const webhook = await createWebhook(t, { url: r.url, events: BOTH })
    await extract(t)
    const deliveries = await eventually(async () => {
      const list = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries
      return list.length === 1 && list
    })
    expect(deliveries[0]).toMatchObject({ attempt: 1, status_code: null, error: 'timeout' })
    expect(deliveries[0].duration_ms).toBeGreaterThanOrEqual(90)
    expect(deliveries[0].duration_ms).toBeLessThan(1000)
  })

  test('a receiver that is not listening: connection refused', async () => {
    const r = startReceiver()
    const url = r.url
    await r.stop()
    const t = await deliveringApp({ webhooks: { retryDelayMs: 60_000 } })
    const webhook = await createWebhook(t, { url, events: BOTH })
    await extract(t)
    const deliveries = await eventually(async () => {
      const list = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries
      return list.length === 1 && list
    })
    expect(deliveries[0]).toMatchObject({ attempt: 1, status_code: null, error: 'connection refused' })
  })

  test('a deleted endpoint gets nothing more, though its message was still being retried', async () => {
    const r = receiver(() => new Response('down', { status: 503 }))
    const t = await deliveringApp({ webhooks: { retryDelayMs: 100 } })
    const webhook = await createWebhook(t, { url: r.url, events: BOTH })
    const job = await extract(t)
    await eventually(() => r.received.length === 1)
    expect((await t.call('DELETE', `/api/v1/webhooks/${webhook.id}`)).status).toBe(200)
    await Bun.sleep(400)
    expect(r.received).toHaveLength(1)
    expect(await messagesOfJob(t, job.id)).toEqual([])
  })

  test('messages wait in the database: a worker started later (a restart) delivers what an earlier one left', async () => {
    const r = receiver((n) => new Response(null, { status: n === 1 ? 500 : 200 }))
    const t = await deliveringApp({ webhooks: { retryDelayMs: 200 } })
    const webhook = await createWebhook(t, { url: r.url, events: BOTH })
    const job = await extract(t)
    // The first attempt is recorded before the worker stops: what is left is a message due again, not one under way.
    await eventually(async () => (await messagesOfJob(t, job.id))[0]?.attempts === 1)
    await t.deliveries!.stop(1000)
    expect(r.received).toHaveLength(1)
    expect(await messagesOfJob(t, job.id)).toEqual([{ endpointId: webhook.id, event: 'job.succeeded', status: 'pending', attempts: 1 }])

    const next = createDeliveryWorker({ database: t.database, log: silentLogger, allowPrivate: true, retryDelayMs: 200, pollMs: 50 })
    next.start()
    cleanups.push(() => next.stop(0))
    await eventually(() => r.received.length === 2)
    await eventually(async () => (await messagesOfJob(t, job.id))[0]?.status === 'delivered')
    expect(new Set(r.received.map((request) => request.headers.get('webhook-id'))).size).toBe(1)
  })

  test('two workers on one database deliver each message once', async () => {
    const r = receiver()
    const t = await deliveringApp()
    const second = createDeliveryWorker({ database: t.database, log: silentLogger, allowPrivate: true, retryDelayMs: 20, pollMs: 5 })
    second.start()
    cleanups.push(() => second.stop(0))
    await createWebhook(t, { url: r.url, events: BOTH })
    await createWebhook(t, { url: `${r.url}/2`, events: BOTH })
    for (let i = 0; i < 5; i++) await extract(t, `Invoice No.: N-${i}`)
    await eventually(() => r.received.length === 10)
    await Bun.sleep(200)
    expect(r.received).toHaveLength(10)
    expect(new Set(r.received.map((request) => request.headers.get('webhook-id'))).size).toBe(10)
  })

  test('a claimed message is held by its lease: another owner cannot claim it until the lease runs out; the attempt its dead owner made is in the history (D139)', async () => {
    const t = await makeTestApp()
    const webhook = await createWebhook(t, { url: 'https://example.com/a', events: BOTH })
    await extract(t)
    const queue = webhooksRepository(t.database)
    const share = { perAccount: 10, perEndpoint: 10, skipEndpoints: [] }
    expect(await queue.claimDue('one', 60_000, 10, share)).toHaveLength(1)
    expect(await queue.claimDue('two', 60_000, 10, share)).toHaveLength(0)
    await t.rows("update webhook_messages set lease_expires_at = '2000-01-01T00:00:00.000Z'")
    const [taken] = await queue.claimDue('two', 60_000, 10, share)
    expect(taken?.attempts).toBe(1)
    const history = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries
    expect(history).toEqual([expect.objectContaining({ attempt: 1, status_code: null, error: 'interrupted' })])
  })

  test('finished messages older than the history window are purged with their attempts; pending ones stay', async () => {
    const r = receiver()
    const t = await deliveringApp()
    const webhook = await createWebhook(t, { url: r.url, events: BOTH })
    const delivered = await extract(t)
    await eventually(async () => (await messagesOfJob(t, delivered.id))[0]?.status === 'delivered')
    await t.deliveries!.stop(0)
    const pending = await extract(t, 'Invoice No.: P-1')
    const queue = webhooksRepository(t.database)
    expect(await queue.purgeFinished(new Date(Date.now() - 60_000).toISOString())).toBe(0)
    expect(await queue.purgeFinished(new Date(Date.now() + 60_000).toISOString())).toBe(1)
    expect(await messagesOfJob(t, delivered.id)).toEqual([])
    expect(await messagesOfJob(t, pending.id)).toHaveLength(1)
    expect((await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries).toEqual([])
  })

  test('retries back off exponentially from the first delay, up to an hour', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(5000, n))).toEqual([5000, 10_000, 20_000, 40_000, 80_000])
    expect(retryDelay(5000, 12)).toBe(3_600_000)
    expect(retryDelay(5000, 40)).toBe(3_600_000)
  })

  test('a message still failing 24 hours after its event is given up: failed, and tried no more', async () => {
    const r = receiver(() => new Response(null, { status: 500 }))
    const t = await deliveringApp({ webhooks: { retryDelayMs: 60_000 } })
    const webhook = await createWebhook(t, { url: r.url, events: BOTH })
    await t.deliveries!.stop(0)
    const job = await extract(t)
    // The event happened a day ago; its next attempt is due now.
    await t.rows('update webhook_messages set created_at = ?, next_attempt_at = ?', [
      new Date(Date.now() - 24 * 3_600_000 + 30_000).toISOString(),
      new Date(0).toISOString(),
    ])
    const worker = createDeliveryWorker({ database: t.database, log: silentLogger, allowPrivate: true, retryDelayMs: 60_000, pollMs: 20 })
    worker.start()
    cleanups.push(() => worker.stop(0))
    await eventually(async () => (await messagesOfJob(t, job.id))[0]?.status === 'failed')
    expect(r.received).toHaveLength(1)
    const list = (await t.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).body.deliveries
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ status_code: 500, error: 'HTTP 500' })
  })
})

describe('fair delivery (D137) and the circuit breaker (D138)', () => {
  test("one account's hanging endpoints hold at most half of the slots: another account's message goes out at once", async () => {
    const hanging = receiver(() => Bun.sleep(3000).then(() => new Response('late')))
    const fast = receiver()
    const t = await deliveringApp({ webhooks: { concurrency: 4, timeoutMs: 5000, retryDelayMs: 60_000 } })
    for (let i = 0; i < 6; i++) await createWebhook(t, { url: `${hanging.url}/${i}`, events: BOTH })
    await createWebhook(t, { url: fast.url, events: BOTH }, t.keyB.key)
    await extract(t)
    await eventually(() => hanging.received.length >= 2)
    const sent = Date.now()
    await extract(t, 'Invoice No.: B-1\nTotal: 1.00 EUR\n', t.keyB.key)
    await eventually(() => fast.received.length === 1)
    expect(Date.now() - sent).toBeLessThan(2500) // the hanging answers take 3 s
    // Account A never had more than half of the four slots.
    expect(hanging.received.length).toBe(2)
  })

  test('an endpoint failing five times in a row has its circuit opened: its messages wait, other endpoints go on; then it is tried again', async () => {
    let down = true
    const flaky = receiver(() => new Response(null, { status: down ? 500 : 200 }))
    const healthy = receiver()
    const t = await deliveringApp({ webhooks: { retryDelayMs: 10, circuitOpenMs: 600 } })
    await createWebhook(t, { url: flaky.url, events: BOTH })
    await createWebhook(t, { url: healthy.url, events: BOTH })
    const job = await extract(t)
    await eventually(() => flaky.received.length === 5)
    await Bun.sleep(300)
    expect(flaky.received).toHaveLength(5) // open: no sixth attempt yet, though retries are due every 10 ms
    expect(healthy.received).toHaveLength(1)
    down = false
    await eventually(async () => (await messagesOfJob(t, job.id)).every((message) => message.status === 'delivered'))
    expect(flaky.received).toHaveLength(6)
  })
})

describe('the docs', () => {
  test("document the signing scheme, with the same verification code the tests' receivers use", async () => {
    const readme = await Bun.file(join(ROOT, 'README.md')).text()
    const operations = await Bun.file(join(ROOT, 'docs/operations.md')).text()
    const helper = await Bun.file(join(ROOT, 'test/helpers/webhooks.ts')).text()
    expect(readme).toContain('](docs/operations.md#verifying-a-delivery)')
    const block = /### Verifying a delivery[\s\S]*?```ts\n([\s\S]*?)```/.exec(operations)?.[1]
    expect(block).toBeDefined()
    expect(block).toBe(snippetOf(helper))
    for (const word of [
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'whsec_',
      'job.succeeded',
      'job.failed',
      '--webhooks-allow-private',
      '--webhook-retry-delay',
    ])
      expect(readme).toContain(word)
  })
})
