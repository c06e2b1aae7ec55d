/** The command line and environment (D27): parseCommand(argv, env) is pure, so it is tested directly. */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { HELP, parseCommand, type ServeConfig, UsageError } from '../src/config'

function serveConfig(argv: string[], env: Record<string, string | undefined> = {}) {
  const command = parseCommand(['serve', ...argv], env)
  if (command.name !== 'serve') throw new Error(`expected serve, got ${command.name}`)
  return command.config
}

/** `serve` with no flags and no environment: the defaults of D27 and D56, written out here as the oracle. */
const DEFAULT_CONFIG: ServeConfig = {
  host: '0.0.0.0',
  port: 8080,
  db: './extractd.sqlite',
  dbPoolSize: 10,
  catalogDir: undefined,
  logLevel: 'info',
  engine: 'builtin',
  llm: undefined,
  workers: 2,
  ocrThreads: undefined,
  recogniser: 'auto',
  maxUploadBytes: 20 * 1024 * 1024,
  keepFilesMs: 0,
  jobTimeoutMs: 5 * 60_000,
  jobLeaseMs: 30_000,
  readLimits: { maxPages: 100, maxPagePixels: 40_000_000, maxDocumentPixels: 1_000_000_000, maxDecodeBytes: 256 * 1024 * 1024, maxReadSeconds: 300 },
  jobQueue: { caps: { maxQueuedJobs: 500, maxQueuedBytes: 512 * 1024 * 1024 }, syncWaitMs: 55_000 },
  webhooks: { allowPrivate: false, retryDelayMs: 5000 },
}

/** Runs `parse` and returns the UsageError it throws; fails if it throws nothing or something else. */
function usageError(parse: () => unknown): UsageError {
  try {
    parse()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    const message = (error as UsageError).message
    expect(message.length).toBeGreaterThan(0)
    expect(message).not.toContain('\n')
    return error as UsageError
  }
  throw new Error('expected a UsageError')
}

describe('serve: webhook options (D83, D84)', () => {
  test('refuses private addresses and retries after 5 s unless told otherwise', () => {
    expect(serveConfig([]).webhooks).toEqual({ allowPrivate: false, retryDelayMs: 5000 })
  })

  test('--webhooks-allow-private or EXTRACTD_WEBHOOKS_ALLOW_PRIVATE=1 allows private addresses', () => {
    expect(serveConfig(['--webhooks-allow-private']).webhooks.allowPrivate).toBe(true)
    expect(serveConfig([], { EXTRACTD_WEBHOOKS_ALLOW_PRIVATE: '1' }).webhooks.allowPrivate).toBe(true)
    expect(serveConfig([], { EXTRACTD_WEBHOOKS_ALLOW_PRIVATE: 'true' }).webhooks.allowPrivate).toBe(true)
    expect(serveConfig([], { EXTRACTD_WEBHOOKS_ALLOW_PRIVATE: '0' }).webhooks.allowPrivate).toBe(false)
    expect(serveConfig([], { EXTRACTD_WEBHOOKS_ALLOW_PRIVATE: '' }).webhooks.allowPrivate).toBe(false)
    expect(usageError(() => parseCommand(['serve'], { EXTRACTD_WEBHOOKS_ALLOW_PRIVATE: 'yes please' })).message).toContain('EXTRACTD_WEBHOOKS_ALLOW_PRIVATE')
  })

  test('--webhook-retry-delay takes a duration, milliseconds included, but not 0', () => {
    expect(serveConfig(['--webhook-retry-delay', '200ms']).webhooks.retryDelayMs).toBe(200)
    expect(serveConfig([], { EXTRACTD_WEBHOOK_RETRY_DELAY: '1m' }).webhooks.retryDelayMs).toBe(60_000)
    expect(usageError(() => parseCommand(['serve', '--webhook-retry-delay', '0'], {})).message).toContain('--webhook-retry-delay')
    expect(usageError(() => parseCommand(['serve', '--webhook-retry-delay', 'soon'], {})).message).toContain('--webhook-retry-delay')
  })

  test('the serve help names both settings', () => {
    expect(HELP.serve).toContain('--webhooks-allow-private')
    expect(HELP.serve).toContain('EXTRACTD_WEBHOOKS_ALLOW_PRIVATE')
    expect(HELP.serve).toContain('--webhook-retry-delay')
  })
})

