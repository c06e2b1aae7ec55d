/**
 * Reviews and learned layouts in the database, written once for both dialects (D210). A layout is
 * kept as the JSON the learning core reads, with its index as rows (D270): one per layout and
 * fingerprint word (the word's 32-bit hash and weight), and per account and word the number of
 * layouts that print it, so that words too common to name a sender are not looked up (D268).
 */
import { and, count, desc, eq, gt, inArray, lt, lte, or, sql, sum } from 'drizzle-orm'
import { perDatabase } from '../../db/database'
import { forUpdate, type Part, type Queries, run } from '../../db/dialect'
import type { Tables } from '../../db/tables/kit'
import { reviewTables } from '../../db/tables/reviews'

export type LayoutRow = Tables<typeof reviewTables>['layouts']['$inferSelect']

export interface NewReview {
  accountId: string
  jobId: string
  values: Record<string, unknown>
  corrected: string[]
  createdAt: string
}

/** A layout to store: its id, the reviewed job that last taught it, its JSON, and its fingerprint's words as (hash, weight). */
export interface StoredLayout {
  id: string
  accountId: string
  jobId: string
  body: string
  marks: { word: number; weight: number }[]
  createdAt: string
  updatedAt: string
}

/** The layouts weighed whole for one document: those sharing the most of its telling words (learning/layout-index.ts SHORTLIST). */
const SHORTLIST = 8
/** The least weight of telling words a candidate shares with the document: two words, or one of its head. */
const MIN_SHARED = 2
/** However few layouts an account has, a word printed by this many is still looked up (layout-index.ts MIN_COMMON). */
const MIN_COMMON = 20

export const reviewsRepository = perDatabase((database) => {
  const { db } = database
  const { reviews, layouts, layoutMarks, layoutWords } = reviewTables[database.kind]

  const owned = (accountId: string, id: string) => and(eq(layouts.accountId, accountId), eq(layouts.id, id))!

  /** Takes a layout's words out of its account's counts, and its marks out of the index. */
  function* unindex(tx: Queries, accountId: string, id: string): Part<void> {
    const marks = yield* run(tx.select({ word: layoutMarks.word }).from(layoutMarks).where(eq(layoutMarks.layoutId, id)))
    const words = marks.map((mark) => mark.word)
    if (words.length) {
      const mine = and(eq(layoutWords.accountId, accountId), inArray(layoutWords.word, words))
      yield* run(
        tx
          .update(layoutWords)
          .set({ layouts: sql`${layoutWords.layouts} - 1` })
          .where(mine),
      )
      yield* run(tx.delete(layoutWords).where(and(mine, lte(layoutWords.layouts, 0))))
    }
    yield* run(tx.delete(layoutMarks).where(eq(layoutMarks.layoutId, id)))
  }

  return {
    *insertReview(tx: Queries, review: NewReview): Part<void> {
      yield* run(tx.insert(reviews).values(review))
    },

    /** One of the account's layouts. */
    find: async (accountId: string, id: string): Promise<LayoutRow | undefined> => (await db.select().from(layouts).where(owned(accountId, id)))[0],

    /** Stores a layout, or replaces the one of the same id with its index; the account's, or none when another's holds the id. */
    *save(tx: Queries, layout: StoredLayout): Part<void> {
      const [held] = yield* forUpdate(tx.select({ accountId: layouts.accountId }).from(layouts).where(eq(layouts.id, layout.id)))
      const weight = layout.marks.reduce((total, mark) => total + mark.weight, 0)
      if (held) {
        if (held.accountId !== layout.accountId) return
        yield* unindex(tx, layout.accountId, layout.id)
        yield* run(tx.update(layouts).set({ jobId: layout.jobId, body: layout.body, weight, updatedAt: layout.updatedAt }).where(eq(layouts.id, layout.id)))
      } else
        yield* run(
          tx.insert(layouts).values({
            id: layout.id,
            accountId: layout.accountId,
            jobId: layout.jobId,
            body: layout.body,
            weight,
            createdAt: layout.createdAt,
            updatedAt: layout.updatedAt,
          }),
        )
      // A word printed twice is one mark: the fingerprint keeps each word once, but two may share a hash.
      const marks = [...new Map(layout.marks.map((mark) => [mark.word, mark])).values()]
      if (!marks.length) return
      yield* run(tx.insert(layoutMarks).values(marks.map((mark) => ({ layoutId: layout.id, accountId: layout.accountId, ...mark }))))
      for (const { word } of marks)
        yield* run(
          tx
            .insert(layoutWords)
            .values({ accountId: layout.accountId, word, layouts: 1 })
            .onConflictDoUpdate({ target: [layoutWords.accountId, layoutWords.word], set: { layouts: sql`${layoutWords.layouts} + 1` } }),
        )
    },

    /** Forgets one of the account's layouts; whether it was there. */
    remove: (accountId: string, id: string): Promise<boolean> =>
      database.transaction(function* (tx) {
        const [row] = yield* forUpdate(tx.select({ id: layouts.id }).from(layouts).where(owned(accountId, id)))
        if (!row) return false
        yield* unindex(tx, accountId, id)
        yield* run(tx.delete(layouts).where(eq(layouts.id, id)))
        return true
      }),

    /** The account's layouts, newest first, `limit` of them, after `after` (the previous page's last). */
    list(accountId: string, limit: number, after?: { createdAt: string; id: string }): Promise<LayoutRow[]> {
      let where = eq(layouts.accountId, accountId)
      if (after) where = and(where, or(lt(layouts.createdAt, after.createdAt), and(eq(layouts.createdAt, after.createdAt), lt(layouts.id, after.id))))!
      return db.select().from(layouts).where(where).orderBy(desc(layouts.createdAt), desc(layouts.id)).limit(limit)
    },

    /**
     * The account's layouts a document printing these words (their hashes) may be the sender's of
     * (D270): of its words printed by at most one layout in fifty, the layouts that share the most,
     * at most eight, which the match then weighs whole. Three small queries, each on an index.
     */
    async candidates(accountId: string, words: number[]): Promise<string[]> {
      if (!words.length) return []
      const [{ layouts: total } = { layouts: 0 }] = await db.select({ layouts: count() }).from(layouts).where(eq(layouts.accountId, accountId))
      if (!total) return []
      const telling = await db
        .select({ word: layoutWords.word })
        .from(layoutWords)
        .where(and(eq(layoutWords.accountId, accountId), inArray(layoutWords.word, words), lte(layoutWords.layouts, Math.max(MIN_COMMON, total / 50))))
      if (!telling.length) return []
      const shared = sum(layoutMarks.weight)
      const shortlist = await db
        .select({ id: layoutMarks.layoutId })
        .from(layoutMarks)
        .where(
          and(
            eq(layoutMarks.accountId, accountId),
            inArray(
              layoutMarks.word,
              telling.map((row) => row.word),
            ),
          ),
        )
        .groupBy(layoutMarks.layoutId)
        .having(gt(shared, MIN_SHARED - 1))
        .orderBy(desc(shared), layoutMarks.layoutId)
        .limit(SHORTLIST)
      return shortlist.map((row) => row.id)
    },

    /** The bodies of the account's layouts of these ids. */
    bodies: async (accountId: string, ids: string[]): Promise<string[]> =>
      ids.length
        ? (
            await db
              .select({ body: layouts.body })
              .from(layouts)
              .where(and(eq(layouts.accountId, accountId), inArray(layouts.id, ids)))
          ).map((row) => row.body)
        : [],
  }
})
