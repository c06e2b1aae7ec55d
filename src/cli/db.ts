/** `extractd db copy`: a SQLite database into an empty PostgreSQL one. */
import { existsSync } from 'node:fs'
import { migrate, openDb } from '../db/sqlite'
import { withoutPassword } from '../db/database'
import { CopyError, copySqliteToPostgres } from '../db/copy'
import { migratePostgres, openPostgres } from '../db/postgres'
import type { Output } from './keys'

export async function dbCopy(from: string, to: string, io: Output): Promise<number> {
  if (!existsSync(from)) {
    io.err(`extractd: no SQLite database at ${from}`)
    return 1
  }
  const source = openDb(from)
  const target = openPostgres(to, { max: 2 })
  try {
    migrate(source.db)
    await migratePostgres(target)
    const started = performance.now()
    const copied = await copySqliteToPostgres(source.sqlite, target.pool, ({ table, rows }) => io.out(`${table.padEnd(20)} ${rows}`))
    const rows = copied.reduce((sum, table) => sum + table.rows, 0)
    io.out(`Copied ${rows} rows of ${copied.length} tables from ${from} to ${withoutPassword(to)} in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
    return 0
  } catch (error) {
    if (!(error instanceof CopyError)) throw error
    io.err(`extractd: ${error.message}`)
    return 1
  } finally {
    source.sqlite.close()
    await target.pool.end()
  }
}