describe('serve: extraction options', () => {
  test('defaults to the built-in engine, 2 workers, 20 MiB uploads and no kept files', () => {
    expect(serveConfig([])).toMatchObject({ engine: 'builtin', llm: undefined, workers: 2, maxUploadBytes: 20 * 1024 * 1024, keepFilesMs: 0 })
    expect(serveConfig([])).toEqual(DEFAULT_CONFIG)
  })

  test('reads the language-model engine from flags, its key only from the environment', () => {
    const config = serveConfig(['--engine', 'openai', '--llm-url', 'http://127.0.0.1:11434/v1', '--llm-model', 'qwen', '--llm-timeout-ms', '5000'], {
      EXTRACTD_LLM_API_KEY: 'sk-secret',
    })
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      engine: 'openai',
      llm: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen', apiKey: 'sk-secret', timeoutMs: 5000 },
    })
  })

  test('stops an extraction after 5 minutes unless --job-timeout says otherwise', () => {
    expect(serveConfig([]).jobTimeoutMs).toBe(5 * 60_000)
    expect(serveConfig(['--job-timeout', '90s']).jobTimeoutMs).toBe(90_000)
    expect(serveConfig([], { EXTRACTD_JOB_TIMEOUT: '1h' }).jobTimeoutMs).toBe(3_600_000)
    expect(usageError(() => parseCommand(['serve', '--job-timeout', '0'], {})).message).toContain('--job-timeout')
  })

  test('leases running jobs for 30 seconds unless --job-lease says otherwise (D77)', () => {
    expect(serveConfig(['--job-lease', '5s']).jobLeaseMs).toBe(5_000)
    expect(serveConfig([], { EXTRACTD_JOB_LEASE: '2m' }).jobLeaseMs).toBe(120_000)
    expect(usageError(() => parseCommand(['serve', '--job-lease', '0'], {})).message).toContain('--job-lease')
    expect(usageError(() => parseCommand(['serve', '--job-lease', 'soon'], {})).message).toContain('--job-lease')
  })

  test('caps what one account may have waiting, and how long a synchronous extraction waits, unless told otherwise (D133, D134)', () => {
    expect(serveConfig(['--max-queued-jobs', '20', '--max-queued-mb', '64', '--sync-wait', '10s']).jobQueue).toEqual({
      caps: { maxQueuedJobs: 20, maxQueuedBytes: 64 * 1024 * 1024 },
      syncWaitMs: 10_000,
    })
    expect(serveConfig([], { EXTRACTD_MAX_QUEUED_JOBS: '7', EXTRACTD_SYNC_WAIT: '0' }).jobQueue).toEqual({
      caps: { maxQueuedJobs: 7, maxQueuedBytes: 512 * 1024 * 1024 },
      syncWaitMs: 0,
    })
    expect(usageError(() => parseCommand(['serve', '--max-queued-jobs', '0'], {})).message).toContain('--max-queued-jobs')
    expect(usageError(() => parseCommand(['serve', '--max-queued-mb', 'lots'], {})).message).toContain('--max-queued-mb')
    expect(usageError(() => parseCommand(['serve', '--sync-wait', '5m'], {})).message).toContain('--sync-wait')
  })

  test('reads workers, upload limit and file retention from the environment', () => {
    expect(serveConfig([], { EXTRACTD_WORKERS: '4', EXTRACTD_MAX_UPLOAD_MB: '5', EXTRACTD_KEEP_FILES: '7d' })).toEqual({
      ...DEFAULT_CONFIG,
      workers: 4,
      maxUploadBytes: 5 * 1024 * 1024,
      keepFilesMs: 7 * 86_400_000,
    })
  })

  test('reads the decode budget and the pixels per document from flags or the environment (D120)', () => {
    expect(serveConfig(['--max-decode-mb', '64', '--max-document-megapixels', '200'], {}).readLimits).toEqual({
      ...DEFAULT_CONFIG.readLimits,
      maxDecodeBytes: 64 * 1024 * 1024,
      maxDocumentPixels: 200_000_000,
    })
    expect(serveConfig([], { EXTRACTD_MAX_DECODE_MB: '1024', EXTRACTD_MAX_DOCUMENT_MEGAPIXELS: '5000' }).readLimits).toEqual({
      ...DEFAULT_CONFIG.readLimits,
      maxDecodeBytes: 1024 * 1024 * 1024,
      maxDocumentPixels: 5_000_000_000,
    })
    for (const word of ['--max-decode-mb', 'EXTRACTD_MAX_DECODE_MB', '--max-document-megapixels', 'EXTRACTD_MAX_DOCUMENT_MEGAPIXELS'])
      expect(HELP.serve).toContain(word)
  })

  test('gives the readers the time a job may run, to refuse page images that would take longer (D187)', () => {
    expect(serveConfig(['--job-timeout', '90s'], {}).readLimits.maxReadSeconds).toBe(90)
    expect(serveConfig([], { EXTRACTD_JOB_TIMEOUT: '10m' }).readLimits.maxReadSeconds).toBe(600)
  })

  test("reads the most threads one page's OCR runs on from a flag or the environment (D175)", () => {
    expect(serveConfig(['--ocr-threads', '1'], {}).ocrThreads).toBe(1)
    expect(serveConfig([], { EXTRACTD_OCR_THREADS: '8' }).ocrThreads).toBe(8)
    expect(serveConfig(['--ocr-threads', '2'], { EXTRACTD_OCR_THREADS: '8' }).ocrThreads).toBe(2)
    for (const word of ['--ocr-threads', 'EXTRACTD_OCR_THREADS']) expect(HELP.serve).toContain(word)
  })

  test('reads the word reader of scanned pages from a flag or the environment, here only (D160, D203)', () => {
    expect(serveConfig(['--ocr', 'tesseract'], {}).recogniser).toBe('tesseract')
    expect(serveConfig([], { EXTRACTD_OCR: 'mix' }).recogniser).toBe('mix')
    expect(serveConfig(['--ocr', 'paddle'], { EXTRACTD_OCR: 'mix' }).recogniser).toBe('paddle')
    expect(serveConfig([], { EXTRACTD_OCR: '' }).recogniser).toBe('auto')
    expect(usageError(() => serveConfig([], { EXTRACTD_OCR: 'nonsense' })).message).toBe(
      'invalid --ocr "nonsense": expected one of auto, tesseract, paddle, mix',
    )
    for (const word of ['--ocr NAME', 'EXTRACTD_OCR ']) expect(HELP.serve).toContain(word)
  })

  test.each([
    [['--ocr-threads', '0'], '--ocr-threads'],
    [['--ocr-threads', 'all'], '--ocr-threads'],
    [['--engine', 'magic'], 'magic'],
    [['--engine', 'openai'], '--llm-url'],
    [['--engine', 'openai', '--llm-url', 'localhost', '--llm-model', 'm'], '--llm-url'],
    [['--workers', '0'], '--workers'],
    [['--max-upload-mb', '-1'], '--max-upload-mb'],
    [['--keep-files', '7 days'], '--keep-files'],
    [['--llm-key', 'sk-on-the-command-line'], '--llm-key'],
    [['--max-decode-mb', '15'], '--max-decode-mb'],
    [['--max-decode-mb', '4097'], '--max-decode-mb'],
    [['--max-document-megapixels', '0'], '--max-document-megapixels'],
  ])('refuses %p with one line naming %p', (argv, named) => {
    expect(usageError(() => parseCommand(['serve', ...argv], {})).message).toContain(named)
  })
})

