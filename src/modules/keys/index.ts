/** Routes of /api/v1/keys: the signed-in account's own API keys, made and revoked (D337). */
import { Elysia } from 'elysia'
import type { Database } from '../../db/database'
import type { AuthPlugin } from '../../http/auth'
import { errorResponses } from '../../http/models'
import { CreatedKeyEnvelope, KeyEnvelope, KeyList, KeyParams } from './model'
import * as service from './service'

export interface KeysDeps {
  database: Database
  auth: AuthPlugin
}

export function keysModule({ database, auth }: KeysDeps) {
  return new Elysia({ prefix: '/keys', tags: ['Keys'] })
    .use(auth)
    .get('', async ({ principal }) => ({ keys: await service.listAccountKeys(database, principal) }), {
      auth: true,
      response: { 200: KeyList, ...errorResponses(401) },
      detail: {
        operationId: 'listKeys',
        summary: "List the account's API keys",
        description: 'Oldest first, revoked ones included, each by its prefix: never the key itself. `current` marks the key of the request.',
      },
    })
    .post(
      '',
      async ({ principal, set }) => {
        set.status = 201
        return { key: await service.createAccountKey(database, principal) }
      },
      {
        auth: true,
        response: { 201: CreatedKeyEnvelope, ...errorResponses(401) },
        detail: {
          operationId: 'createKey',
          summary: 'Create an API key for the account',
          description:
            'The new key is in this answer only (`key`); only its hash is stored. It works at once, with the same rights as the key that made it. ' +
            'No body is read. `Idempotency-Key` is not honoured here: a stored answer would keep the key.',
        },
      },
    )
    .delete('/:id', async ({ principal, params }) => ({ key: await service.revokeAccountKey(database, principal, params.id) }), {
      auth: true,
      params: KeyParams,
      response: { 200: KeyEnvelope, ...errorResponses(401, 404) },
      detail: {
        operationId: 'revokeKey',
        summary: 'Revoke one of the account’s API keys',
        description:
          'It is refused from the next request on, on every instance (D64). Revoking a revoked key changes nothing (200). ' +
          'The key of the request itself may be revoked (`current: true` in the answer): that request is its last. Another account’s key is 404.',
      },
    })
}
