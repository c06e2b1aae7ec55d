/**
 * The API description and its explorer (D28). @elysiajs/swagger generates the document from the
 * route schemas; `normalize` then states what the plugin cannot know (every body and answer is
 * JSON except uploads, responses need a description, shared schemas become components, operations
 * marked `x-idempotent` take the Idempotency-Key header). The
 * explorer is Swagger UI served from assets embedded in the binary: the plugin's own page loads
 * them from a CDN and stays blank on a server without internet.
 */
import { type AnyElysia, Elysia } from 'elysia'
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
import { IDEMPOTENCY_KEY_PARAMETER } from './idempotency'
import type { Tag, WebhookDocs } from './openapi-generator'

const STATUS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted: the job runs in the background',
  '400': 'Invalid request: validation_failed, invalid_json or missing_parameter',
  '401': 'Invalid API key',
  '404': 'Not found, or owned by another account',
  '409': 'Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code`',
  '413': 'Payload too large',
  '415': 'Unsupported media type',
  '429': 'Schema limit reached',
  '503': 'Not ready',
}

type Json = Record<string, any>

const UNAVAILABLE =
  'The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space'

/** Schemas that appear in many operations become named components (by their `title`). */
const COMPONENT_TITLES = new Set(['Error', 'Schema', 'Field', 'DocumentType', 'SuggestedFields', 'Job', 'Webhook', 'CreatedWebhook', 'WebhookDelivery'])

function hasBinary(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false
  const node = schema as Json
  if (node.format === 'binary') return true
  return Object.values(node).some(hasBinary)
}

/** Schema `examples` stay (JSON Schema 2020-12); a parameter's example moves to `example`. */
function fixParameter(parameter: Json): Json {
  const { examples, ...rest } = parameter
  return Array.isArray(examples) ? { ...rest, example: examples[0] } : parameter
}

/**
 * A multipart form whose parts carry JSON: a part's model says so with `contentMediaType:
 * 'application/json'` and the `contentSchema` its JSON follows (JSON Schema 2020-12), which the
 * route checks after parsing. The document describes such a part as that JSON, with an `encoding`,
 * so a generated client types it as the object, not as a string (D320).
 */
function multipartContent(schema: Json): Json {
  const properties: Json = {}
  const encoding: Json = {}
  for (const [name, part] of Object.entries<Json>(schema.properties ?? {})) {
    const { contentMediaType, contentSchema, description, examples } = part
    if (contentMediaType !== 'application/json' || !contentSchema) {
      properties[name] = part
      continue
    }
    properties[name] = { ...contentSchema, description, ...(Array.isArray(examples) ? { examples: examples.map((example) => JSON.parse(example)) } : {}) }
    encoding[name] = { contentType: 'application/json' }
  }
  return { schema: { ...schema, properties }, ...(Object.keys(encoding).length > 0 ? { encoding } : {}) }
}

function extractComponents(node: unknown, components: Json, titles: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => extractComponents(item, components, titles))
  if (!node || typeof node !== 'object') return node
  const entries = Object.entries(node as Json).map(([key, value]) => [key, extractComponents(value, components, titles)] as const)
  const object = Object.fromEntries(entries)
  // Elysia's t.File() leaves the word "File" as a default value of uploads.
  if (object.format === 'binary' && object.default === 'File') delete object.default
  if (typeof object.title === 'string' && titles.has(object.title) && object.type === 'object') {
    components[object.title] ??= object
    return { $ref: `#/components/schemas/${object.title}` }
  }
  return object
}

