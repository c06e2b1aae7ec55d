/**
 * `extractd db copy`: every row of a SQLite database into an empty PostgreSQL one, with IDs,
 * timestamps and stored JSON text unchanged. Rows are read and written as the databases hold
 * them (no model in between), table by table in the order their foreign keys need, in one
 * PostgreSQL transaction: a copy that fails leaves the target as empty as it found it.
 */
import type { Database } from 'bun:sqlite'
import { getTableConfig as pgConfig, type PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import type pg from 'pg'
import { tableSets } from './tables'

export class CopyError extends Error {}

export interface CopiedTable {
  table: string
  rows: number
}

/** Rows sent in one INSERT, and the bytes of their values after which a batch is sent anyway. */
const BATCH_ROWS = 500
const BATCH_BYTES = 16 * 1024 * 1024

interface TablePlan {
  name: string
  columns: string[]
  booleans: Set<string>
  dependsOn: string[]
}

/** The tables in an order where every table comes after the tables its foreign keys name. */
function plan(): TablePlan[] {
  const tables = tableSets.flatMap((set) =>
    Object.entries(set.sqlite).map(([key, table]) => {
      const config = sqliteConfig(table as unknown as SQLiteTable)
      const target = pgConfig((set.postgres as Record<string, PgTable>)[key]!)
      return {
        name: config.name,
        columns: config.columns.map((column) => column.name),
        booleans: new Set(target.columns.filter((column) => column.getSQLType() === 'boolean').map((column) => column.name)),
        dependsOn: config.foreignKeys.map((key) => sqliteConfig(key.reference().foreignTable as SQLiteTable).name),
      }
    }),
  )
  const ordered: TablePlan[] = []
  const placed = new Set<string>()
  while (ordered.length < tables.length) {
    const ready = tables.filter((table) => !placed.has(table.name) && table.dependsOn.every((name) => placed.has(name) || name === table.name))
    if (ready.length === 0) throw new CopyError('the tables refer to each other in a cycle')
    for (const table of ready.sort((a, b) => a.name.localeCompare(b.name))) {
      ordered.push(table)
      placed.add(table.name)
    }
  }
  return ordered
}

function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length
  if (value instanceof Uint8Array) return value.byteLength
  return 8
}

/** The ID of a table or column as PostgreSQL quotes it. */
function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

/**
 * Copies `source` (migrated to the latest version) into `target` (migrated, every table empty).
 * `onTable` hears of each table as it is done.
 */
export async function copySqliteToPostgres(source: Database, target: pg.Pool, onTable: (copied: CopiedTable) => void = () => {}): Promise<CopiedTable[]> {
  const tables = plan()
  const client = await target.connect()
  try {
    for (const table of tables) {
      const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${quoted(table.name)}`)
      const n = rows[0]!.n
      if (n > 0) throw new CopyError(`the target database is not empty: ${table.name} has ${n} ${n === 1 ? 'row' : 'rows'}`)
    }
    await client.query('begin')
    try {
      const copied: CopiedTable[] = []
      for (const table of tables) {
        const done = { table: table.name, rows: await copyTable(source, client, table) }
        copied.push(done)
        onTable(done)
      }
      await client.query('commit')
      return copied
    } catch (error) {
      await client.query('rollback').catch(() => {})
      throw error
    }
  } finally {
    client.release()
  }
}

/** One table's rows, in multi-row INSERTs of at most BATCH_ROWS rows or BATCH_BYTES of values; how many. */
async function copyTable(source: Database, client: pg.PoolClient, table: TablePlan): Promise<number> {
  const columns = table.columns.map(quoted).join(', ')
  let batch: unknown[][] = []
  let bytes = 0
  let rows = 0
  const flush = async () => {
    if (batch.length === 0) return
    const width = table.columns.length
    const values = batch.map((_, row) => `(${table.columns.map((_, column) => `$${row * width + column + 1}`).join(', ')})`).join(', ')
    await client.query(`insert into ${quoted(table.name)} (${columns}) values ${values}`, batch.flat())
    rows += batch.length
    batch = []
    bytes = 0
  }
  const select = source.query<Record<string, unknown>, []>(`select ${columns} from ${quoted(table.name)}`)
  for (const stored of select.iterate()) {
    batch.push(
      table.columns.map((column) => {
        const value = stored[column]
        bytes += sizeOf(value)
        return table.booleans.has(column) && value !== null ? value === 1 : value instanceof Uint8Array ? Buffer.from(value) : value
      }),
    )
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush()
  }
  await flush()
  return rows
}
