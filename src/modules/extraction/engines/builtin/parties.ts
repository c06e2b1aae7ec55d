/**
 * The parties of a contract. Most preambles list them after "between"/"among": each a name
 * (capitalised words up to its legal form), a description and a defined term ("X, a Delaware
 * corporation … (the “Company”)"), then "and" or a comma before the next. Letters and
 * one-sided undertakings name one company; the other side is the letter's addressee or the
 * individual who signs.
 */
import type { Answer, Context } from './context'
import { lineDates } from './dates'
import { flatten, type Flat } from './document'
import { legalFormsSource, lexiconWords, wordsSource } from '../../../../lib/lexicon'
import { collapse } from '../../../../lib/text'
import { PARTIES } from './weights'

/** Legal-form endings that close a company name: the legal forms of every lexicon (D95). */
const LEGAL_END = new RegExp(`^(?:,?\\s*(?:${legalFormsSource()})(?![\\w-])\\.?)+`, 'i')

/** A legal form anywhere in a name, as written, or a word only organisations carry: the name is an organisation. */
const ORGANISATION = new RegExp(
  `\\b(?:${legalFormsSource(true)})(?![\\w-])|\\b(?:Bank|Trust|University|College|Institute|Foundation|Association|Partners|Partnership|Holdings|Group)\\b`,
)

/** Words that start a description after a party's name rather than continue it. */
const NAME_STOP =
  /^(?:a|an|the|its|his|her|having|located|with|whose|which|who|on|in|at|by|of|organized|incorporated|existing|formed|doing|d\/b\/a|dba|together|hereinafter|and|or|as|each|acting|through|for|from|to|residing|an?\s+individual)\b/i

interface Party {
  name: string
  offset: number
}

/**
 * Where the list of parties starts: "by and between", "zwischen" (the lexicons' words, D95),
 * "PARTIES:", or the "by" of "entered into this 16th day of March, 1999 by ACME, Inc. … and …".
 */
const PARTIES_ANCHOR = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${wordsSource(lexiconWords('between_parties'))}|parties\\s*:)\\s+|\\b(?:entered\\s+into|made|executed)\\b[^.;:“"(]{0,60}?\\bby\\s+(?!and\\b|the\\s+undersigned\\b|between\\b|among\\b)`,
  'giu',
)

