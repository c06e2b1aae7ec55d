/**
 * The @elysiajs/swagger plugin as extractd configures it: it generates the OpenAPI document from
 * the route schemas of the app it is part of. Loaded only when the document is first requested.
 */
import { swagger } from '@elysiajs/swagger'
import { VERSION } from '../version'

export type Tag = { name: string; description: string }

/** Where the plugin serves its raw document, inside the copy of the app built to generate it. */
export const RAW_SPEC_PATH = '/openapi/generated.json'

export function generatorPlugin(tags: Tag[]) {
  return swagger({
    // The plugin's own page loads Swagger UI from a CDN; it is parked here, and /docs is ours.
    path: '/openapi/plugin-page',
    specPath: RAW_SPEC_PATH,
    exclude: [/^\/openapi/, '/docs', /^\/docs\//, '/openapi.json'],
    excludeMethods: ['HEAD', 'OPTIONS', 'ALL'],
    documentation: {
      info: {
        title: 'extractd',
        version: VERSION,
        description:
          'Structured extraction from documents: saved schemas, a catalog of document types, extraction jobs. ' +
          'Every `/api/v1` operation needs `Authorization: Bearer <api key>`; errors are `{"error", "code", "details"?}`.',
      },
      tags,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key from `extractd keys create`.' },
        },
      },
    },
  })
}
