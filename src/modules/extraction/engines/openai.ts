/**
 * The optional language-model engine (D23): asks any OpenAI-compatible chat-completions endpoint
 * (OpenAI, Ollama, vLLM, llama.cpp server) for the fields with a strict JSON-schema response
 * format, then checks the answer against the requested keys, so nothing the model invents beyond
 * them, and no value of the wrong type, reaches a job.
 *
 * The answer we ask for (one schema for every server; `additionalProperties: false` and every
 * property required at every level, as OpenAI's strict mode demands):
 *
 *   { "values": { <key>: <value> | null, … },      one property per requested key
 *     "pages":  { <key>: <integer> | null, … } }   page (from the "--- page N ---" markers) it came from
 *
 * A value's JSON type follows the field's resolved type (D93): text, date and currency → string;
 * amount and number → number; boolean → boolean; enum → one of its values; list → array of
 * strings; a table with declared columns → array of row objects with those columns; a table
 * without → {columns: [string], rows: [[cell]]}, because strict mode cannot describe an object
 * whose properties are not known in advance. Whatever the model answers then passes through the
 * shared normalisation layer (normalise/), as the built-in engine's answers do (D90).
 *
 * A server that refuses the json_schema response format (400 or 422 naming it) is asked again
 * with `{"type": "json_object"}`, then with no response format; the engine remembers what worked.
 */
import type { JobField } from '../../../lib/fields/model'
import { normaliseValue } from '../normalise'
import type { DocumentText } from '../readers/types'
import { engineName } from './names'
import { type Answers, answersOf, type FieldAnswer, NO_ANSWER } from '../answers'
import { MODEL_CONFIDENCE } from '../confidence'
import { ExtractionError } from '../errors'
import type { Engine, ExtractionInput } from './types'

export interface OpenAiEngineOptions {
  /** Up to the API version, e.g. https://api.openai.com/v1 or http://localhost:11434/v1; a trailing slash is fine. */
  baseUrl: string
  model: string
  /** Sent as a bearer token only when set; never logged and never part of an error message. */
  apiKey?: string
  /** For the whole call, from connecting to the last byte of the answer. */
  timeoutMs: number
}

/**
 * Most characters of document text sent in one request: about 25 000 tokens, which fits the
 * context of the small local models people run with Ollama as well as the hosted ones. Whole pages
 * are sent from the first on until the next would pass the limit; the model is told what was left
 * out. A first page longer than the limit alone is cut at a line boundary.
 */
export const MAX_TEXT_CHARS = 100_000

/** Longest server or refusal text quoted in an error message. */
const MAX_QUOTED_CHARS = 300
/** Longest snippet; a longer line is cut around the value. */
const MAX_SNIPPET_CHARS = 240

type JsonObject = Record<string, unknown>

const SYSTEM_PROMPT = [
  'You extract data from business documents.',
  'You are given the type of a document, a list of fields and the text of the document, page by page.',
  'For each field give its value as the document states it, or null when the document does not state it: never guess or invent a value.',
  'Write dates as YYYY-MM-DD; amounts and numbers as plain JSON numbers, without currency symbols or thousands separators;',
  'currencies as ISO 4217 codes; yes/no fields as true or false; a field with allowed values as exactly one of them;',
  'lists as arrays of strings; tables as arrays of rows (or, where asked, their column names plus one array of cells per row).',
  'In "pages" give, for each field, the number of the page (from the "--- page N ---" markers) its value was read from, or null when there is no value.',
  'Answer with one JSON object and nothing else.',
].join(' ')

