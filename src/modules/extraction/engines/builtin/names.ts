/**
 * Names of the two sides of an invoice. The issuer is the name after a seller label ("From",
 * "Lieferant"), the name in a sender line above the address window ("ACME GmbH · Street ·
 * City"), or the letterhead: the name-like line at the top that carries a legal form or a trade
 * word, or that matches the document's web or e-mail domain. The client is the name under a
 * buyer label ("Bill to", "Rechnungsempfänger") or the first name of the address window.
 */
import { best, memo, type Answer, type Context, type Plan } from './context'
import type { Doc, Line } from './document'
import { legalForms, lexiconWords, nameWords, type PhraseMatch, Phrases, phrases } from '../../../../lib/lexicon'
import { mendLegalForm } from '../../legal-forms'
import { hitsOf } from './generic'
import type { LabelHit } from './labels'
import { collapse, fold, isLetterOrDigit, squash } from '../../../../lib/text'
import { capitalsInARow, hasLetterOrDigit, isDigit, isSpace, letterWords, lettersInARow, opensWithColon, pastColons } from './text'
import { ISSUER, LETTERHEAD, RECIPIENT } from './weights'
import { postcodeCity, SEPARATORS } from './address-lines'

/** Legal forms of companies (from the lexicons, D95), any case. */
const LEGAL_FORM_WORDS = legalForms()
/** And the words that end a company's name where receipts print no legal form ("Enterprise", "Trading"). */
const COMPANY_ENDINGS = new Phrases([
  ...legalForms().words.map((form) => [form, form.toLowerCase()] as const),
  ...nameWords('company_endings').map((word) => [word, word.toLowerCase()] as const),
])

/** A legal form standing as a word of a name: at the start or after a space, comma, bracket or "&"; before the end, a space, dot, comma or bracket. */
const standsAlone = (text: string) => (found: PhraseMatch) =>
  (found.start === 0 || ',(&'.includes(text[found.start - 1]!) || isSpace(text[found.start - 1])) &&
  (found.end === text.length || '.,)'.includes(text[found.end]!) || isSpace(text[found.end]))

const hasLegalForm = (text: string) => COMPANY_ENDINGS.test(text, standsAlone(text))

/** Words of shop and trade names (receipts rarely print a legal form). */
const TRADE_WORD = phrases(lexiconWords('trade_words'))

/** The text with its legal forms put out (each a space). */
function withoutLegalForms(line: string): string {
  let out = ''
  let at = 0
  for (const form of LEGAL_FORM_WORDS.all(line, standsAlone(line))) {
    out += `${line.slice(at, form.start)} `
    at = form.end
  }
  return out + line.slice(at)
}

/**
 * A line of trade words and a legal form only ("RESTAURANT SDN BHD") names no one by itself: it
 * ends a long name wrapped from the line above ("LIAN CHI VEGETARIAN" / "RESTAURANT SDN BHD").
 */
function endsWithTradeAndForm(line: string): boolean {
  return hasLegalForm(line) && onlyTradeWords(withoutLegalForms(line))
}

/** A line of trade words only ("BISTRO & CAFE") says what a business is, under the name that says who. */
function onlyTradeWords(line: string): boolean {
  const words = letterWords(line)
  return words.length > 0 && words.every((word) => TRADE_WORD.test(word))
}

/** Labels of registration and tax numbers ("Co. Reg. No", "VAT", "KvK"). */
const REGISTRATION = phrases(lexiconWords('registration_labels'))

/**
 * Lines that are parts of an address, contact or registration data, a document's title or a
 * letter's phrases, not names (the bank's IBAN, BIC and SWIFT and "www" among the English words,
 * the same in every language); a number mark with a digit is a house number ("No. 5").
 */
const NOT_A_NAME = phrases([...lexiconWords('document_titles'), ...lexiconWords('not_name_words'), ...lexiconWords('registration_labels')])
const NUMBER_MARKS = phrases(lexiconWords('number_marks'))