describe('serve', () => {
  test('uses the defaults 0.0.0.0, 8080, ./extractd.sqlite, no catalog dir and info', () => {
    expect(serveConfig([])).toEqual({
      ...DEFAULT_CONFIG,
      host: '0.0.0.0',
      port: 8080,
      db: './extractd.sqlite',
      catalogDir: undefined,
      logLevel: 'info',
    })
  })

  test('reads HOST, PORT, EXTRACTD_DB, EXTRACTD_CATALOG_DIR and EXTRACTD_LOG_LEVEL', () => {
    const env = {
      HOST: '127.0.0.1',
      PORT: '9090',
      EXTRACTD_DB: '/var/lib/extractd/data.sqlite',
      EXTRACTD_CATALOG_DIR: '/etc/extractd/types',
      EXTRACTD_LOG_LEVEL: 'debug',
    }
    expect(serveConfig([], env)).toEqual({
      ...DEFAULT_CONFIG,
      host: '127.0.0.1',
      port: 9090,
      db: '/var/lib/extractd/data.sqlite',
      catalogDir: '/etc/extractd/types',
      logLevel: 'debug',
    })
  })

  test('reads the flags --host, --port, --db, --catalog-dir and --log-level', () => {
    const argv = ['--host', '::1', '--port', '3000', '--db', 'test.sqlite', '--catalog-dir', './types', '--log-level', 'warn']
    expect(serveConfig(argv)).toEqual({
      ...DEFAULT_CONFIG,
      host: '::1',
      port: 3000,
      db: 'test.sqlite',
      catalogDir: './types',
      logLevel: 'warn',
    })
  })

  test('D98: --db takes a postgres:// or postgresql:// URL as it is; --db-pool and EXTRACTD_DB_POOL size the pool', () => {
    const url = 'postgresql://extractd:s3cret@db.internal:5432/extractd?sslmode=require'
    expect(serveConfig(['--db', url, '--db-pool', '25'])).toEqual({ ...DEFAULT_CONFIG, db: url, dbPoolSize: 25 })
    expect(serveConfig([], { EXTRACTD_DB: 'postgres://h/x', EXTRACTD_DB_POOL: '3' })).toEqual({ ...DEFAULT_CONFIG, db: 'postgres://h/x', dbPoolSize: 3 })
    expect(parseCommand(['keys', 'list', '--db', url], {})).toEqual({ name: 'keys-list', db: url, json: false })
  })

  test.each(['0', '1001', 'x', '2.5'])('--db-pool %p is a UsageError naming --db-pool', (value) => {
    expect(() => serveConfig(['--db-pool', value])).toThrow(UsageError)
    expect(() => serveConfig(['--db-pool', value])).toThrow(/--db-pool/)
  })

  test('accepts flags in the --name=value form', () => {
    expect(serveConfig(['--port=4000', '--db=a.sqlite', '--log-level=error'])).toEqual({
      ...DEFAULT_CONFIG,
      port: 4000,
      db: 'a.sqlite',
      logLevel: 'error',
    })
  })

  test('lets flags win over environment variables', () => {
    const env = {
      HOST: '10.0.0.1',
      PORT: '9090',
      EXTRACTD_DB: 'env.sqlite',
      EXTRACTD_CATALOG_DIR: '/env/types',
      EXTRACTD_LOG_LEVEL: 'debug',
    }
    const argv = ['--host', '127.0.0.1', '--port', '7070', '--db', 'flag.sqlite', '--catalog-dir', '/flag/types', '--log-level', 'silent']
    expect(serveConfig(argv, env)).toEqual({
      ...DEFAULT_CONFIG,
      host: '127.0.0.1',
      port: 7070,
      db: 'flag.sqlite',
      catalogDir: '/flag/types',
      logLevel: 'silent',
    })
  })

  test('treats empty environment variables as unset', () => {
    const env = { HOST: '', PORT: '', EXTRACTD_DB: '', EXTRACTD_CATALOG_DIR: '', EXTRACTD_LOG_LEVEL: '' }
    expect(serveConfig([], env)).toEqual(DEFAULT_CONFIG)
  })

  test('ignores unrelated environment variables', () => {
    expect(serveConfig([], { DB: 'x.sqlite', LOG_LEVEL: 'debug', EXTRACTD_PORT: '1' })).toEqual(DEFAULT_CONFIG)
  })

  test('accepts port 0 (pick a free port) and 65535', () => {
    expect(serveConfig(['--port', '0']).port).toBe(0)
    expect(serveConfig(['--port', '65535']).port).toBe(65535)
  })

  test('accepts every documented log level', () => {
    for (const level of ['debug', 'info', 'warn', 'error', 'silent']) expect(serveConfig(['--log-level', level]).logLevel).toBe(level as never)
  })

  test.each(['abc', '70000', '-1', '65536', '80.5', '1e3', ' 80'])('rejects --port=%p with a one-line UsageError', (port) => {
    const error = usageError(() => parseCommand(['serve', `--port=${port}`], {}))
    expect(error.message).toContain('port')
  })

  test.each(['abc', '70000', '-1'])('rejects PORT=%p from the environment with a one-line UsageError', (port) => {
    const error = usageError(() => parseCommand(['serve'], { PORT: port }))
    expect(error.message).toContain(port)
  })

  test('rejects --port -1 given as two arguments with a one-line UsageError', () => {
    expect(usageError(() => parseCommand(['serve', '--port', '-1'], {})).message).toContain('--port')
  })

  test('rejects an unknown log level with a one-line UsageError naming it', () => {
    const error = usageError(() => parseCommand(['serve', '--log-level', 'verbose'], {}))
    expect(error.message).toContain('verbose')
  })

  test('rejects an unknown EXTRACTD_LOG_LEVEL with a one-line UsageError naming it', () => {
    const error = usageError(() => parseCommand(['serve'], { EXTRACTD_LOG_LEVEL: 'INFO' }))
    expect(error.message).toContain('INFO')
  })

  test('rejects an unknown flag with a one-line UsageError naming it', () => {
    const error = usageError(() => parseCommand(['serve', '--prot', '8080'], {}))
    expect(error.message).toContain('--prot')
  })

  test('rejects a flag that needs a value but has none', () => {
    expect(usageError(() => parseCommand(['serve', '--port'], {})).message).toContain('--port')
  })

  test('rejects an unexpected positional argument', () => {
    const error = usageError(() => parseCommand(['serve', 'now'], {}))
    expect(error.message).toContain('now')
  })

  test('rejects an empty --db or --host', () => {
    expect(usageError(() => parseCommand(['serve', '--db', ''], {})).message).toContain('--db')
    expect(usageError(() => parseCommand(['serve', '--host', ''], {})).message).toContain('--host')
  })

  test.each([['--help'], ['-h']])('%s gives the serve help', (flag) => {
    expect(parseCommand(['serve', flag], {})).toEqual({ name: 'help', text: HELP.serve })
  })

  test('--help wins over invalid values', () => {
    expect(parseCommand(['serve', '--port', 'abc', '--help'], {})).toEqual({ name: 'help', text: HELP.serve })
  })

  test('the serve help names every flag and environment variable', () => {
    for (const word of [
      '--host',
      '--port',
      '--db',
      '--catalog-dir',
      '--log-level',
      'HOST',
      'PORT',
      'EXTRACTD_DB',
      'EXTRACTD_CATALOG_DIR',
      'EXTRACTD_LOG_LEVEL',
    ])
      expect(HELP.serve).toContain(word)
  })
})

