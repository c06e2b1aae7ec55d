/**
 * Names of the two sides of an invoice. The issuer is the name after a seller label ("From",
 * "Lieferant"), the name in a sender line above the address window ("ACME GmbH · Street ·
 * City"), or the letterhead: the name-like line at the top that carries a legal form or a trade
 * word, or that matches the document's web or e-mail domain. The client is the name under a
 * buyer label ("Bill to", "Rechnungsempfänger") or the first name of the address window.
 */
import { best, memo, type Answer, type Context, type Plan } from './context'
import type { Doc, Line } from './document'
import { legalFormsSource, lexiconWords, wholeWords, wordsSource } from '../../../../lib/lexicon'
import { hitsOf } from './generic'
import type { LabelHit } from './labels'
import { collapse, fold, squash } from '../../../../lib/text'
import { ISSUER, LETTERHEAD, RECIPIENT } from './weights'

/** Legal forms of companies (from the lexicons, D95) and trade endings, matched as whole words. */
const LEGAL_FORM = new RegExp(`(?:^|[\\s,(&])(?:${legalFormsSource()}|enterprises?|trading)(?=$|[\\s.,)])`, 'i')

const hasLegalForm = (text: string) => LEGAL_FORM.test(text)

/** Words of shop and trade names (receipts rarely print a legal form). */
const TRADE_WORD = wholeWords(lexiconWords('trade_words'))

const LEGAL_FORMS = new RegExp(`(?:^|(?<=[\\s,(&]))(?:${legalFormsSource()})(?=$|[\\s.,)])`, 'gi')

/**
 * A line of trade words and a legal form only ("RESTAURANT SDN BHD") names no one by itself: it
 * ends a long name wrapped from the line above ("LIAN CHI VEGETARIAN" / "RESTAURANT SDN BHD").
 */
function endsWithTradeAndForm(line: string): boolean {
  return hasLegalForm(line) && onlyTradeWords(line.replace(LEGAL_FORMS, ' '))
}

/** A line of trade words only ("BISTRO & CAFE") says what a business is, under the name that says who. */
function onlyTradeWords(line: string): boolean {
  const words = line.split(/[^\p{L}]+/u).filter(Boolean)
  return words.length > 0 && words.every((word) => TRADE_WORD.test(word))
}

/** Labels of registration and tax numbers ("Co. Reg. No", "VAT", "KvK"). */
const REGISTRATION = wordsSource(lexiconWords('registration_labels'))

/**
 * Lines that are parts of an address, contact or registration data, a document's title or a
 * letter's phrases, not names; "www", "http" and the bank's IBAN, BIC and SWIFT are the same in
 * every language, and a number mark with a digit is a house number ("No. 5").
 */
