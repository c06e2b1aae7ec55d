/** The language-model engine (D23) against a small local server that speaks the chat-completions protocol. */
import type { JobField } from '../../../src/lib/fields/model'
import { afterEach, describe, expect, test } from 'bun:test'
import { createOpenAiEngine, MAX_TEXT_CHARS } from '../../../src/modules/extraction/engines/openai'
import type { Engine, ExtractionInput } from '../../../src/modules/extraction/engines/types'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import { normaliseAnswers } from '../../../src/modules/extraction/normalise'
import { split } from '../../helpers/answers'

/** An engine's answers typed by the shared layer, as a job stores them. */
async function answered(engine: Engine, given: ExtractionInput) {
  return split(normaliseAnswers(given.fields, await engine.extract(given)))
}

const API_KEY = 'sk-test-abcdefghijklmnopqrstuvwxyz012345'

const FIELDS: JobField[] = [
  { key: 'invoice_number', label: 'Invoice number', description: 'Identifier of the invoice as printed.', type: 'text' },
  { key: 'issue_date', label: 'Issue date', description: 'Date the invoice was issued.', type: 'date' },
  { key: 'total', label: 'Total', description: 'Amount due including tax.', type: 'amount', aliases: ['Amount due'] },
  { key: 'items', label: 'Items', description: 'Names of the goods sold.', type: 'list' },
]
const KEYS = FIELDS.map((field) => field.key)

const PAGES = ['ACME GmbH\nInvoice number: INV-2024-001\nDate: March 5, 2024', 'Items:\nWidget\nGadget\nTotal: 1,234.50 EUR']

function input(overrides: Partial<ExtractionInput> = {}): ExtractionInput {
  return { document: { pages: PAGES }, documentType: 'invoice', issuedBySeller: true, fields: FIELDS, ...overrides }
}

interface Received {
  method: string
  path: string
  headers: Headers
  body: any
}

interface Stub {
  baseUrl: string
  received: Received[]
}

type Reply = (request: Received) => Response | Promise<Response>

const servers: ReturnType<typeof Bun.serve>[] = []

afterEach(() => {
  for (const server of servers.splice(0)) server.stop(true)
})

/** Starts a server on a free port that records each request and answers with `reply`. */
function startServer(reply: Reply): Stub {
  const received: Received[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const text = await request.text()
      const seen: Received = {
        method: request.method,
        path: new URL(request.url).pathname,
        headers: request.headers,
        body: text ? JSON.parse(text) : null,
      }
      received.push(seen)
      return reply(seen)
    },
  })
  servers.push(server)
  return { baseUrl: `http://127.0.0.1:${server.port}/v1`, received }
}

/** A chat-completions answer whose message has `content` (and whatever `message`/`choice` add). */
function completion(content: unknown, extra: { message?: object; choice?: object } = {}): Response {
  return Response.json({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content, ...extra.message }, finish_reason: 'stop', ...extra.choice }],
  })
}

function answer(values: object, pages: object = {}): Response {
  return completion(JSON.stringify({ values, pages }))
}

function engineFor(stub: Stub, options: { apiKey?: string; timeoutMs?: number } = {}): Engine {
  return createOpenAiEngine({ baseUrl: stub.baseUrl, model: 'test-model', timeoutMs: 5_000, ...options })
}

/** Awaits `promise` and returns the ExtractionError it rejects with; fails if it resolves or rejects otherwise. */
async function extractionError(promise: Promise<unknown>): Promise<ExtractionError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return error as ExtractionError
  }
  throw new Error('expected an ExtractionError')
}

const NORMAL_VALUES = { invoice_number: 'INV-2024-001', issue_date: '2024-03-05', total: 1234.5, items: ['Widget', 'Gadget'] }
/** What the engine gives for NORMAL_VALUES: amounts as decimal strings, as every engine gives them. */
const EXPECTED_VALUES = { ...NORMAL_VALUES, total: '1234.50' }
const NORMAL_PAGES = { invoice_number: 1, issue_date: 1, total: 2, items: 2 }

