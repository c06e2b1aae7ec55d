/**
 * Command line and environment, read once (D27): flags win over environment variables, which
 * win over defaults. `parseCommand` is pure so it can be tested; `readCommand` is the only
 * place that looks at the process.
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'
import { isPostgresUrl } from './db/database'
import { LOG_LEVELS, type LogLevel } from './lib/log'
import { DEFAULT_QUEUE_CAPS, DEFAULT_SYNC_WAIT_MS } from './modules/extraction/queue-limits'
import { DEFAULT_READ_LIMITS, RECOGNISERS, type ReadLimits, type RecogniserName } from './modules/extraction/readers/types'

export interface LlmConfig {
  baseUrl: string
  model: string
  apiKey: string | undefined
  timeoutMs: number
}

export interface ServeConfig {
  host: string
  port: number
  /** A SQLite file, or a postgres:// URL (D98). */
  db: string
  /** Connections in the PostgreSQL pool. */
  dbPoolSize: number
  catalogDir: string | undefined
  logLevel: LogLevel
  /** The extraction engine of new jobs: built in, or an OpenAI-compatible endpoint. */
  engine: 'builtin' | 'openai'
  llm: LlmConfig | undefined
  workers: number
  /** The most threads one page's OCR model runs on; undefined: the cores the jobs running leave it, up to four (D175). */
  ocrThreads: number | undefined
  /** The word reader of scanned pages (D160, D203): `auto` picks PaddleOCR or Tesseract by page. */
  recogniser: RecogniserName
  maxUploadBytes: number
  /** How long a finished job's document is kept; 0 (the default) deletes it when the job ends. */
  keepFilesMs: number
  /** Longest one extraction may run before it is stopped and the job fails. */
  jobTimeoutMs: number
  /** How long a job stays claimed by a server that stopped renewing it (D77). */
  jobLeaseMs: number
  /** Pages per document and pixels per page image that are read (D67). */
  readLimits: ReadLimits
  /** How much each account may have waiting, and how long a synchronous extraction waits (D133, D134). */
  jobQueue: JobQueueConfig
  webhooks: WebhookConfig
}

export interface JobQueueConfig {
  caps: { maxQueuedJobs: number; maxQueuedBytes: number }
  syncWaitMs: number
}

export interface WebhookConfig {
  /** Whether webhook endpoints may point at private and loopback addresses (D83). */
  allowPrivate: boolean
  /** Delay before a failed delivery's first retry; each further one doubles (D84). */
  retryDelayMs: number
}

export type Command =
  | { name: 'help'; text: string }
  | { name: 'version' }
  | { name: 'serve'; config: ServeConfig }
  | { name: 'keys-create'; db: string; account: string }
  | { name: 'keys-list'; db: string; json: boolean }
  | { name: 'keys-revoke'; db: string; keyId: string }
  | { name: 'healthcheck'; url: string }
  | { name: 'db-copy'; from: string; to: string }
  /** Hidden: an extraction process, started by `serve` with an IPC channel (D190). */
  | { name: 'extract-worker' }

/** A usage error: printed as one line, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

type Env = Record<string, string | undefined>

export const DEFAULTS = {
  host: '0.0.0.0',
  port: 8080,
  db: './extractd.sqlite',
  dbPoolSize: 10,
  logLevel: 'info' as LogLevel,
  workers: 2,
  maxUploadMb: 20,
  llmTimeoutMs: 60_000,
  jobTimeout: '5m',
  jobLease: '30s',
  maxPages: DEFAULT_READ_LIMITS.maxPages,
  maxPageMegapixels: DEFAULT_READ_LIMITS.maxPagePixels / 1_000_000,
  maxDocumentMegapixels: DEFAULT_READ_LIMITS.maxDocumentPixels / 1_000_000,
  maxDecodeMb: DEFAULT_READ_LIMITS.maxDecodeBytes / (1024 * 1024),
  webhookRetryDelay: '5s',
  maxQueuedJobs: DEFAULT_QUEUE_CAPS.maxQueuedJobs,
  maxQueuedMb: DEFAULT_QUEUE_CAPS.maxQueuedBytes / 1024 / 1024,
  syncWait: `${DEFAULT_SYNC_WAIT_MS / 1000}s`,
}

/** What each account may have waiting, and how long a synchronous extraction waits, unless the operator says (D133, D134). */
export const DEFAULT_JOB_QUEUE: JobQueueConfig = {
  caps: DEFAULT_QUEUE_CAPS,
  syncWaitMs: DEFAULT_SYNC_WAIT_MS,
}