const NOT_A_NAME = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${wordsSource([...lexiconWords('document_titles'), ...lexiconWords('not_name_words')])}|${REGISTRATION}|www|http|iban|bic|swift|(?:${wordsSource(lexiconWords('number_marks'))})\\.\\s*\\d)(?![\\p{L}\\p{N}])`,
  'iu',
)

/** A form of address alone in its cell, before a person's name on the next line ("Herrn", "Mr."). */
const PERSON_SALUTATION = new RegExp(`^(?:${wordsSource(lexiconWords('salutations'))})\\.?:?$`, 'iu')
/** A form of address or a mark before an addressee that need not be a person ("Firma", "Attn:", "z. Hd."). */
const SALUTATION = new RegExp(`^(?:${wordsSource([...lexiconWords('salutations'), ...lexiconWords('addressee_marks')])})\\.?:?$`, 'iu')

/** A document title or heading at the start of its line: never a name. */
const TITLE_LINE = new RegExp(`^(?:${wordsSource(lexiconWords('document_titles'))})(?!\\p{L})`, 'iu')

/** Registration numbers in parentheses: "(Co. Reg. No: 12345-X)", "(123456-A)". */
const REGISTRATION_NUMBER = new RegExp(`\\(\\s*(?:(?:${REGISTRATION})\\.?\\s*:?\\s*)?[\\w\\s.-]*\\d[\\w\\s.:-]*\\)`, 'giu')
/** A registration label and all after it. */
const FROM_REGISTRATION = new RegExp(`(?<![\\p{L}\\p{N}])(?:${REGISTRATION})(?![\\p{L}\\p{N}]).*$`, 'iu')

/** Registration numbers, trailing punctuation and contact data cut from a name. */
function cleanName(text: string): string {
  return collapse(
    text
      .replace(REGISTRATION_NUMBER, ' ')
      .replace(FROM_REGISTRATION, '')
      .replace(/\s(?:fka|f\.k\.a\.|formerly(?:\s+known\s+as)?)\s.*$/i, '')
      .replace(/\s\(?\d{4,}-?[A-Z]\)?$/, '')
      .replace(/\s[-–|•●·]\s.*$/, '')
      // "SKCA HARDWARE SDN. BHD. Wo": a speck read as a short word after the legal form is not part of the name.
      .replace(SPECK_AFTER_LEGAL_FORM, '$1')
      .replace(/[,;:]+\s*$/, ''),
  )
}

/**
 * The share capital a legal footer states ("SAS au capital de 10 000 €", "Stammkapital"). A line
 * that starts with it, or with one of the abbreviated legal forms that end names and never start
 * them, is not a name (the full list of legal forms would take "Corporation of …" for a fragment).
 */
const SHARE_CAPITAL = wordsSource(lexiconWords('share_capital'))
const STARTS_AS_NO_NAME = new RegExp(`^(?:${SHARE_CAPITAL}|sarl|sas|gmbh|ltd|inc|sdn|bhd)(?![\\p{L}\\p{N}])`, 'iu')

/** The legal forms of every lexicon, as a regular expression's alternatives. */
const LEGAL_FORMS_SOURCE = legalFormsSource()

/** A legal form and a mark of the country only ("CO. (M) SDN BHD", "Sdn. Bhd."): the end of a name split off it, no name. */
const LEGAL_FORM_ONLY = new RegExp(`^(?:(?:${LEGAL_FORMS_SOURCE})\\.?|\\(m\\)|&)(?:[\\s,]*(?:(?:${LEGAL_FORMS_SOURCE})\\.?|\\(m\\)))*$`, 'iu')

/** A word of one or two characters after a legal form, at the end: a speck OCR read, not part of the name. */
const SPECK_AFTER_LEGAL_FORM = new RegExp(`((?:${LEGAL_FORMS_SOURCE})\\.?)\\s+[\\p{L}\\d]{1,2}$`, 'iu')

function onlyLegalForm(text: string): boolean {
  return LEGAL_FORM_ONLY.test(collapse(text))
}

/** A line that may be a company or person name: letters, not address or contact data. */
function looksLikeName(text: string): boolean {
  if (/:\s*$/.test(text)) return false
  const cleaned = cleanName(text)
  if (cleaned.length < 2 || cleaned.length > 80) return false
  const letters = (cleaned.match(/\p{L}/gu) ?? []).length
  const digits = (cleaned.match(/\d/g) ?? []).length
  if (letters < 2 || digits > letters / 3) return false
  if (NOT_A_NAME.test(fold(cleaned)) && !hasLegalForm(cleaned)) return false
  if (TITLE_LINE.test(cleaned) || TITLE_LINE.test(cleaned.replace(/(?<=\p{L})[\s-](?=\p{L}(?:[\s-]|$))/gu, '').replace(/-/g, ''))) return false
  // A line in parentheses or with a colon is a remark or a "label: value" pair, not a name.
  if (/^\(.*\)$/.test(cleaned) || cleaned.includes(':')) return false
  if (STARTS_AS_NO_NAME.test(cleaned)) return false
  if (onlyLegalForm(cleaned)) return false
  if (/^\d{4,5}\s+\p{L}/u.test(cleaned)) return false // "12345 Musterstadt"
  if (/@|\.(?:com|de|fr|nl|es|net|org|my)\b/i.test(cleaned)) return false
  return true
}

// ---------------------------------------------------------------- shared pieces

/** Labels inside an address block ("Name:", "Nummer:", "GLN") and what they introduce. */
const NAME_LABEL = new RegExp(`^(?:${wordsSource(lexiconWords('name_labels'))})\\s*:?$`, 'iu')
const BLOCK_LABEL = new RegExp(`^(?:${wordsSource(lexiconWords('address_labels'))})(?![\\p{L}\\p{N}])`, 'iu')

/**
 * The name a label introduces. After "Label:" the name follows on the line ("Sold by: ACME");
 * under a heading ("Rechnungsempfänger", "Bill To") it is the first name-like line below it in
 * the same column, past identifier lines (GLN, customer number); a salutation ("Herrn") joins the
 * line after it, and "Name:" rows give their value.
 */
function nameAfterLabel(hit: LabelHit, ctx: Context): { name: string; line: Line } | undefined {
  const { doc } = ctx
  const { line } = hit
  const cell = line.cells[hit.cell]!
  // A label in running text ("… from the purchase") is not a heading of a name.
  if (/[\p{L}\d]/u.test(line.raw.slice(cell.start, hit.start))) return undefined
  // "Käufer/Leistungsempfänger": a second label joined by a slash is part of the heading.
  const afterLabel = line.raw.slice(hit.end, cell.end).replace(/^\s*\/\s*\p{L}+/u, '')
  const withColon = /^\s*[:：]/.test(afterLabel) || /^\s*[:：]/.test(line.raw.slice(cell.end, cell.end + 3))
  const inline = afterLabel.replace(/^[\s:：#.-]+/, '').trim()
  if (inline) return looksLikeName(inline) ? { name: cleanName(inline), line } : undefined
  const right = withColon ? line.cells[hit.cell + 1]?.text.replace(/^[:\s]+/, '') : undefined
  if (right && looksLikeName(right)) return { name: cleanName(right), line }
  // Under the heading, in its column.
  for (let offset = 1; offset <= 5; offset++) {
    const next = doc.lines[line.index + offset]
    if (!next || next.page !== line.page) break
    const index = cellIndexUnder(next, hit)
    if (index < 0) continue
    const text = next.cells[index]!.text
    const labelOnly = text.replace(/\s*:.*$/, '')
    if (NAME_LABEL.test(labelOnly) || NAME_LABEL.test(text)) {
      const parts = text.split(':')
      const value = parts[1]?.trim() ? parts.slice(1).join(':').trim() : next.cells[index + 1]?.text.replace(/^[:\s]+/, '')
      if (value && looksLikeName(value)) return { name: cleanName(value), line: next }
      continue
    }
    if (BLOCK_LABEL.test(text) || /^\d[\d\s-]*$/.test(text) || /^[:：]/.test(next.cells[index + 1]?.text ?? '')) continue
    const after = doc.lines[next.index + 1]
    if (SALUTATION.test(text)) {
      const afterText = cellTextUnder(after, hit)
      if (afterText && looksLikeName(afterText)) return { name: `${text} ${cleanName(afterText)}`, line: after! }
      return undefined
    }
    if (!looksLikeName(text)) return undefined
    // A name over two lines: the second carries the legal form ("Müller & Söhne Holz" /
    // "Handelsgesellschaft mbH").
    const afterText = after?.page === next.page ? cellTextUnder(after, hit) : undefined
    if (afterText && !hasLegalForm(text) && hasLegalForm(afterText) && looksLikeName(afterText)) return { name: cleanName(`${text} ${afterText}`), line: next }
    return { name: cleanName(text), line: next }
  }
  return undefined
}

/** The cell of a line under a label's cell (overlapping it, or starting within two columns). */
function cellIndexUnder(line: Line, hit: LabelHit): number {
  const labelCell = hit.line.cells[hit.cell]!
  const nextStart = hit.line.cells[hit.cell + 1]?.start ?? Infinity
  return line.cells.findIndex((c) => c.start < Math.min(labelCell.end + 2, nextStart) && c.end > labelCell.start - 2)
}

/** The text of the cell under a label's cell on a line, if the line has one. */
function cellTextUnder(line: Line | undefined, hit: LabelHit): string | undefined {
  const index = line ? cellIndexUnder(line, hit) : -1
  return index >= 0 ? line!.cells[index]!.text : undefined
}

// ---------------------------------------------------------------- issuer

/** Domains of the document's web and e-mail addresses, folded to letters and digits. */
function domains(doc: Doc): string[] {
  const found = new Set<string>()
  for (const m of doc.text.matchAll(/(?:@|www\.|https?:\/\/(?:www\.)?)([a-z0-9-]+)\.[a-z]{2,}/gi)) found.add(m[1]!.toLowerCase().replace(/[^a-z0-9]/g, ''))
  return [...found].filter((domain) => domain.length >= 4 && !/^(?:gmail|yahoo|hotmail|outlook|example|localhost|gmx|web|orange|free)$/.test(domain))
}

function matchesDomain(name: string, list: string[]): boolean {
  const squashed = squash(name.replace(LEGAL_FORM, ' ')).chars
  if (squashed.length < 4) return false
  return list.some((domain) => domain === squashed || (domain.includes(squashed) && squashed.length >= 6) || (squashed.includes(domain) && domain.length >= 6))
}

/** Lines under a client label (and the address window) are the client's, never the issuer's. */
function recipientLines(ctx: Context): Set<number> {
  return memo(ctx, 'recipient-lines', () => {
    const lines = new Set<number>()
    for (const hit of ctx.hits) {
      if (hit.entry.owner !== 'recipient' && hit.entry.owner !== 'other_party') continue
      for (let offset = 0; offset <= 5; offset++) lines.add(hit.line.index + offset)
    }
    const window = windowAddress(ctx)
    if (window) for (let offset = 0; offset <= 3; offset++) lines.add(window.line.index + offset)
    return lines
  })
}

/** "ACME GmbH · Hauptstr. 1 · 12345 Berlin": the sender line printed above the address window. */
const SENDER_LINE = /^(.{2,60}?)\s*(?:[·•●|]|\s[-–]\s)\s*[^·•●|]*\d[^·•●|]*(?:[·•●|]|\s[-–]\s)/

function senderLine(ctx: Context): { name: string; line: Line; start: number } | undefined {
  return memo(ctx, 'sender-line', () => {
    for (const line of ctx.doc.lines.slice(0, 25)) {
      if (line.page !== 1) break
      const text = line.raw.trimStart()
      const m = SENDER_LINE.exec(text)
      if (m && looksLikeName(m[1]!) && !/\d{3,}/.test(m[1]!)) return { name: cleanName(m[1]!), line, start: line.raw.length - text.length }
    }
    return undefined
  })
}

/** The first name under the sender line: the addressee in the envelope window. */
function windowAddress(ctx: Context): { name: string; line: Line } | undefined {
  return memo(ctx, 'window-address', () => {
    const sender = senderLine(ctx)
    if (!sender) return undefined
    const inColumn = (line: Line) => line.cells.find((c) => c.start <= sender.start + 12 && c.end > sender.start - 6)
    for (let offset = 1; offset <= 4; offset++) {
      const line = ctx.doc.lines[sender.line.index + offset]
      if (!line) break
      const cell = inColumn(line)
      if (!cell) continue
      if (SALUTATION.test(cell.text)) {
        const next = ctx.doc.lines[line.index + 1]
        const nextCell = next && inColumn(next)
        if (next && nextCell && looksLikeName(nextCell.text)) return { name: `${cell.text} ${cleanName(nextCell.text)}`, line: next }
        continue
      }
      if (looksLikeName(cell.text)) return { name: cleanName(cell.text), line }
    }
    return undefined
  })
}

/**
 * The page where the document proper starts: the first page with an invoice number or date
 * label (a cover letter or terms may come first).
 */
function mainPage(ctx: Context): number {
  return memo(ctx, 'main-page', () => {
    const first = ctx.hits.find((hit) => hit.entry.owner === 'invoice_number' || hit.entry.owner === 'issue_date')
    return first?.line.page ?? 1
  })
}

/** A footer line with the company's legal data or share capital: the line above it often names the company. */
const LEGAL_FOOTER = wholeWords([...lexiconWords('legal_footer'), ...lexiconWords('share_capital')])

/** "Free SAS au capital de …": the company named at the start of a legal footer, before its share capital. */
const NAMED_IN_FOOTER = new RegExp(`^(.{2,40}?\\s(?:${legalFormsSource()})\\.?)\\s+(?:${SHARE_CAPITAL})(?![\\p{L}\\p{N}])`, 'iu')

/**
 * The next line continues a name when it holds only a legal form, or the name ends with "&".
 * The forms are the abbreviations receipts split off a name ("(M) Sdn Bhd", "GmbH"), not every
 * legal form: "Company Representative" or "corporation with offices at" under a name are not its end.
 */
function continuation(text: string, next: string | undefined): boolean {
  if (!next) return false
  if (!hasLegalForm(text) && endsWithTradeAndForm(next)) return true
  if (/[&-]\s*$/.test(text)) return looksLikeName(next) || hasLegalForm(next)
  if (/^(?:\(m\)\s*)?(?:sdn\.?\s*bhd\.?|bhd\.?|s\/b|gmbh|ag|ltd\.?|inc\.?|llc|b\.v\.?|co\.\s*\(m\)\s*(?:sdn\s*)?bhd\.?)$/i.test(next.trim())) return true
  return !hasLegalForm(text) && /^(?:co\.|\(m\)|sdn\b|bhd\b|s\/b|gmbh\b)/i.test(next.trim())
}

/**
 * A line of an address, by its form: a house number ("No. 5", "12, Jalan …", "S117, Second
 * Floor", "LOT 1851-A & 1851-B, …") or a postcode before a city ("81100 Johor Bahru").
 */
const ADDRESS_LINE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${wordsSource(lexiconWords('number_marks'))})\\.?\\s*\\d|^(?:\\p{L}{1,4}\\.?\\s*)?\\p{L}?\\d+\\p{L}?(?:[-/&\\s]+\\p{L}?\\d+\\p{L}?)*\\s*,|(?<![\\d-])\\d{4,6}\\s+\\p{L}{3,}`,
  'iu',
)

