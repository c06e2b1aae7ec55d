/**
 * Run as a process of its own by test/db/transactions.test.ts: opens the SQLite file argv[2], waits
 * until the instant argv[3] (so two processes start together), then runs argv[4] transaction
 * bodies at once, each adding an account while fewer than LIMIT exist, and prints how many it added.
 */
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../src/db/database'
import { lock, rows, run } from '../../src/db/dialect'
import { accountTables } from '../../src/db/tables/accounts'

export const LIMIT = 50

/** One body: count, then add below the limit; in one process or many, never more than LIMIT in all. */
export function addBelowLimit(database: Awaited<ReturnType<typeof openDatabase>>, name: string): Promise<boolean> {
  const { accounts } = accountTables[database.kind]
  return database.transaction(function* (tx) {
    yield* lock(1, 'race')
    const [held] = yield* rows<{ n: number | string }>(sql`select count(*) as n from accounts`)
    if (Number(held!.n) >= LIMIT) return false
    yield* run(tx.insert(accounts).values({ name }))
    return true
  })
}

if (import.meta.main) {
  const [path, at, count] = process.argv.slice(2)
  const database = await openDatabase(path!)
  await Bun.sleep(Math.max(0, Number(at) - Date.now()))
  const added = await Promise.all(Array.from({ length: Number(count) }, (_, i) => addBelowLimit(database, `${process.pid}-${i}`)))
  console.log(added.filter(Boolean).length)
  await database.close()
}