/** An empty slot for a party in a form: "________", "[NAME]", or a bare defined term "(the “Employee”)". */
const BLANK_SLOT = /^\s*(?:_{3,}[\s_]*|\[[^\]]{0,40}\]|\((?:\s*the)?\s*[“"][^)]{0,60}\))/

/** A list that names the parties of another agreement ("Reference is made to the Settlement Agreement … by and among …"). */
const OTHER_AGREEMENT = /\breference\s+is\s+(?:hereby\s+)?made\s+to\b[^.]*$/i

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
  if (firstLine && /^EX-[\w.()-]+/.test(firstLine.text)) {
    const codes = /^EX-[\w.()-]+\s+\d+\s+\S+\.(?:htm|html|txt)\b/i.exec(firstLine.text)
    start = codes ? codes[0].length : firstLine.text.length + 1
  }
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
  const { flat, start, end } = preambleOf(ctx)
  const text = flat.text
  const preamble = text.slice(start, end)
  for (const anchor of preamble.matchAll(PARTIES_ANCHOR)) {
    const from = start + anchor.index! + anchor[0].length
    const list = readPartyList(text, from)
    const names = dedupe(list.parties.map((party) => party.name))
    const you = /^(?:you|me|the\s+undersigned)\b/i.test(list.stoppedAt ?? '')
    // The parties of an agreement this one refers to may not be this one's — unless this one amends it.
    const elsewhere = OTHER_AGREEMENT.test(text.slice(Math.max(start, from - 300), from)) && !/\bamend/i.test(text.slice(start, from))
    // Four or more "parties" are more often affiliates listed with one side than parties.
    if (names.length >= 2) return { value: names, confidence: elsewhere || names.length > 3 ? PARTIES.doubtfulList : PARTIES.listed, line: flat.lineAt(from) }
    if (names.length === 1 && list.blank)
      return { value: names, confidence: elsewhere ? PARTIES.doubtfulList : PARTIES.listedWithBlank, line: flat.lineAt(from) }
    if (names.length === 1 && you) {
      const other = letterAddressee(ctx, text.slice(start, start + 3000)) ?? signingIndividual(ctx)
      if (other) return { value: dedupe([names[0]!, other]), confidence: PARTIES.listedWithYou, line: flat.lineAt(from) }
    }
  }
  return definedSides(ctx, flat, start, end)
}

/** Defined terms that stand for the side that discloses: the company of a letter or an undertaking. */
const OUR_SIDE = /^(?:the\s+)?(?:company|corporation|seller|discloser|disclosing\s+party|licensor|employer|we|us|our)$/i
/** Defined terms for the side across: the addressee of a letter, the recipient, the bidder. */
const THEIR_SIDE =
  /^(?:the\s+)?(?:you|your|recipient|receiving\s+party|counterparty|buyer|purchaser|bidder|acquir[oe]r|investor|interested\s+party|licensee|prospective\s+(?:buyer|purchaser|acquir[oe]r|investor))$/i

/**
 * Without a list of parties, the organisations the opening defines: two introduced together
 * ("X (“A”) and Y (“B”) agree …"), else the side defined as the company (“Company”, “Seller”,
 * “we”) and the side defined as the other (“you”, “Recipient”), else the company and who stands
 * across from it: the addressee of a letter, or the individual who signs an undertaking. Other
 * organisations the opening names (advisers, affiliates) are not parties.
 */
function definedSides(ctx: Context, flat: Flat, start: number, end: number): Answer | undefined {
  const opening = flat.text.slice(start, end)
  const defined = definedParties(opening)
  const lineOf = (party: Party) => flat.lineAt(start + party.offset)
  for (let i = 0; i + 1 < defined.length; i++) {
    const [first, second] = [defined[i]!, defined[i + 1]!]
    if (/^\s*,?\s*and\s+$/.test(opening.slice(first.end, second.offset))) {
      const names = dedupe([first.name, second.name])
      if (names.length === 2) return { value: names, confidence: PARTIES.definedTogether, line: lineOf(first) }
    }
  }
  const ours = defined.find((party) => party.terms.some((term) => OUR_SIDE.test(term)))
  const theirs = defined.find((party) => party !== ours && party.terms.some((term) => THEIR_SIDE.test(term)))
  if (ours && theirs) {
    const names = dedupe([ours, theirs].sort((a, b) => a.offset - b.offset).map((party) => party.name))
    if (names.length === 2) return { value: names, confidence: PARTIES.definedSides, line: lineOf(ours) }
  }
  const company = ours ?? theirs ?? defined[0]
  if (!company) return undefined
  const firstPerson = /\b(?:I agree|my employment|my relationship|the undersigned|you (?:will|agree|acknowledge)|as an (?:employee|associate))\b/i.test(opening)
  const across = letterAddressee(ctx, opening, company.name) ?? (firstPerson ? signingIndividual(ctx) : undefined)
  const names = dedupe(across ? [company.name, across] : [company.name])
  if (names.length === 2) return { value: names, confidence: PARTIES.companyAndAcross, line: lineOf(company) }
  return firstPerson ? { value: [company.name], confidence: PARTIES.companyAlone, line: lineOf(company) } : undefined
}

/** Names once each; "ACME Holdings" and "ACME Holdings, Inc." are one party. */
function dedupe(names: string[]): string[] {
  const keys: string[] = []
  const out: string[] = []
  for (const name of names) {
    const key = name.toLowerCase().replace(/[^a-z0-9]/g, '')
    if (keys.some((other) => other.startsWith(key) || key.startsWith(other))) continue
    keys.push(key)
    out.push(name)
  }
  return out
}

/** Reads "X, a … (the “A”), and Y (“B”)" from `start` until the sentence ends. */
function readPartyList(text: string, start: number): { parties: Party[]; blank: boolean; stoppedAt?: string } {
  const parties: Party[] = []
  let position = start
  let blank = false
  let stoppedAt: string | undefined
  for (let guard = 0; guard < 6; guard++) {
    // Stray superscripts ("between nd Acme …") from the filing's markup.
    const skip = /^\s*(?:st|nd|rd|th)\s+(?=[A-Z])/.exec(text.slice(position, position + 6))
    if (skip) position += skip[0].length
    const slot = BLANK_SLOT.exec(text.slice(position, position + 80))
    if (slot) {
      blank = true
      const next = nextPartyStart(text, position + slot[0].length)
      if (next === undefined) break
      position = next
      continue
    }
    const name = readName(text, position)
    if (!name) {
      stoppedAt = text.slice(position, position + 30).trim()
      break
    }
    parties.push({ name: name.name, offset: position })
    const next = nextPartyStart(text, name.end)
    if (next === undefined) break
    position = next
  }
  return { parties, blank, stoppedAt }
}

/** Small words that may stand inside a name ("Bank of America", "Banco de Chile"). */
const CONNECTOR_WORDS = 'of|and|the|de|du|von|van|der|für|y|e'
const CONNECTORS = new RegExp(`^(?:${CONNECTOR_WORDS}|&)$`, 'i')

/** A word of a name: capitalised, camel-cased ("iWidget"), an initial, "&" or a connector. */
const NAME_WORD = new RegExp(String.raw`^\s*([A-Z0-9][\w’'&.-]*|[a-z]+[A-Z][\w’'&.-]*|[A-Z]\.|&|${CONNECTOR_WORDS})(?=[\s,(“"]|$)`)

/** Words whose period is an abbreviation's: initials ("J.", "U.S."), legal forms, titles. */
const ABBREVIATION = /^(?:(?:[A-Za-z]\.)+|Inc\.|Corp\.|Co\.|Ltd\.|Jr\.|Sr\.|St\.|Mr\.|Mrs\.|Ms\.|Dr\.|Bros\.|No\.|Intl\.|Int’l\.|Mfg\.|Assoc\.)$/i

/** A party's name at `position`: capitalised words (with "of", "and", "&" inside), ending after a legal form. */
function readName(text: string, position: number): { name: string; end: number } | undefined {
  const rest = text.slice(position, position + 200)
  let name = ''
  let cursor = 0
  for (let count = 0; count < 12; count++) {
    const legal = LEGAL_END.exec(rest.slice(cursor))
    if (legal && name) {
      name += legal[0]
      cursor += legal[0].length
      // "Acme Corporation of America", "ACME MILLS CORPORATION OF SPRINGFIELD".
      const of = /^\s+(?:of|OF|Of)\s+(?:[A-Z][\w’'-]*)(?:\s+[A-Z][\w’'-]*){0,2}(?=\s*[,(“"]|\s+\(|\s*$)/.exec(rest.slice(cursor))
      if (of) {
        name += of[0]
        cursor += of[0].length
      }
      break
    }
    const m = NAME_WORD.exec(rest.slice(cursor))
    if (!m) break
    const token = m[1]!
    if (!name && CONNECTORS.test(token)) {
      if (/^the$/i.test(token)) {
        name = 'The'
        cursor += m[0].length
        continue
      }
      break
    }
    const after = rest.slice(cursor + m[0].length)
    if (name && /^(?:and|&)$/.test(token) && NAME_STOP.test(after.trim())) break
    // "and" between two names ends this one.
    if (name && token === 'and' && /^\s*[A-Z]/.test(after)) break
    // Lower-case words end a name; "zenTRONix" and "iWidget" are names.
    if (/^[a-z]/.test(token) && !/[A-Z]/.test(token) && !CONNECTORS.test(token)) break
    name += (name ? ' ' : '') + token
    cursor += m[0].length
    // A period after a whole word ends the sentence ("… Acme Enterprises. Collectively, …"),
    // unless a legal form follows ("Acme. Inc.").
    if (/\.$/.test(token) && !ABBREVIATION.test(token) && !LEGAL_END.test(rest.slice(cursor))) break
  }
  // Keep the period of an abbreviation ("Inc.", "Ltd."), not a sentence's after "GmbH" or "LLC".
  const trimmed = name.replace(/(?<!\b(?:Inc|Corp|Co|Ltd|Jr|Sr|[A-Z]))\.$/, '')
  const cleaned = collapse(trimmed.replace(/\s+(?:of|and|the|de|du|von|van|der|für|&)$/i, '').replace(/[,\s]+$/, ''))
  if (!cleaned || cleaned === 'The' || cleaned.length < 3 || !/[A-Za-z]{2}/.test(cleaned)) return undefined
  if (
    /^(?:The\s+)?(?:This|That|Agreement|Company|Party|Parties|Corporation|Each|Such|Said|Any|All|Whereas|Now|In|By|And|Employee|Executive|Consultant|Recipient|Discloser|Confidential\w*|Receiving|Disclosing)\b/i.test(
      cleaned,
    )
  )
    return undefined
  if (/\b(?:Agreement|Exhibit|Section|Schedule|Parties|Party)\b/i.test(cleaned)) return undefined
  // A legal form alone ("Inc.") is no name.
  const form = LEGAL_END.exec(cleaned)
  if (form && form[0].length >= cleaned.length - 1) return undefined
  return { name: cleaned.replace(/\s*,\s*(?=(?:Inc|LLC|Ltd|Corp|L\.P|N\.A|L\.L\.C)\b)/i, ' ').replace(/\s+/g, ' '), end: position + cursor }
}

/**
 * Where the next party starts after a name: past its description (parentheses and quotes
 * balanced), at a top-level "and" or ";" followed by a capitalised name — or a comma after a
 * defined term ("(“Acme”), located at …, Beta Widgets LLC") — before the sentence ends.
 */
function nextPartyStart(text: string, from: number): number | undefined {
  let depth = 0
  let quote = false
  let defined = false
  const limit = Math.min(text.length, from + 700)
  for (let i = from; i < limit; i++) {
    const char = text[i]!
    if (char === '(') depth++
    else if (char === ')') {
      depth = Math.max(0, depth - 1)
      if (depth === 0 && /[“"”]/.test(text.slice(Math.max(from, i - 40), i))) defined = true
    } else if (char === '“' || char === '”' || char === '"') quote = char === '“' ? true : char === '”' ? false : !quote
    if (depth > 0 || quote) continue
    if (char === '.' && isSentenceEnd(text, i)) return undefined
    const rest = text.slice(i, i + 12)
    const joiner = /^(?:,?\s+and\s+|,?\s+and(?=_)|;\s+(?:and\s+)?)/.exec(rest) ?? (defined ? /^,\s+(?!and\b)/.exec(rest) : null)
    // "and" inside the description: "X, its principals, management and staff", "its subsidiaries,
    // including Y and Z".
    const described = text.slice(from, i)
    if (joiner && (/^\s*,?\s*(?:its|his|her|their)\s[^;()]*$/i.test(described) || /\b(?:including|not\s+limited\s+to|such\s+as)\b[^;()]*$/i.test(described)))
      continue
    if (joiner) {
      const after = i + joiner[0].length
      const upcoming = text.slice(after, after + 80)
      if (BLANK_SLOT.test(upcoming)) return after
      const listed = !/^,\s+$/.test(joiner[0]) || ORGANISATION.test(readName(text, after)?.name ?? '')
      if (
        listed &&
        /^(?:the\s+)?[A-Z0-9]/.test(upcoming) &&
        !/^(?:the\s+)?(?:Company|Parties|Party|Agreement|Confidential|Recipient|Discloser|Receiving|Disclosing|Employee|Executive|Purchaser|Buyer|Seller)\b/.test(
          upcoming,
        ) &&
        startsName(upcoming)
      )
        return after
      if (/^(?:you|me)\b/i.test(upcoming)) return undefined
    }
    if (/^\b(?:WHEREAS|RECITALS|WITNESSETH|NOW,?\s+THEREFORE)\b/.test(text.slice(i, i + 14))) return undefined
  }
  return undefined
}

/** A capitalised name follows, not a street address or a number. */
function startsName(text: string): boolean {
  return /^(?:the\s+)?[A-Z][\w’'&.-]*/.test(text) && !/^\d/.test(text)
}

/** A period that ends a sentence, not one of "Inc.", "Corp.", "N.A." or an initial. */
function isSentenceEnd(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 6), index)
  if (/(?:\b(?:Inc|Corp|Co|Ltd|Mr|Mrs|Ms|Dr|St|No|Jr|Sr|Ave|Blvd|L\.P|N\.A|S\.A|N\.V|B\.V|U\.S|L\.L\.C|P\.C)|\b[A-Z])$/.test(before)) return false
  return /^\.\s+[A-Z“"(]|^\.\s*$/.test(text.slice(index, index + 3))
}

/** An organisation defined in the opening, with its defined terms and where its definition ends. */
interface Defined extends Party {
  terms: string[]
  end: number
}

/** Defined terms that name a thing, not a party: the agreement, the deal, the information. */
const NOT_A_PARTY =
  /\b(?:agreement|date|transaction|information|materials?|purpose|representatives?|affiliates?|business|proposal|opportunity|plan|act|notes|relationship|project|services|products?|compound|territory|period|matter|advis[oe]rs?|agents?|brokers?|counsel|shareholders?|stockholders?)\b/i

/** A parenthesised definition holding quoted terms: '(the “Company”)', '(collectively, with …, the “Company”)', '(“Acme” or “you”)'. */
const DEFINITION = /\(([^()]{0,200}?[“"][^()]{0,200}?)\)/g

/** A capitalised name, possibly with its legal form: the candidates for what a definition defines. */
const CAPITALISED_NAME = new RegExp(
  String.raw`(?:^|[\s,(])((?:The\s+)?(?:[A-Z][\w’'&.-]*|[a-z]+[A-Z][\w’'&.-]*)(?:\s+(?:[A-Z][\w’'&.-]*|of|and|&|de|von))*(?:,?\s+(?:${legalFormsSource(true)})(?![\w-])\.?)?)`,
  'g',
)

/**
 * Organisations defined in the opening: 'ACME, Inc. (“ACME”)', 'ACME, a Delaware corporation …
 * (the “Company”)', 'ACME and its affiliates, including … (together “ACME”)'. The defined name is
 * the nearest organisation before the definition in the same sentence — or the head of a group
 * ("X and its affiliates, including Y").
 */
function definedParties(text: string): Defined[] {
  const out: Defined[] = []
  for (const m of text.matchAll(DEFINITION)) {
    const terms = [...m[1]!.matchAll(/[“"]([^”"“]{1,40})[”"]/g)].map((term) => collapse(term[1]!))
    if (!terms.length || terms.every((term) => NOT_A_PARTY.test(term))) continue
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
    if (/\b(?:you|I|me|the\s+undersigned)\s*$/i.test(before)) continue
    const candidates = [...before.matchAll(CAPITALISED_NAME)].filter((c) => ORGANISATION.test(c[1]!))
    const head = candidates.find((c) =>
      /^\s*,?\s*(?:(?:and|or|and\/or)\s+)?(?:its|their)\s+(?:affiliates|subsidiaries|parents?|divisions)\b[^()]*\binclud/i.test(
        before.slice(c.index! + c[0].length),
      ),
    )
    const organisation = head ?? candidates.at(-1)
    if (!organisation) continue
    // A heading run into the name ("NON-DISCLOSURE AGREEMENT The Regents of …") is not part of
    // it, nor a short line before it ("Name: Jane Roe" above "ACME Bank and its affiliates").
    let offset = from + organisation.index! + organisation[0].indexOf(organisation[1]!)
    const heading = /^[\s\S]*\b(?:AGREEMENT|Agreement|EXHIBIT|Exhibit|CONFIDENTIAL|Confidential|Dear|Re|Attention|Attn)\b[.:]?\s+/.exec(organisation[1]!)
    if (heading) offset += heading[0].length
    for (let k = text.indexOf('\n', offset); k >= 0 && k < from + organisation.index! + organisation[0].length; k = text.indexOf('\n', k + 1)) {
      // A short line of its own, or after a label, ends there; a name wrapped inside running text does not.
      const lineStart = text.lastIndexOf('\n', k - 1) + 1
      if (k - lineStart < 60 && /^(?:[^\n]*:)?\s*$/.test(text.slice(lineStart, offset))) offset = k + 1
    }
    const name = readName(text, offset)
    if (!name || !ORGANISATION.test(name.name)) continue
    if (out.some((party) => party.name === name.name)) continue
    out.push({ name: name.name, offset, terms, end: m.index! + m[0].length })
    if (out.length >= 4) break
  }
  return out
}

/**
 * The organisation a letter is addressed to: one defined as “you” or the “Recipient”, else the
 * address block between the letter's date and its salutation (the letterhead above the date is
 * the sender's), else the last organisation before the salutation.
 */
function letterAddressee(ctx: Context, opening: string, except?: string): string | undefined {
  const same = (name: string) => !!except && dedupe([name, except]).length === 1
  const defined = /([A-Z][\w’'&.,-]*(?:\s+[A-Z][\w’'&.,-]*)*)\s*\(\s*(?:together\s+with[^)]*)?[“"](?:you|Recipient|Counterparty)[”"]/.exec(opening)
  if (defined) {
    const name = readName(opening, defined.index)
    if (name && ORGANISATION.test(name.name) && !same(name.name)) return name.name
  }
  if (!/\b(?:dear|gentlemen|ladies)\b/i.test(ctx.doc.text.slice(0, 4000))) return undefined
  const found: { name: string; afterDate: boolean }[] = []
  let afterDate = false
  for (const line of ctx.doc.lines.slice(0, 30)) {
    if (/^(?:re\b|dear|gentlemen|ladies)/i.test(line.text)) break
    if (lineDates(ctx, line).length && line.text.length <= 40) {
      afterDate = true
      continue
    }
    if (line.text.length < 80 && ORGANISATION.test(line.text) && !/\b(?:agreement|exhibit|confidential)\b/i.test(line.text)) {
      const name = readName(line.text, 0)
      if (name && !same(name.name)) found.push({ name: name.name, afterDate })
    }
  }
  return (found.find((entry) => entry.afterDate) ?? found.at(-1))?.name
}

/** The name a signature gives: two to four capitalised words. */
export const SIGNED_NAME = String.raw`([A-Z][\w.'’-]*(?:\s[A-Z][\w.'’-]*){1,3})`
const SIGNED = new RegExp(String.raw`\/s\/\s*${SIGNED_NAME}`, 'g')

/** The individual who signs (an employee's undertaking): a "/s/ Name" not signing "By:" for a company. */
function signingIndividual(ctx: Context): string | undefined {
  const lines = ctx.doc.lines.slice(-60)
  const signers: { name: string; officer: boolean }[] = []
  lines.forEach((line, index) => {
    for (const m of line.raw.matchAll(SIGNED)) {
      const context = lines
        .slice(Math.max(0, index - 2), index + 1)
        .map((l) => l.text)
        .join(' ')
      if (/\bwitness(?!\s+whereof)/i.test(context)) continue
      const before = line.raw.slice(Math.max(0, m.index! - 12), m.index!)
      signers.push({ name: collapse(m[1]!), officer: /by:?\s*$/i.test(before) })
    }
  })
  const individual = signers.find((signer) => !signer.officer)
  if (individual) return individual.name
  return signers.length === 1 ? signers[0]!.name : undefined
}