/** Creates the engine; an invalid base URL is a configuration error and throws at once. */
export function createOpenAiEngine(options: OpenAiEngineOptions): Engine {
  const endpoint = chatCompletionsUrl(options.baseUrl)
  const where = displayUrl(endpoint)
  const apiKey = options.apiKey || undefined
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  if (apiKey) headers.authorization = `Bearer ${apiKey}`

  /** The response format this server takes; moves on only when the server refuses one (D93). */
  let format: ResponseFormat = 'json_schema'

  async function post(body: object, callerSignal: AbortSignal | undefined): Promise<{ status: number; text: string }> {
    const timeout = AbortSignal.timeout(options.timeoutMs)
    const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout
    try {
      const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body), signal })
      return { status: response.status, text: await response.text() }
    } catch (error) {
      // A failed fetch or body read is the caller's own abort reason, a timeout or "unavailable".
      if (callerSignal?.aborted) throw callerSignal.reason
      if (timeout.aborted) {
        throw new ExtractionError(
          'engine_timeout',
          `The model server did not answer within ${options.timeoutMs} ms`,
          `${where}: no answer within ${options.timeoutMs} ms`,
        )
      }
      throw new ExtractionError('engine_unavailable', 'The model server could not be reached', `${where}: ${redact(describeError(error), apiKey)}`)
    }
  }

  return {
    name: engineName(options),

    async extract(input: ExtractionInput): Promise<Answers> {
      input.signal?.throwIfAborted()
      if (input.fields.length === 0) return {}

      const messages = [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: userMessage(input) },
      ]
      const formats: ResponseFormat[] = RESPONSE_FORMATS.slice(RESPONSE_FORMATS.indexOf(format))
      let status = 0
      let text = ''
      for (const [index, tried] of formats.entries()) {
        const body = { model: options.model, temperature: 0, messages, ...responseFormat(tried, input.fields) }
        ;({ status, text } = await post(body, input.signal))
        // D93: a server that does not know this response format is asked with the next one.
        if (index < formats.length - 1 && refusesFormat(status, text)) continue
        format = tried
        break
      }

      if (status < 200 || status > 299) {
        // The server's own words can name internal hosts and deployments: the operator's log has them, the job does not (D127).
        const detail = `${where} answered with status ${status}: ${serverMessage(text, apiKey) ?? '(no message)'}`
        if (status >= 400 && status <= 499) throw new ExtractionError('engine_rejected', `The model server rejected the request with status ${status}`, detail)
        throw new ExtractionError('engine_unavailable', `The model server answered with status ${status}`, detail)
      }

      const answer = readAnswer(text, apiKey)
      return checkAnswer(answer, input.fields, input.document)
    },
  }
}

// ── The request ───────────────────────────────────────────────────────────────────────────────

function chatCompletionsUrl(baseUrl: string): URL {
  let url: URL
  try {
    url = new URL(`${baseUrl.trim().replace(/\/+$/, '')}/chat/completions`)
  } catch {
    throw new TypeError('The language-model base URL is not a valid URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('The language-model base URL must start with http:// or https://')
  }
  return url
}

/** The endpoint as errors show it: without user name, password or query, which may hold secrets. */
function displayUrl(url: URL): string {
  const shown = new URL(url)
  shown.username = ''
  shown.password = ''
  shown.search = ''
  return shown.toString()
}

type ResponseFormat = 'json_schema' | 'json_object' | 'none'

/** The formats tried in turn when a server refuses one (D93). */
const RESPONSE_FORMATS: ResponseFormat[] = ['json_schema', 'json_object', 'none']

function responseFormat(format: ResponseFormat, fields: JobField[]): { response_format?: JsonObject } {
  if (format === 'none') return {}
  if (format === 'json_object') return { response_format: { type: 'json_object' } }
  return { response_format: { type: 'json_schema', json_schema: { name: 'extraction', strict: true, schema: responseSchema(fields) } } }
}

/** A 400 or 422 whose message names the response format: the server does not support it. */
function refusesFormat(status: number, text: string): boolean {
  return (status === 400 || status === 422) && /response_format|json_schema|json_object|structured output|grammar/i.test(text)
}

type Described = Pick<JobField, 'label' | 'description' | 'type' | 'values' | 'aliases'>

/** What the model is told of a field: its label and description, and how to write its type. */
function fieldDescription(field: Described): string {
  const parts = [field.description.trim() ? `${field.label}: ${field.description.trim()}` : field.label]
  switch (field.type) {
    case 'date':
      parts.push('Format: YYYY-MM-DD.')
      break
    case 'amount':
      parts.push('A number, without currency symbol or thousands separators.')
      break
    case 'currency':
      parts.push('An ISO 4217 code such as EUR when the document shows which currency.')
      break
    case 'boolean':
      parts.push('true or false.')
      break
    case 'enum':
      parts.push(`One of: ${(field.values ?? []).join(', ')}.`)
      break
  }
  if (field.aliases?.length) parts.push(`Also printed as: ${field.aliases.join(', ')}.`)
  return parts.join(' ')
}

/** The JSON schema of one value (or one table cell) by its type; null always allowed. */
function valueSchema(field: Described & { columns?: JobField['columns'] }): JsonObject {
  const description = fieldDescription(field)
  switch (field.type) {
    case 'amount':
    case 'number':
      return { type: ['number', 'null'], description }
    case 'boolean':
      return { type: ['boolean', 'null'], description }
    case 'enum':
      return { type: ['string', 'null'], enum: [...(field.values ?? []), null], description }
    case 'list':
      return { type: ['array', 'null'], items: { type: 'string' }, description }
    case 'table':
      if (field.columns?.length)
        return {
          description: `${description} One object per row.`,
          anyOf: [
            {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: field.columns.map((column) => column.key),
                properties: Object.fromEntries(field.columns.map((column) => [column.key, valueSchema(column)])),
              },
            },
            { type: 'null' },
          ],
        }
      return {
        description: `${description} Give the column names once and each row as an array of cells in column order.`,
        anyOf: [
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
        ],
      }
    default:
      return { type: ['string', 'null'], description }
  }
}

