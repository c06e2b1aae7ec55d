/**
 * The parties of a contract. Most preambles list them after "between"/"zwischen"/"entre": each a
 * name (capitalised words up to its legal form), a description and a defined term ("X, a Delaware
 * corporation … (the “Company”)", "der X GmbH, … (nachfolgend „X“)"), then "and" or a comma before
 * the next. Letters and one-sided undertakings name one company; the other side is the letter's
 * addressee or the individual who signs. The words are the lexicons' (`contract.parties`, D222).
 */
import type { ContractList } from '../../../../lib/lexicon/lexicon-file'
import { contractPhrases, legalForms, legalFormsSource, lexiconWords, Phrases, phrases, startsWord } from '../../../../lib/lexicon'
import { collapse, squash } from '../../../../lib/text'
import { beforeSpaces, type Clauses, clausesOf, pastSpaces, spaces } from './clauses'
import type { Answer, Context } from './context'
import { lineDates } from './dates'
import { flatten, type Flat } from './document'
import { endsWithInitial, hasAnyOf, isCapital, isQuote, isSpace, isWordChar, lettersInARow, trimEndWhere } from './text'
import { PARTIES } from './weights'

/** The words of one list of the parties' group, in the document's language (`asWritten`: case kept). */
const words = (clauses: Clauses, list: ContractList<'parties'>, asWritten = false) => clauses.words('parties', list, asWritten)

// Words of names, in every language: a contract names companies of any country.
/** Legal forms that end a name, any case ("Inc.", "GmbH", "S.A.R.L."). */
const LEGAL_FORMS = legalForms()
/** Legal forms as written or capitalised: a sign that a name is an organisation's ("PLC", "Plc", not "co"). */
const ORGANISATION_FORMS = legalForms(true)
const ORGANISATION_WORDS = contractPhrases(undefined, 'parties', 'organisation_words', true)
/** Small words inside a name ("Bank of America", "Banco de Chile"). */
const CONNECTORS = contractPhrases(undefined, 'parties', 'connectors')
/** Abbreviations whose dot ends no sentence, any case and as written. */
const ABBREVIATIONS = contractPhrases(undefined, 'parties', 'abbreviations')
const ABBREVIATIONS_AS_WRITTEN = contractPhrases(undefined, 'parties', 'abbreviations', true)
const NAME_SUFFIXES = contractPhrases(undefined, 'parties', 'name_suffixes', true)
/**
 * The word "and" of the document's language, in lower case as written ("and", "und", "et"), and
 * in any case: in capitals it joins parties only on a line of its own ("ET").
 */
function andOf(clauses: Clauses): { written: Phrases; anyCase: Phrases } {
  const key = clauses.language ?? ''
  let found = AND_WORDS.get(key)
  if (!found) {
    const words = lexiconWords('list_and', clauses.language)
    found = {
      written: new Phrases(
        words.map((word) => [word, word] as const),
        true,
      ),
      anyCase: phrases(words),
    }
    AND_WORDS.set(key, found)
  }
  return found
}

const AND_WORDS = new Map<string, { written: Phrases; anyCase: Phrases }>()

/** A letter, digit, underscore or hyphen: what may not follow a legal form that ends a name. */
const joinsForm = (char: string | undefined) => isWordChar(char) || char === '-'

/** Where legal forms at `at` end ("Inc.", ", Inc.", " GmbH & Co."? no: each form after an optional comma), or -1. */
function legalEnd(text: string, at = 0): number {
  let end = -1
  for (let position = at; ; ) {
    let p = position
    if (text[p] === ',') p++
    const form = LEGAL_FORMS.at(text, pastSpaces(text, p), (found) => !joinsForm(text[found.end]))
    if (!form) return end
    end = position = text[form.end] === '.' ? form.end + 1 : form.end
  }
}

/** A legal form anywhere in a name, as written, or a word only organisations carry: the name is an organisation. */
function isOrganisation(name: string): boolean {
  return ORGANISATION_FORMS.test(name, (found) => !joinsForm(name[found.end])) || ORGANISATION_WORDS.test(name)
}

interface Party {
  name: string
  offset: number
}

/**
 * Where lists of parties start in the preamble: after "by and between", "zwischen", "entre les
 * soussignés :" (the lexicons' words, D95), a label ("PARTIES:"), or the "by" of "entered into
 * this 16th day of March, 1999 by ACME, Inc. … and …".
 */
