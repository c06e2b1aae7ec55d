/** Webhook endpoints and their delivery queue (D80–D86): only the webhooks module reads or writes these. */
import { nowIso } from '../../lib/time'
import { accountTables } from './accounts'
import { defineTables } from './kit'

export const WEBHOOK_EVENTS = ['job.succeeded', 'job.failed', 'job.reviewed'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const MESSAGE_STATUSES = ['pending', 'delivered', 'failed'] as const
export type MessageStatus = (typeof MESSAGE_STATUSES)[number]

export const webhookTables = defineTables((k) => {
  const { accounts } = k.of(accountTables)

  const webhookEndpoints = k.table(
    'webhook_endpoints',
    {
      id: k.id('whk'),
      accountId: k
        .text('account_id')
        .notNull()
        .references(() => accounts.id),
      url: k.text('url').notNull(),
      events: k.json<WebhookEvent[]>('events').notNull(),
      /** `whsec_…`: kept as it is, because every delivery is signed with it. */
      secret: k.text('secret').notNull(),
      createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
    },
    (table) => [k.index('webhook_endpoints_account_idx').on(table.accountId, table.createdAt, table.id)],
  )

  /** One event for one endpoint: the queue. Deleting the endpoint deletes its messages and attempts. */
  const webhookMessages = k.table(
    'webhook_messages',
    {
      id: k.id('msg'),
      endpointId: k
        .text('endpoint_id')
        .notNull()
        .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
      event: k.text('event').$type<WebhookEvent>().notNull(),
      jobId: k.text('job_id').notNull(),
      /** The exact body sent on every attempt, so retries carry the same bytes. */
      payload: k.text('payload').notNull(),
      status: k.text('status').$type<MessageStatus>().notNull().default('pending'),
      attempts: k.integer('attempts').notNull().default(0),
      nextAttemptAt: k.text('next_attempt_at').notNull(),
      /** The process delivering it now and until when; another may take it over after that. */
      leaseOwner: k.text('lease_owner'),
      leaseExpiresAt: k.text('lease_expires_at'),
      createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
      updatedAt: k.text('updated_at').notNull().$defaultFn(nowIso),
    },
    (table) => [k.index('webhook_messages_due_idx').on(table.status, table.nextAttemptAt), k.index('webhook_messages_endpoint_idx').on(table.endpointId)],
  )

  const webhookAttempts = k.table(
    'webhook_attempts',
    {
      id: k.id('att'),
      messageId: k
        .text('message_id')
        .notNull()
        .references(() => webhookMessages.id, { onDelete: 'cascade' }),
      endpointId: k.text('endpoint_id').notNull(),
      /** 1 for the first attempt of a message. */
      attempt: k.integer('attempt').notNull(),
      statusCode: k.integer('status_code'),
      durationMs: k.integer('duration_ms').notNull(),
      error: k.text('error'),
      createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
    },
    // The second index serves the cascade when a message is deleted (purge, endpoint deleted).
    (table) => [
      k.index('webhook_attempts_endpoint_idx').on(table.endpointId, table.createdAt, table.id),
      k.index('webhook_attempts_message_idx').on(table.messageId),
    ],
  )

  return { webhookEndpoints, webhookMessages, webhookAttempts }
})
