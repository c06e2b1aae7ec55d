/**
 * The yardstick of `bun run bench:api`: bare Bun.serve and bun:sqlite, nothing else, serving the
 * benchmarked endpoints on extractd's own database and with its answers, as lean as it can be
 * (prepared statements, answers spliced as strings, hand-written validation). It looks the key
 * up in the database on every request, with no cache. Not part of extractd.
 *
 * Env: HOST, PORT, EXTRACTD_DB (a database extractd has migrated). Arguments are ignored.
 */
import { Database } from 'bun:sqlite'
import invoice from '../data/document-types/invoice.json'

const db = new Database(process.env.EXTRACTD_DB ?? 'extractd.sqlite', { strict: true })
db.run('PRAGMA busy_timeout = 5000')
db.run('PRAGMA journal_mode = WAL')
db.run('PRAGMA synchronous = NORMAL')

const authStatement = db.prepare<{ account_id: string }, [string]>('SELECT account_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL')
const columns = 'id, name, description, fields, is_active, created_at, updated_at'
const listStatement = db.prepare<Row, [string]>(`SELECT ${columns} FROM schemas WHERE account_id = ? AND is_active = 1 ORDER BY created_at DESC, id DESC`)
const getStatement = db.prepare<Row, [string, string]>(`SELECT ${columns} FROM schemas WHERE account_id = ? AND id = ?`)
const countStatement = db.prepare<{ n: number }, [string]>('SELECT count(*) AS n FROM schemas WHERE account_id = ? AND is_active = 1')
const insertStatement = db.prepare(
  'INSERT INTO schemas (id, account_id, name, description, fields, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)',
)
const create = db.transaction((row: Row, accountId: string) => {
  if (countStatement.get(accountId)!.n >= 50) return false
  insertStatement.run(row.id, accountId, row.name, row.description, row.fields, row.created_at, row.updated_at)
  return true
}).immediate

type Row = { id: string; name: string; description: string; fields: string; is_active: number; created_at: string; updated_at: string }

const HEADERS = { 'content-type': 'application/json;charset=utf-8' }
const json = (body: string, status = 200) => new Response(body, { status, headers: HEADERS })
const error = (status: number, code: string, message: string, extra = '') => json(`{"error":${JSON.stringify(message)},"code":"${code}"${extra}}`, status)
const unauthorized = () => error(401, 'invalid_api_key', 'Invalid API key')

function authenticate(request: Request): string | undefined {
  const header = request.headers.get('authorization')
  if (header === null || !header.startsWith('Bearer ')) return undefined
  return authStatement.get(Bun.CryptoHasher.hash('sha256', header.slice(7), 'hex'))?.account_id
}

const schemaJson = (row: Row) =>
  `{"id":"${row.id}","name":${JSON.stringify(row.name)},"description":${JSON.stringify(row.description)},` +
  `"fields":${row.fields},"is_active":${row.is_active === 1},"created_at":"${row.created_at}","updated_at":"${row.updated_at}"}`

const fieldsAnswer = JSON.stringify({
  type: invoice.slug,
  label: invoice.label,
  description: invoice.description,
  fields: invoice.fields.map(({ key, label, description, required }) => ({ key, label, description, required })),
  suggested_keys: invoice.fields.filter((field) => field.required).map((field) => field.key),
})
const catalog = new Map([[invoice.slug, fieldsAnswer]])
const availableTypes = `,"available_types":${JSON.stringify([...catalog.keys()])}`

// Validation of a schema body: strict properties, lengths in code points, unique keys.
type Detail = { path: string; message: string }
const KEY = /^[A-Za-z0-9_]{1,64}$/
const NOT_BLANK = /\S/
const TOP = new Set(['name', 'description', 'fields'])
const FIELD = new Set(['key', 'label', 'description', 'required'])
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function tooLong(text: string, max: number): boolean {
  if (text.length <= max) return false
  let n = 0
  for (const _ of text) if (++n > max) return true
  return false
}

