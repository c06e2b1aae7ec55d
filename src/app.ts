/** Builds the HTTP application from its parts; `main.ts` listens, tests call `app.handle()`. */
import { swagger } from '@elysiajs/swagger'
import { Elysia } from 'elysia'
import type { Db } from './db/client'
import { authPlugin } from './http/auth'
import { errorHandler, type RouteInfo } from './http/error-handler'
import { silentLogger, type Logger } from './lib/log'
import { catalogModule } from './modules/catalog'
import type { Catalog } from './modules/catalog/service'
import { schemasModule } from './modules/schemas'
import { VERSION } from './version'

export interface AppOptions {
  db: Db
  catalog: Catalog
  /** Largest JSON body accepted, in bytes. */
  maxJsonBytes?: number
  log?: Logger
  /** Answers /readyz: true when the database can be queried. */
  isReady?: () => boolean
}

export const DEFAULT_MAX_JSON_BYTES = 1024 * 1024

export function createApp({ db, catalog, maxJsonBytes = DEFAULT_MAX_JSON_BYTES, log = silentLogger, isReady }: AppOptions) {
  const auth = authPlugin(db)
  let routes: RouteInfo[] = []
  const app = new Elysia({ normalize: false })
    .use(errorHandler({ routes: () => routes, log }))
    .use(
      swagger({
        path: '/swagger',
        specPath: '/openapi.json',
        documentation: {
          info: {
            title: 'extractd',
            version: VERSION,
            description: 'Structured extraction from documents: saved schemas, a catalog of document types, extraction jobs.',
          },
          tags: [
            { name: 'Schemas', description: "The account's saved sets of extraction fields." },
            { name: 'Catalog', description: 'Built-in document types and their suggested fields.' },
            { name: 'Operations', description: 'Liveness and readiness, without a key.' },
          ],
          components: {
            securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key from `extractd keys create`.' } },
          },
        },
        exclude: ['/swagger', '/swagger/json', '/openapi.json'],
      }),
    )
    .get('/healthz', () => ({ status: 'ok' as const }), {
      detail: { summary: 'Liveness', tags: ['Operations'] },
    })
    .get(
      '/readyz',
      ({ set }) => {
        const ready = isReady ? isReady() : true
        if (!ready) set.status = 503
        return { status: ready ? ('ok' as const) : ('unavailable' as const) }
      },
      { detail: { summary: 'Readiness: the database answers', tags: ['Operations'] } },
    )
    .group('/api/v1', (api) =>
      api.use(schemasModule({ db, auth, maxJsonBytes })).use(catalogModule({ catalog, auth })),
    )
  routes = app.routes.map((route) => ({ method: route.method, path: route.path }))
  return app
}

export type App = ReturnType<typeof createApp>
