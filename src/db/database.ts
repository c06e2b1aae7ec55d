/**
 * The one database a process works on: a SQLite file (the default) or PostgreSQL, chosen by the
 * location alone (D98). Modules never look at which: they write each query once against the
 * interface of dialect.ts (D210), and take their tables for this database from their table set.
 */
import { Database as SqliteClient } from 'bun:sqlite'
import { existsSync, statfsSync } from 'node:fs'
import { dirname } from 'node:path'
import type pg from 'pg'
import type { Dialect } from './dialect'
import { refusedForSpace } from './errors'
import { MIGRATIONS_TABLE, openSqlite } from './sqlite'

export interface SqliteDatabase extends Dialect {
  kind: 'sqlite'
  /** The connection itself, for what only SQLite has (the copy to PostgreSQL, tests). */
  sqlite: SqliteClient
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

/** A URL without its password (in the authority or as a `password=` parameter), for logs and messages. */
export function withoutPassword(location: string): string {
  return location.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@').replace(/([?&]password=)[^&#]*/gi, '$1…')
}

/**
 * A database that cannot be opened, or is not there for a command that does not create one: the
 * message names where (a path, or a URL without its password) and why (D230).
 */
export class DatabaseError extends Error {
  override name = 'DatabaseError'
  constructor(shown: string, reason: unknown) {
    // What a driver says may quote the URL it was given.
    super(`database ${shown}: ${withoutPassword(reason instanceof Error ? reason.message : String(reason))}`, { cause: reason })
  }
}

export interface OpenOptions {
  /** Connections in the PostgreSQL pool. */
  poolSize?: number
  /**
   * Whether a database that is not there yet is made: a new SQLite file, the tables of an empty
   * PostgreSQL database. Only `serve` does (the default); the other commands pass false, so a
   * mistyped `--db` is an error instead of a new, empty database (D230).
   */
  create?: boolean
}

/**
 * Opens the database and applies the migrations it lacks. Whatever fails is a DatabaseError that
 * names the location, without its password (D230).
 */
export async function openDatabase(location: string, { poolSize, create = true }: OpenOptions = {}): Promise<Database> {
  const shown = withoutPassword(location)
  try {
    return await open(location, shown, poolSize, create)
  } catch (error) {
    throw error instanceof DatabaseError ? error : new DatabaseError(shown, error)
  }
}

/** The command that makes a database, named where another command finds none. */
const ONLY_SERVE_CREATES = "only 'extractd serve' creates one"

async function open(location: string, shown: string, poolSize: number | undefined, create: boolean): Promise<Database> {
  if (isPostgresUrl(location)) {
    // node-postgres is loaded only for a PostgreSQL database (D150).
    const { isMigrated, isNew, migratePostgres, openPostgres } = await import('./postgres')
    const opened = openPostgres(location, { max: poolSize })
    try {
      if (!create && (await isNew(opened))) throw new DatabaseError(shown, `holds no extractd tables (${ONLY_SERVE_CREATES})`)
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
    return { kind: 'postgres', ...opened, shown }
  }
  if (!create && location !== ':memory:') mustBeExtractdFile(location)
  const opened = openSqlite(location)
  try {
    opened.migrate()
  } catch (error) {
    opened.sqlite.close()
    throw error
  }
  return { kind: 'sqlite', ...opened, shown }
}

/** Refuses a missing file, and any SQLite file extractd did not make, before opening it changes anything (WAL). */
function mustBeExtractdFile(path: string): void {
  if (!existsSync(path)) throw new DatabaseError(path, `no such file (${ONLY_SERVE_CREATES})`)
  const probe = new SqliteClient(path, { readonly: true })
  try {
    if (probe.query('select 1 from sqlite_master where type = ? and name = ?').get('table', MIGRATIONS_TABLE) === null)
      throw new DatabaseError(path, `is not an extractd database (${ONLY_SERVE_CREATES})`)
  } finally {
    probe.close()
  }
}

export function closeDatabase(database: Database): Promise<void> {
  return database.close()
}

/** Free space under which a SQLite file's disk counts as full: no job's document and its log fit any more (D196). */
const MIN_FREE_BYTES = 1024 * 1024

/**
 * Whether the database can take requests now (/readyz): it answers a query, and its storage is not
 * full — on SQLite, the file cannot grow (its disk, or its max_page_count) and has no free page;
 * on either, a write was refused for want of space a moment ago (D196).
 */
export async function databaseReadiness(database: Database): Promise<'ready' | 'unavailable' | 'storage_full'> {
  if (!(await database.answers())) return 'unavailable'
  try {
    if (database.kind === 'sqlite' && sqliteFull(database.sqlite)) return 'storage_full'
  } catch {
    return 'unavailable'
  }
  return refusedForSpace(database) ? 'storage_full' : 'ready'
}

function sqliteFull(sqlite: SqliteClient): boolean {
  if (sqlite.filename !== '' && sqlite.filename !== ':memory:') {
    const { bavail, bsize } = statfsSync(dirname(sqlite.filename))
    if (bavail * bsize < MIN_FREE_BYTES) return true
  }
  const pragma = (name: string) => Number(Object.values(sqlite.query(`PRAGMA ${name}`).get() as Record<string, number>)[0])
  return pragma('freelist_count') === 0 && pragma('page_count') >= pragma('max_page_count')
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