/** A synchronous wait must end well before an unanswered request's Idempotency-Key is taken for lost (5 minutes, D136). */
const MAX_SYNC_WAIT_MS = 4 * 60_000

const DURATION_UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

function duration(name: string, raw: string): number {
  const match = /^(\d+)(ms|[smhd])$/.exec(raw)
  if (raw === '0') return 0
  if (!match) throw new UsageError(`invalid ${name} "${raw}": expected a duration such as 30m, 12h or 7d (or 0)`)
  return Number(match[1]) * DURATION_UNITS[match[2] as keyof typeof DURATION_UNITS]
}

export const HELP = {
  main: `extractd: structured extraction from documents, as one self-hosted service.

Usage:
  extractd <command> [options]

Commands:
  serve                      Start the HTTP API
  keys create --account NAME Issue an API key (creates the account if new)
  keys list                  List API keys
  keys revoke KEY_ID         Revoke an API key at once
  healthcheck                Exit 0 when the local server answers /healthz (for containers)
  db copy --from PATH --to URL  Copy a SQLite database into an empty PostgreSQL one

Options:
  -h, --help                 Show help (also: extractd <command> --help)
  -v, --version              Print the version

Run 'extractd serve' to start; on a new database it prints a first API key.`,
  serve: `Usage: extractd serve [options]

Start the HTTP API. Flags win over environment variables, which win over defaults.

Options:
  --host HOST           Address to listen on        env HOST                 default ${DEFAULTS.host}
  --port N              Port (0 picks a free one)   env PORT                 default ${DEFAULTS.port}
  --db PATH|URL         SQLite database file, or postgres://user:pass@host:5432/name  env EXTRACTD_DB  default ${DEFAULTS.db}
  --db-pool N           PostgreSQL connections      env EXTRACTD_DB_POOL     default ${DEFAULTS.dbPoolSize}
  --catalog-dir DIR     Extra document types (JSON) env EXTRACTD_CATALOG_DIR default none
  --log-level LEVEL     ${LOG_LEVELS.join('|')}  env EXTRACTD_LOG_LEVEL  default ${DEFAULTS.logLevel}

Extraction:
  --engine NAME         builtin|openai              env EXTRACTD_ENGINE        default builtin
  --workers N           jobs extracted at once      env EXTRACTD_WORKERS       default ${DEFAULTS.workers}
  --ocr-threads N       most cores one page's OCR runs on  env EXTRACTD_OCR_THREADS  default those the other jobs leave, up to 4
  --ocr NAME            ${RECOGNISERS.join('|')}: what reads scanned pages  env EXTRACTD_OCR  default auto
  --max-upload-mb N     largest document, in MiB    env EXTRACTD_MAX_UPLOAD_MB default ${DEFAULTS.maxUploadMb}
  --keep-files DURATION keep documents after their job, e.g. 7d  env EXTRACTD_KEEP_FILES  default 0 (delete)
  --job-timeout DURATION longest one extraction may run          env EXTRACTD_JOB_TIMEOUT default ${DEFAULTS.jobTimeout}
  --job-lease DURATION  how soon another server takes over the jobs of one that died  env EXTRACTD_JOB_LEASE default ${DEFAULTS.jobLease}
  --max-queued-jobs N   jobs one account may have queued or running  env EXTRACTD_MAX_QUEUED_JOBS default ${DEFAULTS.maxQueuedJobs}
  --max-queued-mb N     MiB of documents in them    env EXTRACTD_MAX_QUEUED_MB default ${DEFAULTS.maxQueuedMb}
  --sync-wait DURATION  longest a request without ?async=true waits for its job, then 202 (at most 4m)  env EXTRACTD_SYNC_WAIT default ${DEFAULTS.syncWait}
  --max-pages N         pages read per document     env EXTRACTD_MAX_PAGES     default ${DEFAULTS.maxPages}
  --max-page-megapixels N  largest page image read  env EXTRACTD_MAX_PAGE_MEGAPIXELS default ${DEFAULTS.maxPageMegapixels}
  --max-document-megapixels N  page images of one document together  env EXTRACTD_MAX_DOCUMENT_MEGAPIXELS default ${DEFAULTS.maxDocumentMegapixels}
  --max-decode-mb N     memory one document may take as it is decoded, in MiB  env EXTRACTD_MAX_DECODE_MB default ${DEFAULTS.maxDecodeMb}
  --llm-url URL         OpenAI-compatible base URL, e.g. http://localhost:11434/v1   env EXTRACTD_LLM_URL
  --llm-model NAME      model name                  env EXTRACTD_LLM_MODEL
  --llm-timeout-ms N    per extraction              env EXTRACTD_LLM_TIMEOUT_MS default ${DEFAULTS.llmTimeoutMs}
                        The endpoint's key is read from env EXTRACTD_LLM_API_KEY only (never a flag).

Webhooks:
  --webhooks-allow-private  let endpoints reach private and loopback addresses  env EXTRACTD_WEBHOOKS_ALLOW_PRIVATE=1  default refused
  --webhook-retry-delay DURATION  first retry of a failed delivery, then doubling  env EXTRACTD_WEBHOOK_RETRY_DELAY  default ${DEFAULTS.webhookRetryDelay}
  -h, --help            Show this help`,
  healthcheck: `Usage: extractd healthcheck [--port N]

Exit 0 when http://127.0.0.1:PORT/healthz answers 200 within 2 seconds, else 1.
For container health checks on images without curl.

Options:
  --port N     env PORT   default ${DEFAULTS.port}
  -h, --help   Show this help`,
  keys: `Usage:
  extractd keys create --account NAME [--db PATH|URL]   Issue a key; it is printed once, alone on the last line
  extractd keys list [--json] [--db PATH|URL]           List keys (ID, account, prefix, created, revoked)
  extractd keys revoke KEY_ID [--db PATH|URL]           Revoke a key; requests with it get 401 at once

Options:
  --db PATH|URL  SQLite database file, or postgres://…   env EXTRACTD_DB   default ${DEFAULTS.db}
  -h, --help     Show this help`,
  db: `Usage: extractd db copy --from PATH --to URL

Copy every account, key, schema (with its versions), job and kept document of a SQLite database
into an empty PostgreSQL database, with IDs and timestamps unchanged, and print how many rows
each table had. Both databases are first brought to the latest version. A target that holds any
row is refused; a copy that fails leaves the target empty.

Options:
  --from PATH  SQLite database file                       env EXTRACTD_DB   default ${DEFAULTS.db}
  --to URL     postgres://user:password@host:5432/name (also postgresql://, with ?sslmode=)
  -h, --help   Show this help`,
}

