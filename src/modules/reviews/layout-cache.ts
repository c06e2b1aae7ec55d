/**
 * Each instance's index of its accounts' learned layouts, in memory (D300): a document's
 * candidates are found among 10,000 layouts in a few milliseconds, without a query per word. The
 * database stays the truth (D301): before each use the account's generation is read (one row);
 * when a review or a forget on any instance changed the account's layouts since, the layouts whose
 * stamp changed are read again and those gone are dropped. The layouts a document matches are read
 * from the database, so a forgotten one is never used, whatever an instance holds.
 */
import type { Database } from '../../db/database'
import { type Fingerprint, LAYOUT_VERSION, type LayoutSource, type LearnedLayout } from '../extraction/learning/layout'
import type { LayoutIndex } from '../extraction/learning/layout-index'
import { type LayoutStamp, reviewsRepository } from './repository'

/**
 * Layouts an instance holds, of all its accounts together (D300): about 1.2 KiB each (bench/learn.ts
 * --mode=cost). The accounts used longest ago are let go first; an account with more than this
 * many is looked up in the database instead.
 */
export const MAX_HELD_LAYOUTS = 25_000
/** Layouts read from the database at once while an index is built. */
const READ_BATCH = 500
/** Words of a document the database is asked about for an account not held: its first ones (its first page, where a fingerprint is). */
const MAX_LOOKUP_WORDS = 2000

/**
 * The code that matches a document to layouts (its words, the normalisers and the lexicons): loaded
 * with the first document of an account that has layouts, not at start (D150, D372).
 */
async function matching() {
  const [index, { similarity }, { toFetch }] = await Promise.all([
    import('../extraction/learning/layout-index'),
    import('../extraction/learning/fingerprint'),
    import('../extraction/learning/read'),
  ])
  return { ...index, similarity, toFetch }
}

/** A layout stored in another version of the form is not read (layout.ts LAYOUT_VERSION). */
export function parseLayout(body: string): LearnedLayout | undefined {
  const layout = JSON.parse(body) as LearnedLayout
  return layout.version === LAYOUT_VERSION ? layout : undefined
}

/** One account's layouts as held: its generation when read, and the index with each layout's stamp — or none, when it has too many. */
interface Held {
  generation: number
  index?: LayoutIndex
  stamps: Map<string, string>
}

const stampOf = (row: LayoutStamp): string => `${row.updatedAt} ${row.jobId}`

/**
 * The source of an account's learned layouts for the job runner (D270, D274, D300): the few a
 * document may be the sender's of, found in this instance's index of the account, kept as fresh
 * as the database's generation of it.
 */