/** The JSON schema of the answer; see the module comment. Object.fromEntries keeps a key such as "__proto__" an own property. */
function responseSchema(fields: JobField[]): JsonObject {
  const keys = fields.map((field) => field.key)
  return {
    type: 'object',
    additionalProperties: false,
    required: ['values', 'pages'],
    properties: {
      values: {
        type: 'object',
        additionalProperties: false,
        required: keys,
        properties: Object.fromEntries(fields.map((field) => [field.key, valueSchema(field)])),
      },
      pages: {
        type: 'object',
        additionalProperties: false,
        required: keys,
        properties: Object.fromEntries(fields.map((field) => [field.key, { type: ['integer', 'null'], description: `Page of ${field.label}` }])),
      },
    },
  }
}

/** The document's pages with their markers, within MAX_TEXT_CHARS, and a note on what was left out. */
function documentText(document: DocumentText): { text: string; note: string | null } {
  const total = document.pages.length
  const blocks: string[] = []
  let used = 0
  for (const [index, page] of document.pages.entries()) {
    const block = `--- page ${index + 1} ---\n${page.trimEnd()}`
    const cost = block.length + (blocks.length > 0 ? 2 : 0)
    if (used + cost <= MAX_TEXT_CHARS) {
      blocks.push(block)
      used += cost
      continue
    }
    const limit = `the text sent is limited to ${MAX_TEXT_CHARS} characters`
    if (blocks.length === 0) {
      const rest = total > 1 ? ` and pages 2–${total} are left out` : ''
      return { text: cutAtLine(block, MAX_TEXT_CHARS), note: `The document has ${total} page(s); page 1 is cut short${rest}: ${limit}.` }
    }
    return {
      text: blocks.join('\n\n'),
      note: `The document has ${total} pages; only pages 1–${blocks.length} are shown: ${limit}.`,
    }
  }
  return { text: blocks.join('\n\n'), note: null }
}

function cutAtLine(text: string, limit: number): string {
  const cut = text.slice(0, limit)
  const lastBreak = cut.lastIndexOf('\n')
  return lastBreak > limit / 2 ? cut.slice(0, lastBreak) : cut
}

function userMessage(input: ExtractionInput): string {
  const fields = input.fields.map((field) => `- ${field.key}: ${fieldDescription(field)}`)
  const { text, note } = documentText(input.document)
  return [
    `Document type: ${input.documentType}`,
    '',
    'Fields:',
    ...fields,
    '',
    'Answer as {"values": {<field>: value or null}, "pages": {<field>: page number or null}}, with every field above in both.',
    ...(note ? ['', note] : []),
    '',
    'Document text:',
    text,
  ].join('\n')
}

// ── The answer ────────────────────────────────────────────────────────────────────────────────

function invalidAnswer(message: string): ExtractionError {
  return new ExtractionError('engine_invalid_answer', message)
}