/**
 * The address starts within three lines under a name (or the line that ends it), past its
 * registration number: the name heads the letterhead. A name-like line between them (another
 * name, a branch) ends the search.
 */
function addressBelow(doc: Doc, line: Line): boolean {
  const next = doc.lines[line.index + 1]
  const wrapped = next?.page === line.page && continuation(line.text, next.text) ? 1 : 0
  for (let offset = 1 + wrapped; offset <= 3 + wrapped; offset++) {
    const next = doc.lines[line.index + offset]
    if (!next || next.page !== line.page) return false
    if (ADDRESS_LINE.test(next.text)) return true
    if (looksLikeName(next.text) && !REGISTRATION_ONLY.test(next.text)) return false
  }
  return false
}

/** A registration number on its own line ("(Co. Reg. No: 123456-X)", "1118258-K"). */
const REGISTRATION_ONLY = new RegExp(`^\\(?\\s*(?:(?:${REGISTRATION})[.:\\s]*)?[\\w.-]*\\d[\\w.-]*\\s*\\)?$`, 'iu')

/**
 * The letterhead: name-like lines near the top of page one (and the footer, where many
 * invoices repeat the company with its legal form), scored by legal form, trade words, a domain
 * match and position. A name split over two lines ("HOME HARDWARE &" / "ELECTRICAL") is joined.
 */