const HELP_FLAG = { help: { type: 'boolean', short: 'h' } } as const

function parse<const O extends ParseArgsOptionsConfig>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...options, ...HELP_FLAG }, allowPositionals: true, strict: true })
  } catch (error) {
    const { code, message } = error as Error & { code?: string }
    const option = /'(-[^' ]+)/.exec(message)?.[1]
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option)
      throw new UsageError(`unknown option '${option}' for '${command}' (see 'extractd ${command} --help')`)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) throw new UsageError(`option '${option}' of '${command}' needs a value`)
    throw new UsageError(message.split('\n')[0]!)
  }
}

function integerIn(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`invalid ${name} "${raw}": expected a whole number from ${min} to ${max}`)
  return Number(raw)
}

function nonEmpty(name: string, raw: string): string {
  if (raw.trim() === '') throw new UsageError(`invalid ${name}: must not be empty`)
  return raw
}

function pick(flag: unknown, envValue: string | undefined): string | undefined {
  if (typeof flag === 'string') return flag
  return envValue === '' ? undefined : envValue
}

/** An on/off environment variable: 1 or true, 0 or false (or unset). */
function flagFromEnv(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === '0' || raw.toLowerCase() === 'false') return false
  if (raw === '1' || raw.toLowerCase() === 'true') return true
  throw new UsageError(`invalid ${name} "${raw}": expected 1 or 0`)
}

