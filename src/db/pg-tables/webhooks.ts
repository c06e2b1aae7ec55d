/** Webhook endpoints and their delivery queue, on PostgreSQL: as tables/webhooks.ts. */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import type { MessageStatus, WebhookEvent } from '../tables/webhooks'
import { accounts } from './accounts'
import { jsonText } from './columns'

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('whk')),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    url: text('url').notNull(),
    events: jsonText<WebhookEvent[]>('events').notNull(),
    secret: text('secret').notNull(),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
  },
  (table) => [index('webhook_endpoints_account_idx').on(table.accountId, table.createdAt, table.id)],
)

export const webhookMessages = pgTable(
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
    payload: text('payload').notNull(),
    status: text('status').$type<MessageStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: text('lease_expires_at'),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
    updatedAt: text('updated_at').notNull().$defaultFn(nowIso),
  },
  (table) => [index('webhook_messages_due_idx').on(table.status, table.nextAttemptAt), index('webhook_messages_endpoint_idx').on(table.endpointId)],
)

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('att')),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
  },
  (table) => [
    index('webhook_attempts_endpoint_idx').on(table.endpointId, table.createdAt, table.id),
    index('webhook_attempts_message_idx').on(table.messageId),
  ],
)
