/**
 * Statements prepared once per database handle. Building a Drizzle query and preparing its SQL
 * costs more than running it, so the queries that requests make are prepared with placeholders
 * the first time a handle needs them and reused after that.
 */
import type { Db } from './client'

export function preparedFor<T>(prepare: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>()
  return (db) => {
    let statements = byDb.get(db)
    if (statements === undefined) byDb.set(db, (statements = prepare(db)))
    return statements
  }
}
