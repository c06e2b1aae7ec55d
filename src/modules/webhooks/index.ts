/** Routes of /api/v1/webhooks: the account's endpoints and their delivery attempts (D80–D86). */
import { Elysia } from 'elysia'
import type { Database } from '../../db/database'
import type { AuthPlugin } from '../../http/auth'
import { jsonBody } from '../../http/body'
import { pageLimit } from '../../http/paging'
import { Deleted, errorResponses } from '../../http/models'
import {
  CreatedWebhookEnvelope,
  CreateWebhookBody,
  DEFAULT_DELIVERY_PAGE,
  DeliveriesQuery,
  DeliveryList,
  MAX_DELIVERY_PAGE,
  MAX_WEBHOOKS_PER_ACCOUNT,
  WebhookEnvelope,
  WebhookList,
  WebhookParams,
} from './model'
import * as service from './service'

export interface WebhooksDeps {
  database: Database
  auth: AuthPlugin
  maxJsonBytes: number
  /** Whether endpoints may point at private and loopback addresses (D83). */
  allowPrivate: boolean
}

export function webhooksModule({ database, auth, maxJsonBytes, allowPrivate }: WebhooksDeps) {
  return new Elysia({ prefix: '/webhooks', tags: ['Webhooks'] })
    .use(auth)
    .post(
      '',
      async ({ principal, body, set }) => {
        const webhook = await service.createWebhook(database, principal.accountId, body, allowPrivate)
        set.status = 201
        return { webhook }
      },
      {
        auth: true,
        parse: jsonBody(maxJsonBytes),
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookEnvelope, ...errorResponses(400, 401, 409, 413, 415) },
        detail: {
          operationId: 'createWebhook',
          summary: 'Register a webhook endpoint',
          description:
            'Events are POSTed to `url`, signed with the `secret` of this answer (Standard Webhooks). The secret is shown only ' +
            `here. At most ${MAX_WEBHOOKS_PER_ACCOUNT} endpoints per account (409 \`webhook_limit_reached\`).`,
        },
      },
    )
    .get('', async ({ principal }) => ({ webhooks: await service.listWebhooks(database, principal.accountId) }), {
      auth: true,
      response: { 200: WebhookList, ...errorResponses(401) },
      detail: { operationId: 'listWebhooks', summary: 'List webhook endpoints', description: 'Newest first, without their secrets.' },
    })
    .get('/:id', async ({ principal, params }) => ({ webhook: await service.getWebhook(database, principal.accountId, params.id) }), {
      auth: true,
      params: WebhookParams,
      response: { 200: WebhookEnvelope, ...errorResponses(401, 404) },
      detail: { operationId: 'getWebhook', summary: 'Read a webhook endpoint', description: 'Without its secret.' },
    })
    .delete(
      '/:id',
      async ({ principal, params }) => {
        await service.deleteWebhook(database, principal.accountId, params.id)
        return { ok: true as const }
      },
      {
        auth: true,
        params: WebhookParams,
        response: { 200: Deleted, ...errorResponses(401, 404) },
        detail: {
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook endpoint',
          description: 'Its pending deliveries stop and its delivery history goes with it.',
        },
      },
    )
    .get(
      '/:id/deliveries',
      async ({ principal, params, query }) => {
        const limit = pageLimit(query.limit, DEFAULT_DELIVERY_PAGE, MAX_DELIVERY_PAGE)
        return service.listDeliveries(database, principal.accountId, params.id, { limit, startingAfter: query.starting_after })
      },
      {
        auth: true,
        params: WebhookParams,
        query: DeliveriesQuery,
        response: { 200: DeliveryList, ...errorResponses(400, 401, 404) },
        detail: {
          operationId: 'listWebhookDeliveries',
          summary: "List a webhook endpoint's delivery attempts",
          description:
            'Every attempt, newest first: status code (null without an answer), duration and error (null when accepted). ' +
            'Page with `limit` and `starting_after`.',
        },
      },
    )
}
