/** The SQLite and PostgreSQL tables are one model: a column or constraint in one and not the other fails here. */
import { expect, test } from 'bun:test'
import { getTableConfig as pgConfig, PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import * as pgTables from '../../src/db/pg-tables'
import * as sqliteTables from '../../src/db/tables'

/** SQLite stores booleans as integers and bytes as blobs; PostgreSQL has types of their own. */
const SAME_TYPE: Record<string, string> = { boolean: 'integer', bytea: 'blob' }

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

const sqlite = (Object.values(sqliteTables) as unknown[])
  .filter((value): value is SQLiteTable => value instanceof SQLiteTable)
  .map((table) => describeTable(sqliteConfig(table)))
  .sort((a, b) => a.name.localeCompare(b.name))
const pg = (Object.values(pgTables) as unknown[])
  .filter((value): value is PgTable => value instanceof PgTable)
  .map((table) => describeTable(pgConfig(table)))
  .sort((a, b) => a.name.localeCompare(b.name))

test('both dialects have the same tables', () => {
  expect(pg.map((table) => table.name)).toEqual(sqlite.map((table) => table.name))
  expect(sqlite.length).toBeGreaterThan(4)
})

test.each(sqlite.map((table) => [table.name, table] as const))('%s has the same columns and constraints in both', (name, table) => {
  expect(pg.find((other) => other.name === name)).toEqual(table)
})