describe('help, version and unknown commands', () => {
  test.each([[[]], [['--help']], [['-h']], [['help']]])('%p gives the main help', (argv) => {
    expect(parseCommand(argv as string[], {})).toEqual({ name: 'help', text: HELP.main })
  })

  test('the main help lists the commands and options', () => {
    for (const word of ['serve', 'keys create', 'keys list', 'keys revoke', '--help', '--version']) expect(HELP.main).toContain(word)
  })

  test('help serve and help keys give the help of that command', () => {
    expect(parseCommand(['help', 'serve'], {})).toEqual({ name: 'help', text: HELP.serve })
    expect(parseCommand(['help', 'keys'], {})).toEqual({ name: 'help', text: HELP.keys })
  })

  test.each(['constructor', 'toString', '__proto__', 'nope'])('help %s gives the main help, never an object member', (word) => {
    expect(parseCommand(['help', word], {})).toEqual({ name: 'help', text: HELP.main })
  })

  test.each([['--version'], ['-v'], ['version']])('%s gives the version', (flag) => {
    expect(parseCommand([flag], {})).toEqual({ name: 'version' })
  })

  test('rejects an unknown command with a one-line UsageError naming it', () => {
    const error = usageError(() => parseCommand(['start'], {}))
    expect(error.message).toContain('start')
  })

  test('rejects an unknown top-level flag with a one-line UsageError naming it', () => {
    const error = usageError(() => parseCommand(['--verbose'], {}))
    expect(error.message).toContain('--verbose')
  })
})

