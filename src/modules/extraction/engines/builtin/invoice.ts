/**
 * Readers for the fields every invoice and receipt has: its number, its dates, its totals and
 * its currency. They start from the labels like the general reader and add what invoices are
 * known to do: the number and date in the title line ("Rechnung Nr. 12 vom 3.5.2024"), the due
 * date in a payment sentence, totals that must add up (subtotal + tax = total).
 */
import { lineAmounts } from './amounts'
import { atEachEnd, best, memo, type Answer, type Context, type Plan } from './context'
import { documentCurrency, findCurrency, KRONE } from '../../normalise/currency'
import { lexiconWords, type Phrases, phrases } from '../../../../lib/lexicon'
import { isLetterOrDigit } from '../../../../lib/text'
import { pastSpaces } from './clauses'
import { hasDigit, isSpace } from './text'
import { lineDates } from './dates'
import type { Line } from './document'
import { choose, labelledValues, type Scored } from './generic'
import { below } from './labels'
import { dateWeight, INVOICE } from './weights'

// ---------------------------------------------------------------- invoice number

/** The titles of a document and the marks of a number, from the lexicons (D95). */
const TITLES = phrases(lexiconWords('document_titles'))
/** A title standing apart from other letters: a digit may follow ("Rechnung2024"). */
const TITLES_BEFORE_DIGITS = phrases(lexiconWords('document_titles'), true)
/** A mark of a number, a digit right after it allowed ("Nr.5", "No123"). */
const NUMBER_MARKS = phrases(lexiconWords('number_marks'), true)
/** An identifier, read right at a position: a token with a digit. */
const ID = /[A-Z0-9][\w./-]*\d[\w./-]*|\d[\w./-]*/iy

/** Every place a phrase of a list that starts at `at` may end, in the order a pattern tries them. */
function endsAt(list: Phrases, text: string, at: number): number[] {
  const ends: number[] = []
  list.at(text, at, (found) => {
    ends.push(found.end)
    return false
  })
  return ends
}

/**
 * "Rechnung Nr. 2024-117 vom …", "Facture n°80321 du …", "Invoice # AB-2019/077": a title, up to
 * 30 characters without a colon, a number mark (or "#"), then the identifier.
 */
function titleNumber(text: string): string | undefined {
  for (const title of TITLES.all(text))
    for (const end of endsAt(TITLES, text, title.start)) {
      if (isLetterOrDigit(text[end])) continue
      for (let at = end; at <= end + 30 && at < text.length; at++) {
        if (at > end && (text[at - 1] === '\n' || text[at - 1] === ':')) break
        const marks = [
          ...endsAt(NUMBER_MARKS, text, at).flatMap((mark) => (text[mark] === '.' ? [mark + 1, mark] : [mark])),
          ...(text[at] === '#' ? [at + 1] : []),
        ]
        for (const mark of marks) {
          let id = pastSpaces(text, mark)
          if (text[id] === ':') id = pastSpaces(text, id + 1)
          ID.lastIndex = id
          const found = ID.exec(text)
          if (found) return found[0]
        }
      }
    }
  return undefined
}

/** How much of a line is searched for a title and its number ("Rechnung Nr. 2024-117 vom 05.03.2018"). */
const TITLE_LINE_CHARS = 300

/** "Invoice INV/2025/11/0031" at the start of a line: the title, then nothing but an identifier. */
function titleThenId(text: string): string | undefined {
  let id: string | undefined
  TITLES.at(text, 0, (title) => {
    const rest = text.slice(title.end)
    const m = /^\s+(?=[\w/.-]*\d)([A-Z]{0,5}[\d/.-]*\d[\w/.-]*)\s*$/i.exec(rest)
    id = m?.[1]
    return !!m
  })
  return id
}

/** A number mark or punctuation before an identifier ("No. 12", "#12", ": 12"), put out. */
function withoutLeadingMark(text: string): string {
  if ('#:.-'.includes(text[0] ?? '\u0000')) return text.slice(pastSpaces(text, 1))
  const mark = NUMBER_MARKS.at(text, 0)
  if (!mark) return text
  return text.slice(pastSpaces(text, text[mark.end] === '.' ? mark.end + 1 : mark.end))
}

/**
 * An identifier as printed after its label: the first token, with a short letter prefix kept
 * when it is printed apart ("CS 67832"); it must hold a digit and must not be a date or money.
 */
