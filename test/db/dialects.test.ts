/**
 * The SQLite and PostgreSQL tables are made from one declaration (D212): the kit of column types
 * must make the same columns and constraints in both, which a column or constraint in one and not
 * the other fails here.
 */
import { expect, test } from 'bun:test'
import { getTableConfig as pgConfig, type PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import { tableSets } from '../../src/db/tables'

/** SQLite stores booleans as integers and bytes as blobs; PostgreSQL has types of their own. */
const SAME_TYPE: Record<string, string> = { boolean: 'integer', bytea: 'blob', 'double precision': 'real' }

type Config = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>

function describeTable(config: Config) {
  return {
    name: config.name,
    columns: config.columns
      .map((column) => ({
        name: column.name,
        type: SAME_TYPE[column.getSQLType()] ?? column.getSQLType(),
        notNull: column.notNull,
        primary: column.primary,
        unique: column.isUnique,
        hasDefault: column.hasDefault,
        default: column.default,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    primaryKeys: config.primaryKeys.map((key) => key.columns.map((column) => column.name)),
    indexes: config.indexes
      .map((index) => ({
        name: index.config.name ?? '',
        unique: index.config.unique,
        columns: index.config.columns.map((column) => ('name' in column ? column.name : String(column))),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    foreignKeys: config.foreignKeys
      .map((key) => {
        const reference = key.reference()
        return {
          columns: reference.columns.map((column) => column.name),
          table: (reference.foreignTable as unknown as { [key: symbol]: string })[Symbol.for('drizzle:Name')],
          foreignColumns: reference.foreignColumns.map((column) => column.name),
          onDelete: key.onDelete ?? 'no action',
        }
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
  }
}

const sqlite = tableSets
  .flatMap((set) => Object.values(set.sqlite).map((table) => describeTable(sqliteConfig(table as unknown as SQLiteTable))))
  .sort((a, b) => a.name.localeCompare(b.name))
const pg = tableSets
  .flatMap((set) => Object.values(set.postgres).map((table) => describeTable(pgConfig(table as PgTable))))
  .sort((a, b) => a.name.localeCompare(b.name))

test('both dialects have the same tables', () => {
  expect(pg.map((table) => table.name)).toEqual(sqlite.map((table) => table.name))
  expect(sqlite.length).toBeGreaterThan(4)
})

test.each(sqlite.map((table) => [table.name, table] as const))('%s has the same columns and constraints in both', (name, table) => {
  expect(pg.find((other) => other.name === name)).toEqual(table)
})
