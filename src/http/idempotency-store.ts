/**
 * Where idempotency keys and their answers are kept (D75), written once for both dialects (D210).
 * A key is claimed by inserting it: the primary key lets one request of several at once have it,
 * on one process or many.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { perDatabase } from '../db/database'
import { run } from '../db/dialect'
import type { Tables } from '../db/tables/kit'
import { idempotencyTables } from '../db/tables/idempotency'

export type IdempotencyRow = Tables<typeof idempotencyTables>['idempotencyKeys']['$inferSelect']

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

/**
 * The store of a database. Its statements are prepared with the first request that names a key,
 * not at start (D150): the expired or lost claim is freed and the key inserted in one
 * transaction, so two claims at once see each other.
 */
export const idempotencyStore = perDatabase((database): IdempotencyStore => {
  const { idempotencyKeys } = idempotencyTables[database.kind]
  const accountId = sql.placeholder('accountId')
  const key = sql.placeholder('key')
  const mine = and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key))!
  const release = database.prepare('idempotency_release', (q) =>
    q
      .delete(idempotencyKeys)
      .where(
        and(
          mine,
          or(
            lt(idempotencyKeys.createdAt, sql.placeholder('expiredBefore')),
            and(isNull(idempotencyKeys.responseStatus), lt(idempotencyKeys.createdAt, sql.placeholder('lostBefore'))),
          ),
        ),
      ),
  )
  // A concurrent claim of the same key waits here for the other to commit (PostgreSQL), then inserts nothing.
  const insert = database.prepare('idempotency_insert', (q) =>
    q
      .insert(idempotencyKeys)
      .values({ accountId, key, requestHash: sql.placeholder('requestHash'), createdAt: sql.placeholder('now') })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key }),
  )
  const find = database.prepare('idempotency_find', (q) => q.select().from(idempotencyKeys).where(mine))
  const store = database.prepare('idempotency_store', (q) =>
    q
      .update(idempotencyKeys)
      .set({ responseStatus: sql`${sql.placeholder('status')}`, responseBody: sql`${sql.placeholder('body')}` })
      .where(mine),
  )
  const forget = database.prepare('idempotency_forget', (q) => q.delete(idempotencyKeys).where(mine))
  const purge = database.prepare('idempotency_purge', (q) => q.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql.placeholder('expiredBefore'))))

  return {
    claim: (values) =>
      database.transaction(function* () {
        yield* run(release, values)
        if ((yield* run(insert, values)).length > 0) return { claimed: true as const }
        const [row] = yield* run(find, values)
        return { claimed: false as const, row }
      }),
    store: async (account, name, status, body) => void (await store.execute({ accountId: account, key: name, status, body })),
    forget: async (account, name) => void (await forget.execute({ accountId: account, key: name })),
    purge: async (expiredBefore) => void (await purge.execute({ expiredBefore })),
  }
})
