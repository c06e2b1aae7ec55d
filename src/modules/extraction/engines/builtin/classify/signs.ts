/**
 * Signs of a page's build (D242): what a reader sees before reading a word of it — a passport's
 * machine-readable zone, a table of items, bookings between balances, results with their ranges,
 * dosages, a closing total, numbered clauses. Each is 0–1 and found the same way in every language:
 * by shapes of numbers and lines, and by the lexicons' column words and total labels.
 */
import { CUE_SIGNS, type CueSign } from '../../../../catalog/classification'
import { columnWords, conceptLabels, lexiconWords, type Phrases, phrases } from '../../../../../lib/lexicon'
import type { ColumnKind } from '../../../../../lib/lexicon/lexicon-file'
import type { Line } from '../document'
import { SIGN } from './weights'

export type SignStrengths = Record<CueSign, number>

export function noSigns(): SignStrengths {
  return Object.fromEntries(CUE_SIGNS.map((sign) => [sign, 0])) as SignStrengths
}

/** An amount as printed: digits with a decimal mark and two decimals ("1.234,50", "26.60", "-8,79"). */
const AMOUNT = /(?<![\d.,])-?\d{1,3}(?:[.,' ]?\d{3})*[.,]\d{2}(?![\d.,]*\d)/g
/** A date as printed in a table: numeric, or a day and a month name's first letters ("05.03.2018", "2024-01-31", "12 Jan"). */
const DATE = /^(?:\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?|\d{4}-\d{2}-\d{2}|\d{1,2}\s?\p{L}{3,}\.?(?:\s?\d{2,4})?)(?!\d)/u
/** A machine-readable line: capitals, digits and fillers, at least one run of two fillers (OCR reads `<` as « or K now and then). */
const MRZ_LINE = /^[A-Z0-9<«]{28,46}$/
/** A reference range: two numbers joined by a dash, or a bound ("3.5 - 5.0", "< 5", "70–99"). */
const RANGE = /(?:\d+(?:[.,]\d+)?\s?[-–]\s?\d+(?:[.,]\d+)?|[<>≤≥]\s?\d+(?:[.,]\d+)?)\s*$/
/** A strength of a medicine: a number and a unit of a dose (symbols, the same in every language; grams and litres weigh flour too). */
const STRENGTH = /(?<![\p{L}\d])\d+(?:[.,]\d+)?\s?(?:mg|mcg|µg|μg|IE|IU|UI)(?![\p{L}/])/gu
/** A dosage scheme: doses per time of day ("1-0-1", "1-1-1-0"). */
const SCHEME = /(?<![\d.,-])[0-2](?:\s?-\s?[0-2]){2,3}(?![\d.,-])/g
/** A numbered clause or section heading ("1.", "2.3", "(a)", "§ 4", "Article 5"). */
const CLAUSE = /^\s*(?:\d{1,2}(?:\.\d{1,2}){0,2}\.?|\(?[a-z]\)|\(?[ivx]{1,4}\)|§\s?\d+)\s+\p{L}/u

const TOTAL_LABEL = phrases([...lexiconWords('final_totals'), ...conceptLabels('total')])

function kindsIn(text: string, kinds: readonly ColumnKind[]): ColumnKind[] {
  return kinds.filter((kind) => COLUMN_PATTERNS.get(kind)!.test(text))
}

const ITEM_COLUMNS = ['description', 'quantity', 'unit', 'price', 'amount', 'total'] as const
const BOOKING_COLUMNS = ['date', 'balance', 'debit', 'credit'] as const
const RESULT_COLUMNS = ['test', 'result', 'reference', 'flag'] as const
const MEDICATION_COLUMNS = ['medication', 'strength', 'directions', 'refills'] as const

/** The header words of each column kind the signs look for. */
const COLUMN_PATTERNS = new Map<ColumnKind, Phrases>(
  [...ITEM_COLUMNS, ...BOOKING_COLUMNS, ...RESULT_COLUMNS, ...MEDICATION_COLUMNS].map((kind) => [kind, phrases(columnWords(kind))]),
)

/** Lines of many words, mostly small letters: running prose. */
function isProse(text: string): boolean {
  const words = text.split(/\s+/).filter((word) => /\p{L}{2}/u.test(word))
  if (words.length < SIGN.proseWords) return false
  const letters = text.match(/\p{L}/gu)?.length ?? 0
  const small = text.match(/\p{Ll}/gu)?.length ?? 0
  return small >= letters * 0.6
}

/** The signs of one page's lines. */
export function pageSigns(lines: readonly Line[]): SignStrengths {
  const signs = noSigns()
  let mrz = 0
  let itemRows = 0
  let bookings = 0
  let results = 0
  let clauses = 0
  let prose = 0
  let dosages = 0
  const headers = { item: 0, booking: 0, result: 0, medication: 0 }
  for (const [index, line] of lines.entries()) {
    const text = line.text
    const compact = text.replace(/\s+/g, '')
    if (MRZ_LINE.test(compact) && /[<«]{2}/.test(compact)) mrz++
    const amounts = text.match(AMOUNT)?.length ?? 0
    // A header row: short cells without amounts, naming what its columns hold.
    if (line.cells.length >= 2 && !amounts && text.length <= 160) {
      const items = kindsIn(text, ITEM_COLUMNS)
      if (items.includes('description')) headers.item = Math.max(headers.item, items.length)
      const bookingKinds = kindsIn(text, BOOKING_COLUMNS)
      if (bookingKinds.includes('balance') || (bookingKinds.includes('debit') && bookingKinds.includes('credit'))) headers.booking = 1
      headers.result = Math.max(headers.result, kindsIn(text, RESULT_COLUMNS).length)
      headers.medication = Math.max(headers.medication, kindsIn(text, MEDICATION_COLUMNS).length)
    }
    if (
      amounts >= 1 &&
      line.cells.length >= 3 &&
      /\p{L}{3}/u.test(line.cells[0]!.text) &&
      /^\d+(?:[.,]\d+)?$/.test(line.cells.at(-2)?.text ?? line.cells.at(-3)?.text ?? '')
    )
      itemRows++
    else if (amounts >= 1 && line.cells.length >= 3 && line.cells.some((cell) => /^\d{1,4}(?:[.,]\d{1,3})?$/.test(cell.text))) itemRows += 0.5
    if (DATE.test(line.cells[0]?.text ?? '') && amounts >= 1 && line.cells.length >= 3) bookings += amounts >= 2 ? 1 : 0.5
    if (line.cells.length >= 3 && RANGE.test(text) && /\p{L}{2}/u.test(line.cells[0]!.text) && /\d/.test(line.cells[1]!.text)) results++
    dosages += (text.match(STRENGTH)?.length ?? 0) + (text.match(SCHEME)?.length ?? 0)
    if (CLAUSE.test(line.raw)) clauses++
    if (isProse(text)) prose++
    // A total's line is short: its label, an amount; in a sentence "total" is a word of the text.
    if (TOTAL_LABEL.test(text) && text.split(/\s+/).length <= SIGN.totalWords && (amounts || (lines[index + 1]?.text.match(AMOUNT)?.length ?? 0)))
      signs.total = 1
  }
  signs.mrz = Math.min(1, mrz / 2)
  signs.item_table = Math.min(1, Math.max(headers.item >= 3 ? 1 : headers.item === 2 ? 0.6 : 0, itemRows / SIGN.rows))
  signs.balance_table = Math.min(1, Math.max(headers.booking && bookings >= 1 ? 1 : 0, bookings / SIGN.bookings))
  signs.result_table = Math.min(1, Math.max(headers.result >= 2 ? 0.8 : 0, results / SIGN.rows))
  signs.dosage = Math.min(1, Math.max(headers.medication >= 2 ? 0.8 : 0, dosages / SIGN.dosages))
  signs.clauses = Math.min(1, SIGN.clauseShare * Math.min(1, clauses / SIGN.clauses) + (1 - SIGN.clauseShare) * Math.min(1, prose / SIGN.proseLines))
  return signs
}
