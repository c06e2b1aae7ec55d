/**
 * Webhooks with two processes on one database (two connections to a SQLite file, or two
 * PostgreSQL pools, as two instances have): the limit of endpoints holds, and each message is
 * delivered once although both delivery workers run (D84, D100).
 */
import { afterAll, afterEach, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { ApiError } from '../../src/http/errors'
import { silentLogger } from '../../src/lib/log'
import { createKey } from '../../src/modules/keys/service'
import { createDeliveryWorker } from '../../src/modules/webhooks/delivery'
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../src/modules/webhooks/model'
import { createWebhook, listWebhooks, queueJobEvent } from '../../src/modules/webhooks/service'
import type { Database } from '../../src/db/database'
import { anotherHandle, openTestDatabase, query } from '../helpers/database'
import { tempDir } from '../helpers/process'
import { startReceiver } from '../helpers/webhooks'
import { eventually } from '../helpers/eventually'

// The first PostgreSQL database of a run takes seconds to make on a busy machine.
setDefaultTimeout(20_000)

const dir = tempDir('extractd-webhook-instances-')
afterAll(() => dir.remove())
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
let files = 0

async function twoInstances() {
  const first = await openTestDatabase(join(dir.path, `webhooks-${files++}.sqlite`))
  const second = await anotherHandle(first)
  const { accountId } = await createKey(first, 'acme')
  return { first, second, accountId }
}

/** Ends a job as far as webhooks are concerned: its event queued as the extraction module queues it. */
async function jobEnded(database: Database, accountId: string, id: string): Promise<void> {
  const job = { id, accountId, status: 'succeeded', completedAt: new Date().toISOString(), wire: { id } }
  await database.transaction((tx) => queueJobEvent(database, tx, job))
}

test('30 creates split over two instances at once: exactly the limit is accepted', async () => {
  const { first, second, accountId } = await twoInstances()
  const outcomes = await Promise.allSettled(
    Array.from({ length: 30 }, (_, i) =>
      createWebhook(i % 2 ? first : second, accountId, { url: `https://example.com/hook/${i}`, events: ['job.succeeded'] }, false),
    ),
  )
  for (const outcome of outcomes)
    if (outcome.status === 'rejected') expect(outcome.reason instanceof ApiError && outcome.reason.code === 'webhook_limit_reached').toBe(true)
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(MAX_WEBHOOKS_PER_ACCOUNT)
  expect(await listWebhooks(second, accountId)).toHaveLength(MAX_WEBHOOKS_PER_ACCOUNT)
})

test('two delivery workers on two instances deliver each of 40 messages exactly once', async () => {
  const { first, second, accountId } = await twoInstances()
  const receiver = startReceiver(async () => {
    await Bun.sleep(5)
    return new Response('ok')
  })
  cleanups.push(receiver.stop)
  await createWebhook(first, accountId, { url: receiver.url, events: ['job.succeeded'] }, true)
  for (const database of [first, second]) {
    const worker = createDeliveryWorker({ database, log: silentLogger, allowPrivate: true, retryDelayMs: 60_000, pollMs: 10, concurrency: 3 })
    worker.start()
    cleanups.push(() => worker.stop(0))
  }
  for (let i = 0; i < 40; i++) await jobEnded(i % 2 ? first : second, accountId, `job_${i}`)
  await eventually(async () => {
    const [row] = await query<{ n: number }>(first, "select cast(count(*) as integer) as n from webhook_messages where status = 'delivered'")
    return Number(row!.n) === 40
  }, 10_000)
  await Bun.sleep(100)
  expect(receiver.received).toHaveLength(40)
  expect(new Set(receiver.received.map((request) => request.headers.get('webhook-id'))).size).toBe(40)
  const attempts = await query<{ n: number }>(first, 'select cast(count(*) as integer) as n from webhook_attempts')
  expect(Number(attempts[0]!.n)).toBe(40)
})
