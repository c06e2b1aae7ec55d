/** A fresh extractd for each test: its app, its database (SQLite in memory, or PostgreSQL), and two accounts with keys. */
import { expect } from 'bun:test'
import { createApp } from '../../src/app'
import { type Catalog, loadCatalog } from '../../src/modules/catalog/service'
import { builtinEngine } from '../../src/modules/extraction/engines/builtin'
import type { Engine } from '../../src/modules/extraction/engines/types'
import { ExtractionError } from '../../src/modules/extraction/errors'
import { builtinClassifier } from '../../src/modules/extraction/engines/builtin/classify'
import { inProcessExtractor } from '../../src/modules/extraction/extractor'
import { DEFAULT_READ_LIMITS, type ReadLimits, type RecogniserName } from '../../src/modules/extraction/readers/types'
import type { QueueCaps } from '../../src/modules/extraction/repository'
import { createJobRunner } from '../../src/modules/extraction/worker'
import { createKey } from '../../src/modules/keys/service'
import { layoutCache } from '../../src/modules/reviews/layout-cache'
import { createDeliveryWorker, type DeliveryWorkerOptions } from '../../src/modules/webhooks/delivery'
import { type Logger, silentLogger } from '../../src/lib/log'
import type { Database } from '../../src/db/database'
import { openTestDatabase, query } from './database'

export const BASE = 'http://localhost'

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export interface CallOptions {
  /** API key to send; `null` sends no Authorization header. Defaults to account A's key. */
  key?: string | null
  /** A JSON value (serialised), a raw string, or FormData. */
  body?: unknown
  headers?: Record<string, string>
}

let sharedCatalog: Catalog | undefined

export interface TestAppOptions {
  catalog?: Catalog
  maxJsonBytes?: number
  engine?: Engine
  maxUploadBytes?: number
  keepFileMs?: number
  workers?: number
  readLimits?: ReadLimits
  /** The word reader of scanned pages, as `--ocr` chooses it (D160); `auto` by default. */
  recogniser?: RecogniserName
  /** How much one account may have waiting (D133); the defaults otherwise. */
  queueCaps?: QueueCaps
  /** How long a synchronous extraction waits for its job (D134). */
  syncWaitMs?: number
  /** Leave the job runner stopped, so jobs stay queued. */
  paused?: boolean
  /** Where the app logs; silent by default. */
  log?: Logger
  /** A SQLite file instead of an in-memory database (ignored on PostgreSQL). */
  dbPath?: string
  /** A database handle to use instead of a new database. */
  database?: Database
  /**
   * Webhook settings; with them a delivery worker runs (stop it with `t.deliveries.stop(0)`).
   * Without them private addresses are refused and nothing is delivered.
   */
  webhooks?: Partial<Omit<DeliveryWorkerOptions, 'database' | 'log'>>
}

