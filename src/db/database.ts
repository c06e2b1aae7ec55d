/**
 * The one database a process works on: a SQLite file (the default) or PostgreSQL, chosen by the
 * location alone (D98). Modules never look at which: each asks `perDatabase` for its repository.
 */
import type { Database as SqliteClient } from 'bun:sqlite'
import type pg from 'pg'
import { type Db, openDb } from './client'
import { migrate } from './migrate'
import type { PgDb, PgTransaction } from './postgres'

export interface SqliteDatabase {
  kind: 'sqlite'
  db: Db
  sqlite: SqliteClient
  /** The location as it may be shown in logs. */
  shown: string
}

export interface PostgresDatabase {
  kind: 'postgres'
  db: PgDb
  pool: pg.Pool
  /** For connections of their own (LISTEN). */
  url: string
  /** A transaction that gives its connection back whatever fails (use it, not `db.transaction`). */
  transaction: PgTransaction
  shown: string
}

export type Database = SqliteDatabase | PostgresDatabase

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i

export function isPostgresUrl(location: string): boolean {
  return POSTGRES_URL.test(location)
}

/** A URL without its password, for logs and messages. */
export function withoutPassword(location: string): string {
  return location.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@')
}

export interface OpenOptions {
  /** Connections in the PostgreSQL pool. */
  poolSize?: number
}

/** Opens the database and applies the migrations it lacks. */
export async function openDatabase(location: string, { poolSize }: OpenOptions = {}): Promise<Database> {
  if (isPostgresUrl(location)) {
    // node-postgres is loaded only for a PostgreSQL database (D150).
    const { isMigrated, migratePostgres, openPostgres } = await import('./postgres')
    const opened = openPostgres(location, { max: poolSize })
    try {
      if (!(await isMigrated(opened))) {
        // Migrating holds one connection for its lock and needs another: its own two, whatever the pool's size.
        const migrating = openPostgres(location, { max: 2 })
        try {
          await migratePostgres(migrating)
        } finally {
          await migrating.pool.end()
        }
      }
    } catch (error) {
      await opened.pool.end()
      throw error
    }
    return { kind: 'postgres', ...opened, shown: withoutPassword(location) }
  }
  const { db, sqlite } = openDb(location)
  migrate(db)
  return { kind: 'sqlite', db, sqlite, shown: location }
}

export async function closeDatabase(database: Database): Promise<void> {
  if (database.kind === 'postgres') await database.pool.end()
  else database.sqlite.close()
}

/** Whether the database answers a query now (/readyz). */
export async function databaseAnswers(database: Database): Promise<boolean> {
  try {
    if (database.kind === 'postgres') await database.pool.query('select 1')
    else database.sqlite.query('select 1').get()
    return true
  } catch {
    return false
  }
}

/**
 * A module's repository for a database: its SQLite or its PostgreSQL implementation, made once
 * per database (their prepared statements and caches live as long as it does).
 */
export function perDatabase<R>(make: { sqlite: (database: SqliteDatabase) => R; postgres: (database: PostgresDatabase) => R }) {
  const made = new WeakMap<Database, R>()
  return (database: Database): R => {
    let repository = made.get(database)
    if (repository === undefined) {
      repository = database.kind === 'sqlite' ? make.sqlite(database) : make.postgres(database)
      made.set(database, repository)
    }
    return repository
  }
}