describe('the request', () => {
  test('is a POST to /chat/completions with the bearer key, model, temperature 0 and a strict json_schema', async () => {
    const stub = startServer(() => answer(NORMAL_VALUES, NORMAL_PAGES))
    await engineFor(stub, { apiKey: API_KEY }).extract(input())

    expect(stub.received).toHaveLength(1)
    const request = stub.received[0]!
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/v1/chat/completions')
    expect(request.headers.get('content-type')).toBe('application/json')
    expect(request.headers.get('authorization')).toBe(`Bearer ${API_KEY}`)

    const body = request.body
    expect(body.model).toBe('test-model')
    expect(body.temperature).toBe(0)
    expect(body.response_format.type).toBe('json_schema')
    expect(body.response_format.json_schema.name).toBe('extraction')
    expect(body.response_format.json_schema.strict).toBe(true)

    const schema = body.response_format.json_schema.schema
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false, required: ['values', 'pages'] })
    const values = schema.properties.values
    expect(values).toMatchObject({ type: 'object', additionalProperties: false, required: KEYS })
    expect(Object.keys(values.properties)).toEqual(KEYS)
    for (const field of FIELDS) {
      expect(values.properties[field.key].description.startsWith(`${field.label}: ${field.description}`)).toBe(true)
    }
    expect(values.properties.invoice_number.type).toEqual(['string', 'null'])
    expect(values.properties.issue_date.type).toEqual(['string', 'null'])
    expect(values.properties.issue_date.description).toContain('YYYY-MM-DD')
    expect(values.properties.total.type).toEqual(['number', 'null'])
    expect(values.properties.total.description).toContain('Amount due')
    expect(values.properties.items).toMatchObject({ type: ['array', 'null'], items: { type: 'string' } })
    const pages = schema.properties.pages
    expect(pages).toMatchObject({ type: 'object', additionalProperties: false, required: KEYS })
    for (const key of KEYS) expect(pages.properties[key].type).toEqual(['integer', 'null'])
  })

  test('holds the document type, the fields and the text with page markers in the messages', async () => {
    const stub = startServer(() => answer(NORMAL_VALUES, NORMAL_PAGES))
    await engineFor(stub).extract(input())

    const messages = stub.received[0]!.body.messages
    expect(messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user'])
    const user: string = messages[1].content
    expect(user).toContain('Document type: invoice')
    for (const key of KEYS) expect(user).toContain(`- ${key}: `)
    expect(user).toContain(`--- page 1 ---\n${PAGES[0]}\n\n--- page 2 ---\n${PAGES[1]}`)
    expect(user.indexOf('--- page 1 ---')).toBeLessThan(user.indexOf('--- page 2 ---'))
  })

  test('sends no authorization header without a key and tolerates a trailing slash on the base URL', async () => {
    const stub = startServer(() => answer(NORMAL_VALUES, NORMAL_PAGES))
    const engine = createOpenAiEngine({ baseUrl: `${stub.baseUrl}/`, model: 'llama3.2', timeoutMs: 5_000 })
    await engine.extract(input())

    expect(engine.name).toBe('openai:llama3.2')
    expect(stub.received[0]!.path).toBe('/v1/chat/completions')
    expect(stub.received[0]!.headers.get('authorization')).toBeNull()
    expect(stub.received[0]!.body.model).toBe('llama3.2')
  })

  test('sends whole pages up to the text limit and says which pages were left out', async () => {
    const page = (n: number) => `Page ${n} start\n${'x'.repeat(MAX_TEXT_CHARS * 0.4)}\nPage ${n} end`
    const stub = startServer(() => answer({}))
    await engineFor(stub).extract(input({ document: { pages: [page(1), page(2), page(3)] } }))

    const user: string = stub.received[0]!.body.messages[1].content
    expect(user).toContain('--- page 2 ---')
    expect(user).toContain('Page 2 end')
    expect(user).not.toContain('--- page 3 ---')
    expect(user).not.toContain('Page 3 start')
    expect(user).toContain('The document has 3 pages; only pages 1–2 are shown')
    expect(user.length).toBeLessThan(MAX_TEXT_CHARS + 5_000)
  })

  test('describes a table as columns and rows and gives the rows back as objects', async () => {
    const fields: JobField[] = [{ key: 'line_items', label: 'Line items', description: 'One row per item.', type: 'table' }]
    const table = {
      columns: ['description', 'quantity'],
      rows: [
        ['Widget', 2],
        ['Gadget', 1],
        [null, null],
      ],
    }
    const stub = startServer(() => answer({ line_items: table }, { line_items: 2 }))
    const output = await answered(engineFor(stub), input({ fields }))

    const property = stub.received[0]!.body.response_format.json_schema.schema.properties.values.properties.line_items
    expect(property.description.startsWith('Line items: One row per item.')).toBe(true)
    expect(property.anyOf).toEqual([
      {
        type: 'object',
        additionalProperties: false,
        required: ['columns', 'rows'],
        properties: {
          columns: { type: 'array', items: { type: 'string' } },
          rows: { type: 'array', items: { type: 'array', items: { type: ['string', 'number', 'null'] } } },
        },
      },
      { type: 'null' },
    ])
    expect(output.values).toEqual({
      line_items: [
        { description: 'Widget', quantity: 2 },
        { description: 'Gadget', quantity: 1 },
      ],
    })
    expect(output.meta.line_items).toEqual({ confidence: 0.8, page: 2, snippet: 'Widget' })
  })
})