function readIdentifier(text: string): string | undefined {
  const cleaned = withoutLeadingMark(text)
    .replace(/^[#:]\s*/, '')
    .trim()
  const tokens = cleaned.split(/\s+/)
  let id = tokens[0] ?? ''
  if (/^[A-Za-z]{1,3}$/.test(id) && tokens[1] && hasDigit(tokens[1])) id = `${id} ${tokens[1]}`
  // A number broken after its hyphen or slash goes on ("BILL#: V001- 515592").
  else if (/[-/]$/.test(id) && tokens[1] && /^\d/.test(tokens[1])) id = `${id}${tokens[1]}`
  id = id.replace(/[,;:)]+$/, '')
  if (!hasDigit(id) || id.length > 40) return undefined
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
    // A title names its number near the start of its line; a line of many titles is read no further (D411).
    const numbered = titleNumber(line.text.slice(0, TITLE_LINE_CHARS))
    if (numbered) {
      const id = readIdentifier(numbered)
      if (id) fromTitle.push({ value: id, confidence: INVOICE.titleNumber, line })
      continue
    }
    const bare = titleThenId(line.text)
    if (bare) {
      const id = readIdentifier(bare)
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
const DATE_LEADS = phrases(lexiconWords('date_leads'))
const endsWithDateLead = (text: string) => DATE_LEADS.ends(text, ':') !== undefined

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
    if (!TITLES_BEFORE_DIGITS.test(line.text)) continue
    for (const date of lineDates(ctx, line)) {
      if (endsWithDateLead(leadOf(line.text, date.start))) return { value: date.iso, confidence: dateWeight(INVOICE.titleDate, date), line }
    }
    // The date may be wrapped onto the next line ("… Nr. 123 vom" / "06.12.2018").
    const next = doc.lines[line.index + 1]
    if (next && endsWithDateLead(line.text)) {
      const date = lineDates(ctx, next)[0]
      if (date && date.start === 0) return { value: date.iso, confidence: dateWeight(INVOICE.wrappedTitleDate, date), line: next }
    }
  }
  return undefined
}

/**
 * The text of a line before a date, as far back as the words that end at it can reach (a few
 * words; D186): a line of ten thousand dates is not read again up to each of them.
 */
function leadOf(text: string, end: number): string {
  let words = end
  while (words > 0 && isSpace(text[words - 1])) words--
  return text.slice(Math.max(0, words - LEAD_REACH), end)
}

/** Characters before a date's trailing spaces that its lead words may need: two lexicon words and 80 between them. */
const LEAD_REACH = 300

/** The words that lead to a period's second date ("bis", "to"), and those before either date ("vom", "from"). */
const PERIOD_TO = phrases(lexiconWords('period_to'))
const PERIOD_WORDS = phrases([...lexiconWords('period_from'), ...lexiconWords('period_to')])

/** The text after a period's first date ends with a word that leads to its second ("01.01.2010 bis"), or with a dash after a word. */
function leadsToSecondDate(text: string): boolean {
  if (PERIOD_TO.ends(text)) return true
  const end = text.trimEnd()
  return (end.endsWith('-') || end.endsWith('–')) && /\w/.test(end[end.length - 2] ?? '')
}

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
    if (leadsToSecondDate(line.text.slice(date.end, date.end + 6))) continue
    if (PERIOD_WORDS.ends(leadOf(line.text, date.start))) continue
    // A receipt that prints no other date (or the same one again) leaves no doubt which it is.
    const others = doc.lines.flatMap((other) => lineDates(ctx, other)).filter((found) => found.iso !== date.iso)
    return { value: date.iso, confidence: dateWeight(others.length ? INVOICE.firstUnlabelledDate : INVOICE.onlyDate, date), line }
  }
  return undefined
}

/** "Bitte überweisen Sie bis zum 09.06.2014", "Zahlbar … bis 04.07.2013", "payable by 1 May 2024": a payment word, then within 80 characters the words before the date. */
const PAYMENT_WORDS = phrases(lexiconWords('payment_words'))
const DUE_BY = phrases(lexiconWords('due_by'))

function endsPaymentSentence(lead: string): boolean {
  if (!/\s$/.test(lead)) return false
  const by = DUE_BY.ends(lead)
  return !!by && PAYMENT_WORDS.all(lead.slice(0, by.start)).some((word) => by.start - word.end <= 80 && !lead.slice(word.end, by.start).includes('\n'))
}

/** "… wird am 20.03.2014 von Ihrem Konto … eingezogen": the words of a direct debit, inside longer words too. */
const DEBIT_WORDS = phrases(lexiconWords('direct_debit').map((word) => `*${word}*`))
/** "3% Skonto … bis 15.03.": a discount's deadline. */
const DISCOUNT_WORDS = phrases(lexiconWords('cash_discount').map((word) => `*${word}*`))

/** The due date: after its label, or in a payment or direct-debit sentence. */
export function dueDateAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const labelled = choose(labelledValues(plan, ctx, 'date'))
  return best([labelled, dueFromSentence(ctx)])
}

/** A due date written in a payment or direct-debit sentence. */
function dueFromSentence(ctx: Context): Answer | undefined {
  const { doc } = ctx
  // The lines that print a date, at the ends of the document (D393): each is read for the words of
  // a payment or a direct debit.
  for (const line of atEachEnd(doc.lines.filter((each) => lineDates(ctx, each).length > 0))) {
    // The words of a direct debit are looked for only behind a date's lead: inside longer words,
    // they are looked for at every letter of the line and the next.
    let debit: boolean | undefined
    const debits = () => (debit ??= DEBIT_WORDS.test(`${line.text} ${doc.lines[line.index + 1]?.text ?? ''}`))
    for (const date of lineDates(ctx, line)) {
      const lead = leadOf(line.text, date.start)
      // Discount deadlines ("3% Skonto … bis 15.03.") are not the due date.
      if (DISCOUNT_WORDS.test(lead.slice(-40))) continue
      if (endsPaymentSentence(lead)) return { value: date.iso, confidence: dateWeight(INVOICE.dueInSentence, date), line }
      if (endsWithDateLead(lead) && debits()) return { value: date.iso, confidence: dateWeight(INVOICE.directDebitDate, date), line }
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