export function layoutCache(database: Database, maxLayouts = MAX_HELD_LAYOUTS) {
  const repository = reviewsRepository(database)
  /** By account, the one used last at the end. */
  const held = new Map<string, Held>()
  /** By account, the refresh under way. */
  const refreshes = new Map<string, Promise<unknown>>()
  let heldLayouts = 0

  function release(accountId: string): void {
    const entry = held.get(accountId)
    if (!entry) return
    heldLayouts -= entry.index?.size ?? 0
    held.delete(accountId)
  }

  /**
   * The account's layouts as held, when they are at the generation the database has now. When they
   * are not, they are brought to it in the background (one refresh of an account at a time), and
   * meanwhile the database answers: a document never waits for an index to be built (D300).
   */
  async function current(accountId: string): Promise<Held | 'none' | 'database'> {
    const generation = await repository.generation(accountId)
    if (generation === undefined) {
      release(accountId)
      return 'none'
    }
    const entry = held.get(accountId)
    if (entry?.generation === generation) {
      held.delete(accountId)
      held.set(accountId, entry)
      return entry
    }
    if (!refreshes.has(accountId))
      refreshes.set(
        accountId,
        refresh(accountId, generation)
          // A refresh that fails is tried again by the next document; the database answers until one succeeds.
          .catch(() => undefined)
          .finally(() => refreshes.delete(accountId)),
      )
    return 'database'
  }

  /**
   * Reads what changed in the account's layouts since the index was built (all of them the first
   * time), then changes the index at once: a document matched meanwhile sees it before or after.
   */
  async function refresh(accountId: string, generation: number): Promise<void> {
    const { LayoutIndex } = await matching()
    const stamps = await repository.stamps(accountId)
    const before = held.get(accountId)
    if (stamps.length > maxLayouts) {
      release(accountId)
      held.set(accountId, { generation, stamps: new Map() })
      return
    }
    const known = before?.index ? before.stamps : new Map<string, string>()
    const changed = stamps.filter((row) => known.get(row.id) !== stampOf(row)).map((row) => row.id)
    const read = new Map<string, { stamp: string; fingerprint?: Fingerprint }>()
    for (let i = 0; i < changed.length; i += READ_BATCH)
      for (const row of await repository.bodies(accountId, changed.slice(i, i + READ_BATCH)))
        read.set(row.id, { stamp: stampOf(row), fingerprint: parseLayout(row.body)?.fingerprint })

    const index = before?.index ?? new LayoutIndex()
    // What the held count has of this account now: nothing when another refresh let it go meanwhile.
    const sizeBefore = held.get(accountId) === before ? (before?.index?.size ?? 0) : 0
    const kept = new Map<string, string>()
    const present = new Set(stamps.map((row) => row.id))
    for (const id of known.keys()) if (!present.has(id)) index.remove(id)
    for (const row of stamps) {
      const fresh = read.get(row.id)
      if (!fresh) {
        // Unchanged, or forgotten between the two reads (then never in the index).
        const stamp = known.get(row.id)
        if (stamp) kept.set(row.id, stamp)
        continue
      }
      if (fresh.fingerprint) index.add(row.id, fresh.fingerprint)
      else index.remove(row.id)
      kept.set(row.id, fresh.stamp)
    }
    held.delete(accountId)
    held.set(accountId, { generation, index, stamps: kept })
    heldLayouts += index.size - sizeBefore
    for (const other of held.keys()) {
      if (heldLayouts <= maxLayouts) break
      if (other !== accountId) release(other)
    }
  }

  /** The account's layouts of these ids (a few), in this order, as stored now: one forgotten is not there. */
  async function layoutsOf(accountId: string, ids: readonly string[]): Promise<LearnedLayout[]> {
    const byId = new Map((await repository.bodies(accountId, [...ids])).map((row) => [row.id, row.body]))
    return ids.flatMap((id) => {
      const body = byId.get(id)
      return body === undefined ? [] : (parseLayout(body) ?? [])
    })
  }

  return {
    /** The layouts of the account a document may be the sender's of (LayoutSource). */
    of:
      (accountId: string): LayoutSource =>
      async (words) => {
        const entry = await current(accountId)
        if (entry === 'none') return []
        const { closestOf, hashKey, MIN_SHARED, mostCommon, SHORTLIST, similarity, toFetch } = await matching()
        if (entry !== 'database' && entry.index)
          return entry.index.size
            ? layoutsOf(
                accountId,
                toFetch(entry.index.candidates(words())).map((candidate) => candidate.id),
              )
            : []
        // Weighed and chosen from as the index chooses, so that both ways give the same layouts.
        const keys = words()
        const hashes = [...new Set([...keys].slice(0, MAX_LOOKUP_WORDS).map((key) => hashKey(key) | 0))]
        const layouts = await layoutsOf(accountId, await repository.candidates(accountId, hashes, { shortlist: SHORTLIST, minShared: MIN_SHARED, mostCommon }))
        return toFetch(closestOf(layouts.map((layout) => ({ layout, ...similarity(layout.fingerprint, keys) })))).map((candidate) => candidate.layout)
      },
    /** How many layouts this instance holds, of how many accounts. */
    held: () => ({ layouts: heldLayouts, accounts: held.size }),
    /** Once the indexes being brought up to date are (the benchmark and the tests wait for them). */
    settled: async (): Promise<void> => {
      while (refreshes.size) await Promise.all(refreshes.values())
    },
  }
}
