/**
 * What a database offers the modules, the same on SQLite and on PostgreSQL (D210): one query
 * builder, typed as PostgreSQL's, and transactions written once as a body of steps. sqlite.ts and
 * postgres.ts implement it; they differ in how a body runs, and in little else.
 *
 * A transaction body is a generator: each `yield*` of a step below is one trip to the database.
 * On SQLite the body runs to its end without giving the event loop a turn, inside BEGIN IMMEDIATE …
 * COMMIT, so nothing else of the process can run a statement inside it, and other processes wait
 * for its write lock (D211). On PostgreSQL each step is awaited on the transaction's connection.
 */
import type { SQL } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'

/**
 * Drizzle's query builder as both dialects share it. It is typed as PostgreSQL's: the few methods
 * only PostgreSQL has (`.for()`) then fail at once in every SQLite test, rather than SQLite's
 * synchronous ones (`.all()`, `.get()`) failing only on PostgreSQL. Row locks, raw SQL and
 * notifications go through the steps below.
 */
export type Queries = Pick<PgDatabase<PgQueryResultHKT>, 'select' | 'insert' | 'update' | 'delete'>

/** Values for the placeholders of a statement. */
export type Values = Record<string, unknown>

const STATEMENT: unique symbol = Symbol('statement')

/** A query prepared once per database (`Dialect.prepare`), for the requests every client makes. */
export interface Statement<T> {
  readonly [STATEMENT]: true
  /** Runs it on its own, outside a transaction. */
  execute(values?: Values): Promise<T>
}

/** Marks what a dialect's `prepare` makes, so `run` tells it from a query. */
export function statement<T>(execute: (values?: Values) => Promise<T>): Statement<T> {
  return { [STATEMENT]: true, execute }
}

/** What a transaction body asks its database to do, one trip at a time. */
export type Step =
  | { kind: 'query'; query: PromiseLike<unknown>; forUpdate?: { skipLocked: boolean } }
  | { kind: 'statement'; statement: Statement<unknown>; values: Values; forUpdate?: { skipLocked: boolean } }
  | { kind: 'rows'; query: SQL }
  | { kind: 'lock'; space: number; key: string | undefined }
  | { kind: 'notify'; channel: string }

/** A transaction: its queries are built from `tx`, and each runs as a step of the body. */
export type Body<T> = (tx: Queries) => Part<T>

/** A part of a transaction body, for `yield*` in a body or in another part. */
export type Part<T> = Generator<Step, T, unknown>

/** Runs a query built from the body's `tx`, or a prepared statement with its values; its result. */
export function run<T>(query: PromiseLike<T>): Part<T>
export function run<T>(statement: Statement<T>, values: Values): Part<T>
export function* run<T>(query: PromiseLike<T> | Statement<T>, values?: Values): Part<T> {
  return (yield stepOf(query, values)) as T
}

function stepOf(query: PromiseLike<unknown> | Statement<unknown>, values: Values | undefined, forUpdate?: { skipLocked: boolean }): Step {
  return STATEMENT in query ? { kind: 'statement', statement: query, values: values ?? {}, forUpdate } : { kind: 'query', query, forUpdate }
}

/** The rows of one SQL text both dialects read. */
export function* rows<T>(query: SQL): Part<T[]> {
  return (yield { kind: 'rows', query }) as T[]
}

/**
 * Runs a select (a query, or a prepared statement with its values) and holds its rows until the
 * transaction ends: PostgreSQL's `FOR UPDATE`, with `skipLocked` passing over rows another
 * transaction holds. On SQLite the immediate transaction already holds the whole database against
 * other writers.
 */
export function forUpdate<T>(query: PromiseLike<T>, options?: { skipLocked?: boolean }): Part<T>
export function forUpdate<T>(statement: Statement<T>, values: Values): Part<T>
export function* forUpdate<T>(query: PromiseLike<T> | Statement<T>, second?: Values | { skipLocked?: boolean }): Part<T> {
  const prepared = STATEMENT in query
  const skipLocked = !prepared && (second as { skipLocked?: boolean } | undefined)?.skipLocked === true
  return (yield stepOf(query, prepared ? (second as Values) : undefined, { skipLocked })) as T
}

/**
 * Takes turns with every other transaction that locks the same `space` (and `key`, say an account)
 * until this one ends: a transaction advisory lock on PostgreSQL. On SQLite the immediate
 * transaction takes turns with every other writer already.
 */
export function* lock(space: number, key?: string): Part<void> {
  yield { kind: 'lock', space, key }
}

/** Tells whoever listens on `channel`, in this process and (PostgreSQL) every other, once the transaction commits. */
export function* notify(channel: string): Part<void> {
  yield { kind: 'notify', channel }
}

/** What each database implements (sqlite.ts, postgres.ts). */
export interface Dialect {
  /** For single statements. On SQLite each runs synchronously as it is awaited. */
  db: Queries
  /**
   * Runs `body` as one transaction; its result, or its error after rolling it back. Transactions do
   * not nest: a body's parts are `yield*`-ed into it, never run as transactions of their own.
   */
  transaction<T>(body: Body<T>): Promise<T>
  /** A statement prepared once, runnable on its own or (`run`) in a transaction body. */
  prepare<T>(name: string, build: (q: Queries) => Preparable<T>): Statement<T>
  /** Calls `wake` when a transaction of this process or (PostgreSQL) any other notified `channel`; returns what stops it. */
  listen(channel: string, wake: () => void): () => void
  /**
   * A number that changes whenever another connection (another process) commits, so what was read
   * before it changed may be stale (D64); undefined where the database cannot tell (PostgreSQL, D101).
   */
  dataVersion(): number | undefined
  /** Gives the space of deleted rows back to the file system (SQLite's incremental vacuum, D133); PostgreSQL's autovacuum needs nothing. */
  reclaimSpace(): Promise<void>
  /** Whether the database answers a query now (/readyz). */
  answers(): Promise<boolean>
  close(): Promise<void>
}

/** A query builder with placeholders, as `Dialect.prepare` takes it. */
export interface Preparable<T> {
  prepare(name: string): { execute(values?: Values): Promise<T> }
}

/**
 * The session a query was built on (Drizzle keeps it on every builder), so a driver can refuse a
 * query built from `db` in a body: on PostgreSQL it would run on another connection, outside the
 * transaction.
 */
export function sessionOf(query: PromiseLike<unknown>): unknown {
  return (query as { session?: unknown }).session
}

export class OutsideTransactionError extends Error {
  constructor() {
    super('A query of a transaction body must be built from its `tx`, not from `db`')
  }
}