describe('the answer', () => {
  test('gives each value with confidence 0.8, its page and the line it was read from', async () => {
    const stub = startServer(() => answer(NORMAL_VALUES, NORMAL_PAGES))
    const output = await answered(engineFor(stub), input())

    expect(output).toEqual({
      values: EXPECTED_VALUES,
      meta: {
        invoice_number: { confidence: 0.8, page: 1, snippet: 'Invoice number: INV-2024-001' },
        // "2024-03-05" is not printed verbatim (the document says "March 5, 2024"): the model's page, no snippet.
        issue_date: { confidence: 0.8, page: 1, snippet: null },
        total: { confidence: 0.8, page: 2, snippet: 'Total: 1,234.50 EUR' },
        items: { confidence: 0.8, page: 2, snippet: 'Widget' },
      },
    })
  })

  test('reads an answer fenced as ```json', async () => {
    const fenced = `Here is the result:\n\`\`\`json\n${JSON.stringify({ values: NORMAL_VALUES, pages: NORMAL_PAGES }, null, 2)}\n\`\`\``
    const stub = startServer(() => completion(fenced))
    const output = await answered(engineFor(stub), input())

    expect(output.values).toEqual(EXPECTED_VALUES)
    expect(output.meta.total).toEqual({ confidence: 0.8, page: 2, snippet: 'Total: 1,234.50 EUR' })
  })

  test('drops unknown keys and gives missing keys null with confidence 0', async () => {
    const json = '{"values": {"invoice_number": "INV-2024-001", "vat_id": "DE123", "__proto__": "x"}, "pages": {"vat_id": 1}}'
    const stub = startServer(() => completion(json))
    const output = await answered(engineFor(stub), input())

    expect(output.values).toEqual({ invoice_number: 'INV-2024-001', issue_date: null, total: null, items: null })
    expect(Object.keys(output.values)).toEqual(KEYS)
    expect(Object.keys(output.meta)).toEqual(KEYS)
    for (const key of ['issue_date', 'total', 'items']) {
      expect(output.meta[key]).toEqual({ confidence: 0, page: null, snippet: null })
    }
  })

  test('gives null for a value of the wrong type, an empty value and a page that does not exist', async () => {
    const stub = startServer(() =>
      answer({ invoice_number: { id: 42 }, issue_date: '   ', total: 'about a thousand', items: ['Widget', {}] }, { invoice_number: 1, total: 2 }),
    )
    const output = await answered(engineFor(stub), input())
    expect(output.values).toEqual({ invoice_number: null, issue_date: null, total: null, items: null })

    const second = startServer(() => answer({ invoice_number: 'ACME', items: [] }, { invoice_number: 7 }))
    const again = await answered(engineFor(second), input())
    expect(again.values).toEqual({ invoice_number: 'ACME', issue_date: null, total: null, items: null })
    // Page 7 does not exist; the value is found on page 1.
    expect(again.meta.invoice_number).toEqual({ confidence: 0.8, page: 1, snippet: 'ACME GmbH' })
  })

  test('the stand-in answer of issue 10 comes back typed: amounts and dates normalised whatever their language (D90)', async () => {
    const fields: JobField[] = [
      { key: 'total', label: 'Total', description: '', type: 'amount' },
      { key: 'date', label: 'Date', description: '', type: 'date' },
      { key: 'amount_due', label: 'amount_due', description: '', type: 'amount' },
    ]
    const pages = ['Rechnung\nDatum: 3. März 2026\nGesamt: 1.234,50 €\nAmount due: EUR 1,234.50']
    const stub = startServer(() => completion(JSON.stringify({ total: '1.234,50 €', date: '3. März 2026', amount_due: 'EUR 1,234.50' })))
    const output = await answered(engineFor(stub), input({ fields, document: { pages } }))

    expect(output.values).toEqual({ total: '1234.50', date: '2026-03-03', amount_due: '1234.50' })
    expect(output.meta.total).toEqual({ confidence: 0.8, page: 1, snippet: 'Gesamt: 1.234,50 €' })
    expect(output.meta.date).toEqual({ confidence: 0.8, page: 1, snippet: 'Datum: 3. März 2026' })
  })

  test('asks for booleans, enums and tables of declared columns by their JSON types, and types the answer', async () => {
    const fields: JobField[] = [
      { key: 'paid', label: 'Paid', description: '', type: 'boolean' },
      { key: 'status', label: 'Status', description: '', type: 'enum', values: ['open', 'paid'] },
      {
        key: 'lines',
        label: 'Lines',
        description: '',
        type: 'table',
        columns: [
          { key: 'item', label: 'Item', description: '', type: 'text' },
          { key: 'price', label: 'Price', description: '', type: 'amount' },
        ],
      },
    ]
    const lines = [
      { item: 'Widget', price: '1.234,50' },
      { item: 'Gadget', price: 'n/a' },
    ]
    const stub = startServer(() => answer({ paid: 'Ja', status: 'PAID', lines }))
    const output = await answered(engineFor(stub), input({ fields }))

    const properties = stub.received[0]!.body.response_format.json_schema.schema.properties.values.properties
    expect(properties.paid.type).toEqual(['boolean', 'null'])
    expect(properties.status).toMatchObject({ type: ['string', 'null'], enum: ['open', 'paid', null] })
    expect(properties.status.description).toContain('One of: open, paid.')
    expect(properties.lines.anyOf[0]).toMatchObject({
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['item', 'price'] },
    })
    expect(properties.lines.anyOf[0].items.properties.price.type).toEqual(['number', 'null'])
    expect(output.values).toEqual({
      paid: true,
      status: 'paid',
      lines: [
        { item: 'Widget', price: '1234.50' },
        { item: 'Gadget', price: null },
      ],
    })

    const wrong = startServer(() => answer({ paid: 'perhaps', status: 'cancelled', lines: 'none' }))
    const none = await answered(engineFor(wrong), input({ fields }))
    expect(none.values).toEqual({ paid: null, status: null, lines: null })
    for (const key of ['paid', 'status', 'lines']) expect(none.meta[key]).toEqual({ confidence: 0, page: null, snippet: null })
  })

  test('a server that refuses json_schema is asked with json_object, then with no format, and remembers it (D93)', async () => {
    const stub = startServer((request) =>
      request.body.response_format === undefined
        ? answer(NORMAL_VALUES, NORMAL_PAGES)
        : Response.json({ error: { message: `response_format type ${request.body.response_format.type} is not supported` } }, { status: 400 }),
    )
    const engine = engineFor(stub)
    const output = await answered(engine, input())
    expect(output.values).toEqual(EXPECTED_VALUES)
    expect(stub.received.map((request) => request.body.response_format?.type ?? 'none')).toEqual(['json_schema', 'json_object', 'none'])
    expect(stub.received[2]!.body.messages).toEqual(stub.received[0]!.body.messages)

    await engine.extract(input())
    expect(stub.received).toHaveLength(4)
    expect(stub.received[3]!.body.response_format).toBeUndefined()
  })

  test('normalises a date the model gave in another unambiguous format to YYYY-MM-DD', async () => {
    const stub = startServer(() => answer({ issue_date: 'March 5, 2024' }, { issue_date: null }))
    const output = await answered(engineFor(stub), input())

    expect(output.values.issue_date).toBe('2024-03-05')
    // The line is found from the model's own wording.
    expect(output.meta.issue_date).toEqual({ confidence: 0.8, page: 1, snippet: 'Date: March 5, 2024' })
  })

  test("finds a value's line on the model's page first, exactly before ignoring case, never inside a longer number", async () => {
    const fields: JobField[] = [
      { key: 'ref', label: 'Reference', description: '', type: 'text' },
      { key: 'company', label: 'Company', description: '', type: 'text' },
      { key: 'qty', label: 'Quantity', description: '', type: 'number' },
      { key: 'total', label: 'Total', description: '', type: 'amount' },
    ]
    const long = `${'a '.repeat(200)}Total 99.95 EUR${' b'.repeat(200)}`
    const pages = ['Ref: X-1 issued 2012\nacme gmbh', `ACME GMBH\nRef: X-1 (copy)\nQty 12\n${long}`]
    const stub = startServer(() => answer({ ref: 'X-1', company: 'Acme GmbH', qty: 12, total: 99.95 }, { ref: 2, company: null, qty: null, total: 1 }))
    const output = await answered(engineFor(stub), input({ fields, document: { pages } }))

    expect(output.values).toEqual({ ref: 'X-1', company: 'Acme GmbH', qty: 12, total: '99.95' })
    expect(output.meta.ref).toEqual({ confidence: 0.8, page: 2, snippet: 'Ref: X-1 (copy)' })
    // No line has "Acme GmbH" as written; ignoring case, page 1 comes first.
    expect(output.meta.company).toEqual({ confidence: 0.8, page: 1, snippet: 'acme gmbh' })
    // "12" in "2012" does not count.
    expect(output.meta.qty).toEqual({ confidence: 0.8, page: 2, snippet: 'Qty 12' })
    // The value is on page 2 whatever the model says; a long line is cut around it.
    const total = output.meta.total!
    expect(total.page).toBe(2)
    expect(total.snippet!.startsWith('…')).toBe(true)
    expect(total.snippet!.endsWith('…')).toBe(true)
    expect(total.snippet).toContain('Total 99.95 EUR')
    expect(total.snippet!.length).toBeLessThanOrEqual(242)
  })
})

