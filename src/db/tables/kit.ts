/**
 * Tables are declared once (D212), with the column types of the kit below; `defineTables` makes
 * each dialect's tables from that one declaration, and drizzle-kit makes each dialect's
 * migrations from those (sqlite.ts, postgres.ts). The declaration is typed as PostgreSQL's tables,
 * as the queries are (dialect.ts): a row reads the same in both.
 */
import * as pgCore from 'drizzle-orm/pg-core'
import * as sqliteCore from 'drizzle-orm/sqlite-core'
import { type IdPrefix, newId } from '../../lib/ids'

/**
 * JSON kept as text, as SQLite's `text({ mode: 'json' })` keeps it: a value is answered byte for
 * byte as it was stored (D65), where `jsonb` would reorder an object's keys.
 */
const jsonText = <T>(name: string) =>
  pgCore.customType<{ data: T; driverData: string }>({
    dataType: () => 'text',
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => JSON.parse(value) as T,
  })(name)

const bytea = pgCore.customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

/** PostgreSQL's column types, with which the declarations are typed. */
const postgres = {
  table: pgCore.pgTable,
  text: pgCore.text,
  integer: pgCore.integer,
  boolean: pgCore.boolean,
  /** A fraction such as a review threshold (D284). */
  real: pgCore.doublePrecision,
  json: jsonText,
  bytes: bytea,
  index: pgCore.index,
  primaryKey: pgCore.primaryKey,
}

/** SQLite's for the same declarations: it keeps booleans as integers, JSON as text and bytes as blobs. */
const sqlite = {
  ...{ table: sqliteCore.sqliteTable, text: sqliteCore.text, integer: sqliteCore.integer, index: sqliteCore.index, primaryKey: sqliteCore.primaryKey },
  boolean: (name: string) => sqliteCore.integer(name, { mode: 'boolean' }),
  real: (name: string) => sqliteCore.real(name),
  json: (name: string) => sqliteCore.text(name, { mode: 'json' }),
  bytes: (name: string) => sqliteCore.blob(name, { mode: 'buffer' }),
} as unknown as typeof postgres

export type Kind = 'sqlite' | 'postgres'

function kitOf(kind: Kind, columns: typeof postgres) {
  return {
    ...columns,
    /** The primary key `id`: a new row's is made here, with its prefix (D6). */
    id: (prefix: IdPrefix) =>
      columns
        .text('id')
        .primaryKey()
        .$defaultFn(() => newId(prefix)),
    /** Another set's tables, in this kit's dialect (for foreign keys). */
    of: <T>(set: TableSet<T>): T => set[kind],
  }
}

/** What a declaration is given: the column types, and the tables of other sets. */
export type Kit = ReturnType<typeof kitOf>

/** One declaration's tables, made for each dialect: `set[database.kind]`. */
export type TableSet<T> = Readonly<Record<Kind, T>>

export function defineTables<T>(declare: (kit: Kit) => T): TableSet<T> {
  return { sqlite: declare(kitOf('sqlite', sqlite)), postgres: declare(kitOf('postgres', postgres)) }
}

/** The tables of a set, as its declaration types them. */
export type Tables<S> = S extends TableSet<infer T> ? T : never
