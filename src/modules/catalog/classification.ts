/**
 * What knowing a document type when it is seen takes, and what it answers (issue 34, D240–D242):
 * the catalog holds each type's cues as data; the classifier of the extraction threads reads a
 * document by them and answers in these shapes. Types and constants only, nothing that runs: the
 * extraction threads import them without the catalog's loading.
 */
import type { JobField } from '../../lib/fields/model'

/** The document type of a request that leaves it to the classifier (D250); no catalog type may take it as its slug. */
export const AUTO_TYPE = 'auto'

/**
 * Signs of a document's build that no word list gives, each found by the classifier the same way
 * in every language (D242). A type's cues name the signs that speak for it.
 */
export const CUE_SIGNS = [
  /** A machine-readable zone: two or three lines of capitals, digits and `<` (ICAO 9303). */
  'mrz',
  /** A closing total: a final-total label with an amount after it. */
  'total',
  /** A table of items: a header naming description, quantity, price or amount columns, or rows of them. */
  'item_table',
  /** Bookings: rows that start with a date and end with amounts, under a balance column or between balances. */
  'balance_table',
  /** Test results: rows of a name, a value, a unit and a reference range. */
  'result_table',
  /** Dosages: strengths and directions of medicines ("500 mg", "1-0-1", "2x daily"). */
  'dosage',
  /** Clauses: numbered sections and running prose, as contracts are written. */
  'clauses',
] as const

export type CueSign = (typeof CUE_SIGNS)[number]

/**
 * The cues of one type (D241). Words are matched as the lexicons' phrase lists are: case, accents,
 * dots and spaces ignored, a `*` at either end joining letters ("*rechnung" finds "Handelsrechnung").
 */
export interface TypeCues {
  /** What the document calls itself in its title, in any language ("Invoice", "Rechnung", "Lønseddel"). */
  titles: string[]
  /** Words and phrases of its body that other types seldom print ("Cash tendered", "Wertstellung"). */
  phrases: string[]
  /** The signs of its build that speak for it. */
  signs: CueSign[]
}

/** A catalog type as the classifier sees it: its cues, and its fields with their printed labels. */
export interface ClassifiableType {
  slug: string
  label: string
  cues: TypeCues
  fields: JobField[]
}

/** One type the document may be, with the chance that it is. */
export interface Candidate {
  documentType: string
  confidence: number
}

/** Which catalog type a document is (D243): the best, or null when none fits, and the others ranked. */
export interface Classification {
  documentType: string | null
  /** The chance the answer is right: for a type, that it is that type; for null, that it is none of them. */
  confidence: number
  /** Every type with a chance worth telling, best first. */
  candidates: Candidate[]
}

/** One document found in a file of several (D246): its pages, 1-based and inclusive, and its type. */
export interface FoundDocument {
  firstPage: number
  lastPage: number
  classification: Classification
}