function notAName(text: string): boolean {
  if (NOT_A_NAME.test(text)) return true
  // "No. 5": a mark, its dot and one digit standing alone.
  return NUMBER_MARKS.test(text, (mark) => {
    if (text[mark.end] !== '.') return false
    let at = mark.end + 1
    while (isSpace(text[at])) at++
    return isDigit(text[at]) && !isLetterOrDigit(text[at + 1])
  })
}

/** Nothing but one of the marks after a word (a dot, a colon, or both), or nothing. */
const onlyMarks = (rest: string) => rest === '' || rest === '.' || rest === ':' || rest === '.:'

/** A form of address alone in its cell, before a person's name on the next line ("Herrn", "Mr."). */
const PERSON_SALUTATIONS = phrases(lexiconWords('salutations'))
/** A form of address or a mark before an addressee that need not be a person ("Firma", "Attn:", "z. Hd."). */
const SALUTATIONS = phrases([...lexiconWords('salutations'), ...lexiconWords('addressee_marks')])
const isSalutation = (list: Phrases, text: string) => !!list.at(text, 0, (found) => onlyMarks(text.slice(found.end)))

/** A document title or heading at the start of its line ("Invoice", "Rechnung2024"): never a name. */
const TITLES = phrases(lexiconWords('document_titles'), true)

/** Registration numbers in parentheses: "(Co. Reg. No: 12345-X)", "(123456-A)", each put out (a space). */
function withoutRegistrationNumbers(text: string): string {
  return text.replace(/\(([^()]*)\)/g, (whole, inside: string) => {
    const label = REGISTRATION.at(inside, inside.length - inside.trimStart().length)
    const afterLabel = label ? inside.slice(label.end).replace(/^\.?\s*:?\s*/, '') : undefined
    return [afterLabel, inside].some((rest) => rest !== undefined && /^[\w\s.-]*\d[\w\s.:-]*$/.test(rest)) ? ' ' : whole
  })
}

/** Words between a name and its former name ("fka", "formerly known as"): cut with all after them. */
const FORMER = phrases(nameWords('former_marks'))

