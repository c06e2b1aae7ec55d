/**
 * Readers for the fields every invoice and receipt has: its number, its dates, its totals and
 * its currency. They start from the labels like the general reader and add what invoices are
 * known to do: the number and date in the title line ("Rechnung Nr. 12 vom 3.5.2024"), the due
 * date in a payment sentence, totals that must add up (subtotal + tax = total).
 */
import { lineAmounts } from './amounts'
import { best, memo, type Answer, type Context, type Plan } from './context'
import { documentCurrency, findCurrency, KRONE } from '../../normalise/currency'
import { lexiconWords, wordsSource } from '../../../../lib/lexicon'
import { lineDates } from './dates'
import type { Line } from './document'
import { choose, labelledValues, type Scored } from './generic'
import { below } from './labels'
import { dateWeight, INVOICE } from './weights'

// ---------------------------------------------------------------- invoice number

/** The titles of a document and the marks of a number, from the lexicons (D95). */
const TITLE_WORDS = `(?:${wordsSource(lexiconWords('document_titles'))})`
const NUMBER_MARK = `(?:${wordsSource(lexiconWords('number_marks'))})\\.?`
const ID = String.raw`([A-Z0-9][\w./-]*\d[\w./-]*|\d[\w./-]*)`

/** "Rechnung Nr. 2024-117 vom …", "Facture n°80321 du …", "Invoice # AB-2019/077". */
const TITLE_NUMBER = new RegExp(String.raw`(?<![\p{L}])${TITLE_WORDS}\b[^\n:]{0,30}?(?:${NUMBER_MARK}|#)\s*:?\s*${ID}`, 'iu')
/** "Invoice INV/2025/11/0031" at the start of a line. */
const TITLE_THEN_ID = new RegExp(String.raw`^${TITLE_WORDS}\s+(?=[\w/.-]*\d)([A-Z]{0,5}[\d/.-]*\d[\w/.-]*)\s*$`, 'iu')
/** A line that names the document ("Rechnung", "Facture", "Tax Invoice"). */
const NAMES_DOCUMENT = new RegExp(String.raw`(?<![\p{L}])${TITLE_WORDS}(?![\p{L}])`, 'iu')

/** A number mark or punctuation before an identifier ("No. 12", "#12", ": 12"). */
const LEADING_MARK = new RegExp(`^(?:#|:|\\.|-|${NUMBER_MARK})\\s*`, 'iu')

/**
 * An identifier as printed after its label: the first token, with a short letter prefix kept
 * when it is printed apart ("CS 67832"); it must hold a digit and must not be a date or money.
 */
function readIdentifier(text: string): string | undefined {
  const cleaned = text
    .replace(LEADING_MARK, '')
    .replace(/^[#:]\s*/, '')
    .trim()
  const tokens = cleaned.split(/\s+/)
  let id = tokens[0] ?? ''
  if (/^[A-Za-z]{1,3}$/.test(id) && tokens[1] && /\d/.test(tokens[1])) id = `${id} ${tokens[1]}`
  id = id.replace(/[,;:)]+$/, '')
  if (!/\d/.test(id) || id.length > 40) return undefined
  if (/^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(id)) return undefined
  if (/^\d{1,3}([.,]\d{3})*[.,]\d{2}$/.test(id)) return undefined
  return id
}

/** The invoice number: after its label, or in the title line ("Rechnung Nr. 12", "Invoice INV-7"). */
export function invoiceNumberAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const labelled: Scored[] = []
  for (const scored of labelledValues(plan, ctx, 'text')) {
    const id = readIdentifier(String(scored.value))
    if (id) labelled.push({ ...scored, value: id })
  }
  const fromTitle: Answer[] = []
  for (const line of ctx.doc.lines.slice(0, 60)) {
    const numbered = TITLE_NUMBER.exec(line.text)
    if (numbered) {
      const id = readIdentifier(numbered[1]!)
      if (id) fromTitle.push({ value: id, confidence: INVOICE.titleNumber, line })
      continue
    }
    const bare = TITLE_THEN_ID.exec(line.text)
    if (bare) {
      const id = readIdentifier(bare[1]!)
      if (id) fromTitle.push({ value: id, confidence: INVOICE.titleThenId, line })
    }
  }
  return best([choose(labelled), ...fromTitle])
}

