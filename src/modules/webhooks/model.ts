/** Webhook endpoints and their delivery attempts on the wire (D80–D86). */
import { type TSchema, t } from 'elysia'
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../db/tables/webhooks'

export const MAX_WEBHOOKS_PER_ACCOUNT = 20
const MAX_URL_LENGTH = 2048
export const DEFAULT_DELIVERY_PAGE = 20
export const MAX_DELIVERY_PAGE = 100

const Event = t.UnionEnum(WEBHOOK_EVENTS, { default: undefined })
const Events = t.Array(Event, {
  minItems: 1,
  uniqueItems: true,
  description: `The events to receive, each once: ${WEBHOOK_EVENTS.join(', ')}.`,
  examples: [['job.succeeded', 'job.failed']],
})
const Url = t.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description: 'An http(s) URL without credentials. Private and loopback addresses only when the operator allows them.',
  examples: ['https://example.com/hooks/extractd'],
})
const Timestamp = t.String({ format: 'date-time', examples: ['2026-11-21T19:08:00.000Z'] })

export const WebhookParams = t.Object({ id: t.String({ examples: ['whk_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }) })

export const CreateWebhookBody = t.Object({ url: Url, events: Events }, { additionalProperties: false })

const webhookProperties = {
  id: t.String({ examples: ['whk_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
  url: t.String({ examples: ['https://example.com/hooks/extractd'] }),
  events: t.Array(Event),
  created_at: Timestamp,
}

export const Webhook = t.Object(webhookProperties, { title: 'Webhook' })

/** The answer to a create: the only time the secret is shown. */
export const CreatedWebhook = t.Object(
  {
    ...webhookProperties,
    secret: t.String({
      description: 'Signing secret (Standard Webhooks form). Shown only in this answer; store it now.',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  },
  { title: 'CreatedWebhook' },
)

export const CreatedWebhookEnvelope = t.Object({ webhook: CreatedWebhook })
export const WebhookEnvelope = t.Object({ webhook: Webhook })
export const WebhookList = t.Object({ webhooks: t.Array(Webhook) })

export const Delivery = t.Object(
  {
    id: t.String({ description: 'ID of this attempt.', examples: ['att_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
    message_id: t.String({
      description: 'The event for this endpoint; sent as `webhook-id` and the same on every attempt.',
      examples: ['msg_01m7zvb9bb611cmatkr3ef5dhzw8cw'],
    }),
    event: Event,
    job_id: t.String({ examples: ['job_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
    attempt: t.Integer({ minimum: 1, description: '1 for the first attempt of the message.' }),
    status_code: t.Union([t.Integer(), t.Null()], { description: "The receiver's HTTP status; null when it did not answer." }),
    duration_ms: t.Integer({ minimum: 0 }),
    error: t.Union([t.String(), t.Null()], {
      description: 'Why the attempt failed (`timeout`, `connection refused`, `HTTP 500`, `redirect not followed`, …); null when accepted.',
      examples: ['HTTP 500'],
    }),
    created_at: Timestamp,
  },
  { title: 'WebhookDelivery' },
)

export const DeliveryList = t.Object({ deliveries: t.Array(Delivery), has_more: t.Boolean() })

export const DeliveriesQuery = t.Object(
  {
    limit: t.Optional(t.String({ pattern: '^[0-9]+$', description: `1–${MAX_DELIVERY_PAGE}, default ${DEFAULT_DELIVERY_PAGE}.`, examples: ['20'] })),
    starting_after: t.Optional(t.String({ description: 'An attempt ID from the previous page: list the attempts after it.' })),
  },
  { additionalProperties: true },
)

/** The headers of every attempt (D82, Standard Webhooks). */
export const DeliveryHeaders = t.Object({
  'webhook-id': t.String({
    description: "The message's ID, the same on every attempt of one event: the receiver's idempotency key.",
    examples: ['msg_01m7zvb9bb611cmatkr3ef5dhzw8cw'],
  }),
  'webhook-timestamp': t.String({
    pattern: '^[0-9]+$',
    description: 'When this attempt was sent, in Unix seconds. Refuse messages older than a few minutes.',
    examples: ['1795374480'],
  }),
  'webhook-signature': t.String({
    pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$',
    description:
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`. ' +
      'Space-separated when there are several; accept the message when one matches.',
    examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='],
  }),
  'user-agent': t.String({ pattern: '^extractd/', examples: ['extractd/0.1.0'] }),
})

/** The body of a job's event (D81): the job exactly as GET /api/v1/jobs/:id answers it when it ends. */
const jobEvent = <E extends WebhookEvent>(job: TSchema, event: E, title: string) =>
  t.Object(
    {
      type: t.Literal(event),
      timestamp: t.String({
        format: 'date-time',
        description: 'When the job ended (its `completed_at`); for `job.reviewed`, when it was reviewed (its `reviewed_at`).',
        examples: ['2026-11-21T19:08:00.000Z'],
      }),
      data: t.Object({ job }),
    },
    { title },
  )

/**
 * Every event with the body it sends, and how the sender reads the receiver's answer: the OpenAPI
 * document's `webhooks` are made from these (D321), so an event added to WEBHOOK_EVENTS does not
 * compile until it has its body here. `job` is the job's model, as the extraction module declares it.
 */
export const webhookEventBodies = (job: TSchema) =>
  ({
    'job.succeeded': { summary: 'A job succeeded', body: jobEvent(job, 'job.succeeded', 'JobSucceededEvent') },
    'job.failed': { summary: 'A job failed', body: jobEvent(job, 'job.failed', 'JobFailedEvent') },
    'job.reviewed': { summary: "A person reviewed a job's values (D272)", body: jobEvent(job, 'job.reviewed', 'JobReviewedEvent') },
  }) satisfies Record<WebhookEvent, { summary: string; body: TSchema }>

export const RECEIVER_ANSWERS = {
  '2XX': 'Delivered: any 2xx within 10 s (its body is not read). Nothing more is sent for this event.',
  '4XX': 'A failed attempt: sent again later, the delay doubling from the first retry delay up to an hour, for 24 hours after the event (D84).',
  '5XX': 'A failed attempt, retried as a 4xx is. So are a timeout, a refused connection and a redirect (never followed).',
}

export type CreateWebhookBody = typeof CreateWebhookBody.static
export type Webhook = typeof Webhook.static
export type CreatedWebhook = typeof CreatedWebhook.static
export type Delivery = typeof Delivery.static
