/**
 * Reviews and learned layouts in the database, written once for both dialects (D210). A layout is
 * kept as the JSON the learning core reads, with its index as rows (D270): one per layout and
 * fingerprint word (the word's 32-bit hash and weight), and per account and word the number of
 * layouts that print it, so that words too common to name a sender are not looked up (D268). Each
 * change of an account's layouts counts up its generation (D301), which instances compare with
 * the index they hold of them.
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

/** How the database's lookup chooses candidates: the index's own rules (learning/layout-index.ts, D268, D303), handed in. */
export interface LookupRules {
  /** Layouts returned at most. */
  shortlist: number
  /** The least weight of telling words a candidate shares with the document. */
  minShared: number
  /** The most layouts, of the account's, that print a word still looked up. */
  mostCommon: (layouts: number) => number
}

/** A layout's id, what last taught it and when: what tells an instance's copy of it from the stored one (D301). */
export interface LayoutStamp {
  id: string
  jobId: string
  updatedAt: string
}

export const reviewsRepository = perDatabase((database) => {
  const { db } = database
  const { reviews, layouts, layoutMarks, layoutWords, layoutGenerations } = reviewTables[database.kind]

  const owned = (accountId: string, id: string) => and(eq(layouts.accountId, accountId), eq(layouts.id, id))!
  // The two queries of every extraction of an account with layouts (D300, D301), prepared once.
  const generationOf = database.prepare('layouts_generation', (q) =>
    q
      .select({ generation: layoutGenerations.generation })
      .from(layoutGenerations)
      .where(eq(layoutGenerations.accountId, sql.placeholder('accountId'))),
  )
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

  /**
   * Counts up the generation of the account's layouts (D301); the first of an account starts at a
   * random number, so that one whose layouts were all forgotten and taught again is not taken for
   * the generation an instance held before. On PostgreSQL the row is held until the transaction
   * ends: an account's layout writes take turns, and a generation read means its changes are committed.
   */
  function* nextGeneration(tx: Queries, accountId: string): Part<void> {
    yield* run(
      tx
        .insert(layoutGenerations)
        .values({ accountId, generation: 1 + Math.floor(Math.random() * 2 ** 30) })
        .onConflictDoUpdate({ target: layoutGenerations.accountId, set: { generation: sql`${layoutGenerations.generation} + 1` } }),
    )
  }

  return {
    *insertReview(tx: Queries, review: NewReview): Part<void> {
      yield* run(tx.insert(reviews).values(review))
    },

    /** One of the account's layouts. */
    find: async (accountId: string, id: string): Promise<LayoutRow | undefined> => (await db.select().from(layouts).where(owned(accountId, id)))[0],

    /** One of the account's layouts, held until the transaction ends (PostgreSQL's row lock): a review reads what it updates (D360). */
    *locked(tx: Queries, accountId: string, id: string): Part<LayoutRow | undefined> {
      const [row] = yield* forUpdate(tx.select().from(layouts).where(owned(accountId, id)))
      return row
    },

    /** Stores a layout, or replaces the one of the same id with its index; the account's, or none when another's holds the id. */
    *save(tx: Queries, layout: StoredLayout): Part<void> {
      const [held] = yield* forUpdate(tx.select({ accountId: layouts.accountId }).from(layouts).where(eq(layouts.id, layout.id)))
      const weight = layout.marks.reduce((total, mark) => total + mark.weight, 0)
      if (held && held.accountId !== layout.accountId) return
      yield* nextGeneration(tx, layout.accountId)
      if (held) {
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
      // All its words' counts in one statement (each word once in it, as PostgreSQL's ON CONFLICT wants).
      yield* run(
        tx
          .insert(layoutWords)
          .values(marks.map(({ word }) => ({ accountId: layout.accountId, word, layouts: 1 })))
          .onConflictDoUpdate({ target: [layoutWords.accountId, layoutWords.word], set: { layouts: sql`${layoutWords.layouts} + 1` } }),
      )
    },

    /** Forgets one of the account's layouts; whether it was there. */
    remove: (accountId: string, id: string): Promise<boolean> =>
      database.transaction(function* (tx) {
        const [row] = yield* forUpdate(tx.select({ id: layouts.id }).from(layouts).where(owned(accountId, id)))
        if (!row) return false
        yield* nextGeneration(tx, accountId)
        yield* unindex(tx, accountId, id)
        yield* run(tx.delete(layouts).where(eq(layouts.id, id)))
        const [left] = yield* run(tx.select({ id: layouts.id }).from(layouts).where(eq(layouts.accountId, accountId)).limit(1))
        if (!left) yield* run(tx.delete(layoutGenerations).where(eq(layoutGenerations.accountId, accountId)))
        return true
      }),

    /** The generation of the account's layouts (D301); none when it has none. */
    generation: async (accountId: string): Promise<number | undefined> => (await generationOf.execute({ accountId }))[0]?.generation,

    /** Every layout of the account, by what tells a copy of it from the stored one (D301). */
    stamps: (accountId: string): Promise<LayoutStamp[]> =>
      db.select({ id: layouts.id, jobId: layouts.jobId, updatedAt: layouts.updatedAt }).from(layouts).where(eq(layouts.accountId, accountId)),

    /** The account's layouts, newest first, `limit` of them, after `after` (the previous page's last). */
    list(accountId: string, limit: number, after?: { createdAt: string; id: string }): Promise<LayoutRow[]> {
      let where = eq(layouts.accountId, accountId)
      if (after) where = and(where, or(lt(layouts.createdAt, after.createdAt), and(eq(layouts.createdAt, after.createdAt), lt(layouts.id, after.id))))!
      return db.select().from(layouts).where(where).orderBy(desc(layouts.createdAt), desc(layouts.id)).limit(limit)
    },

    /**
     * The account's layouts a document printing these words (their hashes) may be the sender's of
     * (D270), for an account whose layouts an instance does not hold (D300): of its words not too
     * common (`rules`), the layouts that share the most, which the match then weighs whole. Three
     * small queries, each on an index.
     */
    async candidates(accountId: string, words: number[], rules: LookupRules): Promise<string[]> {
      if (!words.length) return []
      const [{ layouts: total } = { layouts: 0 }] = await db.select({ layouts: count() }).from(layouts).where(eq(layouts.accountId, accountId))
      if (!total) return []
      const telling = await db
        .select({ word: layoutWords.word })
        .from(layoutWords)
        .where(and(eq(layoutWords.accountId, accountId), inArray(layoutWords.word, words), lte(layoutWords.layouts, rules.mostCommon(total))))
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
        .having(gt(shared, rules.minShared - 1))
        .orderBy(desc(shared), layoutMarks.layoutId)
        .limit(rules.shortlist)
      return shortlist.map((row) => row.id)
    },

    /** The account's layouts of these ids, each with its JSON and stamp. */
    bodies: async (accountId: string, ids: string[]): Promise<(LayoutStamp & { body: string })[]> =>
      ids.length
        ? await db
            .select({ id: layouts.id, jobId: layouts.jobId, updatedAt: layouts.updatedAt, body: layouts.body })
            .from(layouts)
            .where(and(eq(layouts.accountId, accountId), inArray(layouts.id, ids)))
        : [],
  }
})