function listStarts(clauses: Clauses, text: string, from: number, to: number): number[] {
  const found: { start: number; end: number }[] = []
  const preamble = text.slice(0, to)
  const afterMark = (end: number, colon: boolean) => {
    let at = end
    if (colon) {
      at = pastSpaces(preamble, at)
      if (preamble[at] !== ':') return -1
      at++
    } else if (preamble[pastSpaces(preamble, at)] === ':') at = pastSpaces(preamble, at) + 1
    return spaces(preamble, at)
  }
  for (const between of BETWEEN.all(preamble.slice(0, to)))
    if (between.start >= from) {
      const end = afterMark(between.end, false)
      if (end >= 0) found.push({ start: between.start, end })
    }
  for (const label of words(clauses, 'labels').all(preamble))
    if (label.start >= from) {
      const end = afterMark(label.end, true)
      if (end >= 0) found.push({ start: label.start, end })
    }
  // "made … by X": the first "by" within 60 characters, past no stop, colon, quote or bracket.
  const by = words(clauses, 'by')
  for (const verb of words(clauses, 'made_by').all(preamble)) {
    if (verb.start < from) continue
    for (let at = verb.end; at <= verb.end + 60 && at < preamble.length; at++) {
      if (at > verb.end && '.;:“"('.includes(preamble[at - 1]!)) break
      const word = startsWord(preamble, at) ? by.at(preamble, at) : undefined
      const end = word ? spaces(preamble, word.end) : -1
      if (end < 0 || words(clauses, 'not_after_by').at(preamble, end)) continue
      found.push({ start: verb.start, end })
      break
    }
  }
  const starts: number[] = []
  let last = -1
  for (const { start, end } of found.sort((a, b) => a.start - b.start))
    if (start >= last) {
      starts.push(end)
      last = end
    }
  return starts
}

/** The words before a list of parties ("between", "zwischen", "entre"), of every lexicon (D95). */
const BETWEEN = phrases(lexiconWords('between_parties'))

/** An empty slot for a party in a form: "________", "[NAME]", or a bare defined term "(the “Employee”)": where it ends, or -1. */
function blankSlot(clauses: Clauses, text: string, at: number): number {
  const window = text.slice(at, at + 80)
  const slot = /^\s*(?:_{3,}[\s_]*|\[[^\]]{0,40}\])/.exec(window)
  if (slot) return at + slot[0].length
  let i = pastSpaces(window, 0)
  if (window[i] !== '(') return -1
  i = pastSpaces(window, i + 1)
  const article = clauses.words('articles', 'definite').at(window, i)
  if (article) i = pastSpaces(window, article.end)
  if (!isQuote(window[i])) return -1
  const close = window.indexOf(')', i)
  return close >= 0 && close - i - 1 <= 60 ? at + close + 1 : -1
}

/**
 * The preamble: the opening text after the filing header, where the parties are introduced. Its
 * lines end with "\n" (one character, like the space of other flat text): a short line ends a name.
 */
function preambleOf(ctx: Context): { flat: Flat; start: number; end: number } {
  const flat = flatten(ctx.doc, 14000, '\n')
  // An EDGAR filing header ("EX-10.1 2 d123dex101.htm …") on the first line: skip its codes only,
  // never further than that line (a title after it may name the parties).
  const firstLine = ctx.doc.lines[0]
  let start = 0
  const header = firstLine && /^EX-[\w.()-]+(\s+\d+\s+\S+\.(?:htm|html|txt)\b)?/i.exec(firstLine.text)
  if (header?.[0].startsWith('EX-')) start = header[1] ? header[0].length : firstLine!.text.length + 1
  return { flat, start, end: Math.min(flat.text.length, start + 5000) }
}

/**
 * The parties named in the preamble: after "between"/"among", each party is a name (capitalised
 * words, up to its legal form), then a description and a defined term ("a Delaware corporation
 * … (the “Company”)"), then "and" or a comma before the next. Without such a list, the company
 * defined in the opening and the other side: the addressee of a letter, or the individual who
 * signs an employee's undertaking.
 */
