/** `extractd db copy`: a SQLite database into an empty PostgreSQL one. */
import { closeDatabase, DatabaseError, openDatabase, type SqliteDatabase, withoutPassword } from '../db/database'
import { CopyError, copySqliteToPostgres } from '../db/copy'
import { migratePostgres, openPostgres } from '../db/postgres'
import type { Output } from './keys'

export async function dbCopy(from: string, to: string, io: Output): Promise<number> {
  const shownTo = withoutPassword(to)
  // An existing extractd database only (D230); the parser has made sure it is a SQLite file.
  const source = (await openDatabase(from, { create: false })) as SqliteDatabase
  let target: ReturnType<typeof openPostgres> | undefined
  try {
    target = openPostgres(to, { max: 2 })
    await migratePostgres(target)
    const started = performance.now()
    const copied = await copySqliteToPostgres(source.sqlite, target.pool, ({ table, rows }) => io.out(`${table.padEnd(20)} ${rows}`))
    const rows = copied.reduce((sum, table) => sum + table.rows, 0)
    io.out(`Copied ${rows} rows of ${copied.length} tables from ${from} to ${shownTo} in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
    return 0
  } catch (error) {
    if (error instanceof CopyError) {
      io.err(`extractd: database ${shownTo}: ${error.message}`)
      return 1
    }
    // Whatever else fails names its database (D230): the file read from, or the one written to.
    throw new DatabaseError((error as Error).name === 'SQLiteError' ? from : shownTo, error)
  } finally {
    await closeDatabase(source)
    await target?.pool.end()
  }
}
