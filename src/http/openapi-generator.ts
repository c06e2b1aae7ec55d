/**
 * The @elysiajs/swagger plugin as extractd configures it: it generates the OpenAPI document from
 * the route schemas of the app it is part of. Loaded only when the document is first requested.
 */
import { swagger } from '@elysiajs/swagger'
import type { TObject, TSchema } from '@sinclair/typebox'
import { VERSION } from '../version'

export type Tag = { name: string; description: string }

/** What the server sends to webhook endpoints, as the webhooks module declares it (D321). */
export interface WebhookDocs {
  tag: string
  /** Each event's one-line summary and the body it sends. */
  events: Record<string, { summary: string; body: TSchema }>
  /** The headers of every attempt. */
  headers: TObject
  /** How the receiver's answer is read, by status class. */
  answers: Record<string, string>
}

/** One `webhooks` entry per event (OpenAPI 3.1): a POST with the signing headers and the event's body. */
function webhookOperations({ tag, events, headers, answers }: WebhookDocs) {
  const parameters = Object.entries<TSchema>(headers.properties).map(([name, { description, examples, ...schema }]) => ({
    name,
    in: 'header',
    required: headers.required?.includes(name) ?? false,
    ...(description ? { description } : {}),
    ...(Array.isArray(examples) ? { example: examples[0] } : {}),
    schema,
  }))
  const operation = (event: string, summary: string, body: TSchema) => ({
    post: {
      operationId: event.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase()),
      summary,
      description: `Sent to each endpoint that listens for \`${event}\`. Verify \`webhook-signature\` with the endpoint's secret before trusting the body (Standard Webhooks); \`webhook-id\` is the same on every attempt of one event.`,
      tags: [tag],
      // The receiver authenticates the sender by the signature, not by a key of extractd's.
      security: [],
      parameters,
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: Object.fromEntries(Object.entries(answers).map(([status, description]) => [status, { description }])),
    },
  })
  return Object.fromEntries(Object.entries(events).map(([event, { summary, body }]) => [event, operation(event, summary, body)]))
}

/** Where the plugin serves its raw document, inside the copy of the app built to generate it. */
export const RAW_SPEC_PATH = '/openapi/generated.json'

export function generatorPlugin(tags: Tag[], webhooks: WebhookDocs) {
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
      // @elysiajs/swagger types its documentation as OpenAPI 3.0, which has no webhooks; it passes them on as they are.
      ...({ webhooks: webhookOperations(webhooks) } as object),
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key from `extractd keys create`.' },
        },
      },
    },
  })
}