export function partiesAnswer(ctx: Context): Answer | undefined {
  const clauses = clausesOf(ctx)
  const { flat, start, end } = preambleOf(ctx)
  const text = flat.text
  for (const from of listStarts(clauses, text, start, end)) {
    const list = readPartyList(clauses, text, from)
    const names = dedupe(list.parties.map((party) => party.name))
    const you = list.stoppedAt !== undefined && !!words(clauses, 'you').at(list.stoppedAt, 0)
    // The parties of an agreement this one refers to may not be this one's — unless this one amends it.
    const before = text.slice(Math.max(start, from - 300), from)
    const elsewhere =
      words(clauses, 'references')
        .all(before)
        .some((reference) => !before.slice(reference.end).includes('.')) && !words(clauses, 'amending').test(text.slice(start, from))
    // Four or more "parties" are more often affiliates listed with one side than parties.
    if (names.length >= 2) return { value: names, confidence: elsewhere || names.length > 3 ? PARTIES.doubtfulList : PARTIES.listed, line: flat.lineAt(from) }
    if (names.length === 1 && list.blank)
      return { value: names, confidence: elsewhere ? PARTIES.doubtfulList : PARTIES.listedWithBlank, line: flat.lineAt(from) }
    if (names.length === 1 && you) {
      const other = letterAddressee(ctx, clauses, text.slice(start, start + 3000)) ?? signingIndividual(ctx, clauses)
      if (other) return { value: dedupe([names[0]!, other]), confidence: PARTIES.listedWithYou, line: flat.lineAt(from) }
    }
  }
  return definedSides(ctx, clauses, flat, start, end)
}

/** A defined term is one of a side's (`our_side`, `their_side`), with or without its article ("the Company"). */
function isSide(clauses: Clauses, list: Phrases, term: string): boolean {
  const article = clauses.words('articles', 'definite').at(term, 0)
  const starts = [...(article && spaces(term, article.end) >= 0 ? [spaces(term, article.end)] : []), 0]
  return starts.some((at) => !!list.at(term, at, (found) => found.end === term.length))
}

/**
 * Without a list of parties, the organisations the opening defines: two introduced together
 * ("X (“A”) and Y (“B”) agree …"), else the side defined as the company (“Company”, “Seller”,
 * “we”) and the side defined as the other (“you”, “Recipient”), else the company and who stands
 * across from it: the addressee of a letter, or the individual who signs an undertaking. Other
 * organisations the opening names (advisers, affiliates) are not parties.
 */
function definedSides(ctx: Context, clauses: Clauses, flat: Flat, start: number, end: number): Answer | undefined {
  const opening = flat.text.slice(start, end)
  const defined = definedParties(clauses, opening)
  const lineOf = (party: Party) => flat.lineAt(start + party.offset)
  for (let i = 0; i + 1 < defined.length; i++) {
    const [first, second] = [defined[i]!, defined[i + 1]!]
    if (onlyAnd(clauses, opening.slice(first.end, second.offset))) {
      const names = dedupe([first.name, second.name])
      if (names.length === 2) return { value: names, confidence: PARTIES.definedTogether, line: lineOf(first) }
    }
  }
  const ours = defined.find((party) => party.terms.some((term) => isSide(clauses, words(clauses, 'our_side'), term)))
  const theirs = defined.find((party) => party !== ours && party.terms.some((term) => isSide(clauses, words(clauses, 'their_side'), term)))
  if (ours && theirs) {
    const names = dedupe([ours, theirs].sort((a, b) => a.offset - b.offset).map((party) => party.name))
    if (names.length === 2) return { value: names, confidence: PARTIES.definedSides, line: lineOf(ours) }
  }
  const company = ours ?? theirs ?? defined[0]
  if (!company) return undefined
  const firstPerson = words(clauses, 'first_person').test(opening)
  const across = letterAddressee(ctx, clauses, opening, company.name) ?? (firstPerson ? signingIndividual(ctx, clauses) : undefined)
  const names = dedupe(across ? [company.name, across] : [company.name])
  if (names.length === 2) return { value: names, confidence: PARTIES.companyAndAcross, line: lineOf(company) }
  return firstPerson ? { value: [company.name], confidence: PARTIES.companyAlone, line: lineOf(company) } : undefined
}

/** Only "and" between two things, with a comma before it maybe: " and ", ", and ". */
function onlyAnd(clauses: Clauses, between: string): boolean {
  let at = pastSpaces(between, 0)
  if (between[at] === ',') at = pastSpaces(between, at + 1)
  const and = andOf(clauses).written.at(between, at)
  return !!and && spaces(between, and.end) === between.length
}

/** Names once each; "ACME Holdings" and "ACME Holdings, Inc." are one party. */
function dedupe(names: string[]): string[] {
  const keys: string[] = []
  const out: string[] = []
  for (const name of names) {
    const key = squash(name).chars
    if (keys.some((other) => other.startsWith(key) || key.startsWith(other))) continue
    keys.push(key)
    out.push(name)
  }
  return out
}

