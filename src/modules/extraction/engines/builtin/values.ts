/**
 * Reading a value of a given kind out of the text found next to a label, with a quality in 0–1
 * that says how well the text fits the kind. Text that does not fit gives nothing: a date field
 * never gets an amount, an amount field never gets a percentage or a date.
 */
import type { JobField } from '../../../../lib/fields/model'
import type { ResolvedType as FieldKind } from '../../../../lib/fields/types'
import { amountIn, leadingNumber } from '../../normalise/amounts'
import { findCurrency } from '../../normalise/currency'
import { parseBoolean, parseEnum } from '../../normalise'
import { lexiconWords, phrases, startsWord } from '../../../../lib/lexicon'
import { datesIn } from './dates'
import type { Doc } from './document'
import { collapse, isLetterOrDigit } from '../../../../lib/text'
import { FIT } from './weights'

interface ReadValue {
  value: unknown
  /** How well the text fits the kind, 0–1. */
  quality: number
}

/** The reader of each kind; tables are read whole (tables.ts), never from one candidate text. */
const READERS: Record<FieldKind, (text: string, doc: Doc, spec?: JobField) => ReadValue | undefined> = {
  boolean: readBoolean,
  enum: readEnum,
  text: readText,
  date: readDate,
  amount: readAmount,
  currency: readCurrency,
  number: readNumber,
  list: readList,
  table: () => undefined,
}

/** Reads a value of `kind` from a candidate text; undefined when the text holds none. */
export function readValue(kind: FieldKind, text: string, doc: Doc, spec?: JobField): ReadValue | undefined {
  return READERS[kind](text, doc, spec)
}

/** Yes or no: the first word of the value (a checkbox mark counts), as the normalisation layer reads it. */
function readBoolean(text: string): ReadValue | undefined {
  const first = collapse(text).split(' ')[0] ?? ''
  const value = parseBoolean(first)
  return value === null ? undefined : { value, quality: 1 }
}

/** One of the field's allowed values, found in the value's text (normalise/index.ts). */
function readEnum(text: string, _doc: Doc, spec?: JobField): ReadValue | undefined {
  const value = parseEnum(collapse(text), spec?.values ?? [])
  return value === null ? undefined : { value, quality: 1 }
}

/** The first date of the text, if the text starts with it (a label's value, not a sentence). */
function readDate(text: string, doc: Doc): ReadValue | undefined {
  const date = datesIn(text, doc)[0]
  if (!date) return undefined
  const lead = text.slice(0, date.start)
  // Allow short lead-ins such as "le", "am", "du", "on", a weekday or a time before the date.
  if (lead.length > 24 || /\d{3,}/.test(lead)) return undefined
  return { value: date.iso, quality: date.guessed ? FIT.guessedDate : 1 }
}

/**
 * The amount of a label's value: the last money-like number of the text (a total row's last
 * column is the total). Plain integers count only when they are the whole value, and less surely.
 */
function readAmount(text: string): ReadValue | undefined {
  const amount = amountIn(text)
  if (!amount) return undefined
  return { value: amount.value, quality: amount.moneyLike ? 1 : FIT.plainAmount }
}

function readCurrency(text: string): ReadValue | undefined {
  const code = findCurrency(text)
  return code ? { value: code, quality: 1 } : undefined
}

/** A count or measure: the number the text leads with; one written out is less sure. */
function readNumber(text: string): ReadValue | undefined {
  const found = leadingNumber(text)
  if (!found) return undefined
  return { value: found.number, quality: found.spelled ? FIT.spelledNumber : 1 }
}

/** The word "and" of every lexicon ("A, B und C"). */
const AND = phrases(lexiconWords('list_and'))

/** The items of a list: split at a semicolon, a comma, a tab or the word "and" of a lexicon. */
function listItems(text: string): string[] {
  const items: string[] = []
  let from = 0
  for (let at = 0; at < text.length; at++) {
    const and = ';,\t'.includes(text[at]!) ? undefined : startsWord(text, at) ? AND.at(text, at) : undefined
    if (!and && !';,\t'.includes(text[at]!)) continue
    items.push(text.slice(from, at))
    from = and ? and.end : at + 1
    at = from - 1
  }
  items.push(text.slice(from))
  return items.map((item) => collapse(item)).filter(Boolean)
}

function readList(text: string): ReadValue | undefined {
  const items = listItems(text)
  return items.length ? { value: items, quality: FIT.listItems } : undefined
}

function readText(text: string): ReadValue | undefined {
  const value = collapse(text)
  if (!value || ![...value].some(isLetterOrDigit)) return undefined
  // An enumeration mark ("(b)", "2.", "iv)") opens the next clause; it is not a value.
  if (/^(?:\(?[a-z0-9]{1,4}[.)]|\([a-z0-9]{1,4}\))$/i.test(value)) return undefined
  return { value, quality: value.length > 120 ? FIT.longText : 1 }
}