export async function makeTestApp(options: TestAppOptions = {}) {
  const database = options.database ?? (await openTestDatabase(options.dbPath))
  const catalog = options.catalog ?? (sharedCatalog ??= loadCatalog())
  /** This instance's index of its accounts' layouts (D300). */
  const layouts = layoutCache(database)
  const engine = options.engine ?? builtinEngine
  const runner = createJobRunner({
    database,
    extract: inProcessExtractor(engine, { classifier: builtinClassifier, recogniser: options.recogniser }),
    catalog,
    concurrency: options.paused ? 0 : (options.workers ?? 2),
    keepFileMs: options.keepFileMs ?? 0,
    readLimits: options.readLimits ?? DEFAULT_READ_LIMITS,
    log: silentLogger,
    caps: options.queueCaps,
    syncWaitMs: options.syncWaitMs,
    layoutsOf: layouts.of,
  })
  const app = createApp({
    database,
    catalog,
    maxJsonBytes: options.maxJsonBytes,
    log: options.log,
    extraction: { runner, engineName: engine.name, maxUploadBytes: options.maxUploadBytes ?? 20 * 1024 * 1024 },
    webhooks: { allowPrivate: options.webhooks?.allowPrivate ?? false },
  })
  const deliveries = options.webhooks
    ? createDeliveryWorker({ database, log: silentLogger, allowPrivate: false, retryDelayMs: 5000, pollMs: 50, ...options.webhooks })
    : undefined
  deliveries?.start()
  const keyA = await createKey(database, 'account-a')
  const keyB = await createKey(database, 'account-b')

  async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers }
    const key = options.key === undefined ? keyA.key : options.key
    if (key !== null) headers.authorization ??= `Bearer ${key}`
    let body: RequestInit['body']
    if (typeof options.body === 'string' || options.body instanceof FormData || options.body instanceof Uint8Array) {
      body = options.body as RequestInit['body']
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const response = await app.handle(new Request(BASE + path, { method, headers, body }))
    const text = await response.text()
    let parsed: unknown = text
    if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text)
    return { status: response.status, headers: response.headers, body: parsed as T, text }
  }

  /** Rows of SQL with `?` placeholders, on whichever database the app has. */
  const rows = <T = Record<string, unknown>>(text: string, params?: unknown[]) => query<T>(database, text, params)

  return { app, database, catalog, keyA, keyB, call, rows, runner, deliveries, layouts }
}

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>

/** The built-in engine, except that a document printing FAIL fails (corrupt_document): for a job that did not succeed. */
export const failingOnFail: Engine = {
  name: 'builtin',
  async extract(input) {
    if (input.document.pages.some((page) => page.includes('FAIL'))) throw new ExtractionError('corrupt_document', 'broken')
    return builtinEngine.extract(input)
  },
}

/** A valid Field object. */
export function field(key: string, overrides: Record<string, unknown> = {}) {
  return { key, label: `Label of ${key}`, description: `What ${key} is`, required: false, ...overrides }
}

/** Creates a schema through the API and returns its body; fails the test if it is not 201. */
export async function createSchema(t: TestApp, body: Record<string, unknown> = { name: 'Invoices' }, key?: string) {
  const response = await t.call('POST', '/api/v1/schemas', { body, key })
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`)
  return response.body.schema
}

/** Extracts a file through the API as a client does (its `extract` part as given, as `key`'s account) and returns the job; fails the test if the answer is not 200. */
export async function extractedJob(t: TestApp, file: File, extract: Record<string, unknown>, key?: string) {
  const form = new FormData()
  form.set('file', file)
  form.set('extract', JSON.stringify(extract))
  const response = await t.call('POST', '/api/v1/extract', { body: form, key })
  if (response.status !== 200) throw new Error(`extract failed: ${response.status} ${response.text}`)
  return response.body.job
}

/** D5: ISO 8601 UTC with milliseconds and `Z`. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export function expectEnvelope(response: ApiResponse, status: number, code: string, message?: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toContain('application/json')
  expect(response.body.code).toBe(code)
  expect(typeof response.body.error).toBe('string')
  expect(response.body.error.length).toBeGreaterThan(0)
  if (message !== undefined) expect(response.body.error).toBe(message)
}

/** The `path` of every validation detail of an error answer, in the order given. */
export function detailPaths(response: ApiResponse): string[] {
  return (response.body?.details ?? []).map((detail: { path: string }) => detail.path)
}

/**
 * D1/D2: 400 `validation_failed` whose body is exactly `{error, code, details}` and whose details
 * name exactly `paths` (the order is not part of the contract), each with a message.
 */
export function expectValidation(response: ApiResponse, paths: string[]) {
  expectEnvelope(response, 400, 'validation_failed')
  expect(Object.keys(response.body).sort()).toEqual(['code', 'details', 'error'])
  expect([...detailPaths(response)].sort()).toEqual([...paths].sort())
  for (const detail of response.body.details) {
    expect(Object.keys(detail).sort()).toEqual(['message', 'path'])
    expect(typeof detail.message).toBe('string')
    expect(detail.message.length).toBeGreaterThan(0)
  }
}
