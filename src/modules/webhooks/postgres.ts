/** Webhooks on PostgreSQL. */
import { eq, sql } from 'drizzle-orm'
import type { PgTx } from '../../db/postgres'
import { webhookEndpoints, webhookMessages } from '../../db/pg-tables'
import type { WebhookEvent } from '../../db/tables'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import type { EndedJob } from './service'

export const QUEUED_CHANNEL = 'extractd_webhooks'

/** As `enqueueJobEvent` (D81), in a PostgreSQL transaction; delivery workers of every instance are told when it commits. */
export async function enqueueJobEventPostgres(tx: PgTx, accountId: string, job: EndedJob): Promise<void> {
  if (job.status !== 'succeeded' && job.status !== 'failed') return
  const event: WebhookEvent = job.status === 'succeeded' ? 'job.succeeded' : 'job.failed'
  const endpoints = (await tx.select({ id: webhookEndpoints.id, events: webhookEndpoints.events }).from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId))).filter(
    (endpoint) => endpoint.events.includes(event),
  )
  if (endpoints.length === 0) return
  const now = nowIso()
  const payload = JSON.stringify({ type: event, timestamp: job.completedAt ?? now, data: { job: job.wire() } })
  await tx
    .insert(webhookMessages)
    .values(endpoints.map((endpoint) => ({ id: newId('msg'), endpointId: endpoint.id, event, jobId: job.id, payload, nextAttemptAt: now, createdAt: now, updatedAt: now })))
  await tx.execute(sql`select pg_notify(${QUEUED_CHANNEL}, '')`)
}