describe('keys', () => {
  test.each([[['keys']], [['keys', '--help']], [['keys', '-h']], [['keys', 'help']]])('%p gives the keys help', (argv) => {
    expect(parseCommand(argv as string[], {})).toEqual({ name: 'help', text: HELP.keys })
  })

  test.each([['create'], ['list'], ['revoke']])('keys %s --help gives the keys help', (sub) => {
    expect(parseCommand(['keys', sub, '--help'], {})).toEqual({ name: 'help', text: HELP.keys })
  })

  test('keys create --account NAME issues a key for that account on the default database', () => {
    expect(parseCommand(['keys', 'create', '--account', 'acme'], {})).toEqual({
      name: 'keys-create',
      db: './extractd.sqlite',
      account: 'acme',
    })
  })

  test('keys create takes --db, which wins over EXTRACTD_DB', () => {
    expect(parseCommand(['keys', 'create', '--account', 'acme', '--db', 'flag.sqlite'], { EXTRACTD_DB: 'env.sqlite' })).toEqual({
      name: 'keys-create',
      db: 'flag.sqlite',
      account: 'acme',
    })
    expect(parseCommand(['keys', 'create', '--account', 'acme'], { EXTRACTD_DB: 'env.sqlite' })).toEqual({
      name: 'keys-create',
      db: 'env.sqlite',
      account: 'acme',
    })
  })

  test('keys create without --account is a one-line UsageError naming --account', () => {
    const error = usageError(() => parseCommand(['keys', 'create'], {}))
    expect(error.message).toContain('--account')
  })

  test('keys create with an empty --account is a UsageError', () => {
    expect(usageError(() => parseCommand(['keys', 'create', '--account', ''], {})).message).toContain('--account')
  })

  test('keys create rejects an unknown flag', () => {
    const error = usageError(() => parseCommand(['keys', 'create', '--account', 'acme', '--name', 'x'], {}))
    expect(error.message).toContain('--name')
  })

  test('keys list gives a table by default and JSON with --json', () => {
    expect(parseCommand(['keys', 'list'], {})).toEqual({ name: 'keys-list', db: './extractd.sqlite', json: false })
    expect(parseCommand(['keys', 'list', '--json'], {})).toEqual({ name: 'keys-list', db: './extractd.sqlite', json: true })
  })

  test('keys list reads EXTRACTD_DB and --db', () => {
    expect(parseCommand(['keys', 'list', '--json'], { EXTRACTD_DB: 'env.sqlite' })).toEqual({ name: 'keys-list', db: 'env.sqlite', json: true })
    expect(parseCommand(['keys', 'list', '--db', 'flag.sqlite'], { EXTRACTD_DB: 'env.sqlite' })).toEqual({ name: 'keys-list', db: 'flag.sqlite', json: false })
  })

  test('keys revoke KEY_ID revokes that key', () => {
    expect(parseCommand(['keys', 'revoke', 'key_0000000000aaaaaaaaaaaaaaaaaaaa'], {})).toEqual({
      name: 'keys-revoke',
      db: './extractd.sqlite',
      keyId: 'key_0000000000aaaaaaaaaaaaaaaaaaaa',
    })
  })

  test('keys revoke without KEY_ID is a one-line UsageError naming KEY_ID', () => {
    const error = usageError(() => parseCommand(['keys', 'revoke'], {}))
    expect(error.message).toContain('KEY_ID')
  })

  test('keys revoke with two IDs is a UsageError', () => {
    expect(usageError(() => parseCommand(['keys', 'revoke', 'key_a', 'key_b'], {})).message).toContain('key_b')
  })

  test('an unknown keys subcommand is a one-line UsageError naming it', () => {
    const error = usageError(() => parseCommand(['keys', 'delete'], {}))
    expect(error.message).toContain('delete')
  })
})

