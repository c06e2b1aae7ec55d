/**
 * Reviews of jobs and the layouts they teach (issue 32, D270–D273): only the reviews module reads
 * or writes these. A job's id is kept without a foreign key: a review and what it taught outlive
 * the job (the record of right and wrong, a layout still in use).
 */
import { nowIso } from '../../lib/time'
import { accountTables } from './accounts'
import { defineTables } from './kit'

export const reviewTables = defineTables((k) => {
  const { accounts } = k.of(accountTables)

  /** Every review, kept: a second review of a job replaces the first in the job, not here. */
  const reviews = k.table(
    'reviews',
    {
      id: k.id('rev'),
      accountId: k
        .text('account_id')
        .notNull()
        .references(() => accounts.id),
      jobId: k.text('job_id').notNull(),
      /** The reviewed values by key, as `result` holds them after the review. */
      values: k.json<Record<string, unknown>>('values').notNull(),
      /** The keys the reviewer changed. */
      corrected: k.json<string[]>('corrected').notNull(),
      createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
    },
    (table) => [k.index('reviews_job_idx').on(table.jobId, table.createdAt)],
  )

  /** An account's learned layouts (D270): each the JSON the learning core reads, and the reviewed job that last taught it. */
  const layouts = k.table(
    'layouts',
    {
      id: k.id('lay'),
      accountId: k
        .text('account_id')
        .notNull()
        .references(() => accounts.id),
      /** The reviewed job that last taught it. */
      jobId: k.text('job_id').notNull(),
      /** The learned layout (learning/layout.ts LearnedLayout). */
      body: k.text('body').notNull(),
      /** Its fingerprint's total weight: a document's share of it is what the match weighs. */
      weight: k.integer('weight').notNull(),
      createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
      updatedAt: k.text('updated_at').notNull().$defaultFn(nowIso),
    },
    (table) => [k.index('layouts_account_idx').on(table.accountId, table.createdAt, table.id)],
  )

  /** The index of the layouts by the words of their fingerprints (D270): one row per layout and word (its 32-bit hash). */
  const layoutMarks = k.table(
    'layout_marks',
    {
      layoutId: k
        .text('layout_id')
        .notNull()
        .references(() => layouts.id, { onDelete: 'cascade' }),
      accountId: k.text('account_id').notNull(),
      word: k.integer('word').notNull(),
      weight: k.integer('weight').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.layoutId, table.word] }), k.index('layout_marks_word_idx').on(table.accountId, table.word)],
  )

  /** Per account and word, how many of its layouts print it: words too common to name a sender are not looked up (D268). */
  const layoutWords = k.table(
    'layout_words',
    {
      accountId: k
        .text('account_id')
        .notNull()
        .references(() => accounts.id),
      word: k.integer('word').notNull(),
      layouts: k.integer('layouts').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.accountId, table.word] })],
  )

  /**
   * Per account with layouts, the generation of its layouts (D301): counted up by every save and
   * removal in its transaction, compared by each instance before it uses the layouts it holds.
   */
  const layoutGenerations = k.table('layout_generations', {
    accountId: k
      .text('account_id')
      .primaryKey()
      .references(() => accounts.id),
    generation: k.integer('generation').notNull(),
  })

  return { reviews, layouts, layoutMarks, layoutWords, layoutGenerations }
})
