/**
 * A local webhook receiver for tests, and the docs' verification snippet (docs/operations.md,
 * "Verifying a delivery"): the code between the markers below is that snippet, character for
 * character (a test compares them).
 */
// docs snippet start
import { createHmac, timingSafeEqual } from 'node:crypto'

/** True when the request was signed by extractd with this endpoint's secret in the last 5 minutes. */
export function verifyWebhook(secret: string, headers: Headers, body: string): boolean {
  const id = headers.get('webhook-id')
  const timestamp = headers.get('webhook-timestamp')
  const signatures = headers.get('webhook-signature')
  if (!id || !timestamp || !signatures) return false
  const age = Math.abs(Date.now() / 1000 - Number(timestamp))
  if (!(age <= 5 * 60)) return false // stale or not a number: refuse replays
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest()
  // The header may carry several space-separated signatures, e.g. while a secret is rotated.
  return signatures.split(' ').some((signature) => {
    const [version, value] = signature.split(',')
    const given = Buffer.from(value ?? '', 'base64')
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
  })
}
// docs snippet end

export interface ReceivedRequest {
  method: string
  path: string
  headers: Headers
  body: string
}

/** What the receiver answers to its n-th request (1-based). */
export type Answer = (n: number, request: ReceivedRequest) => Response | Promise<Response>

/** A `Bun.serve` on 127.0.0.1 that records every request and answers as `answer` says (200 by default). */
export function startReceiver(answer: Answer = () => new Response('ok')) {
  const received: ReceivedRequest[] = []
  let respond = answer
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const entry = { method: request.method, path: new URL(request.url).pathname, headers: request.headers, body: await request.text() }
      received.push(entry)
      return respond(received.length, entry)
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    /** Changes what the receiver answers from now on. */
    answer(next: Answer) {
      respond = next
    },
    stop: () => server.stop(true),
  }
}

/** The docs' snippet between the markers, for the drift test. */
export function snippetOf(source: string): string {
  const start = source.indexOf('// docs snippet start\n')
  const end = source.indexOf('// docs snippet end')
  if (start === -1 || end === -1) throw new Error('snippet markers not found')
  return source.slice(start + '// docs snippet start\n'.length, end)
}