// ---------------------------------------------------------------- dates

/**
 * Words that tie a date to what precedes it: "… vom 05.03.2018", "… du 02 Juillet 2015", "… dated
 * March 3, 2024" (the date of a title line), "… eingezogen am 20.03." (the day of a direct debit).
 */
const DATE_LEAD = new RegExp(`(?<![\\p{L}\\p{N}])(?:${wordsSource(lexiconWords('date_leads'))})\\s*:?\\s*$`, 'iu')

/** The issue date: after its label, in the title line, or (receipts) the first unclaimed date. */
export function issueDateAnswer(plan: Plan, ctx: Context): Answer | undefined {
  // A misread year is no candidate: the other dates printed may still answer.
  const labelled = choose(labelledValues(plan, ctx, 'date').filter((answer) => issuedYet(String(answer.value))))
  const title = titleDate(ctx)
  const fallback = firstUnlabelledDate(ctx)
  return best([labelled, title, fallback].filter((answer) => !answer || issuedYet(String(answer.value))))
}

/** A document is not issued years ahead: an issue date past next year is a misread year ("26/05/2078"). */
function issuedYet(iso: string): boolean {
  return Number(iso.slice(0, 4)) <= new Date().getUTCFullYear() + 1
}

/** The date on a line that names the document ("Rechnung Nr. 7 vom 05.03.2018"). */
function titleDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  for (const line of doc.lines.slice(0, 60)) {
    if (!NAMES_DOCUMENT.test(line.text)) continue
    for (const date of lineDates(ctx, line)) {
      if (DATE_LEAD.test(leadOf(line.text, date.start))) return { value: date.iso, confidence: dateWeight(INVOICE.titleDate, date), line }
    }
    // The date may be wrapped onto the next line ("… Nr. 123 vom" / "06.12.2018").
    const next = doc.lines[line.index + 1]
    if (next && DATE_LEAD.test(line.text)) {
      const date = lineDates(ctx, next)[0]
      if (date && date.start === 0) return { value: date.iso, confidence: dateWeight(INVOICE.wrappedTitleDate, date), line: next }
    }
  }
  return undefined
}

/**
 * The text of a line before a date, as far back as the expressions that end at it can reach
 * (a few words; D186): a line of ten thousand dates is not read again up to each of them.
 */
function leadOf(text: string, end: number): string {
  let words = end
  while (words > 0 && /\s/.test(text[words - 1]!)) words--
  return text.slice(Math.max(0, words - LEAD_REACH), end)
}

/** Characters before a date's trailing spaces that a lead expression may need: two lexicon words and 80 between them. */
const LEAD_REACH = 300

/** The text after a period's first date ends with a word that leads to its second ("01.01.2010 bis"), or with a dash after a word. */
const PERIOD_NEXT = new RegExp(`(?:(?<![\\p{L}\\p{N}])(?:${wordsSource(lexiconWords('period_to'))})|\\b[-–])\\s*$`, 'iu')
/** The end of a text before either date of a period ("vom", "bis", "from", "to"). */
const PERIOD_BEFORE = new RegExp(`(?<![\\p{L}\\p{N}])(?:${wordsSource([...lexiconWords('period_from'), ...lexiconWords('period_to')])})\\s*$`, 'iu')

/**
 * A receipt often prints its date with no label, at the top or the bottom: the first date that
 * no other date label (order, delivery, due …) claims.
 */
function firstUnlabelledDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  const claimed = new Set<number>()
  for (const hit of ctx.hits) {
    if (hit.entry.owner === 'other_date' || hit.entry.owner === 'due_date') {
      claimed.add(hit.line.index)
      for (const candidate of below(hit, doc, ctx.hitsByLine, 2)) claimed.add(candidate.line.index)
    }
  }
  for (const line of doc.lines) {
    if (claimed.has(line.index)) continue
    const date = lineDates(ctx, line)[0]
    if (!date || !issuedYet(date.iso)) continue
    // Ranges ("01.01.2010 bis 31.12.2010") are periods, not the date of issue.
    if (PERIOD_NEXT.test(line.text.slice(date.end, date.end + 6))) continue
    if (PERIOD_BEFORE.test(leadOf(line.text, date.start))) continue
    // A receipt that prints no other date (or the same one again) leaves no doubt which it is.
    const others = doc.lines.flatMap((other) => lineDates(ctx, other)).filter((found) => found.iso !== date.iso)
    return { value: date.iso, confidence: dateWeight(others.length ? INVOICE.firstUnlabelledDate : INVOICE.onlyDate, date), line }
  }
  return undefined
}