/** The JSON object the model answered with, or an ExtractionError saying why there is none. */
function readAnswer(text: string, apiKey: string | undefined): JsonObject {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw invalidAnswer('The model server answered with something that is not JSON')
  }
  const choice = isObject(body) && Array.isArray(body.choices) ? body.choices[0] : undefined
  if (!isObject(choice)) throw invalidAnswer('The model server answered without a choice')
  const message = isObject(choice.message) ? choice.message : {}

  if (typeof message.refusal === 'string' && message.refusal.trim() !== '') {
    throw new ExtractionError('engine_refused', `The model refused to answer: ${clip(redact(message.refusal.trim(), apiKey))}`)
  }
  if (choice.finish_reason === 'content_filter') {
    throw new ExtractionError('engine_refused', "The model server's content filter withheld the answer")
  }

  const cutOff = choice.finish_reason === 'length' ? ' (it was cut off at the token limit)' : ''
  const content = contentText(message.content)
  if (content === null || content.trim() === '') throw invalidAnswer(`The model gave no answer${cutOff}`)
  const parsed = parseJson(content)
  if (parsed === undefined) throw invalidAnswer(`The model's answer is not JSON${cutOff}`)
  if (!isObject(parsed)) throw invalidAnswer("The model's answer is not a JSON object")
  return parsed
}

/** `content` is a string; some servers send an array of parts (`{type: "text", text}`). */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return null
  const texts = content.flatMap((part) => (isObject(part) && typeof part.text === 'string' ? [part.text] : []))
  return texts.length > 0 ? texts.join('') : null
}

/** The content as JSON: as is, else inside a ```json fence, else from its first "{" to its last "}". */
function parseJson(content: string): unknown {
  const candidates = [content.trim()]
  const fenced = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(content)
  if (fenced?.[1]) candidates.push(fenced[1].trim())
  const start = content.indexOf('{')
  const end = content.lastIndexOf('}')
  if (start !== -1 && end > start) candidates.push(content.slice(start, end + 1))
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate)
    } catch {
      // Try the next way of reading it.
    }
  }
  return undefined
}

/**
 * One answer per requested key; unknown keys are dropped, missing or mistyped ones are null. The
 * chat-completions protocol gives no probability for a value, so every value the model gives that
 * fits its field's type gets the same confidence (MODEL_CONFIDENCE).
 */
function checkAnswer(answer: JsonObject, fields: JobField[], document: DocumentText): Answers {
  // A server that ignores the response format may answer with the values at the top level.
  const values = isObject(answer.values) ? answer.values : answer
  const pages = isObject(answer.values) && isObject(answer.pages) ? answer.pages : {}
  const locate = lineFinder(document.pages)

  const entries = fields.map((field): [string, FieldAnswer] => {
    const given = Object.hasOwn(values, field.key) ? values[field.key] : null
    // Typed here only to search the pages for the value as printed; the shared layer types it (D90).
    const value = normaliseValue(field, given)
    if (value === null) return [field.key, NO_ANSWER]
    const claimedPage = Object.hasOwn(pages, field.key) ? pages[field.key] : null
    const modelPage =
      typeof claimedPage === 'number' && Number.isInteger(claimedPage) && claimedPage >= 1 && claimedPage <= document.pages.length ? claimedPage : null
    // Where the value is found verbatim, that page wins over the model's claim, so page and snippet agree.
    const found = locate(needles(given, value), modelPage)
    return [
      field.key,
      { value: given, confidence: MODEL_CONFIDENCE, page: found?.page ?? modelPage, snippet: found?.snippet ?? null, ...(found && { line: found.line }) },
    ]
  })
  return answersOf(entries)
}

// ── Page and snippet ──────────────────────────────────────────────────────────────────────────

/** The texts whose presence in a line shows where a value was read: as the model gave it, and as normalised. */
function needles(given: unknown, value: unknown): string[] {
  const found = new Set<string>()
  const add = (text: unknown) => {
    if (typeof text === 'string' && text.trim() !== '') found.add(text.trim())
    if (typeof text === 'number') for (const form of numberForms(text)) found.add(form)
  }
  if (Array.isArray(value)) {
    const first = value[0]
    if (isObject(first)) Object.values(first).forEach(add)
    else add(first)
  } else {
    add(given)
    add(value)
  }
  return [...found]
}

/** 1234.5 as printed: 1,234.5 and 1,234.50 (en-US), 1.234,5 and 1.234,50 (de-DE). Made once, not per value. */
const NUMBER_FORMATS = ['en-US', 'de-DE'].flatMap((locale) => [
  new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }),
  new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 20 }),
])

