/** Webhook endpoints and their delivery queue (D80–D86): only the webhooks module reads or writes these. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { accounts } from './accounts'

export const WEBHOOK_EVENTS = ['job.succeeded', 'job.failed'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const MESSAGE_STATUSES = ['pending', 'delivered', 'failed'] as const
export type MessageStatus = (typeof MESSAGE_STATUSES)[number]

export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('whk')),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    url: text('url').notNull(),
    events: text('events', { mode: 'json' }).$type<WebhookEvent[]>().notNull(),
    /** `whsec_…`: kept as it is, because every delivery is signed with it. */
    secret: text('secret').notNull(),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
  },
  (table) => [index('webhook_endpoints_account_idx').on(table.accountId, table.createdAt, table.id)],
)

/** One event for one endpoint: the queue. Deleting the endpoint deletes its messages and attempts. */
export const webhookMessages = sqliteTable(
  'webhook_messages',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('msg')),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').$type<WebhookEvent>().notNull(),
    jobId: text('job_id').notNull(),
    /** The exact body sent on every attempt, so retries carry the same bytes. */
    payload: text('payload').notNull(),
    status: text('status').$type<MessageStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    /** The process delivering it now and until when; another may take it over after that. */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: text('lease_expires_at'),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
    updatedAt: text('updated_at').notNull().$defaultFn(nowIso),
  },
  (table) => [index('webhook_messages_due_idx').on(table.status, table.nextAttemptAt), index('webhook_messages_endpoint_idx').on(table.endpointId)],
)

export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('att')),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id').notNull(),
    /** 1 for the first attempt of a message. */
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
  },
  // The second index serves the cascade when a message is deleted (purge, endpoint deleted).
  (table) => [
    index('webhook_attempts_endpoint_idx').on(table.endpointId, table.createdAt, table.id),
    index('webhook_attempts_message_idx').on(table.messageId),
  ],
)