/** A word of letters with a zero among them ("0ld", "HAI-0", "C0M"): punctuation inside a name's word, or nothing but letters and zeros. */
const LETTERS_AND_ZEROS = /^[\p{L}0][\p{L}0.&'-]*$/u

/**
 * A zero among the letters of a word is the letter O that OCR read as a digit ("0ld Town" for
 * "Old Town", "HAI-0"): a name's word of two letters or more and no other digit (D381). Upper
 * case at the word's start or after a capital, lower case after a small letter.
 */
function lettersForZeros(word: string): string {
  if (!word.includes('0') || !LETTERS_AND_ZEROS.test(word) || (word.match(/\p{L}/gu) ?? []).length < 2) return word
  const chars = [...word]
  return chars.map((char, at) => (char !== '0' ? char : at > 0 && /\p{Ll}/u.test(chars[at - 1]!) ? 'o' : 'O')).join('')
}

/**
 * Two neighbouring words that are no trade word or legal form, and that make one when joined
 * ("STAT IONERY", "SDN BH D"), are one word OCR split at a gap between its letters (D381).
 */
function joinSplitWords(name: string): string {
  const words = name.split(' ')
  const known = (word: string) =>
    TRADE_WORD.at(word, 0, (found) => found.end === word.length) !== undefined ||
    LEGAL_FORM_WORDS.at(word, 0, (found) => found.end === word.length) !== undefined
  for (let at = 0; at + 1 < words.length; at++) {
    const [left, right] = [words[at]!, words[at + 1]!]
    if (!/^\p{L}+$/u.test(left) || !/^\p{L}+\.?$/u.test(right) || known(left) || known(right) || !known(left + right)) continue
    words.splice(at, 2, left + right)
  }
  return words.join(' ')
}

/** What OCR misread in a name's letters and gaps, mended (D381); a text layer's names have none of it, and pass unchanged. */
const mendWords = (name: string) => mendLegalForm(joinSplitWords(name.split(' ').map(lettersForZeros).join(' ')).split(' ')).join(' ')

/** Registration numbers, former names, trailing punctuation and contact data cut from a name. */
function cleanName(text: string): string {
  let name = withoutRegistrationNumbers(text)
  const registration = REGISTRATION.find(name)
  if (registration) name = name.slice(0, registration.start)
  const former = FORMER.find(name, 0, (found) => isSpace(name[found.start - 1]) && isSpace(name[name[found.end] === '.' ? found.end + 1 : found.end]))
  if (former) name = name.slice(0, former.start - 1)
  return mendWords(
    collapse(
      name
        .replace(/\s\(?\d{4,}-?[A-Z]\)?$/, '')
        .replace(/\s[-–|•●·]\s.*$/, '')
        // "SKCA HARDWARE SDN. BHD. Wo": a speck read as a short word after the legal form is not part of the name.
        .replace(/(\S)\s+[\p{L}\d]{1,2}$/u, (whole, last: string, offset: number, all: string) => (endsWithLegalForm(all.slice(0, offset + 1)) ? last : whole))
        .replace(/[,;:]+\s*$/, ''),
    ),
  )
}

/** The text ends with a legal form and maybe its dot ("… SDN. BHD."). */
function endsWithLegalForm(text: string): boolean {
  const bare = text.endsWith('.') ? text.slice(0, -1) : text
  return [bare, text].some((candidate) => LEGAL_FORM_WORDS.ends(candidate)?.end === candidate.length)
}

/**
 * The share capital a legal footer states ("SAS au capital de 10 000 €", "Stammkapital"). A line
 * that starts with it, or with one of the abbreviated legal forms that end names and never start
 * them, is not a name (the full list of legal forms would take "Corporation of …" for a fragment).
 */
const SHARE_CAPITAL = phrases(lexiconWords('share_capital'))
const STARTS_AS_NO_NAME = phrases([...lexiconWords('share_capital'), ...nameWords('never_opening')])

/** A company's country mark printed with its legal form ("(M)"). */
const COUNTRY_MARKS = phrases(nameWords('country_marks'))
/** Legal forms a receipt prints alone on the line under a name, and the words that open such a line. */
const SPLIT_FORMS = phrases(nameWords('split_forms'))
const SPLIT_STARTS = phrases(nameWords('split_starts'))
/** Domains of mail and web services, not of a company. */
const MAIL_DOMAINS = new Set(nameWords('mail_domains').map((domain) => domain.toLowerCase()))

/** The text with its first legal form (and the space or mark before it) put out. */
function withoutFirstLegalForm(text: string): string {
  const form = COMPANY_ENDINGS.find(text, 0, standsAlone(text))
  return form ? `${text.slice(0, Math.max(0, form.start - 1))} ${text.slice(form.end)}` : text
}

/** A legal form and a mark of the country only ("CO. (M) SDN BHD", "Sdn. Bhd.", "& Co."): the end of a name split off it, no name. */
function onlyLegalForm(text: string): boolean {
  const line = collapse(text)
  let at = 0
  for (let count = 0; at < line.length; count++) {
    if (count > 0) while (at < line.length && (line[at] === ',' || isSpace(line[at]))) at++
    if (at >= line.length) return count > 0
    if (count === 0 && line[at] === '&') {
      at++
      continue
    }
    const found = LEGAL_FORM_WORDS.at(line, at) ?? COUNTRY_MARKS.at(line, at)
    if (!found) return false
    at = found.end
    if (line[at] === '.' && LEGAL_FORM_WORDS.at(line, found.start)) at++
  }
  return at > 0
}

/** Addresses and sites: "@", or a dot before a top-level domain ("acme.com", "shop.de"). */
const TOP_LEVEL_DOMAINS = phrases(nameWords('top_level_domains'))
const isAddress = (text: string) => text.includes('@') || TOP_LEVEL_DOMAINS.test(text, (found) => text[found.start - 1] === '.')

/**
 * A line longer than this is a paragraph, never a name with its contact data: it is not cleaned
 * to find out (a megabyte on one line took 1.5 s of mending words).
 */
const LONGEST_NAME_LINE = 400

/** At least `count` letters or digits in the text. */
function lettersOrDigits(text: string, count: number): boolean {
  let found = 0
  for (const char of text) if (isLetterOrDigit(char) && ++found >= count) return true
  return false
}

/** A line that may be a company or person name: letters, not address or contact data. */
function looksLikeName(text: string): boolean {
  if (text.length > LONGEST_NAME_LINE || text.trimEnd().endsWith(':')) return false
  // Cleaning mends letters (a zero among them is O) but adds none: a cell without two letters or
  // digits ("1", "-") is no name, and is not cleaned to find out (a line of 500,000 such cells).
  if (!lettersOrDigits(text, 2)) return false
  const cleaned = cleanName(text)
  if (cleaned.length < 2 || cleaned.length > 80) return false
  const letters = (cleaned.match(/\p{L}/gu) ?? []).length
  const digits = (cleaned.match(/\d/g) ?? []).length
  if (letters < 2 || digits > letters / 3) return false
  if (notAName(fold(cleaned)) && !hasLegalForm(cleaned)) return false
  if (TITLES.at(cleaned, 0) || TITLES.at(cleaned.replace(/(?<=\p{L})[\s-](?=\p{L}(?:[\s-]|$))/gu, '').replace(/-/g, ''), 0)) return false
  // A line in parentheses or with a colon is a remark or a "label: value" pair, not a name.
  if ((cleaned.startsWith('(') && cleaned.endsWith(')')) || cleaned.includes(':')) return false
  if (STARTS_AS_NO_NAME.at(cleaned, 0)) return false
  if (onlyLegalForm(cleaned)) return false
  if (/^\d{4,5}\s+\p{L}/u.test(cleaned)) return false // "12345 Musterstadt"
  // "ECOSWAY.COM SDN BHD": a site's name that ends with a legal form is the company's (D381).
  if (isAddress(cleaned) && (cleaned.includes('@') || !endsWithLegalForm(cleaned))) return false
  return true
}

// ---------------------------------------------------------------- shared pieces

/** Labels inside an address block ("Name:", "Nummer:", "GLN") and what they introduce. */
const NAME_LABELS = phrases(lexiconWords('name_labels'))
const BLOCK_LABELS = phrases(lexiconWords('address_labels'))

/** A name's label alone, with its colon maybe ("Name:", "Firma"). */
const isNameLabel = (text: string) => !!NAME_LABELS.at(text, 0, (found) => ['', ':'].includes(text.slice(found.end).trimStart()))

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
  if (hasLetterOrDigit(line.raw.slice(cell.start, hit.start))) return undefined
  // "Käufer/Leistungsempfänger": a second label joined by a slash is part of the heading.
  let afterLabel = line.raw.slice(hit.end, cell.end).replace(/^\s*\/\s*\p{L}+/u, '')
  // "CUSTOMER'S COPY" (or, as OCR may join it, "CUSTOMER'SCOPY"): a label with a possessive names
  // something of the party, not the party's name; "Customer's name: …" heads one after its colon.
  if (/^['’]s/i.test(afterLabel)) {
    const colon = afterLabel.search(/[:：]/)
    if (colon < 0) return undefined
    afterLabel = afterLabel.slice(colon)
  }
  const withColon = opensWithColon(afterLabel) || opensWithColon(line.raw.slice(cell.end, cell.end + 3))
  const inline = afterLabel.replace(/^[\s:：#.-]+/, '').trim()
  if (inline) return looksLikeName(inline) ? { name: cleanName(inline), line } : undefined
  const right = withColon ? pastColons(line.cells[hit.cell + 1]?.text ?? '') : undefined
  if (right && looksLikeName(right)) return { name: cleanName(right), line }
  // Under the heading, in its column.
  for (let offset = 1; offset <= 5; offset++) {
    const next = doc.lines[line.index + offset]
    if (!next || next.page !== line.page) break
    const index = cellIndexUnder(next, hit)
    if (index < 0) continue
    const text = next.cells[index]!.text
    const labelOnly = text.replace(/\s*:.*$/, '')
    if (isNameLabel(labelOnly) || isNameLabel(text)) {
      const parts = text.split(':')
      const value = parts[1]?.trim() ? parts.slice(1).join(':').trim() : pastColons(next.cells[index + 1]?.text ?? '')
      if (value && looksLikeName(value)) return { name: cleanName(value), line: next }
      continue
    }
    if (BLOCK_LABELS.at(text, 0) || /^\d[\d\s-]*$/.test(text) || opensWithColon(next.cells[index + 1]?.text.slice(0, 1) ?? '')) continue
    const after = doc.lines[next.index + 1]
    if (isSalutation(SALUTATIONS, text)) {
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
  for (const m of doc.text.matchAll(/(?:@|www\.|https?:\/\/(?:www\.)?)([a-z0-9-]+)\.[a-z]{2,}/gi)) found.add(m[1]!.toLowerCase().replaceAll('-', ''))
  return [...found].filter((domain) => domain.length >= 4 && !MAIL_DOMAINS.has(domain))
}

function matchesDomain(name: string, list: string[]): boolean {
  const squashed = squash(withoutFirstLegalForm(name)).chars
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

/**
 * A sender line is a return address: its parts reach a postcode and city, and no part before it is
 * a label's ("RAMLI |BWM0034|", a cashier and a till; "SUN - THU: 1000 HRS - 2200 HRS", a shop's
 * hours: neither is one). What is printed beyond a wide gap is another column's.
 */
function isReturnAddress(text: string): boolean {
  for (const part of text.split(/\s{3,}/)[0]!.split(SEPARATORS)) {
    if (/[:：]/.test(part)) return false
    if (postcodeCity(collapse(part))) return true
  }
  return false
}

function senderLine(ctx: Context): { name: string; line: Line; start: number } | undefined {
  return memo(ctx, 'sender-line', () => {
    for (const line of ctx.doc.lines.slice(0, 25)) {
      if (line.page !== 1) break
      const text = line.raw.trimStart()
      const m = SENDER_LINE.exec(text)
      if (m && looksLikeName(m[1]!) && !/\d{3,}/.test(m[1]!) && isReturnAddress(text))
        return { name: cleanName(m[1]!), line, start: line.raw.length - text.length }
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
      if (isSalutation(SALUTATIONS, cell.text)) {
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
const LEGAL_FOOTER = phrases([...lexiconWords('legal_footer'), ...lexiconWords('share_capital')])

/** "Free SAS au capital de …": the company named at the start of a legal footer (2–40 characters, then its legal form), before its share capital. */
function namedInFooter(text: string): string | undefined {
  for (let at = 2; at <= 40 && at < text.length; at++) {
    if (!isSpace(text[at])) continue
    let name: string | undefined
    LEGAL_FORM_WORDS.at(text, at + 1, (form) => {
      const end = text[form.end] === '.' ? form.end + 1 : form.end
      let capital = end
      while (isSpace(text[capital])) capital++
      if (capital === end || !SHARE_CAPITAL.at(text, capital)) return false
      name = text.slice(0, end)
      return true
    })
    if (name !== undefined) return name
  }
  return undefined
}

/**
 * The next line continues a name when it holds only a legal form, or the name ends with "&".
 * The forms are the abbreviations receipts split off a name ("(M) Sdn Bhd", "GmbH"), not every
 * legal form: "Company Representative" or "corporation with offices at" under a name are not its end.
 */
function continuation(text: string, next: string | undefined): boolean {
  if (!next) return false
  if (!hasLegalForm(text) && endsWithTradeAndForm(next)) return true
  if (/[&-]\s*$/.test(text)) return looksLikeName(next) || hasLegalForm(next)
  const line = next.trim()
  const mark = COUNTRY_MARKS.at(line, 0)
  const form = mark && isSpace(line[mark.end]) ? line.slice(mark.end).trimStart() : line
  if ([form, line].some((rest) => SPLIT_FORMS.at(rest, 0, (found) => rest.slice(found.end) === '' || rest.slice(found.end) === '.'))) return true
  return !hasLegalForm(text) && !!SPLIT_STARTS.at(line, 0)
}

/**
 * A line of an address, by its form: a house number ("No. 5", "12, Jalan …", "S117, Second
 * Floor", "LOT 1851-A & 1851-B, …") or a postcode before a city ("81100 Johor Bahru").
 */
const HOUSE_NUMBER_OR_POSTCODE = /^(?:\p{L}{1,4}\.?\s*)?\p{L}?\d+\p{L}?(?:[-/&\s]+\p{L}?\d+\p{L}?)*\s*,|(?<![\d-])\d{4,6}\s+\p{L}{3,}/u
/** A number mark before digits ("No. 5", "NO5"). */
const NUMBER_MARKS_BEFORE_DIGITS = phrases(lexiconWords('number_marks'), true)

function isAddressLine(text: string): boolean {
  if (HOUSE_NUMBER_OR_POSTCODE.test(text)) return true
  return NUMBER_MARKS_BEFORE_DIGITS.test(text, (mark) => {
    let at = text[mark.end] === '.' ? mark.end + 1 : mark.end
    while (isSpace(text[at])) at++
    return isDigit(text[at])
  })
}

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
    if (isAddressLine(next.text)) return true
    if (looksLikeName(next.text) && !registrationOnly(next.text)) return false
  }
  return false
}

/** A registration number on its own line ("(Co. Reg. No: 123456-X)", "1118258-K"): its label maybe, then one token with a digit. */
function registrationOnly(text: string): boolean {
  const inside = text.startsWith('(') ? text.slice(1).trimStart() : text.trimStart()
  const label = REGISTRATION.at(inside, 0)
  const rests = [...(label ? [inside.slice(label.end).replace(/^[.:\s]*/, '')] : []), inside]
  return rests.some((rest) => /^[\w.-]*\d[\w.-]*\s*\)?$/.test(rest))
}

/** A cell of words of letters only (and the marks inside names: "&", "'", ".", "-"). */
const NAME_WORDS_ONLY = /^[\p{L}&'.-]+(?: [\p{L}&'.-]+)*$/u

/**
 * The cells of a line the letterhead's name may be in: a name heads its line or stands beside a
 * few others (a logo's words, the document's title). A line of hundreds of cells is a row of
 * something else, and reading each as a name cost the square of their number.
 */
const LETTERHEAD_CELLS = 8

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
    // "IKANO  HANDEL SDN BHD": a name with its legal form, after a line's first cell of name words
    // only, is the end of one name OCR split at a wide gap (D381).
    const before = cellIndex === 1 ? line.cells[0]! : undefined
    if (before && hasLegalForm(text) && NAME_WORDS_ONLY.test(before.text) && looksLikeName(before.text) && !hasLegalForm(before.text))
      text = `${before.text} ${text}`
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
    if (/^[\p{Lu}\d\s&.,'()-]+$/u.test(name) && capitalsInARow(name, 3)) score += LETTERHEAD.capitals
    if (!name.includes(' ') && !hasLegalForm(name) && !domain) score -= LETTERHEAD.oneWord
    answers.push({ value: name, confidence: Math.min(LETTERHEAD.cap, score), line })
  }

  // Specks and stamps read as text above the letterhead ("AA", "20", a number) do not push it down.
  let position = 0
  for (const line of top) {
    const heads = position === 0 && addressBelow(doc, line)
    line.cells.slice(0, LETTERHEAD_CELLS).forEach((_, cellIndex) => consider(line, cellIndex, LETTERHEAD.top - position * LETTERHEAD.perLineDown, heads))
    if (lettersInARow(line.text, 3)) position++
  }
  footer.forEach((line) => {
    line.cells.slice(0, LETTERHEAD_CELLS).forEach((cell, cellIndex) => {
      const capital = namedInFooter(cell.text)
      if (capital) answers.push({ value: cleanName(capital), confidence: LETTERHEAD.namedInFooter, line })
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
    if (!cell || !isSalutation(PERSON_SALUTATIONS, cell.text)) continue
    const next = ctx.doc.lines[line.index + 1]
    const nextCell = next?.cells.find((c) => Math.abs(c.start - cell.start) <= 3)
    if (next && nextCell && looksLikeName(nextCell.text))
      return { value: `${cell.text} ${cleanName(nextCell.text)}`, confidence: RECIPIENT.addressedTo, line: next }
  }
  return undefined
}