function noPositionals(command: string, positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument for '${command}': ${positionals[0]}`)
}

function dbFrom(flag: unknown, env: Env): string {
  return nonEmpty('--db', pick(flag, env.EXTRACTD_DB) ?? DEFAULTS.db)
}

function parseServe(args: string[], env: Env): Command {
  const { values, positionals } = parse('serve', args, {
    host: { type: 'string' },
    port: { type: 'string' },
    db: { type: 'string' },
    'db-pool': { type: 'string' },
    'catalog-dir': { type: 'string' },
    'log-level': { type: 'string' },
    engine: { type: 'string' },
    workers: { type: 'string' },
    'ocr-threads': { type: 'string' },
    ocr: { type: 'string' },
    'max-upload-mb': { type: 'string' },
    'keep-files': { type: 'string' },
    'job-timeout': { type: 'string' },
    'job-lease': { type: 'string' },
    'max-queued-jobs': { type: 'string' },
    'max-queued-mb': { type: 'string' },
    'sync-wait': { type: 'string' },
    'max-pages': { type: 'string' },
    'max-page-megapixels': { type: 'string' },
    'max-document-megapixels': { type: 'string' },
    'max-decode-mb': { type: 'string' },
    'llm-url': { type: 'string' },
    'llm-model': { type: 'string' },
    'llm-timeout-ms': { type: 'string' },
    'webhooks-allow-private': { type: 'boolean' },
    'webhook-retry-delay': { type: 'string' },
  })
  if (values.help) return { name: 'help', text: HELP.serve }
  noPositionals('serve', positionals)
  const port = pick(values.port, env.PORT)
  const dbPool = pick(values['db-pool'], env.EXTRACTD_DB_POOL)
  const logLevel = pick(values['log-level'], env.EXTRACTD_LOG_LEVEL) ?? DEFAULTS.logLevel
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new UsageError(`invalid --log-level "${logLevel}": expected one of ${LOG_LEVELS.join(', ')}`)
  const catalogDir = pick(values['catalog-dir'], env.EXTRACTD_CATALOG_DIR)
  const engine = pick(values.engine, env.EXTRACTD_ENGINE) ?? 'builtin'
  if (engine !== 'builtin' && engine !== 'openai') throw new UsageError(`invalid --engine "${engine}": expected builtin or openai`)
  const llmUrl = pick(values['llm-url'], env.EXTRACTD_LLM_URL)
  const llmModel = pick(values['llm-model'], env.EXTRACTD_LLM_MODEL)
  if (engine === 'openai' && (llmUrl === undefined || llmModel === undefined))
    throw new UsageError('--engine openai needs --llm-url and --llm-model (or EXTRACTD_LLM_URL and EXTRACTD_LLM_MODEL)')
  if (llmUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(llmUrl)) throw new UsageError(`invalid --llm-url "${llmUrl}": expected an http(s) URL`)
  const llmTimeout = pick(values['llm-timeout-ms'], env.EXTRACTD_LLM_TIMEOUT_MS)
  const workers = pick(values.workers, env.EXTRACTD_WORKERS)
  const ocrThreads = pick(values['ocr-threads'], env.EXTRACTD_OCR_THREADS)
  const recogniser = pick(values.ocr, env.EXTRACTD_OCR) ?? 'auto'
  if (!(RECOGNISERS as readonly string[]).includes(recogniser)) throw new UsageError(`invalid --ocr "${recogniser}": expected one of ${RECOGNISERS.join(', ')}`)
  const maxUpload = pick(values['max-upload-mb'], env.EXTRACTD_MAX_UPLOAD_MB)
  const keepFiles = pick(values['keep-files'], env.EXTRACTD_KEEP_FILES)
  const jobTimeoutMs = duration('--job-timeout', pick(values['job-timeout'], env.EXTRACTD_JOB_TIMEOUT) ?? DEFAULTS.jobTimeout)
  if (jobTimeoutMs === 0) throw new UsageError('invalid --job-timeout "0": extractions need some time')
  const jobLeaseMs = duration('--job-lease', pick(values['job-lease'], env.EXTRACTD_JOB_LEASE) ?? DEFAULTS.jobLease)
  if (jobLeaseMs === 0) throw new UsageError('invalid --job-lease "0": a running job needs a lease')
  const maxQueuedJobs = pick(values['max-queued-jobs'], env.EXTRACTD_MAX_QUEUED_JOBS)
  const maxQueuedMb = pick(values['max-queued-mb'], env.EXTRACTD_MAX_QUEUED_MB)
  const syncWaitMs = duration('--sync-wait', pick(values['sync-wait'], env.EXTRACTD_SYNC_WAIT) ?? DEFAULTS.syncWait)
  if (syncWaitMs > MAX_SYNC_WAIT_MS) throw new UsageError('invalid --sync-wait: at most 4m (longer jobs are answered 202 and read with GET /api/v1/jobs/{id})')
  const maxPages = pick(values['max-pages'], env.EXTRACTD_MAX_PAGES)
  const maxPageMegapixels = pick(values['max-page-megapixels'], env.EXTRACTD_MAX_PAGE_MEGAPIXELS)
  const maxDocumentMegapixels = pick(values['max-document-megapixels'], env.EXTRACTD_MAX_DOCUMENT_MEGAPIXELS)
  const maxDecodeMb = pick(values['max-decode-mb'], env.EXTRACTD_MAX_DECODE_MB)
  const allowPrivate = values['webhooks-allow-private'] === true || flagFromEnv('EXTRACTD_WEBHOOKS_ALLOW_PRIVATE', env.EXTRACTD_WEBHOOKS_ALLOW_PRIVATE)
  const retryDelayMs = duration('--webhook-retry-delay', pick(values['webhook-retry-delay'], env.EXTRACTD_WEBHOOK_RETRY_DELAY) ?? DEFAULTS.webhookRetryDelay)
  if (retryDelayMs === 0) throw new UsageError('invalid --webhook-retry-delay "0": retries need some delay')
  return {
    name: 'serve',
    config: {
      host: nonEmpty('--host', pick(values.host, env.HOST) ?? DEFAULTS.host),
      port: port === undefined ? DEFAULTS.port : integerIn('--port', port, 0, 65535),
      db: dbFrom(values.db, env),
      dbPoolSize: dbPool === undefined ? DEFAULTS.dbPoolSize : integerIn('--db-pool', dbPool, 1, 1000),
      catalogDir: catalogDir === undefined ? undefined : nonEmpty('--catalog-dir', catalogDir),
      logLevel: logLevel as LogLevel,
      engine,
      llm:
        engine === 'openai'
          ? {
              baseUrl: llmUrl!,
              model: llmModel!,
              apiKey: env.EXTRACTD_LLM_API_KEY || undefined,
              timeoutMs: llmTimeout === undefined ? DEFAULTS.llmTimeoutMs : integerIn('--llm-timeout-ms', llmTimeout, 100, 3_600_000),
            }
          : undefined,
      workers: workers === undefined ? DEFAULTS.workers : integerIn('--workers', workers, 1, 64),
      ocrThreads: ocrThreads === undefined ? undefined : integerIn('--ocr-threads', ocrThreads, 1, 64),
      recogniser: recogniser as RecogniserName,
      maxUploadBytes: (maxUpload === undefined ? DEFAULTS.maxUploadMb : integerIn('--max-upload-mb', maxUpload, 1, 1024)) * 1024 * 1024,
      keepFilesMs: keepFiles === undefined ? 0 : duration('--keep-files', keepFiles),
      jobTimeoutMs,
      jobLeaseMs,
      readLimits: {
        maxPages: maxPages === undefined ? DEFAULTS.maxPages : integerIn('--max-pages', maxPages, 1, 100_000),
        maxPagePixels:
          (maxPageMegapixels === undefined ? DEFAULTS.maxPageMegapixels : integerIn('--max-page-megapixels', maxPageMegapixels, 1, 1000)) * 1_000_000,
        maxDocumentPixels:
          (maxDocumentMegapixels === undefined ? DEFAULTS.maxDocumentMegapixels : integerIn('--max-document-megapixels', maxDocumentMegapixels, 1, 100_000)) *
          1_000_000,
        maxDecodeBytes: (maxDecodeMb === undefined ? DEFAULTS.maxDecodeMb : integerIn('--max-decode-mb', maxDecodeMb, 16, 4096)) * 1024 * 1024,
        maxReadSeconds: jobTimeoutMs / 1000,
      },
      jobQueue: {
        caps: {
          maxQueuedJobs: maxQueuedJobs === undefined ? DEFAULTS.maxQueuedJobs : integerIn('--max-queued-jobs', maxQueuedJobs, 1, 1_000_000),
          maxQueuedBytes: (maxQueuedMb === undefined ? DEFAULTS.maxQueuedMb : integerIn('--max-queued-mb', maxQueuedMb, 1, 1_048_576)) * 1024 * 1024,
        },
        syncWaitMs,
      },
      webhooks: { allowPrivate, retryDelayMs },
    },
  }
}

function parseKeys(args: string[], env: Env): Command {
  const [sub, ...rest] = args
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') return { name: 'help', text: HELP.keys }
  if (sub === 'create') {
    const { values, positionals } = parse('keys create', rest, { account: { type: 'string' }, db: { type: 'string' } })
    if (values.help) return { name: 'help', text: HELP.keys }
    noPositionals('keys create', positionals)
    if (typeof values.account !== 'string') throw new UsageError("'keys create' needs --account NAME")
    return { name: 'keys-create', db: dbFrom(values.db, env), account: nonEmpty('--account', values.account) }
  }
  if (sub === 'list') {
    const { values, positionals } = parse('keys list', rest, { db: { type: 'string' }, json: { type: 'boolean' } })
    if (values.help) return { name: 'help', text: HELP.keys }
    noPositionals('keys list', positionals)
    return { name: 'keys-list', db: dbFrom(values.db, env), json: values.json === true }
  }
  if (sub === 'revoke') {
    const { values, positionals } = parse('keys revoke', rest, { db: { type: 'string' } })
    if (values.help) return { name: 'help', text: HELP.keys }
    const [keyId, extra] = positionals
    if (keyId === undefined) throw new UsageError("'keys revoke' needs a KEY_ID (see 'extractd keys list')")
    if (extra !== undefined) throw new UsageError(`unexpected argument for 'keys revoke': ${extra}`)
    return { name: 'keys-revoke', db: dbFrom(values.db, env), keyId }
  }
  throw new UsageError(`unknown keys command '${sub}' (expected create, list or revoke)`)
}

function parseDb(args: string[], env: Env): Command {
  const [sub, ...rest] = args
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') return { name: 'help', text: HELP.db }
  if (sub !== 'copy') throw new UsageError(`unknown db command '${sub}' (expected copy)`)
  const { values, positionals } = parse('db copy', rest, { from: { type: 'string' }, to: { type: 'string' } })
  if (values.help) return { name: 'help', text: HELP.db }
  noPositionals('db copy', positionals)
  if (typeof values.to !== 'string') throw new UsageError("'db copy' needs --to postgres://…")
  if (!isPostgresUrl(values.to)) throw new UsageError(`invalid --to "${values.to.replace(/\/\/[^@/]*@/, '//…@')}": expected a postgres:// or postgresql:// URL`)
  const from = dbFrom(values.from, env)
  if (isPostgresUrl(from)) throw new UsageError('--from must be a SQLite database file')
  return { name: 'db-copy', from, to: values.to }
}