/** "Bitte überweisen Sie bis zum 09.06.2014", "Zahlbar … bis 04.07.2013", "payable by 1 May 2024". */
const DUE_SENTENCE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${wordsSource(lexiconWords('payment_words'))})(?![\\p{L}\\p{N}])[^\\n]{0,80}?(?<![\\p{L}\\p{N}])(?:${wordsSource(lexiconWords('due_by'))})\\s+$`,
  'iu',
)

/** "… wird am 20.03.2014 von Ihrem Konto … eingezogen": the day of a direct debit. */
const DEBIT_WORDS = new RegExp(wordsSource(lexiconWords('direct_debit')), 'iu')
/** "3% Skonto … bis 15.03.": a discount's deadline. */
const DISCOUNT_WORDS = new RegExp(wordsSource(lexiconWords('cash_discount')), 'iu')

/** The due date: after its label, or in a payment or direct-debit sentence. */
export function dueDateAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const labelled = choose(labelledValues(plan, ctx, 'date'))
  return best([labelled, dueFromSentence(ctx)])
}

/** A due date written in a payment or direct-debit sentence. */
function dueFromSentence(ctx: Context): Answer | undefined {
  const { doc } = ctx
  for (const line of doc.lines) {
    const next = doc.lines[line.index + 1]
    const dates = lineDates(ctx, line)
    const debit = dates.length > 0 && DEBIT_WORDS.test(`${line.text} ${next?.text ?? ''}`)
    for (const date of dates) {
      const lead = leadOf(line.text, date.start)
      // Discount deadlines ("3% Skonto … bis 15.03.") are not the due date.
      if (DISCOUNT_WORDS.test(lead.slice(-40))) continue
      if (DUE_SENTENCE.test(lead)) return { value: date.iso, confidence: dateWeight(INVOICE.dueInSentence, date), line }
      if (debit && DATE_LEAD.test(lead)) return { value: date.iso, confidence: dateWeight(INVOICE.directDebitDate, date), line }
    }
  }
  return undefined
}

// ---------------------------------------------------------------- currency

/** The currency of the whole document, judged once for every currency field. */
function documentCurrencyAnswer(ctx: Context): Answer | undefined {
  return memo(ctx, 'document-currency', () => {
    const amountCurrencies: string[] = []
    for (const line of ctx.doc.lines) for (const amount of lineAmounts(ctx, line)) if (amount.currency) amountCurrencies.push(amount.currency)
    const overall = documentCurrency(ctx.doc.text, amountCurrencies)
    return overall ? { value: overall.code, confidence: overall.confidence, line: lineWithCurrency(ctx, overall.code) } : undefined
  })
}

/** The currency: a labelled one ("Currency: EUR"), else the one the document's amounts carry. */
export function currencyAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const labelled = choose(labelledValues(plan, ctx, 'currency'))
  const fromDocument = documentCurrencyAnswer(ctx)
  if (labelled && fromDocument && labelled.value === fromDocument.value)
    return { ...labelled, confidence: Math.min(INVOICE.currencyAgreesCap, labelled.confidence + INVOICE.currencyAgreesBonus) }
  return best([labelled, fromDocument])
}

/** The first line that shows the currency, for the answer's snippet (`KRONE` marks any crown). */
function lineWithCurrency(ctx: Context, code: string): Line | undefined {
  const crown = ['SEK', 'NOK', 'DKK'].includes(code)
  const shows = (found: string | undefined) => found === code || (crown && found === KRONE)
  return (
    ctx.doc.lines.find((line) => lineAmounts(ctx, line).some((amount) => shows(amount.currency))) ??
    ctx.doc.lines.find((line) => findCurrency(line.text) === code)
  )
}