function letterhead(ctx: Context): Answer | undefined {
  const { doc } = ctx
  const page = mainPage(ctx)
  const firstPage = doc.lines.filter((line) => line.page === page)
  const excluded = recipientLines(ctx)
  const domainList = domains(doc)
  const answers: Answer[] = []
  const top = firstPage.slice(0, 12)
  const footer = firstPage.length > 20 ? firstPage.slice(-10) : []

  const consider = (line: Line, cellIndex: number, base: number, heads = false) => {
    if (excluded.has(line.index)) return
    const cell = line.cells[cellIndex]!
    let text = cell.text
    if (!looksLikeName(text)) return
    // "LIAN CHI VEGETARIAN" / "RESTAURANT SDN BHD": the end of a name wrapped from the line above is no name by itself.
    const previous = doc.lines[line.index - 1]
    if (previous?.page === line.page && previous.cells.length === 1 && looksLikeName(previous.text) && continuation(previous.text, text)) return
    // "MR. D.I.Y.  (M) SDN BHD": a legal form printed apart on the same line ends the name.
    const after = line.cells[cellIndex + 1]
    if (after && onlyLegalForm(after.text)) text = `${text} ${after.text}`
    const next = doc.lines[line.index + 1]
    const nextCell = next?.cells.find((c) => Math.abs(c.start - cell.start) <= 3 || (c.start < cell.end && c.end > cell.start))
    // "POPULAR BOOK" over "CO.    (M) SDN BHD": a line of legal forms only, in cells or not, ends it too.
    if (next && next.page === line.page && !hasLegalForm(text) && onlyLegalForm(next.text)) text = `${text} ${next.text}`
    else if (next && next.page === line.page && continuation(text, nextCell?.text)) text = `${text} ${nextCell!.text}`
    const name = cleanName(text)
    if (!name) return
    let score = base
    if (hasLegalForm(name)) score += LETTERHEAD.legalForm
    else if (TRADE_WORD.test(name) && !onlyTradeWords(name)) score += LETTERHEAD.tradeWord
    // A name with neither sign that heads the letterhead, its address right under it ("YHM Aeon Tebrau City").
    else if (heads) score += LETTERHEAD.addressBelow
    const domain = matchesDomain(name, domainList)
    if (domain) score += LETTERHEAD.domain
    if (/^[\p{Lu}\d\s&.,'()-]+$/u.test(name) && /\p{Lu}{3}/u.test(name)) score += LETTERHEAD.capitals
    if (name.split(/\s+/).length === 1 && !hasLegalForm(name) && !domain) score -= LETTERHEAD.oneWord
    answers.push({ value: name, confidence: Math.min(LETTERHEAD.cap, score), line })
  }

  // Specks and stamps read as text above the letterhead ("AA", "20", a number) do not push it down.
  let position = 0
  for (const line of top) {
    const heads = position === 0 && addressBelow(doc, line)
    line.cells.forEach((_, cellIndex) => consider(line, cellIndex, LETTERHEAD.top - position * LETTERHEAD.perLineDown, heads))
    if (/\p{L}{3}/u.test(line.text)) position++
  }
  footer.forEach((line) => {
    line.cells.forEach((cell, cellIndex) => {
      const capital = NAMED_IN_FOOTER.exec(cell.text)
      if (capital) answers.push({ value: cleanName(capital[1]!), confidence: LETTERHEAD.namedInFooter, line })
      else if (hasLegalForm(cell.text) || matchesDomain(cell.text, domainList)) consider(line, cellIndex, LETTERHEAD.footer)
    })
    // A name alone on the line above the legal footer.
    const above = doc.lines[line.index - 1]
    if (LEGAL_FOOTER.test(line.text) && above && above.page === line.page && above.cells.length === 1 && !LEGAL_FOOTER.test(above.text))
      if (looksLikeName(above.text) && !excluded.has(above.index))
        answers.push({
          value: cleanName(above.text),
          confidence: hasLegalForm(above.text) ? LETTERHEAD.aboveFooterWithLegalForm : LETTERHEAD.aboveFooter,
          line: above,
        })
  })
  // "PIZZA HUT" over "PIZZA HUT PERMAS JAYA": the longer line names a branch of the name above it
  // (but "MR. FIXIT" over "MR. FIXIT (M) SDN BHD" is a brand over its company's full name).
  for (const answer of answers) {
    const name = String(answer.value)
    if (hasLegalForm(name)) continue
    const at = answer.line?.index ?? -1
    const above = answers.find((other) => (other.line?.index ?? Infinity) < at && name.startsWith(`${String(other.value)} `))
    if (above) answer.confidence = Math.min(answer.confidence, above.confidence - LETTERHEAD.branchUnderBrand)
  }
  // The same name printed twice (letterhead and footer) is a strong sign.
  const keys = answers.map((answer) => squash(String(answer.value)).chars)
  answers.forEach((answer, i) => {
    const again = answers.some((other, j) => other.line !== answer.line && keys[j] === keys[i])
    if (again) answer.confidence = Math.min(LETTERHEAD.repeatedCap, answer.confidence + LETTERHEAD.repeatedBonus)
  })
  return best(answers)
}

export function issuerAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const labelled: Answer[] = []
  for (const hit of hitsOf(plan, ctx)) {
    const found = nameAfterLabel(hit, ctx)
    if (found)
      labelled.push({ value: found.name, confidence: ISSUER.labelled * (hasLegalForm(found.name) ? 1 : ISSUER.labelledWithoutLegalForm), line: found.line })
  }
  const sender = senderLine(ctx)
  const fromSender: Answer | undefined = sender
    ? { value: sender.name, confidence: hasLegalForm(sender.name) ? ISSUER.senderWithLegalForm : ISSUER.sender, line: sender.line }
    : undefined
  return best([...labelled, fromSender, letterhead(ctx)])
}

// ---------------------------------------------------------------- recipient

export function recipientAnswer(plan: Plan, ctx: Context): Answer | undefined {
  const labelled: Answer[] = []
  for (const hit of hitsOf(plan, ctx)) {
    const found = nameAfterLabel(hit, ctx)
    if (found) labelled.push({ value: found.name, confidence: hit.entry.squashed.length <= 5 ? RECIPIENT.shortLabel : RECIPIENT.labelled, line: found.line })
  }
  const window = windowAddress(ctx)
  const fromWindow: Answer | undefined = window ? { value: window.name, confidence: RECIPIENT.window, line: window.line } : undefined
  return best([...labelled, fromWindow, addressedTo(ctx)])
}

/** "Herrn" / "Max Mustermann" near the top: a letter's addressee, introduced by a salutation. */
function addressedTo(ctx: Context): Answer | undefined {
  const top = ctx.doc.lines.filter((line) => line.page === 1).slice(0, 15)
  for (const line of top) {
    const cell = line.cells[0]
    if (!cell || !PERSON_SALUTATION.test(cell.text)) continue
    const next = ctx.doc.lines[line.index + 1]
    const nextCell = next?.cells.find((c) => Math.abs(c.start - cell.start) <= 3)
    if (next && nextCell && looksLikeName(nextCell.text))
      return { value: `${cell.text} ${cleanName(nextCell.text)}`, confidence: RECIPIENT.addressedTo, line: next }
  }
  return undefined
}
