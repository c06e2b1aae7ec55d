/**
 * The one database a process works on: a SQLite file (the default) or PostgreSQL, chosen by the
 * location alone (D98). Modules never look at which: they write each query once against the
 * interface of dialect.ts (D210), and take their tables for this database from their table set.
 */
import type { Database as Connection } from 'bun:sqlite'
import type pg from 'pg'
import type { Dialect } from './dialect'
import { openSqlite } from './sqlite'

export interface SqliteDatabase extends Dialect {
  kind: 'sqlite'
  /** The connection itself, for what only SQLite has (the copy to PostgreSQL, tests). */
  sqlite: Connection
  /** The location as it may be shown in logs. */
  shown: string
}

export interface PostgresDatabase extends Dialect {
  kind: 'postgres'
  /** The pool itself, for what only PostgreSQL has (the copy from SQLite, tests). */
  pool: pg.Pool
  /** For connections of their own (LISTEN). */
  url: string
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
  const opened = openSqlite(location)
  opened.migrate()
  return { kind: 'sqlite', ...opened, shown: location }
}

export function closeDatabase(database: Database): Promise<void> {
  return database.close()
}

/** Whether the database answers a query now (/readyz). */
export function databaseAnswers(database: Database): Promise<boolean> {
  return database.answers()
}

/**
 * A module's repository for a database, made once per database (its prepared statements live as
 * long as it does).
 */
export function perDatabase<R>(make: (database: Database) => R): (database: Database) => R {
  const made = new WeakMap<Database, R>()
  return (database) => {
    let repository = made.get(database)
    if (repository === undefined) {
      repository = make(database)
      made.set(database, repository)
    }
    return repository
  }
}
