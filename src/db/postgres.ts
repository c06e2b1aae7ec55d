/**
 * PostgreSQL: a pool of connections through postgres.js (pure JavaScript, so the binary stays
 * one file), Drizzle over it, and the embedded migrations applied once however many instances
 * start together.
 */
import { drizzle } from 'drizzle-orm/postgres-js'
import type { MigrationConfig, MigrationMeta } from 'drizzle-orm/migrator'
import { sql } from 'drizzle-orm'
import postgres, { type Sql } from 'postgres'
import { embeddedPgMigrations } from './embed-pg-migrations' with { type: 'macro' }
import * as tables from './pg-tables'

export const pgMigrations: MigrationMeta[] = embeddedPgMigrations()

/** Any number unique to extractd: the session advisory lock its instances take turns on to migrate. */
const MIGRATION_LOCK = 0x65787472 // "extr"

export interface PostgresOptions {
  /** Connections in the pool. */
  max?: number
}

export function openPostgres(url: string, { max = 10 }: PostgresOptions = {}) {
  const client = postgres(url, {
    max,
    // A server that cannot be reached fails requests with 503 after this long rather than holding them.
    connect_timeout: 10,
    // postgres.js waits up to 20 s between attempts once a few have failed; a server that is back is used within a second.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    onnotice: () => {},
    connection: { application_name: 'extractd' },
  })
  const db = drizzle({ client, schema: tables })
  return { db, client }
}

export type PgDb = ReturnType<typeof openPostgres>['db']

/** What drizzle's own postgres-js `migrate()` calls, fed with migrations that are already in memory. */
interface DrizzleInternals {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: Partial<MigrationConfig>): Promise<void> }
  session: unknown
}

/**
 * Applies the migrations not yet applied. Drizzle's migrator takes no lock, and two instances
 * creating its bookkeeping schema at once collide, so each holds a session advisory lock on one
 * connection of its own while it migrates: the others wait, then find nothing left to do.
 */
export async function migratePostgres(
  { db, client }: ReturnType<typeof openPostgres>,
  list: MigrationMeta[] = pgMigrations,
): Promise<void> {
  const connection = await client.reserve()
  try {
    await connection`select pg_advisory_lock(${MIGRATION_LOCK})`
    try {
      const { dialect, session } = db as unknown as DrizzleInternals
      await dialect.migrate(list, session, {})
    } finally {
      await connection`select pg_advisory_unlock(${MIGRATION_LOCK})`
    }
  } finally {
    connection.release()
  }
}

/** What `db.transaction` hands its callback. */
export type PgTx = Parameters<Parameters<PgDb['transaction']>[0]>[0]

/** Tells the instances listening on `channel` when the transaction commits. */
export async function notify(tx: PgTx, channel: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, '')`)
}

/**
 * Calls `wake` on every notification on `channel`, and whenever the listening connection is
 * (re)made, since notifications sent while it was down are lost. A listen that fails (the
 * database is away) leaves the caller's own poll to find the work. Returns what stops it.
 */
export function listen(client: Sql, channel: string, wake: () => void): () => void {
  const listening = client.listen(channel, wake, wake).catch(() => undefined)
  return () => void listening.then((subscription) => subscription?.unlisten().catch(() => {}))
}
