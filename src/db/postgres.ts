/**
 * PostgreSQL: a pool of connections through node-postgres (`pg`, pure JavaScript, so the binary
 * stays one file), Drizzle over it, the embedded migrations applied once however many instances
 * start together (D98). LISTEN and NOTIFY are in postgres-notify.ts, which the repositories import
 * without loading node-postgres on a server that runs on SQLite (D150).
 */
import type { MigrationConfig, MigrationMeta } from 'drizzle-orm/migrator'
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { embeddedPgMigrations } from './embed-pg-migrations' with { type: 'macro' }
import { connectionConfig } from './postgres-notify'

export const pgMigrations: MigrationMeta[] = embeddedPgMigrations()

/** Any number unique to extractd: the session advisory lock its instances take turns on to migrate. */
export const MIGRATION_LOCK = 0x65787472 // "extr"

export interface PostgresOptions {
  /** Connections in the pool. */
  max?: number
}

export function openPostgres(url: string, { max = 10 }: PostgresOptions = {}) {
  const pool = new pg.Pool({ ...connectionConfig(url), max })
  // A connection the server dropped is reported as an 'error' event: on the pool while it is idle,
  // on the connection itself while it is checked out (a transaction), where no one listens. An
  // unheard 'error' event ends the process; the query under way fails anyway (503), and the pool
  // replaces the connection when next needed.
  pool.on('error', () => {})
  pool.on('connect', (connection) => connection.on('error', () => {}))
  // Typed without `transaction`: transactions go through the one below.
  const db: PgDb = drizzle({ client: pool })

  /**
   * Runs `work` in a transaction on one connection of the pool. Drizzle's own `db.transaction`
   * on a pool sends BEGIN before the try whose `finally` gives the connection back: a connection
   * the server drops as it is handed out (a restart, a failover, an operator ending sessions)
   * fails BEGIN and is never returned, so the pool loses it for good and, after as many such
   * moments as it has connections, waits forever. Here the connection goes back whatever fails;
   * the pool discards a broken one.
   */
  async function transaction<T>(work: (tx: PgTx) => Promise<T>): Promise<T> {
    const connection = await pool.connect()
    try {
      return await drizzle({ client: connection }).transaction(work)
    } finally {
      connection.release()
    }
  }

  return { db, pool, url, transaction }
}

type DrizzlePg = ReturnType<typeof drizzle<Record<string, never>, pg.Pool>>

/** Drizzle over the pool, for single statements; transactions are the `transaction` of openPostgres. */
export type PgDb = Omit<DrizzlePg, 'transaction'>

/** What a transaction's callback is handed. */
export type PgTx = Parameters<Parameters<DrizzlePg['transaction']>[0]>[0]

export type PgTransaction = ReturnType<typeof openPostgres>['transaction']

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
export async function isMigrated({ pool }: Pick<ReturnType<typeof openPostgres>, 'pool'>, list: MigrationMeta[] = pgMigrations): Promise<boolean> {
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
export async function isNew({ pool }: Pick<ReturnType<typeof openPostgres>, 'pool'>): Promise<boolean> {
  const { rows } = await pool.query<{ missing: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is null as missing")
  return rows[0]!.missing
}

/**
 * Applies the migrations not yet applied. Drizzle's migrator takes no lock, and two instances
 * creating its bookkeeping schema at once collide, so each holds a session advisory lock on one
 * connection of its own while it migrates (the pool needs a second): the others wait, then find
 * nothing left to do.
 */
export async function migratePostgres({ db, pool }: ReturnType<typeof openPostgres>, list: MigrationMeta[] = pgMigrations): Promise<void> {
  const connection = await pool.connect()
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      const { dialect, session } = db as unknown as DrizzleInternals
      await dialect.migrate(list, session, {})
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } finally {
    connection.release()
  }
}
