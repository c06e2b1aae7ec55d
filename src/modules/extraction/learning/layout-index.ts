/**
 * An account's learned layouts, indexed by the words of their fingerprints (D268): the layouts a
 * document may be the sender's of are found from the words it prints, without looking at the
 * others — among 10,000 layouts a document's words meet a few dozen. Held compactly: per word, a
 * 32-bit hash and the layouts that print it; per layout, its fingerprint's weight. The database
 * keeps the same index as rows (layout, word hash, weight); this one serves the benchmark, the
 * tests and a server that caches an account's index.
 */
import { BODY_WEIGHT, HEAD_WEIGHT, placeOf, type Similarity, weigh } from './fingerprint'
import type { Fingerprint, LayoutSource, LearnedLayout, Mark } from './layout'
import { toFetch } from './read'

/** FNV-1a of a word: the index's key (a collision only adds a candidate, which the match then weighs exactly). */
export function hashKey(key: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** A layout a document may be the sender's of, with how much of its fingerprint the document prints (words as printed). */
export interface Candidate extends Similarity {
  id: string
}

export class LayoutIndex {
  /** Word hash → the layouts that print it, each as its slot times two, plus one for a word of its head. */
  private readonly postings = new Map<number, number[]>()
  private readonly ids: (string | undefined)[] = []
  /** Per slot, the hashes of its marks and where each is printed (`placeOf`). */
  private readonly marks: (Uint32Array | undefined)[] = []
  private readonly places: (Uint8Array | undefined)[] = []
  private readonly slots = new Map<string, number>()
  private readonly free: number[] = []

  get size(): number {
    return this.slots.size
  }

  /** Adds a layout, or replaces its fingerprint when it is already there. */
  add(id: string, fingerprint: Fingerprint): void {
    this.remove(id)
    const slot = this.free.pop() ?? this.ids.length
    const hashes = new Uint32Array(fingerprint.marks.map((mark: Mark) => hashKey(mark.key)))
    this.ids[slot] = id
    this.marks[slot] = hashes
    this.places[slot] = new Uint8Array(fingerprint.marks.map(placeOf))
    this.slots.set(id, slot)
    const seen = new Set<number>()
    fingerprint.marks.forEach((mark, i) => {
      const hash = hashes[i]!
      if (seen.has(hash)) return
      seen.add(hash)
      const entry = slot * 2 + (mark.head ? 1 : 0)
      const list = this.postings.get(hash)
      if (list) list.push(entry)
      else this.postings.set(hash, [entry])
    })
  }

  /** Forgets a layout: no document matches it any more. */
  remove(id: string): boolean {
    const slot = this.slots.get(id)
    if (slot === undefined) return false
    for (const hash of new Set(this.marks[slot]!)) {
      const list = this.postings.get(hash)!
      const at = list.findIndex((entry) => entry >> 1 === slot)
      if (at >= 0) list.splice(at, 1)
      if (!list.length) this.postings.delete(hash)
    }
    this.ids[slot] = undefined
    this.marks[slot] = undefined
    this.places[slot] = undefined
    this.slots.delete(id)
    this.free.push(slot)
    return true
  }

  /**
   * The layouts a document printing these words may be the sender's of, the closest first, at
   * most `limit`. Words printed by more than one layout in fifty (a footer's "thank you", a town's
   * name) are not looked up: they name no sender, and their lists are the longest (D268). The
   * layouts that share the most of the other words are weighed whole; those of which the document
   * prints less than a fifth are left out (the match wants more, with a letter misread at most).
   */
  candidates(keys: Iterable<string>, limit = 3): Candidate[] {
    const hashes = new Set<number>()
    for (const key of keys) hashes.add(hashKey(key))
    const common = mostCommon(this.size)
    const shared = new Map<number, number>()
    for (const hash of hashes) {
      const list = this.postings.get(hash)
      if (!list || list.length > common) continue
      for (const entry of list) shared.set(entry >> 1, (shared.get(entry >> 1) ?? 0) + (entry & 1 ? HEAD_WEIGHT : BODY_WEIGHT))
    }
    const shortlist = [...shared]
      .filter(([, weight]) => weight >= MIN_SHARED)
      .sort((a, b) => b[1] - a[1])
      .slice(0, SHORTLIST)
    return closestOf(
      shortlist.map(([slot]) => {
        const marks = this.marks[slot]!
        const places = this.places[slot]!
        return {
          id: this.ids[slot]!,
          ...weigh(
            marks.length,
            (i) => places[i]!,
            (i) => hashes.has(marks[i]!),
          ),
        }
      }),
      limit,
    )
  }
}

/** Of weighed candidates, those of which the document prints at least LEAST_SCORE, the closest first, at most `limit`. */
export function closestOf<T extends Similarity>(weighed: readonly T[], limit = 3): T[] {
  return weighed
    .filter((candidate) => candidate.score >= LEAST_SCORE)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
}

/** However few layouts there are, a word printed by this many is still looked up. */
const MIN_COMMON = 20

/** The most layouts, of an account's `layouts`, that print a word still looked up (D268): one in fifty, at least MIN_COMMON; the database's lookup too. */
export function mostCommon(layouts: number): number {
  return Math.max(MIN_COMMON, layouts / 50)
}
/** Layouts weighed whole per document (D268; the database's lookup too). */
export const SHORTLIST = 8
/** The least weight of telling words a candidate shares with the document: two words, or one of its head (D268; the database's lookup too). */
export const MIN_SHARED = 2
/** The least share of its fingerprint a document prints, as printed, for a layout to be a candidate. */
const LEAST_SCORE = 0.2

/**
 * One account's learned layouts held in memory with their index, as JSON as a database holds them
 * (each read gives a copy): the source of layouts of the benchmark and the tests, and the shape of
 * the server's (D270).
 */
export class LayoutStore {
  private readonly index = new LayoutIndex()
  private readonly stored = new Map<string, string>()

  get size(): number {
    return this.stored.size
  }

  put(layout: LearnedLayout): void {
    this.stored.set(layout.id, JSON.stringify(layout))
    this.index.add(layout.id, layout.fingerprint)
  }

  get(id: string): LearnedLayout | undefined {
    const json = this.stored.get(id)
    return json === undefined ? undefined : (JSON.parse(json) as LearnedLayout)
  }

  /** Forgets a layout: no later document is read with it. */
  remove(id: string): boolean {
    this.index.remove(id)
    return this.stored.delete(id)
  }

  all(): LearnedLayout[] {
    return [...this.stored.values()].map((json) => JSON.parse(json) as LearnedLayout)
  }

  readonly source: LayoutSource = async (words) =>
    this.size ? toFetch(this.index.candidates(words())).flatMap((candidate) => this.get(candidate.id) ?? []) : []
}