function numberForms(value: number): string[] {
  const forms = [String(value)]
  if (!Number.isInteger(value)) forms.push(value.toFixed(2))
  for (const format of NUMBER_FORMATS) forms.push(format.format(value))
  return forms
}

/**
 * Searches a document's lines for every field of one answer: the pages are split into lines once,
 * and lower-cased once when a search first needs to ignore case.
 */
function lineFinder(pages: string[]) {
  const lines = pages.map((page) => page.split('\n'))
  let lowerLines: string[][] | undefined
  const allPages = pages.map((_, index) => index + 1)

  /** The first line holding a needle, on the preferred page first: exactly, else ignoring case. */
  return (searched: string[], preferredPage: number | null): { page: number; line: number; snippet: string } | null => {
    if (searched.length === 0) return null
    const order = preferredPage === null ? allPages : [preferredPage, ...allPages.filter((page) => page !== preferredPage)]
    for (const ignoreCase of [false, true]) {
      const haystacks = ignoreCase ? (lowerLines ??= lines.map((page) => page.map((line) => line.toLowerCase()))) : lines
      const wanted = ignoreCase ? searched.map((needle) => needle.toLowerCase()) : searched
      for (const page of order) {
        for (const [index, haystack] of (haystacks[page - 1] ?? []).entries()) {
          for (const [which, needle] of wanted.entries()) {
            const at = indexOfWhole(haystack, needle)
            if (at !== -1) return { page, line: index, snippet: snippetOf(lines[page - 1]![index]!, at, searched[which]!.length) }
          }
        }
      }
    }
    return null
  }
}

const WORD_CHAR = /[\p{L}\p{N}]/u

/** Where wanted occurs in haystack not glued to a letter or digit (so "12" is not found in "2012"). */
function indexOfWhole(haystack: string, wanted: string): number {
  let from = 0
  while (true) {
    const at = haystack.indexOf(wanted, from)
    if (at === -1) return -1
    const before = haystack[at - 1]
    const after = haystack[at + wanted.length]
    const gluedBefore = before !== undefined && WORD_CHAR.test(before) && WORD_CHAR.test(wanted[0]!)
    const gluedAfter = after !== undefined && WORD_CHAR.test(after) && WORD_CHAR.test(wanted[wanted.length - 1]!)
    if (!gluedBefore && !gluedAfter) return at
    from = at + 1
  }
}

function snippetOf(line: string, at: number, length: number): string {
  const trimmed = line.trim()
  if (trimmed.length <= MAX_SNIPPET_CHARS) return trimmed
  const room = Math.max(0, Math.floor((MAX_SNIPPET_CHARS - length) / 2))
  const start = Math.max(0, at - room)
  const end = Math.min(line.length, at + length + room)
  return `${start > 0 ? '…' : ''}${line.slice(start, end).trim()}${end < line.length ? '…' : ''}`
}

// ── Errors ────────────────────────────────────────────────────────────────────────────────────

/** The error message of an error body: OpenAI, llama.cpp and Ollama `{error: {message}}`, `{error: "…"}`, vLLM `{message}`. */
function serverMessage(text: string, apiKey: string | undefined): string | null {
  let message: unknown
  try {
    const body: unknown = JSON.parse(text)
    if (isObject(body)) {
      message = isObject(body.error) ? body.error.message : (body.error ?? body.message ?? body.detail)
    }
  } catch {
    message = text.trimStart().startsWith('<') ? null : text
  }
  if (typeof message !== 'string') return null
  const oneLine = message.replace(/\s+/g, ' ').trim()
  return oneLine === '' ? null : clip(redact(oneLine, apiKey))
}

/**
 * Hides the API key in text from elsewhere: the key itself, and anything that looks like a key,
 * such as the masked "sk-proj-****…abcd" OpenAI's 401 message echoes.
 */
function redact(text: string, apiKey: string | undefined): string {
  let safe = apiKey ? text.split(apiKey).join('[redacted]') : text
  safe = safe.replace(/[^\s*]*\*{3,}[\w-]*/g, '[redacted]')
  safe = safe.replace(/\bsk-[\w-]{4,}/g, '[redacted]')
  return safe
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as Error & { code?: unknown }).code
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message
}

function clip(text: string): string {
  return text.length <= MAX_QUOTED_CHARS ? text : `${text.slice(0, MAX_QUOTED_CHARS)}…`
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