/** Reads "X, a … (the “A”), and Y (“B”)" from `start` until the sentence ends. */
function readPartyList(clauses: Clauses, text: string, start: number): { parties: Party[]; blank: boolean; stoppedAt?: string } {
  const parties: Party[] = []
  let position = start
  let blank = false
  let stoppedAt: string | undefined
  for (let guard = 0; guard < 6; guard++) {
    // Stray superscripts ("between nd Acme …") from the filing's markup.
    const skip = /^\s*(?:st|nd|rd|th)\s+(?=[A-Z])/.exec(text.slice(position, position + 6))
    if (skip) position += skip[0].length
    const slot = blankSlot(clauses, text, position)
    if (slot >= 0) {
      blank = true
      const next = nextPartyStart(clauses, text, slot)
      if (next === undefined) break
      position = next
      continue
    }
    const name = readName(clauses, text, position)
    if (!name) {
      stoppedAt = text.slice(position, position + 30).trim()
      break
    }
    parties.push({ name: name.name, offset: position })
    const next = nextPartyStart(clauses, text, name.end)
    if (next === undefined) break
    position = next
  }
  return { parties, blank, stoppedAt }
}

/** A word of a name, read right at a position: capitalised, camel-cased ("iWidget"), an initial, "&", or a word of letters (a connector, else the name ends). */
const NAME_WORD = /\s*([\p{Lu}\d][\p{L}\p{N}_’'&.-]*|\p{Ll}+\p{Lu}[\p{L}\p{N}_’'&.-]*|\p{Lu}\.|&|\p{L}+)(?=[\s,(“"„«]|$)/uy

/** A capitalised word of a place after "of", read right at a position ("America"). */
const PLACE_WORD = /[\p{Lu}][\p{L}\p{N}_’'-]*/uy

const isLower = (word: string) => word === word.toLowerCase() && word !== word.toUpperCase()
const hasCapital = (word: string) => word !== word.toLowerCase()

/** "Acme Corporation of America", "ACME MILLS CORPORATION OF SPRINGFIELD": where the place after a legal form ends, or -1. */
function placeAfterForm(rest: string, at: number): number {
  const link = spaces(rest, at)
  const of = link >= 0 ? CONTRACT_PLACE_LINKS.at(rest, link) : undefined
  let position = of ? spaces(rest, of.end) : -1
  if (position < 0) return -1
  const ends: number[] = []
  for (let count = 0; count < 3; count++) {
    PLACE_WORD.lastIndex = position
    const word = PLACE_WORD.exec(rest)
    if (!word) break
    ends.push(position + word[0].length)
    const next = spaces(rest, position + word[0].length)
    if (next < 0) break
    position = next
  }
  // The place ends the name: a comma, a bracket or a quote follows, or nothing.
  for (const end of ends.reverse()) {
    const after = pastSpaces(rest, end)
    if (after >= rest.length || ',(“"'.includes(rest[after]!)) return end
  }
  return -1
}

const CONTRACT_PLACE_LINKS = contractPhrases(undefined, 'parties', 'place_links')

/** A party's name at `position`: capitalised words (with "of", "and", "&" inside), ending after a legal form. */
function readName(clauses: Clauses, text: string, position: number): { name: string; end: number } | undefined {
  const rest = text.slice(position, position + 200)
  let name = ''
  let cursor = 0
  // "der Müller GmbH", "la société Dupont SAS": the article or the word before the name is no part of it.
  const lead = words(clauses, 'name_leads').at(rest, pastSpaces(rest, 0))
  if (lead && spaces(rest, lead.end) >= 0) cursor = spaces(rest, lead.end)
  for (let count = 0; count < 12; count++) {
    const legal = name ? legalEnd(rest, cursor) : -1
    if (legal >= 0) {
      name += rest.slice(cursor, legal)
      cursor = legal
      const place = placeAfterForm(rest, cursor)
      if (place >= 0) {
        name += rest.slice(cursor, place)
        cursor = place
      }
      break
    }
    NAME_WORD.lastIndex = cursor
    const m = NAME_WORD.exec(rest)
    if (!m) break
    const token = m[1]!
    const connector = isLower(token) && CONNECTORS.at(token, 0)?.end === token.length
    if (!name && (connector || token === '&')) {
      // "the Regents of …": an article may open a name, written capitalised ("The").
      if (words(clauses, 'name_starts').at(token, 0)?.end === token.length) {
        name = token.charAt(0).toUpperCase() + token.slice(1)
        cursor = NAME_WORD.lastIndex
        continue
      }
      break
    }
    const after = rest.slice(NAME_WORD.lastIndex)
    const and = andOf(clauses).written.at(token, 0)?.end === token.length
    if (name && (and || token === '&') && words(clauses, 'description_starts').at(after.trim(), 0)) break
    // "and" between two names ends this one.
    if (name && and && isLower(token) && isCapital(after.trimStart()[0])) break
    // Lower-case words end a name; "zenTRONix" and "iWidget" are names.
    if (isLower(token.charAt(0)) && !hasCapital(token) && !connector) break
    name += (name ? ' ' : '') + token
    cursor = NAME_WORD.lastIndex
    // A period after a whole word ends the sentence ("… Acme Enterprises. Collectively, …"),
    // unless a legal form follows ("Acme. Inc.").
    if (token.endsWith('.') && !isAbbreviation(token) && legalEnd(rest, cursor) < 0) break
  }
  // Keep the period of an abbreviation ("Inc.", "Ltd."), not a sentence's after "GmbH" or "LLC".
  const trimmed = name.endsWith('.') && !keepsDot(name) ? name.slice(0, -1) : name
  const cleaned = collapse(trimEndWhere(withoutTrailingConnector(trimmed), (char) => char === ',' || isSpace(char)))
  if (!cleaned || cleaned === 'The' || cleaned.length < 3 || !lettersInARow(cleaned, 2)) return undefined
  const opening = words(clauses, 'name_starts').at(cleaned, 0)
  const first = opening && spaces(cleaned, opening.end) >= 0 ? spaces(cleaned, opening.end) : 0
  if (words(clauses, 'not_names').at(cleaned, first) || (first > 0 && words(clauses, 'not_names').at(cleaned, 0))) return undefined
  if (words(clauses, 'never_in_names').test(cleaned)) return undefined
  // A legal form alone ("Inc.") is no name.
  if (legalEnd(cleaned, 0) >= cleaned.length - 1) return undefined
  return { name: collapse(withoutCommaBeforeForm(cleaned)), end: position + cursor }
}

/** A word that ends with an abbreviation's dot: initials ("J.", "U.S.") or an abbreviation of the lexicons ("Inc.", "Mr."). */
function isAbbreviation(token: string): boolean {
  if (/^(?:[A-Za-z]\.)+$/.test(token)) return true
  return ABBREVIATIONS.at(token, 0, (found) => found.end === token.length - 1) !== undefined
}

/** A name's last dot belongs to it: after a suffix such as "Inc" or "Jr", or an initial. */
function keepsDot(name: string): boolean {
  const before = name.slice(0, -1)
  if (endsWithInitial(before)) return true
  return NAME_SUFFIXES.ends(before)?.end === before.length
}

/** A connector or "&" left at a name's end ("Bank of") is no part of it. */
function withoutTrailingConnector(name: string): string {
  const space = name.search(/\s\S+$/)
  if (space < 0) return name
  const last = name.slice(space).trim()
  return last === '&' || CONNECTORS.at(last, 0)?.end === last.length ? name.slice(0, space) : name
}

/** "Alpha Widgets, Inc." → "Alpha Widgets Inc.": the comma before a legal form. */
function withoutCommaBeforeForm(name: string): string {
  for (let comma = name.indexOf(','); comma >= 0; comma = name.indexOf(',', comma + 1)) {
    const at = pastSpaces(name, comma + 1)
    if (COMMA_FORMS.at(name, at)) return `${name.slice(0, beforeSpaces(name, comma))} ${name.slice(at)}`
  }
  return name
}

/** The legal forms a name's comma is dropped before ("Inc", "LLC"). */
const COMMA_FORMS = contractPhrases(undefined, 'parties', 'comma_forms')

/** Quotation marks that open a quote, and those that close one ("“…”", "„…“", "«…»"). */
const OPENING = '“„«'
const CLOSING = '”»'

/**
 * Where the next party starts after a name: past its description (parentheses and quotes
 * balanced), at a top-level "and" or ";" followed by a capitalised name — or a comma after a
 * defined term ("(“Acme”), located at …, Beta Widgets LLC") — before the sentence ends.
 */
function nextPartyStart(clauses: Clauses, text: string, from: number): number | undefined {
  let depth = 0
  let quote = false
  let defined = false
  const limit = Math.min(text.length, from + 700)
  for (let i = from; i < limit; i++) {
    const char = text[i]!
    if (char === '(') depth++
    else if (char === ')') {
      depth = Math.max(0, depth - 1)
      if (depth === 0 && [...text.slice(Math.max(from, i - 40), i)].some(isQuote)) defined = true
    } else if (OPENING.includes(char) && !(char === '“' && quote)) quote = true
    else if (CLOSING.includes(char) || char === '“') quote = false
    else if (char === '"') quote = !quote
    if (depth > 0 || quote) continue
    if (char === '.' && isSentenceEnd(text, i)) return undefined
    const joiner = joinerAt(clauses, text, i, defined)
    // "and" inside the description: "X, its principals, management and staff", "its subsidiaries,
    // including Y and Z".
    const described = text.slice(from, i)
    if (joiner !== undefined && (startsWithPossessive(clauses, described) || listsInside(clauses, described))) continue
    if (joiner !== undefined) {
      const after = joiner.end
      const upcoming = text.slice(after, after + 80)
      if (blankSlot(clauses, upcoming, 0) >= 0) return after
      const listed = !joiner.comma || isOrganisation(readName(clauses, text, after)?.name ?? '')
      const name = pastArticle(clauses, upcoming)
      if (listed && isCapital(upcoming[name]) && !words(clauses, 'roles', true).at(upcoming, name)) return after
      if (words(clauses, 'you').at(upcoming, 0)) return undefined
    }
    if (startsWord(text, i) && words(clauses, 'recitals', true).at(text, i)) return undefined
  }
  return undefined
}

/** A top-level joiner between two parties at `i`: ", and ", " and_", "; ", "; and ", or — after a defined term — ", ". */
function joinerAt(clauses: Clauses, text: string, i: number, defined: boolean): { end: number; comma: boolean } | undefined {
  const { written, anyCase } = andOf(clauses)
  let at = text[i] === ',' ? i + 1 : i
  const gap = spaces(text, at)
  if (gap >= 0) {
    const and = written.at(text, gap) ?? anyCase.at(text, gap, (found) => text[found.start - 1] === '\n' && text[found.end] === '\n')
    if (and && (spaces(text, and.end) >= 0 || text[and.end] === '_')) return { end: text[and.end] === '_' ? and.end : spaces(text, and.end), comma: false }
  }
  if (text[i] === ';') {
    at = spaces(text, i + 1)
    if (at < 0) return undefined
    const and = written.at(text, at)
    return { end: and && spaces(text, and.end) >= 0 ? spaces(text, and.end) : at, comma: false }
  }
  if (defined && text[i] === ',') {
    const after = spaces(text, i + 1)
    if (after >= 0 && !written.at(text, after)) return { end: after, comma: true }
  }
  return undefined
}

/** The description opens with a possessive ("X, its principals, management and staff"): an "and" in it joins no parties. */
function startsWithPossessive(clauses: Clauses, described: string): boolean {
  let at = pastSpaces(described, 0)
  if (described[at] === ',') at = pastSpaces(described, at + 1)
  const possessive = words(clauses, 'possessives').at(described, at)
  return !!possessive && isSpace(described[possessive.end]) && !hasAnyOf(described.slice(possessive.end), ';()')
}

/** The description lists something ("its subsidiaries, including Y and Z"): an "and" after it joins no parties. */
function listsInside(clauses: Clauses, described: string): boolean {
  return words(clauses, 'including')
    .all(described)
    .some((found) => !hasAnyOf(described.slice(found.end), ';()'))
}

/** Where a name starts after an article that may open it ("the", "der", "la société"). */
function pastArticle(clauses: Clauses, text: string): number {
  for (const list of [words(clauses, 'name_starts'), words(clauses, 'name_leads')]) {
    const article = list.at(text, 0)
    if (article && spaces(text, article.end) >= 0) return spaces(text, article.end)
  }
  return 0
}

/** A period that ends a sentence, not one of "Inc.", "Corp.", "N.A." or an initial: spaces and a capital, a quote or a bracket follow, or nothing. */
function isSentenceEnd(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 6), index)
  if (endsWithInitial(before) || ABBREVIATIONS_AS_WRITTEN.ends(before)?.end === before.length) return false
  const [next, then] = [text[index + 1], text[index + 2]]
  if (next === undefined) return true
  if (!isSpace(next)) return false
  return then === undefined || isSpace(then) || isCapital(then) || '“"(„«'.includes(then)
}

/** An organisation defined in the opening, with its defined terms and where its definition ends. */
interface Defined extends Party {
  terms: string[]
  end: number
}

/** A parenthesised definition holding quoted terms: '(the “Company”)', '(collectively, with …, the “Company”)', '(“Acme” or “you”)'. */
const DEFINITION = /\(([^()]{0,200}?[“"„«][^()]{0,200}?)\)/g

/** A quoted term in a definition: “Company”, „Müller“, « Dupont ». */
const QUOTED_TERM = /[“"„«]\s*([^”"“»]{1,40}?)\s*[”"“»]/g

/** A capitalised name, possibly with its legal form: the candidates for what a definition defines. */
const CAPITALISED_NAME = new RegExp(
  String.raw`(?:^|[\s,(])((?:The\s+)?(?:\p{Lu}[\p{L}\p{N}_’'&.-]*|\p{Ll}+\p{Lu}[\p{L}\p{N}_’'&.-]*)(?:\s+(?:\p{Lu}[\p{L}\p{N}_’'&.-]*|of|and|&|de|von))*(?:,?\s+(?:${legalFormsSource(true)})(?![\w-])\.?)?)`,
  'gu',
)

/**
 * Organisations defined in the opening: 'ACME, Inc. (“ACME”)', 'ACME, a Delaware corporation …
 * (the “Company”)', 'ACME and its affiliates, including … (together “ACME”)'. The defined name is
 * the nearest organisation before the definition in the same sentence — or the head of a group
 * ("X and its affiliates, including Y").
 */
function definedParties(clauses: Clauses, text: string): Defined[] {
  const out: Defined[] = []
  for (const m of text.matchAll(DEFINITION)) {
    const terms = [...m[1]!.matchAll(QUOTED_TERM)].map((term) => collapse(term[1]!))
    if (!terms.length || terms.every((term) => words(clauses, 'not_party_terms').test(term))) continue
    // The clause before the definition, back to the start of its sentence.
    let from = Math.max(0, m.index! - 220)
    for (let i = m.index! - 1; i > from; i--) {
      if ((text[i] === '.' && isSentenceEnd(text, i)) || text[i] === ':' || text[i] === ';') {
        from = i + 1
        break
      }
    }
    const before = text.slice(from, m.index!)
    // "… you (“Employee” or “you”)": the term defines a person, not the organisation named earlier.
    if (words(clauses, 'you').ends(before)) continue
    const candidates = [...before.matchAll(CAPITALISED_NAME)].filter((c) => isOrganisation(c[1]!))
    const head = candidates.find((c) => headsGroup(clauses, before.slice(c.index! + c[0].length)))
    const organisation = head ?? candidates.at(-1)
    if (!organisation) continue
    // A heading run into the name ("NON-DISCLOSURE AGREEMENT The Regents of …") is not part of
    // it, nor a short line before it ("Name: Jane Roe" above "ACME Bank and its affiliates").
    let offset = from + organisation.index! + organisation[0].indexOf(organisation[1]!)
    const heading = words(clauses, 'headings', true).last(organisation[1]!, (found) => {
      const after = organisation[1]![found.end] === '.' || organisation[1]![found.end] === ':' ? found.end + 1 : found.end
      return spaces(organisation[1]!, after) >= 0
    })
    if (heading) {
      const after = organisation[1]![heading.end] === '.' || organisation[1]![heading.end] === ':' ? heading.end + 1 : heading.end
      offset += spaces(organisation[1]!, after)
    }
    for (let k = text.indexOf('\n', offset); k >= 0 && k < from + organisation.index! + organisation[0].length; k = text.indexOf('\n', k + 1)) {
      // A short line of its own, or after a label, ends there; a name wrapped inside running text does not.
      const lineStart = text.lastIndexOf('\n', k - 1) + 1
      if (k - lineStart < 60 && /^(?:[^\n]*:)?\s*$/.test(text.slice(lineStart, offset))) offset = k + 1
    }
    const name = readName(clauses, text, offset)
    if (!name || !isOrganisation(name.name)) continue
    if (out.some((party) => party.name === name.name)) continue
    out.push({ name: name.name, offset, terms, end: m.index! + m[0].length })
    if (out.length >= 4) break
  }
  return out
}

/** After a name, its group with a list of members: ", and its affiliates, including …". */
function headsGroup(clauses: Clauses, after: string): boolean {
  let at = pastSpaces(after, 0)
  if (after[at] === ',') at = pastSpaces(after, at + 1)
  const joined = [...andOf(clauses).anyCase.all(after), ...clauses.words('term', 'or').all(after)].filter((found) => found.start === at)
  const starts = [
    ...joined.map((found) => spaces(after, found.end)).filter((end) => end >= 0),
    ...(after.startsWith('and/or', at) ? [spaces(after, at + 6)] : []),
    at,
  ]
  return starts.some((start) => {
    const possessive = start >= 0 ? words(clauses, 'possessives').at(after, start) : undefined
    const group = possessive && spaces(after, possessive.end) >= 0 ? words(clauses, 'group_words').at(after, spaces(after, possessive.end)) : undefined
    const rest = group ? after.slice(group.end) : ''
    const includes = group ? words(clauses, 'group_includes').find(rest) : undefined
    return !!includes && !hasAnyOf(rest.slice(0, includes.start), '()')
  })
}

/**
 * The organisation a letter is addressed to: one defined as “you” or the “Recipient”, else the
 * address block between the letter's date and its salutation (the letterhead above the date is
 * the sender's), else the last organisation before the salutation.
 */
function letterAddressee(ctx: Context, clauses: Clauses, opening: string, except?: string): string | undefined {
  const same = (name: string) => !!except && dedupe([name, except]).length === 1
  const defined = addresseeDefined(clauses, opening)
  if (defined !== undefined) {
    const name = readName(clauses, opening, defined)
    if (name && isOrganisation(name.name) && !same(name.name)) return name.name
  }
  if (!clauses.words('effective', 'greetings').test(ctx.doc.text.slice(0, 4000))) return undefined
  const opensLetter = clauses.joined('letter openers', () => [
    ...words(clauses, 'subject_marks').words,
    ...clauses.words('effective', 'greetings').words.map((word) => `${word}*`),
  ])
  const found: { name: string; afterDate: boolean }[] = []
  let afterDate = false
  for (const line of ctx.doc.lines.slice(0, 30)) {
    if (opensLetter.at(line.text, 0)) break
    if (lineDates(ctx, line).length && line.text.length <= 40) {
      afterDate = true
      continue
    }
    if (line.text.length < 80 && isOrganisation(line.text) && !words(clauses, 'letter_lines').test(line.text)) {
      const name = readName(clauses, line.text, 0)
      if (name && !same(name.name)) found.push({ name: name.name, afterDate })
    }
  }
  return (found.find((entry) => entry.afterDate) ?? found.at(-1))?.name
}

/** 'Acme Corp. (together with its affiliates, “you”)': where the capitalised name defined as the addressee starts. */
function addresseeDefined(clauses: Clauses, opening: string): number | undefined {
  const terms = words(clauses, 'addressee_terms', true)
  for (let open = opening.indexOf('('); open >= 0; open = opening.indexOf('(', open + 1)) {
    let at = pastSpaces(opening, open + 1)
    const together = words(clauses, 'together').at(opening, at)
    if (together) {
      const quote = opening.slice(together.end).search(/[“"„«)]/)
      if (quote < 0 || opening[together.end + quote] === ')') continue
      at = together.end + quote
    }
    if (!isQuote(opening[at]) || !terms.at(opening, at + 1, (found) => isQuote(opening[found.end]))) continue
    // The capitalised words right before the bracket, back to the first of them.
    let start = -1
    for (let wordEnd = beforeSpaces(opening, open); ; ) {
      let word = wordEnd
      while (word > 0 && /[\w’'&.,-]/.test(opening[word - 1]!)) word--
      if (word === wordEnd || !(opening[word]! >= 'A' && opening[word]! <= 'Z')) break
      start = word
      const previous = beforeSpaces(opening, word)
      if (previous === word || previous === 0) break
      wordEnd = previous
    }
    if (start >= 0) return start
  }
  return undefined
}

/** The lower-case particles of a surname, between capitalised words ("G.J. Van der Ploeg", "Ana de la Cruz", "Ahmad bin Ali"). */
const NAME_PARTICLES = String.raw`(?:van|von|der|den|de|del|della|di|da|du|la|le|ten|ter|bin|binti)`

/**
 * The name a signature gives, read right at a position (`lastIndex`): two to four capitalised
 * words, with the particles of a surname between them.
 */
export const SIGNED_AT = new RegExp(String.raw`([A-Z][\w.'’-]*(?:(?:\s${NAME_PARTICLES})*\s[A-Z][\w.'’-]*){1,3})`, 'y')

/** The individual who signs (an employee's undertaking): a "/s/ Name" not signing "By:" for a company. */
function signingIndividual(ctx: Context, clauses: Clauses): string | undefined {
  const lines = ctx.doc.lines.slice(-60)
  const signers: { name: string; officer: boolean }[] = []
  const witness = words(clauses, 'witness')
  const notWitness = words(clauses, 'witness_not')
  lines.forEach((line, index) => {
    for (let mark = line.raw.indexOf('/s/'); mark >= 0; mark = line.raw.indexOf('/s/', mark + 1)) {
      SIGNED_AT.lastIndex = pastSpaces(line.raw, mark + 3)
      const m = SIGNED_AT.exec(line.raw)
      if (!m) continue
      const context = lines
        .slice(Math.max(0, index - 2), index + 1)
        .map((l) => l.text)
        .join(' ')
      if (witness.test(context, (found) => !notWitness.at(context, pastSpaces(context, found.end)))) continue
      const before = line.raw.slice(Math.max(0, mark - 12), mark)
      signers.push({ name: collapse(m[1]!), officer: !!words(clauses, 'by').ends(before, ':') })
      mark = SIGNED_AT.lastIndex - 1
    }
  })
  const individual = signers.find((signer) => !signer.officer)
  if (individual) return individual.name
  return signers.length === 1 ? signers[0]!.name : undefined
}