describe('db copy', () => {
  const TO = 'postgres://extractd:secret@db:5432/extractd?sslmode=require'

  test.each([[['db']], [['db', '--help']], [['db', 'copy', '--help']]])('%p gives the db help', (argv) => {
    expect(parseCommand(argv as string[], {})).toEqual({ name: 'help', text: HELP.db })
  })

  test('copies from --from, else EXTRACTD_DB, else the default file, to --to', () => {
    expect(parseCommand(['db', 'copy', '--from', 'a.sqlite', '--to', TO], { EXTRACTD_DB: 'env.sqlite' })).toEqual({ name: 'db-copy', from: 'a.sqlite', to: TO })
    expect(parseCommand(['db', 'copy', '--to', TO], { EXTRACTD_DB: 'env.sqlite' })).toEqual({ name: 'db-copy', from: 'env.sqlite', to: TO })
    expect(parseCommand(['db', 'copy', '--to', 'postgresql://h/x'], {})).toEqual({ name: 'db-copy', from: './extractd.sqlite', to: 'postgresql://h/x' })
  })

  test.each([
    [['db', 'copy'], '--to'],
    [['db', 'copy', '--to', 'mysql://h/x'], 'postgres://'],
    [['db', 'copy', '--to', TO, '--from', TO], 'SQLite'],
    [['db', 'move'], "unknown db command 'move'"],
  ])('%p is a UsageError naming %s', (argv, named) => {
    expect(usageError(() => parseCommand(argv as string[], {})).message).toContain(named)
  })

  test('a refused --to never shows its password', () => {
    expect(usageError(() => parseCommand(['db', 'copy', '--to', 'mysql://u:secret@h/x'], {})).message).not.toContain('secret')
  })
})

describe('configuration is read in one place', () => {
  test('no file of src but config.ts reads the environment or the command line (D27, D203)', async () => {
    const readers: string[] = []
    for await (const file of new Bun.Glob('src/**/*.{ts,tsx}').scan({ cwd: join(import.meta.dir, '..') })) {
      if (file === 'src/config.ts' || file.includes('/generated/')) continue
      const code = (await Bun.file(join(import.meta.dir, '..', file)).text()).replace(/^\s*(\*|\/\/).*$/gm, '')
      // A read, not a write (ONNX Runtime's telemetry is switched off by setting its variable, D161) nor a bundler's define (a string).
      const reads = [...code.matchAll(/(?<!['"`])\b(?:process|Bun)\.(?:env|argv)(?:\.\w+|\[[^\]]*\])?(?![\w.[])(?!\s*=[^=])/g)].map((match) => match[0])
      if (reads.length > 0) readers.push(`${file}: ${reads.join(', ')}`)
    }
    expect(readers).toEqual([])
  })
})
