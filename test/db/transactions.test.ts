/**
 * Transaction bodies (D211) on both dialects (PostgreSQL's skipped without EXTRACTD_TEST_POSTGRES):
 * one body, written once, is atomic, keeps a limit exact under concurrent bodies, refuses queries
 * that would run outside it, and tells listeners only of what committed. On SQLite a body runs to
 * its end without giving the process a turn, so nothing else of the process lands inside it, and
 * bodies of two processes on one file take turns on the file's write lock.
 */
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { closeDatabase, type Database, openDatabase } from '../../src/db/database'
import { notify, OutsideTransactionError, rows, run } from '../../src/db/dialect'
import { accountTables } from '../../src/db/tables/accounts'
import { eventually } from '../helpers/eventually'
import { freshPostgres, POSTGRES_URL } from '../helpers/postgres'
import { tempDir } from '../helpers/process'
import { addBelowLimit, LIMIT } from '../helpers/transaction-race'

// The first PostgreSQL database of a run takes seconds to make on a busy machine.
setDefaultTimeout(30_000)

const dir = tempDir('extractd-transactions-')
afterAll(() => dir.remove())
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let files = 0
const opens: Record<Database['kind'], () => Promise<Database>> = {
  sqlite: () => openDatabase(join(dir.path, `t${files++}.sqlite`)),
  postgres: async () => {
    const { url, drop } = await freshPostgres()
    cleanups.push(drop)
    return openDatabase(url, { poolSize: 4 })
  },
}

async function fresh(kind: Database['kind']): Promise<Database> {
  const database = await opens[kind]()
  cleanups.push(() => closeDatabase(database))
  return database
}

const names = async (database: Database) =>
  (await database.db.select({ name: accountTables[database.kind].accounts.name }).from(accountTables[database.kind].accounts)).map((row) => row.name).sort()

