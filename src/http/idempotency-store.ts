/**
 * Where idempotency keys and their answers are kept (D75), on each dialect. A key is claimed by
 * inserting it: the primary key lets one request of several at once have it, on one process or
 * many.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { type PostgresDatabase, perDatabase, type SqliteDatabase } from '../db/database'
import * as pg from '../db/pg-tables'
import * as sqlite from '../db/tables'

export type IdempotencyRow = typeof sqlite.idempotencyKeys.$inferSelect

export type Claim = {
  accountId: string
  key: string
  requestHash: string
  now: string
  /** Answers stored before this have expired. */
  expiredBefore: string
  /** A first request unanswered since before this was lost. */
  lostBefore: string
}

export interface IdempotencyStore {
  /** Claims the key for this request if it is free (after freeing it if expired or lost); else the row that holds it. */
  claim(claim: Claim): Promise<{ claimed: true } | { claimed: false; row: IdempotencyRow | undefined }>
  store(accountId: string, key: string, status: number, body: string): Promise<void>
  forget(accountId: string, key: string): Promise<void>
  purge(expiredBefore: string): Promise<void>
}

function sqliteStore({ db }: SqliteDatabase): IdempotencyStore {
  const { idempotencyKeys } = sqlite
  const accountId = sql.placeholder('accountId')
  const key = sql.placeholder('key')
  const mine = and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key))!
  const insert = db
    .insert(idempotencyKeys)
    .values({ accountId, key, requestHash: sql.placeholder('requestHash'), createdAt: sql.placeholder('now') })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key })
    .prepare()
  const find = db.select().from(idempotencyKeys).where(mine).prepare()
  const release = db
    .delete(idempotencyKeys)
    .where(
      and(
        mine,
        or(
          lt(idempotencyKeys.createdAt, sql.placeholder('expiredBefore')),
          and(isNull(idempotencyKeys.responseStatus), lt(idempotencyKeys.createdAt, sql.placeholder('lostBefore'))),
        ),
      ),
    )
    .prepare()
  const store = db
    .update(idempotencyKeys)
    .set({ responseStatus: sql`${sql.placeholder('status')}`, responseBody: sql`${sql.placeholder('body')}` })
    .where(mine)
    .prepare()
  const forget = db.delete(idempotencyKeys).where(mine).prepare()
  const purge = db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql.placeholder('expiredBefore')))
    .prepare()
  const claim = db.$client.transaction((values: Claim) => {
    release.run(values)
    return insert.get(values) !== undefined ? { claimed: true as const } : { claimed: false as const, row: find.get(values) }
  }).immediate

  return {
    claim: async (values) => claim(values),
    store: async (account, name, status, body) => void store.run({ accountId: account, key: name, status, body }),
    forget: async (account, name) => void forget.run({ accountId: account, key: name }),
    purge: async (expiredBefore) => void purge.run({ expiredBefore }),
  }
}

function postgresStore({ db, transaction }: PostgresDatabase): IdempotencyStore {
  const { idempotencyKeys } = pg
  const mine = (accountId: string, key: string) => and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key))!
  return {
    claim: ({ accountId, key, requestHash, now, expiredBefore, lostBefore }) =>
      transaction(async (tx) => {
        await tx
          .delete(idempotencyKeys)
          .where(
            and(
              mine(accountId, key),
              or(lt(idempotencyKeys.createdAt, expiredBefore), and(isNull(idempotencyKeys.responseStatus), lt(idempotencyKeys.createdAt, lostBefore))),
            ),
          )
        // A concurrent claim of the same key waits here for the other to commit, then inserts nothing.
        const inserted = await tx
          .insert(idempotencyKeys)
          .values({ accountId, key, requestHash, createdAt: now })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key })
        if (inserted.length > 0) return { claimed: true as const }
        const [row] = await tx.select().from(idempotencyKeys).where(mine(accountId, key))
        return { claimed: false as const, row }
      }),
    async store(accountId, key, status, body) {
      await db.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(mine(accountId, key))
    },
    async forget(accountId, key) {
      await db.delete(idempotencyKeys).where(mine(accountId, key))
    },
    async purge(expiredBefore) {
      await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, expiredBefore))
    },
  }
}

export const idempotencyStore = perDatabase<IdempotencyStore>({ sqlite: sqliteStore, postgres: postgresStore })
