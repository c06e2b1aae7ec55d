/**
 * The weights of the classifier and the splitter (D243, D247), in one place. Set by hand on the
 * odd-numbered half of the development sets and the first bundle seed (`bun run bench:classify`),
 * checked on the other half and other seeds; the temperature and the score of "none" turn scores
 * into chances and were fitted on that half so that a confidence is the share of answers right.
 */

/** How much of a document is read to classify it: its first pages with text (D244). */
export const CLASSIFY_PAGES = 2

/** What a title is worth by its form, its place on its page, and its page. */
export const TITLE = {
  /** The title alone on its line, or nearly ("INVOICE", "Kontoauszug Nr. 4"): what the document calls itself. */
  alone: 1,
  /** The title heads a longer line ("Mutual Non-Disclosure Agreement between …"). */
  heading: 0.65,
  /** The title with a number after it ("Rechnung Nr. 4711 vom 5.3.2024", "Invoice #123"): a title line. */
  numbered: 0.6,
  /** The title as a label, a colon after it ("Invoice No.: 123", "Bestellung: B12", "Invoice To:"): as often another document's reference. */
  labelled: 0.3,
  /** The word inside running text ("as set out in this Agreement"). */
  prose: 0.12,
  /** Share of a line's letters the title's words must cover to stand alone, and to head it. */
  aloneShare: 0.6,
  headingShare: 0.3,
  /** Words of a line a title may head. */
  headingWords: 14,
  /** Share of capitals that makes a short line a title ("NON-DISCLOSURE AND CONFIDENTIALITY AGREEMENT"). */
  capitalShare: 0.8,
  /** Words in capitals a title in capitals may follow and still head its line ("EXHIBIT M NON-DISCLOSURE AGREEMENT This …"). */
  leadWords: 3,
  /** A title below the first lines of its page counts this much … */
  lower: 0.7,
  /** … the first lines being this share of the page's lines, at least the few and at most the many. */
  topShare: 0.4,
  minTopLines: 3,
  topLines: 15,
  /** The factor of a title on a document's later pages (the first page is 1). */
  laterPages: [0.8, 0.6],
} as const

/** What each kind of evidence adds to a type's score. */
export const EVIDENCE = {
  title: 3,
  labels: 2,
  phrases: 1.5,
  signs: 1.5,
} as const

/**
 * Evidence grows with what is found, ever more slowly: a type's score for labels is
 * 1 − e^(−found / saturation), "found" counting each field once, shared labels by their share.
 */
export const SATURATION = {
  labels: 3,
  phrases: 2.5,
} as const

/** Scores into chances (softmax over the types and "none"): its temperature, and the score "none" has. */
export const CHANCE = {
  temperature: 0.7,
  none: 1.4,
  /** A candidate is listed when its chance is at least this. */
  listed: 0.01,
} as const

/** Thresholds of the signs of a page's build (signs.ts). */
export const SIGN = {
  /** Table rows of items or results that make a table. */
  rows: 3,
  /** Bookings (a date, then amounts) that make an account's table. */
  bookings: 4,
  /** Strengths and dosage schemes that make a prescription's. */
  dosages: 2,
  /** Numbered clauses, and lines of prose, that make a contract's text. */
  clauses: 4,
  proseLines: 12,
  proseWords: 10,
  /** Share of the clauses sign that numbered clauses make (the rest is prose). */
  clauseShare: 0.6,
  /** Words of a line with a total's label and amount (longer, it is a sentence). */
  totalWords: 10,
} as const

/**
 * What a page shows for and against a new document starting on it (split.ts, D247): a sum of
 * these, a new document where it is above zero. People see a document start at a title, a "page 1",
 * a new document number, a change of type, after a page that closed a total; and see it go on at a
 * "page 2 of 3", the same number, a sentence or a table carried over.
 */
export const SPLIT = {
  /** Where nothing is seen, the page goes on with the document before it. */
  bias: -1,
  /** A title alone or heading its line among the page's first lines (times its worth). */
  title: 2,
  /** "Page 1", "Seite 1 von 2". */
  pageOne: 2.5,
  /** The next page's number ("Page 3" after "Page 2"), or any page's but the first. */
  pageNext: 2.5,
  /** The page before said it was the last ("Page 2 of 2"). */
  lastPage: 1,
  /** The number the document is known by, printed again, and a new one. */
  sameNumber: 3,
  newNumber: 2.5,
  /** The page before closed a total. */
  closed: 1,
  /** "continued", "Übertrag" at the foot of the page before or the head of this one. */
  continued: 2,
  /** A page that starts in the middle of a sentence, and one after a page whose last line leaves one open (a signature line may too). */
  midSentence: 1.5,
  openSentence: 0.5,
  /** The document so far is surely of a type the page alone is unlikely to be. */
  typeChange: 2,
  /** How sure of the document's type, and how unlikely of the page. */
  typeSure: 0.6,
  typeDoubt: 0.2,
  /** The same letterhead as the page before, and another. */
  sameHeader: 0.5,
  newHeader: 0.5,
  /**
   * Words of five letters or more the page shares with the last pages before it, as a share of its own:
   * below the first, the pages have little to do with each other (a twentieth of a document's pages
   * share so few, most pairs of documents do); above the second, they speak of the same things.
   */
  unrelatedShare: 0.1,
  unrelated: 1,
  relatedShare: 0.3,
  related: 0.5,
  /** Fewer words than these on either side compare too few to tell. */
  wordsToCompare: 15,
  /** The last pages of the document so far whose words a page is compared with. */
  recentPages: 3,
  /** The document so far is of a type that closes a total (its cues' `total` sign) and has shown none yet. */
  unclosed: 1,
  /** The document so far is a cover: pages of a few lines at most. */
  cover: 3,
  coverLines: 3,
} as const