function validate(body: unknown, details: Detail[]) {
  if (!isObject(body)) return void details.push({ path: '', message: 'Expected object' })
  for (const key in body) if (!TOP.has(key)) details.push({ path: `/${key}`, message: 'Unexpected property' })
  const { name, description = '', fields = [] } = body
  if (typeof name !== 'string' || !NOT_BLANK.test(name) || tooLong(name, 100))
    details.push({ path: '/name', message: 'Expected a string of 1 to 100 characters' })
  if (typeof description !== 'string' || tooLong(description, 1000))
    details.push({ path: '/description', message: 'Expected a string of at most 1000 characters' })
  if (!Array.isArray(fields) || fields.length > 50) return void details.push({ path: '/fields', message: 'Expected at most 50 fields' })
  const seen = new Map<string, number>()
  const stored = fields.map((field: unknown, i) => {
    const path = `/fields/${i}`
    if (!isObject(field)) return void details.push({ path, message: 'Expected object' })
    for (const key in field) if (!FIELD.has(key)) details.push({ path: `${path}/${key}`, message: 'Unexpected property' })
    const { key, label, description = '', required } = field
    if (typeof key !== 'string' || !KEY.test(key)) details.push({ path: `${path}/key`, message: 'Invalid key' })
    else if (seen.has(key)) details.push({ path: `${path}/key`, message: `Duplicate of /fields/${seen.get(key)}/key` })
    else seen.set(key, i)
    if (typeof label !== 'string' || !NOT_BLANK.test(label) || tooLong(label, 100))
      details.push({ path: `${path}/label`, message: 'Expected a string of 1 to 100 characters' })
    if (typeof description !== 'string' || tooLong(description, 300))
      details.push({ path: `${path}/description`, message: 'Expected a string of at most 300 characters' })
    if (typeof required !== 'boolean') details.push({ path: `${path}/required`, message: 'Expected boolean' })
    return { key, label, description, required }
  })
  return { name: name as string, description: description as string, fields: stored }
}

const server = Bun.serve({
  hostname: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 8080),
  development: false,
  routes: {
    '/healthz': new Response('{"status":"ok"}', { headers: HEADERS }),
    '/api/v1/fields': {
      GET(request) {
        if (!authenticate(request)) return unauthorized()
        const type = new URL(request.url).searchParams.get('type')
        if (!type) return error(400, 'missing_parameter', 'Missing required query param: type')
        const answer = catalog.get(type)
        if (answer === undefined) return error(404, 'unknown_document_type', `Unknown document type: "${type}"`, availableTypes)
        return json(answer)
      },
    },
    '/api/v1/schemas': {
      GET(request) {
        const accountId = authenticate(request)
        if (!accountId) return unauthorized()
        return json(`{"schemas":[${listStatement.all(accountId).map(schemaJson).join(',')}]}`)
      },
      async POST(request) {
        const accountId = authenticate(request)
        if (!accountId) return unauthorized()
        if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
          return error(415, 'unsupported_media_type', 'Unsupported Content-Type: expected application/json')
        let body: unknown
        try {
          body = await request.json()
        } catch {
          return error(400, 'invalid_json', 'Malformed JSON body')
        }
        const details: Detail[] = []
        const input = validate(body, details)
        if (details.length > 0 || !input) return error(400, 'validation_failed', 'Invalid request', `,"details":${JSON.stringify(details)}`)
        const now = new Date().toISOString()
        const row: Row = {
          id: `sch_${Bun.randomUUIDv7().replaceAll('-', '')}`,
          name: input.name,
          description: input.description,
          fields: JSON.stringify(input.fields),
          is_active: 1,
          created_at: now,
          updated_at: now,
        }
        if (!create(row, accountId)) return error(429, 'schema_limit_reached', 'Schema limit reached')
        return json(`{"schema":${schemaJson(row)}}`, 201)
      },
    },
    '/api/v1/schemas/:id': {
      GET(request) {
        const accountId = authenticate(request)
        if (!accountId) return unauthorized()
        const row = getStatement.get(accountId, request.params.id)
        return row ? json(`{"schema":${schemaJson(row)}}`) : error(404, 'not_found', 'Schema not found')
      },
    },
  },
  fetch: (request) => error(404, 'not_found', `Route ${request.method} ${new URL(request.url).pathname} not found`),
})

process.on('SIGTERM', () => {
  server.stop()
  db.close()
  process.exit(0)
})