describe.each(POSTGRES_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const))('on %s', (kind) => {
  test('a body that throws after writing leaves nothing written, and its error reaches the caller', async () => {
    const database = await fresh(kind)
    const { accounts } = accountTables[kind]
    const failing = database.transaction(function* (tx) {
      yield* run(tx.insert(accounts).values({ name: 'kept?' }))
      throw new Error('changed my mind')
    })
    await expect(failing).rejects.toThrow('changed my mind')
    expect(await names(database)).toEqual([])
  })

  test("a failing statement rolls the body back and rejects with the database's error", async () => {
    const database = await fresh(kind)
    const { accounts } = accountTables[kind]
    await database.db.insert(accounts).values({ name: 'taken' })
    const failing = database.transaction(function* (tx) {
      yield* run(tx.insert(accounts).values({ name: 'first' }))
      yield* run(tx.insert(accounts).values({ name: 'taken' }))
      return 'unreached'
    })
    await expect(failing).rejects.toThrow()
    expect(await names(database)).toEqual(['taken'])
  })

  test('a query built from `db` inside a body is refused, and the body rolled back', async () => {
    const database = await fresh(kind)
    const { accounts } = accountTables[kind]
    const wrong = database.transaction(function* (tx) {
      yield* run(tx.insert(accounts).values({ name: 'inside' }))
      yield* run(database.db.insert(accounts).values({ name: 'outside' }))
    })
    await expect(wrong).rejects.toBeInstanceOf(OutsideTransactionError)
    expect(await names(database)).toEqual([])
  })

  test('a prepared statement runs inside the body: rolled back with it', async () => {
    const database = await fresh(kind)
    const { accounts } = accountTables[kind]
    const add = database.prepare('test_add_account', (q) =>
      q
        .insert(accounts)
        .values({ name: sql.placeholder('name') })
        .returning(),
    )
    await expect(
      database.transaction(function* () {
        const [added] = yield* run(add, { name: 'prepared' })
        expect(added?.name).toBe('prepared')
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    expect(await names(database)).toEqual([])
    expect((await add.execute({ name: 'on its own' }))[0]?.name).toBe('on its own')
    expect(await names(database)).toEqual(['on its own'])
  })

  test(`200 bodies at once in one process, each adding below a limit of ${LIMIT}, add exactly ${LIMIT}`, async () => {
    const database = await fresh(kind)
    const added = await Promise.all(Array.from({ length: 200 }, (_, i) => addBelowLimit(database, `a${i}`)))
    expect(added.filter(Boolean)).toHaveLength(LIMIT)
    expect(await names(database)).toHaveLength(LIMIT)
  })

  test('listeners hear of a notification once its body committed, and never of a rolled-back one', async () => {
    const database = await fresh(kind)
    const { accounts } = accountTables[kind]
    const heard: string[] = []
    const stop = database.listen('extractd_test', () => heard.push('woken'))
    cleanups.push(async () => stop())
    // PostgreSQL's listening connection wakes its listener once it is made.
    await eventually(() => kind === 'sqlite' || heard.length > 0, 10_000)
    heard.length = 0
    await expect(
      database.transaction(function* (tx) {
        yield* notify('extractd_test')
        yield* run(tx.insert(accounts).values({ name: 'never' }))
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await database.transaction(function* (tx) {
      yield* notify('extractd_test')
      yield* run(tx.insert(accounts).values({ name: 'committed' }))
      // Not yet: the transaction has not committed.
      expect(heard).toEqual([])
    })
    await eventually(() => heard.length > 0, 10_000)
    await Bun.sleep(200)
    expect(heard).toEqual(['woken'])
  })
})

describe('on SQLite, a body runs to its end without giving the process a turn', () => {
  test('plain statements of the same process never land inside a body: none is rolled back with one', async () => {
    const database = await fresh('sqlite')
    const { accounts } = accountTables.sqlite
    // Bodies that write, then fail, interleaved with plain writes of concurrent "requests".
    const work = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0
        ? database
            .transaction(function* (tx) {
              yield* run(tx.insert(accounts).values({ name: `body ${i}` }))
              yield* rows(sql`select 1`)
              throw new Error('undo')
            })
            .catch(() => 'undone')
        : (async () => {
            // A request's earlier awaits: it writes a few turns of the microtask queue later.
            for (let turn = 0; turn < i % 7; turn++) await null
            await database.db.insert(accounts).values({ name: `plain ${i}` })
            return 'written'
          })(),
    )
    expect((await Promise.all(work)).filter((outcome) => outcome === 'written')).toHaveLength(50)
    expect((await names(database)).every((name) => name.startsWith('plain'))).toBe(true)
    expect(await names(database)).toHaveLength(50)
  })

  test('a body sees its own writes, and a plain read after it sees them committed', async () => {
    const database = await fresh('sqlite')
    const { accounts } = accountTables.sqlite
    const seen = await database.transaction(function* (tx) {
      yield* run(tx.insert(accounts).values({ name: 'mine' }))
      return yield* run(tx.select().from(accounts).where(eq(accounts.name, 'mine')))
    })
    expect(seen).toHaveLength(1)
    expect(await names(database)).toEqual(['mine'])
  })

  test('a transaction started inside a body is refused: parts are yielded into it instead', async () => {
    const database = await fresh('sqlite')
    let nested: Promise<unknown> | undefined
    await database.transaction(function* () {
      nested = database.transaction(function* () {})
      yield* rows(sql`select 1`)
    })
    await expect(nested!).rejects.toThrow('Transactions do not nest')
  })

  test(`two processes on one file, 2 × 100 bodies at once, add exactly ${LIMIT}`, async () => {
    const path = join(dir.path, 'two-processes.sqlite')
    // Made and migrated first, so the two processes contend on the bodies, not on the migrations.
    const made = await openDatabase(path)
    await closeDatabase(made)
    const at = Date.now() + 1500
    const script = join(import.meta.dir, '../helpers/transaction-race.ts')
    const processes = [0, 1].map(() => Bun.spawn([process.execPath, script, path, String(at), '100'], { stdout: 'pipe', stderr: 'pipe' }))
    const outputs = await Promise.all(
      processes.map(async (child) => {
        const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
        expect({ code, err }).toEqual({ code: 0, err: '' })
        return Number(out.trim())
      }),
    )
    expect(outputs[0]! + outputs[1]!).toBe(LIMIT)
    const database = await openDatabase(path)
    cleanups.push(() => closeDatabase(database))
    expect(await names(database)).toHaveLength(LIMIT)
  })
})