function parseHealthcheck(args: string[], env: Env): Command {
  const { values, positionals } = parse('healthcheck', args, { port: { type: 'string' } })
  if (values.help) return { name: 'help', text: HELP.healthcheck }
  noPositionals('healthcheck', positionals)
  const port = pick(values.port, env.PORT)
  return { name: 'healthcheck', url: `http://127.0.0.1:${port === undefined ? DEFAULTS.port : integerIn('--port', port, 1, 65535)}/healthz` }
}

export function parseCommand(argv: string[], env: Env): Command {
  const [first, ...rest] = argv
  switch (first) {
    case undefined:
    case '-h':
    case '--help':
      return { name: 'help', text: HELP.main }
    case 'help':
      return { name: 'help', text: rest[0] !== undefined && Object.hasOwn(HELP, rest[0]) ? HELP[rest[0] as keyof typeof HELP] : HELP.main }
    case '-v':
    case '--version':
    case 'version':
      return { name: 'version' }
    case 'serve':
      return parseServe(rest, env)
    case 'keys':
      return parseKeys(rest, env)
    case 'healthcheck':
      return parseHealthcheck(rest, env)
    case 'db':
      return parseDb(rest, env)
    case 'extract-worker':
      noPositionals('extract-worker', rest)
      return { name: 'extract-worker' }
    default:
      throw new UsageError(first.startsWith('-') ? `unknown option '${first}' (see 'extractd --help')` : `unknown command '${first}' (see 'extractd --help')`)
  }
}

export function readCommand(): Command {
  return parseCommand(process.argv.slice(2), process.env)
}
