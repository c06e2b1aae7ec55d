/**
 * A learned layout (D260): what one account's reviews taught of one sender's documents — the
 * words that identify the sender (its fingerprint) and, for each field, where its value is printed
 * relative to landmarks, or the constant a person always gives it. Plain JSON: the server stores
 * it as account data and hands the few that may match a document to the extraction.
 */
import type { ResolvedType } from '../../../lib/fields/types'
import type { DateOrder } from '../normalise/dates'
import type { Box } from './words'

/** The stored form's version: a layout of another version is ignored, never misread. */
export const LAYOUT_VERSION = 1

/** One word of a sender's fingerprint. */
export interface Mark {
  /** The word, folded to letters and digits. */
  key: string
  /** Printed in the head: the first lines with words of the sender's own. */
  head: boolean
  /** Printed on the first of them, which names the sender. */
  name?: true
}

/** A document's or a layout's fingerprint: its own words, each once, in reading order. */
export interface Fingerprint {
  marks: Mark[]
}

export interface LearnedLayout {
  /** `lay_…` (D6). */
  id: string
  version: typeof LAYOUT_VERSION
  fingerprint: Fingerprint
  /** Per field key, what the reviews taught of it. */
  fields: Record<string, LearnedField>
  createdAt: string
  updatedAt: string
}

/** Where a layout's word (a label, a landmark) is, relative to which the value is read. */
export interface Anchor {
  /** How it stands to the value: the label before it on its row, the heading above it, a word nearby, or a text value's own words. */
  kind: 'label' | 'above' | 'landmark' | 'self'
  /** The anchor's words, folded, as printed in order on one row. */
  keys: string[]
  /** The value's box less the anchor's top-left corner, in page units (character widths, text heights). */
  offset: Box
  /** Which of the page's rows that print these words it is (0-based from the top), of how many. */
  nth: number
  of: number
  /** Its height on the page as a share of the page's printed height, to choose among more rows than were learned. */
  at: number
}

export interface PrintedField {
  how: 'printed'
  type: ResolvedType
  /** The reviewed job that taught it. */
  job: string
  /** The value as reviewed: a text read at its place that is this value misread is answered as reviewed. */
  value: unknown
  /** 0-based page. */
  page: number
  anchors: Anchor[]
  /**
   * Whether the reviewer corrected what the general reading answered. A field read right is left to
   * the general reading wherever it answers; the learned place answers where it does not (D265).
   */
  corrected: boolean
  /** Day before month or after, as the reviewed date was printed. */
  dateOrder?: DateOrder
  /**
   * An amount the person chose though a rounding line and a rounded amount are printed after it:
   * it does not give way to the rounded amount on the sender's next documents (D361).
   */
  unrounded?: true
}

/** A value that is not printed as reviewed: the sender's name as a person always writes it. */
export interface ConstantField {
  how: 'constant'
  type: ResolvedType
  job: string
  value: unknown
}

/** A field a person said the sender's documents do not have. */
export interface AbsentField {
  how: 'absent'
  type: ResolvedType
  job: string
}

/** A table's columns found under its heading row and its rows until the row that ends it. */
export interface TableField {
  how: 'table'
  type: 'table'
  job: string
  page: number
  /** The heading row over the rows (or the nearest row above them). */
  head: Anchor
  /** The row under the last row (a total), where the rows stop; absent when the rows ran to the page's end. */
  end?: string[]
  /** Per column key: its span across, relative to the heading row's left edge, and its type. */
  columns: { key: string; type: ResolvedType; from: number; to: number }[]
  /** The column every row prints a value in: a row starts at a line with one there. */
  rowStart: string
  dateOrder?: DateOrder
}

export type LearnedField = PrintedField | ConstantField | AbsentField | TableField

/**
 * What `fields_meta.<key>.learned` says of an answer read with a learned layout (D266): which
 * layout, taught by which reviewed job, and how — read where the value is printed, a constant, or
 * no value.
 */
export interface LearnedSource {
  layout: string
  job: string
  how: 'printed' | 'constant' | 'absent' | 'table'
}

/**
 * The learned layouts of a job's account that a document printing these words (its fingerprint's
 * candidates, `ownKeys`) may be the sender's of (D268): the few the account's index finds, never all.
 * The words are asked for only when the account has layouts: one that has none pays nothing (D302).
 */
export type LayoutSource = (words: () => ReadonlySet<string>) => Promise<readonly LearnedLayout[]>
