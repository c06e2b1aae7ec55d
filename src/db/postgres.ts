/**
 * PostgreSQL: a pool of connections through node-postgres (`pg`, pure JavaScript, so the binary
 * stays one file), Drizzle over it, the embedded migrations applied once however many instances
 * start together (D98); and what only PostgreSQL does for the interface of dialect.ts: each step
 * of a transaction body awaited on one connection, row and advisory locks, and NOTIFY and LISTEN
 * between instances (D210). Loaded only for a PostgreSQL database (D150).
 */
import { sql } from 'drizzle-orm'
import type { MigrationConfig, MigrationMeta } from 'drizzle-orm/migrator'
import { drizzle } from 'drizzle-orm/node-postgres'
import type { PgSelect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import {
  type Body,
  type Dialect,
  OutsideTransactionError,
  type Part,
  type Preparable,
  type Queries,
  type Statement,
  type Step,
  sessionOf,
  statement,
} from './dialect'
import { embeddedPgMigrations } from './embed-pg-migrations' with { type: 'macro' }

export const pgMigrations: MigrationMeta[] = embeddedPgMigrations()

/** Any number unique to extractd: the session advisory lock its instances take turns on to migrate. */
export const MIGRATION_LOCK = 0x65787472 // "extr"

/** A server that cannot be reached fails a request (503) after this long rather than holding it. */
const CONNECT_TIMEOUT_MS = 10_000
/** How soon a lost listening connection is made again. */
const RELISTEN_MS = 1_000

function connectionConfig(url: string): pg.ClientConfig {
  return { connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'extractd' }
}

export interface PostgresOptions {
  /** Connections in the pool. */
  max?: number
}

type Transaction = Parameters<Parameters<ReturnType<typeof drizzle<Record<string, never>, pg.PoolClient>>['transaction']>[0]>[0]

/** A body's steps, each awaited and its result (or error) handed back to it. */
async function drive<T>(body: Part<T>, perform: (step: Step) => Promise<unknown>): Promise<T> {
  let next = body.next()
  while (!next.done) {
    let result: unknown
    try {
      result = await perform(next.value)
    } catch (error) {
      next = body.throw(error)
      continue
    }
    next = body.next(result)
  }
  return next.value
}

export function openPostgres(url: string, { max = 10 }: PostgresOptions = {}) {
  const pool = new pg.Pool({ ...connectionConfig(url), max })
  // A connection the server dropped is reported as an 'error' event: on the pool while it is idle,
  // on the connection itself while it is checked out (a transaction), where no one listens. An
  // unheard 'error' event ends the process; the query under way fails anyway (503), and the pool
  // replaces the connection when next needed.
  pool.on('error', () => {})
  pool.on('connect', (connection) => connection.on('error', () => {}))
  const drizzleDb = drizzle({ client: pool })
  const db: Queries = drizzleDb
  /** How to make each prepared statement again on a transaction's connection. */
  const builds = new WeakMap<Statement<unknown>, { name: string; build: (q: Queries) => Preparable<unknown> }>()

  /**
   * Runs `work` in a transaction on one connection of the pool. Drizzle's own `db.transaction`
   * on a pool sends BEGIN before the try whose `finally` gives the connection back: a connection
   * the server drops as it is handed out (a restart, a failover, an operator ending sessions)
   * fails BEGIN and is never returned, so the pool loses it for good and, after as many such
   * moments as it has connections, waits forever. Here the connection goes back whatever fails;
   * the pool discards a broken one.
   */
  async function onOneConnection<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const connection = await pool.connect()
    try {
      return await drizzle({ client: connection }).transaction(work)
    } finally {
      connection.release()
    }
  }

  async function perform(tx: Transaction, step: Step): Promise<unknown> {
    const own = (query: PromiseLike<unknown>) => {
      if (sessionOf(query) !== (tx as unknown as { session: unknown }).session) throw new OutsideTransactionError()
      return query
    }
    const locked = <Q>(query: Q, forUpdate: { skipLocked: boolean } | undefined): Q =>
      forUpdate ? ((query as unknown as PgSelect).for('update', forUpdate.skipLocked ? { skipLocked: true } : {}) as Q) : query
    switch (step.kind) {
      case 'query':
        return locked(own(step.query), step.forUpdate)
      case 'statement': {
        // Prepared by name on this connection: PostgreSQL parses it once per connection.
        const { name, build } = builds.get(step.statement)!
        return locked(build(tx), step.forUpdate)
          .prepare(step.forUpdate ? `${name}_for_update` : name)
          .execute(step.values)
      }
      case 'rows':
        return (await tx.execute(step.query)).rows
      case 'lock':
        return tx.execute(
          step.key === undefined ? sql`select pg_advisory_xact_lock(${step.space})` : sql`select pg_advisory_xact_lock(${step.space}, hashtext(${step.key}))`,
        )
      case 'notify':
        return tx.execute(sql`select pg_notify(${step.channel}, '')`)
    }
  }

  const dialect: Dialect = {
    db,
    transaction: <T>(body: Body<T>) => onOneConnection((tx) => drive(body(tx), (step) => perform(tx, step))),

    prepare(name, build) {
      const query = build(db).prepare(name)
      const made = statement((values) => query.execute(values))
      builds.set(made, { name, build })
      return made
    },

    listen: (channel, wake) => listen(url, channel, wake),
    // D101: PostgreSQL has no counter of other instances' commits.
    dataVersion: () => undefined,
    reclaimSpace: async () => {},

    answers: async () => {
      try {
        await pool.query('select 1')
        return true
      } catch {
        return false
      }
    },

    close: () => pool.end(),
  }

  return { ...dialect, pool, url, drizzleDb }
}

