/** `extractd serve`: migrate, load the catalog, listen, and stop cleanly on SIGTERM/SIGINT (D25, D28, D193). */
import { createApp } from '../app'
import type { ServeConfig } from '../config'
import { closeDatabase, openDatabase } from '../db/database'
import { batchedLines, createLogger } from '../lib/log'
import { loadCatalog } from '../modules/catalog/service'
import { engineName } from '../modules/extraction/engines/names'
import { createProcessPool } from '../modules/extraction/processes'
import { createJobRunner } from '../modules/extraction/worker'
import { createFirstKey } from '../modules/keys/service'
import { layoutCache } from '../modules/reviews/layout-cache'
import { createDeliveryWorker } from '../modules/webhooks/delivery'
import { VERSION } from '../version'
import type { Output } from './keys'

const FIRST_ACCOUNT = 'default'
/** Bun's own body cap sits above the app's limits, so the app can answer 413 in the envelope. */
const SERVER_BODY_MARGIN = 4 * 1024 * 1024
/**
 * How long a stopping server lets running jobs finish; the rest go back to the queue, for another
 * instance or the next start. With what follows, a stop takes at most about 10 s (D193).
 */
const JOB_GRACE_MS = 8_000
/** How long a stopping server lets webhook attempts under way finish (at the same time); the rest are sent after the next start. */
const DELIVERY_GRACE_MS = 5_000
/** How long a stopping server waits for the answers still being written before it closes their connections. */
const ANSWER_GRACE_MS = 1_000

/**
 * Fails when the address cannot be listened on, before anything is written: with the port taken,
 * `serve` must not first create a database and print a key (D231). Listened on and let go at
 * once, with the options of the real listener, so it fails as that one would.
 */
function checkAddress(host: string, port: number): void {
  try {
    Bun.serve({ hostname: host, port, reusePort: false, development: false, fetch: () => new Response(null, { status: 503 }) }).stop(true)
  } catch (error) {
    const { code, message } = error as Error & { code?: string }
    if (code === 'EADDRINUSE') throw new Error(`port ${port} is in use on ${host} (choose another with --port or PORT)`)
    if (code === 'EADDRNOTAVAIL') throw new Error(`cannot listen on ${host}: no such address on this machine (--host or HOST)`)
    throw new Error(`cannot listen on ${host}, port ${port}: ${message}`)
  }
}

export async function serve(config: ServeConfig, io: Output): Promise<void> {
  const log = createLogger(config.logLevel, batchedLines(io.out))
  const catalog = loadCatalog({ extraDir: config.catalogDir })
  checkAddress(config.host, config.port)
  const database = await openDatabase(config.db, { poolSize: config.dbPoolSize })

  const first = await createFirstKey(database, FIRST_ACCOUNT)
  if (first) {
    io.out(`No API key existed, so account "${first.accountName}" and key ${first.id} were created.`)
    io.out('Use it as "Authorization: Bearer <key>". It is shown only this once:')
    io.out(first.key)
  }

  const engine = engineName(config.llm)
  const processes = createProcessPool({
    size: config.workers,
    llm: config.llm,
    timeoutMs: config.jobTimeoutMs,
    ocrThreads: config.ocrThreads,
    recogniser: config.recogniser,
    log,
  })
  const runner = createJobRunner({
    database,
    extract: processes.extract,
    catalog,
    concurrency: config.workers,
    keepFileMs: config.keepFilesMs,
    readLimits: config.readLimits,
    leaseMs: config.jobLeaseMs,
    ...config.jobQueue,
    log,
    layoutsOf: layoutCache(database).of,
  })
  const deliveries = createDeliveryWorker({ database, log, ...config.webhooks })
  const app = createApp({
    database,
    catalog,
    log,
    extraction: { runner, engineName: engine, maxUploadBytes: config.maxUploadBytes },
    webhooks: { allowPrivate: config.webhooks.allowPrivate },
  })

  // Installed before listening, so a signal that arrives during start-up still stops cleanly.
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('stopping', { signal })
    // No new connections. Open requests are not awaited here: a synchronous extraction waits for
    // its job, which the runner's stop ends, gives back or leaves queued (D193).
    const server = app.server
    const closed = server?.stop().then(() => true)
    await Promise.all([runner.stop(JOB_GRACE_MS), deliveries.stop(DELIVERY_GRACE_MS)])
    processes.close()
    if (server && !(await Promise.race([closed, Bun.sleep(ANSWER_GRACE_MS).then(() => false)]))) await server.stop(true)
    await closeDatabase(database)
    log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))

  // Before listening: what a stopped process left behind is queued again before any new job is claimed.
  runner.start()
  deliveries.start()
  // Elysia turns on Bun's development mode unless NODE_ENV is "production"; a server never wants it.
  app.listen({
    hostname: config.host,
    port: config.port,
    maxRequestBodySize: config.maxUploadBytes + SERVER_BODY_MARGIN,
    development: false,
    // Elysia shares the port with any other server on it (SO_REUSEPORT); a second extractd started
    // on a taken port, perhaps on another database, must fail instead of quietly taking half the requests (D79).
    reusePort: false,
  })
  const server = app.server!
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${server.port}`
  log.info('extractd started', {
    version: VERSION,
    listen: `${config.host}:${server.port}`,
    url,
    docs: `${url}/docs`,
    db: database.shown,
    document_types: catalog.slugs().length,
    engine,
    workers: config.workers,
  })
}