export function normalize(raw: Json): Json {
  const components: Json = {}
  // The body of each webhook event is a named component as well (D321).
  const webhooks = Object.values<Json>(raw.webhooks ?? {})
  const titles = new Set([...COMPONENT_TITLES, ...webhooks.map((item) => item.post?.requestBody?.content?.['application/json']?.schema?.title)])
  const paths: Json = {}
  for (const [path, operations] of Object.entries<Json>(raw.paths ?? {})) {
    paths[path] = {}
    for (const [method, operation] of Object.entries<Json>(operations)) {
      const { 'x-idempotent': idempotent, ...rest } = operation
      const op: Json = rest
      if (op.parameters) op.parameters = op.parameters.map(fixParameter)
      if (idempotent) op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER]
      if (op.requestBody) {
        const given = op.requestBody.content as Json
        const schema = given['application/json']?.schema ?? Object.values<Json>(given)[0]?.schema
        const content = hasBinary(schema) ? { 'multipart/form-data': multipartContent(schema) } : { 'application/json': { schema } }
        op.requestBody = { required: true, content }
      }
      const responses: Json = {}
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        let schema = response.content?.['application/json']?.schema ?? Object.values<Json>(response.content ?? {})[0]?.schema
        // The plugin moves a response schema's title onto the response; give it back to the schema.
        if (schema && typeof response.title === 'string') schema = { title: response.title, ...schema }
        // A file download is documented as bytes of any type, not JSON.
        const type = hasBinary(schema) ? 'application/octet-stream' : 'application/json'
        responses[status] = {
          description: response.description ?? STATUS_DESCRIPTIONS[status] ?? 'Response',
          ...(schema ? { content: { [type]: { schema } } } : {}),
        }
      }
      // Any operation that reads or writes the database may find it unavailable: the error envelope, as its 401.
      if (path.startsWith('/api/') && responses['401'])
        responses['503'] = { description: UNAVAILABLE, content: { 'application/json': { schema: responses['401'].content['application/json'].schema } } }
      op.responses = responses
      // An operation the auth plugin did not mark (liveness, readiness) needs no key; say so rather than leave it unstated.
      op.security ??= []
      paths[path][method] = extractComponents(op, components, titles)
    }
  }
  return {
    ...raw,
    openapi: '3.1.0',
    info: { ...raw.info, license: { name: 'MIT', identifier: 'MIT' } },
    // Relative: the API is served from wherever the document was fetched.
    servers: [{ url: '/', description: 'This server' }],
    paths,
    webhooks: extractComponents(raw.webhooks ?? {}, components, titles),
    components: { ...raw.components, schemas: { ...raw.components?.schemas, ...components } },
  }
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>extractd API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <style>body { margin: 0 } .swagger-ui .topbar { display: none }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-init.js"></script>
</body>
</html>`

/**
 * Started from a file, not inline, so the page's policy runs no inline script. The key given to
 * "Authorize" stays in the page's memory: nothing is written to localStorage (D128).
 */
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
  displayRequestDuration: true,
  validatorUrl: null,
})
`

/**
 * The explorer's page may run its own scripts only, call this origin only, and be framed by no
 * one. Swagger UI sets styles inline and draws its icons from data: URLs.
 */
export const DOCS_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

function asset(path: string, type: string) {
  return () =>
    new Response(Bun.file(path), { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400', 'content-security-policy': DOCS_POLICY } })
}

export interface OpenApiOptions {
  tags: Tag[]
  webhooks: WebhookDocs
  /**
   * Builds a copy of the whole app with the generator plugin in it: the plugin reads the routes
   * of the app it is part of. Called once, on the first request for the document.
   */
  documentApp: (generator: AnyElysia) => { handle: (request: Request) => Promise<Response> }
}

export function openApiPlugin({ tags, webhooks, documentApp }: OpenApiOptions) {
  let document: Promise<Json> | undefined
  // @elysiajs/swagger (and what it pulls in) loads with the first request for the document, not at start.
  const generate = async (origin: string): Promise<Json> => {
    const { generatorPlugin, RAW_SPEC_PATH } = await import('./openapi-generator')
    const raw = await documentApp(generatorPlugin(tags, webhooks)).handle(new Request(new URL(RAW_SPEC_PATH, origin).href))
    return normalize((await raw.json()) as Json)
  }
  return new Elysia({ name: 'openapi' })
    .get(
      '/openapi.json',
      ({ request }) => {
        document ??= generate(request.url).catch((error) => {
          document = undefined
          throw error
        })
        return document
      },
      { detail: { hide: true } },
    )
    .get('/docs', () => new Response(DOCS_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_POLICY } }), {
      detail: { hide: true },
    })
    .get(
      '/docs/swagger-init.js',
      () => new Response(DOCS_INIT, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'content-security-policy': DOCS_POLICY } }),
      { detail: { hide: true } },
    )
    .get('/docs/swagger-ui-bundle.js', asset(swaggerBundle, 'text/javascript; charset=utf-8'), { detail: { hide: true } })
    .get('/docs/swagger-ui.css', asset(swaggerCss, 'text/css; charset=utf-8'), { detail: { hide: true } })
}