/**
 * Calls `wake` on every notification on `channel`, on a connection of its own, and whenever that
 * connection is (re)made, since notifications sent while it was down are lost. A connection that
 * is lost, or cannot be made (the database is away), is tried again a second later; meanwhile
 * the caller's own poll finds the work. Returns what stops it.
 */
function listen(url: string, channel: string, wake: () => void): () => void {
  let stopped = false
  let current: pg.Client | undefined
  let retry: ReturnType<typeof setTimeout> | undefined

  const again = () => {
    if (stopped) return
    retry = setTimeout(connect, RELISTEN_MS)
    retry.unref?.()
  }
  async function connect(): Promise<void> {
    const client = new pg.Client(connectionConfig(url))
    client.on('notification', (message) => message.channel === channel && wake())
    // A lost connection reports an error, then ends.
    client.on('error', () => {})
    client.on('end', () => {
      if (current !== client) return
      current = undefined
      again()
    })
    try {
      await client.connect()
      await client.query(`listen "${channel.replace(/"/g, '""')}"`)
    } catch {
      await client.end().catch(() => {})
      return again()
    }
    if (stopped) return void (await client.end().catch(() => {}))
    current = client
    wake()
  }

  void connect()
  return () => {
    stopped = true
    clearTimeout(retry)
    void current?.end().catch(() => {})
    current = undefined
  }
}

type Opened = Pick<ReturnType<typeof openPostgres>, 'pool' | 'drizzleDb'>

/** What drizzle's own node-postgres `migrate()` calls, fed with migrations that are already in memory. */
interface DrizzleInternals {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: Partial<MigrationConfig>): Promise<void> }
  session: unknown
}

/** SQLSTATEs of a database Drizzle has not migrated yet: its schema, or its table, is missing. */
const NOT_MIGRATED = new Set(['3F000', '42P01'])

/**
 * Whether Drizzle's journal records the newest migration, asked on the pool's first connection
 * (which the first request then reuses). Drizzle applies a migration when the newest recorded is
 * older than it, so such a database has nothing to apply: it is opened without the migration
 * lock and its two connections (D153). Other errors (the server cannot be reached) are thrown.
 */
export async function isMigrated({ pool }: Pick<Opened, 'pool'>, list: MigrationMeta[] = pgMigrations): Promise<boolean> {
  if (list.length === 0) return true
  const newest = Math.max(...list.map((migration) => migration.folderMillis))
  try {
    const { rows } = await pool.query<{ created_at: string }>('select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1')
    return rows.length > 0 && Number(rows[0]!.created_at) >= newest
  } catch (error) {
    if (NOT_MIGRATED.has((error as { code?: string }).code ?? '')) return false
    throw error
  }
}

/** Whether extractd never migrated this database: Drizzle's journal is missing (the CLI's commands other than `serve` refuse it, D230). */
export async function isNew({ pool }: Pick<Opened, 'pool'>): Promise<boolean> {
  const { rows } = await pool.query<{ missing: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is null as missing")
  return rows[0]!.missing
}

/**
 * Applies the migrations not yet applied. Drizzle's migrator takes no lock, and two instances
 * creating its bookkeeping schema at once collide, so each holds a session advisory lock on one
 * connection of its own while it migrates (the pool needs a second): the others wait, then find
 * nothing left to do.
 */
export async function migratePostgres({ drizzleDb, pool }: Opened, list: MigrationMeta[] = pgMigrations): Promise<void> {
  const connection = await pool.connect()
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      const { dialect, session } = drizzleDb as unknown as DrizzleInternals
      await dialect.migrate(list, session, {})
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } finally {
    connection.release()
  }
}
