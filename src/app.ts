/** Builds the HTTP application from its parts; `main.ts` listens, tests call `app.handle()`. */
import { type AnyElysia, Elysia, t } from 'elysia'
import { type Database, databaseReadiness } from './db/database'
import { createAuth } from './http/auth'
import { errorHandler, type RouteInfo } from './http/error-handler'
import { createIdempotency } from './http/idempotency'
import { openApiPlugin } from './http/openapi'
import { requestLog } from './http/request-log'
import { securityHeaders } from './http/security-headers'
import { silentLogger, type Logger } from './lib/log'
import { catalogModule } from './modules/catalog'
import { consoleModule } from './modules/console'
import type { Catalog } from './modules/catalog/service'
import { extractionModule } from './modules/extraction'
import { Job } from './modules/extraction/model'
import { keysModule } from './modules/keys'
import { authenticateKey } from './modules/keys/service'
import type { JobRunner } from './modules/extraction/worker'
import { reviewsModule } from './modules/reviews'
import { schemasModule } from './modules/schemas'
import { webhooksModule } from './modules/webhooks'
import { DeliveryHeaders, RECEIVER_ANSWERS, webhookEventBodies } from './modules/webhooks/model'

export interface AppOptions {
  database: Database
  catalog: Catalog
  /** Largest JSON body accepted, in bytes. */
  maxJsonBytes?: number
  log?: Logger
  extraction: {
    runner: JobRunner
    /** Named on every new job. */
    engineName: string
    maxUploadBytes: number
  }
  webhooks?: {
    /** Whether endpoints may point at private and loopback addresses (D83); refused by default. */
    allowPrivate: boolean
  }
  /** A plugin to include, for the copy of the app that generates the OpenAPI document. */
  openApiGenerator?: AnyElysia
}

export const DEFAULT_MAX_JSON_BYTES = 1024 * 1024

type DocumentApp = { handle: (request: Request) => Promise<Response> }

const TAGS = [
  { name: 'Schemas', description: "The account's saved sets of extraction fields." },
  { name: 'Catalog', description: 'Built-in document types and their suggested fields.' },
  { name: 'Extraction', description: 'Documents in, fields out: jobs that keep their own copy of the fields.' },
  { name: 'Reviews', description: "A person's corrections of a job's values, the layouts of senders they teach, and the account's accuracy they measure." },
  { name: 'Webhooks', description: 'Endpoints that are told when jobs end, signed per Standard Webhooks, and their delivery attempts.' },
  { name: 'Keys', description: "The account's own API keys: listed by prefix, created (the key shown once) and revoked." },
  { name: 'Operations', description: 'Liveness and readiness, without a key.' },
]

export function createApp(options: AppOptions) {
  const { database, catalog, maxJsonBytes = DEFAULT_MAX_JSON_BYTES, log = silentLogger, extraction, webhooks } = options
  const { plugin: auth, accountOf } = createAuth((key) => authenticateKey(database, key))
  const idempotency = createIdempotency(database)
  let routes: RouteInfo[] = []
  const app = new Elysia({ normalize: false })
    .use(options.openApiGenerator ?? new Elysia({ name: 'no-openapi-generator' }))
    .use(requestLog({ log, accountOf }))
    .use(securityHeaders())
    .use(errorHandler({ routes: () => routes, log, database }))
    .use(
      openApiPlugin({
        tags: TAGS,
        webhooks: { tag: 'Webhooks', events: webhookEventBodies(Job), headers: DeliveryHeaders, answers: RECEIVER_ANSWERS },
        documentApp: (generator): DocumentApp => createApp({ ...options, log: silentLogger, openApiGenerator: generator }),
      }),
    )
    .use(consoleModule({ keepFileMs: extraction.runner.keepFileMs }))
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: { operationId: 'health', summary: 'Liveness: the process is up', tags: ['Operations'] },
    })
    .get(
      '/readyz',
      async ({ set }) => {
        const readiness = await databaseReadiness(database)
        if (readiness === 'ready') return { status: 'ok' as const }
        set.status = 503
        // D196: a database that answers but cannot store anything is not ready either, and says so.
        return readiness === 'storage_full' ? { status: 'unavailable' as const, reason: 'storage_full' as const } : { status: 'unavailable' as const }
      },
      {
        response: {
          200: t.Object({ status: t.Literal('ok') }),
          503: t.Object({
            status: t.Literal('unavailable'),
            reason: t.Optional(t.Literal('storage_full', { description: "The database's storage is full: nothing new can be stored." })),
          }),
        },
        detail: {
          operationId: 'ready',
          summary: 'Readiness: the database answers and can store',
          tags: ['Operations'],
        },
      },
    )
    .group('/api/v1', (api) =>
      api
        .use(schemasModule({ database, catalog, auth, idempotency, maxJsonBytes }))
        .use(catalogModule({ catalog, auth }))
        .use(extractionModule({ database, catalog, auth, idempotency, ...extraction }))
        .use(reviewsModule({ database, catalog, auth, idempotency, maxJsonBytes }))
        .use(webhooksModule({ database, auth, maxJsonBytes, allowPrivate: webhooks?.allowPrivate ?? false }))
        .use(keysModule({ database, auth })),
    )
  routes = app.routes.map((route) => ({ method: route.method, path: route.path }))
  return app
}

export type App = ReturnType<typeof createApp>