describe('failures', () => {
  test('no answer within timeoutMs is engine_timeout, and the call ends at once', async () => {
    const stub = startServer(async () => {
      await Bun.sleep(1_500)
      return answer(NORMAL_VALUES)
    })
    const started = performance.now()
    const error = await extractionError(engineFor(stub, { timeoutMs: 100 }).extract(input()))

    expect(error.code).toBe('engine_timeout')
    expect(error.message).toBe('The model server did not answer within 100 ms')
    expect(error.detail).toBe(`${stub.baseUrl}/chat/completions: no answer within 100 ms`)
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  test("a 500 is engine_unavailable with the status; the server's message and address are for the operator only (D127)", async () => {
    const stub = startServer(() => Response.json({ error: { message: 'CUDA out of memory on gpu-node-7.internal' } }, { status: 500 }))
    const error = await extractionError(engineFor(stub).extract(input()))

    expect(error.code).toBe('engine_unavailable')
    expect(error.message).toBe('The model server answered with status 500')
    expect(error.detail).toBe(`${stub.baseUrl}/chat/completions answered with status 500: CUDA out of memory on gpu-node-7.internal`)
  })

  test('a refused connection is engine_unavailable', async () => {
    const closed = startServer(() => new Response())
    servers.pop()!.stop(true)
    const error = await extractionError(engineFor(closed, { apiKey: API_KEY }).extract(input()))

    expect(error.code).toBe('engine_unavailable')
    expect(error.message).toBe('The model server could not be reached')
    expect(error.detail).toStartWith(`${closed.baseUrl}/chat/completions: `)
    expect(error.detail).not.toContain(API_KEY)
  })

  test('a 401 with an OpenAI error body is engine_rejected with its message and without the key', async () => {
    const stub = startServer(() =>
      Response.json(
        {
          error: {
            message:
              'Incorrect API key provided: sk-test-************************2345. You can find your API key at https://platform.openai.com/account/api-keys.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
        { status: 401 },
      ),
    )
    const error = await extractionError(engineFor(stub, { apiKey: API_KEY }).extract(input()))

    expect(error.code).toBe('engine_rejected')
    expect(error.message).toBe('The model server rejected the request with status 401')
    expect(error.detail).toContain('Incorrect API key provided')
    for (const secret of [API_KEY, '2345', 'sk-test']) expect(error.detail).not.toContain(secret)
  })

  test('a 404 or 400 is engine_rejected, and a key the server echoes is hidden', async () => {
    const notFound = startServer(() => Response.json({ error: { message: 'model "test-model" not found, try pulling it first' } }, { status: 404 }))
    const missing = await extractionError(engineFor(notFound).extract(input()))
    expect(missing.code).toBe('engine_rejected')
    expect(missing.message).toBe('The model server rejected the request with status 404')
    expect(missing.detail).toContain('model "test-model" not found')

    const echo = startServer(() => Response.json({ object: 'error', message: `bad request from ${API_KEY}` }, { status: 400 }))
    const bad = await extractionError(engineFor(echo, { apiKey: API_KEY }).extract(input()))
    expect(bad.code).toBe('engine_rejected')
    expect(bad.message).toBe('The model server rejected the request with status 400')
    expect(bad.detail).toContain('bad request from [redacted]')
    expect(bad.detail).not.toContain(API_KEY)
  })

  test('a refusal or a content filter is engine_refused', async () => {
    const refusing = startServer(() => completion(null, { message: { refusal: "I'm sorry, I can't help with that." } }))
    const refused = await extractionError(engineFor(refusing).extract(input()))
    expect(refused.code).toBe('engine_refused')
    expect(refused.message).toContain("I'm sorry, I can't help with that.")

    const filtered = startServer(() => completion(null, { choice: { finish_reason: 'content_filter' } }))
    expect((await extractionError(engineFor(filtered).extract(input()))).code).toBe('engine_refused')
  })

  test.each([
    ['content that is not JSON', () => completion('I could not find an invoice here.'), 'is not JSON'],
    ['a JSON array', () => completion('[1, 2]'), 'is not a JSON object'],
    ['no content', () => completion(null), 'gave no answer'],
    ['no choices', () => Response.json({ choices: [] }), 'without a choice'],
    ['a body that is not JSON', () => new Response('<html>proxy</html>'), 'not JSON'],
  ])('%s is engine_invalid_answer', async (_name, reply, message) => {
    const stub = startServer(reply)
    const error = await extractionError(engineFor(stub).extract(input()))
    expect(error.code).toBe('engine_invalid_answer')
    expect(error.message).toContain(message)
  })

  test('an answer cut off at the token limit says so', async () => {
    const stub = startServer(() => completion('{"values": {"invoice_number": "INV', { choice: { finish_reason: 'length' } }))
    const error = await extractionError(engineFor(stub).extract(input()))
    expect(error.code).toBe('engine_invalid_answer')
    expect(error.message).toContain('cut off')
  })

  test("aborting the input's signal ends the call at once with the signal's reason", async () => {
    const stub = startServer(async () => {
      await Bun.sleep(1_500)
      return answer(NORMAL_VALUES)
    })
    const controller = new AbortController()
    const reason = new Error('job cancelled')
    setTimeout(() => controller.abort(reason), 50)
    const started = performance.now()

    const outcome = await engineFor(stub)
      .extract(input({ signal: controller.signal }))
      .catch((error: unknown) => error)
    expect(outcome).toBe(reason)
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(stub.received).toHaveLength(1)
  })

  test('an already aborted signal sends nothing', async () => {
    const stub = startServer(() => answer(NORMAL_VALUES))
    const reason = new Error('job cancelled')
    const outcome = await engineFor(stub)
      .extract(input({ signal: AbortSignal.abort(reason) }))
      .catch((error: unknown) => error)
    expect(outcome).toBe(reason)
    expect(stub.received).toHaveLength(0)
  })
})
