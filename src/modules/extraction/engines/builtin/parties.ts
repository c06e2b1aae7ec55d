/**
 * The parties of a contract. Most preambles list them after "between"/"among": each a name
 * (capitalised words up to its legal form), a description and a defined term ("X, a Delaware
 * corporation … (the “Company”)"), then "and" or a comma before the next. Letters and
 * one-sided undertakings name one company; the other side is the letter's addressee or the
 * individual who signs.
 */
import type { Answer, Context } from './context'
import { flatten, type Flat } from './document'
import { collapse } from './text'

/** Legal-form endings that close a company name. */
const LEGAL_END =
  /^(?:,?\s*(?:Limited\s+Partnership|Ltd\.?\s+Partnership|Incorporated|Inc|Corporation|Corp|Company|Co|Limited|Ltd|L\.L\.C|LLC|L\.L\.P|LLP|L\.P|LP|PLC|N\.A|N\.V|B\.V|S\.A|AG|GmbH|SE|S\.p\.A|S\.A\.S|A\/S|AB|Pty\.? Ltd|Pte\.? Ltd)(?![\w-])\.?)+/i

/** A legal form anywhere in a name: the name is an organisation. */
const ORGANISATION = /\b(?:Inc|Incorporated|Corp|Corporation|Company|Co|Ltd|Limited|LLC|L\.L\.C|LLP|L\.P|LP|PLC|N\.A|N\.V|B\.V|S\.A|AG|GmbH|A\/S|Bank|Trust|University|Partners|Partnership|Holdings|Group)\b/

/** Words that start a description after a party's name rather than continue it. */
const NAME_STOP = /^(?:a|an|the|its|his|her|having|located|with|whose|which|who|on|in|at|by|of|organized|incorporated|existing|formed|doing|d\/b\/a|dba|together|hereinafter|and|or|as|each|acting|through|for|from|to|residing|an?\s+individual)\b/i

interface Party {
  name: string
  offset: number
}

/** Where the list of parties starts: "by and between", "between", "among", "PARTIES:". */
const PARTIES_ANCHOR = /\b(?:by\s+and\s+(?:between|among)|between|among|parties\s*:|entre|zwischen|tussen)\s+/gi

/** The preamble: the opening text after the filing header, where the parties are introduced. */
function preambleOf(ctx: Context): { flat: Flat; start: number; end: number } {
  const flat = flatten(ctx.doc, 14000)
  const header = /^\s*EX-[\w.()-]+\s+\d+\s+\S+\.(?:htm|txt)\b[^\n]*?(?=\s{2}|\s(?:Exhibit|EXHIBIT)\b)/.exec(flat.text)
  const firstLine = ctx.doc.lines[0]
  const start = header ? header[0].length : firstLine && /^EX-\d/.test(firstLine.text) ? firstLine.text.length + 1 : 0
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
    if (names.length >= 2) return { value: names, confidence: names.length <= 3 ? 0.78 : 0.6, line: flat.lineAt(from) }
    if (names.length === 1 && list.blank) return { value: names, confidence: 0.66, line: flat.lineAt(from) }
    if (names.length === 1 && you) {
      const other = letterAddressee(ctx, text.slice(start, start + 3000)) ?? signingIndividual(ctx)
      if (other) return { value: dedupe([names[0]!, other]), confidence: 0.6, line: flat.lineAt(from) }
    }
  }
  return definedSides(ctx, flat, start, end)
}

/** Without a list of parties: the company the opening defines, and who stands across from it. */
function definedSides(ctx: Context, flat: Flat, start: number, end: number): Answer | undefined {
  const opening = flat.text.slice(start, end)
  const defined = definedParties(opening)
  const firstPerson = /\b(?:I agree|my employment|my relationship|the undersigned|you (?:will|agree|acknowledge)|as an (?:employee|associate))\b/i.test(opening)
  const organisations = defined.filter((party) => ORGANISATION.test(party.name))
  if (organisations.length >= 2) {
    const names = dedupe(organisations.slice(0, 3).map((party) => party.name))
    if (names.length >= 2) return { value: names, confidence: 0.55, line: flat.lineAt(start + organisations[0]!.offset) }
  }
  const company = organisations[0]
  if (!company) return undefined
  const other = letterAddressee(ctx, opening) ?? (firstPerson ? signingIndividual(ctx) : undefined)
  if (!other) return firstPerson ? { value: [company.name], confidence: 0.5, line: flat.lineAt(start + company.offset) } : undefined
  return { value: dedupe([company.name, other]), confidence: 0.58, line: flat.lineAt(start + company.offset) }
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
    // Stray superscripts ("between nd Precision …") from the filing's markup.
    const skip = /^\s*(?:st|nd|rd|th)\s+(?=[A-Z])/.exec(text.slice(position, position + 6))
    if (skip) position += skip[0].length
    if (/^\s*_{3,}/.test(text.slice(position, position + 8))) {
      blank = true
      break
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

const CONNECTORS = /^(?:of|and|the|de|du|von|van|der|für|y|e|&)$/i

/** A party's name at `position`: capitalised words (with "of", "and", "&" inside), ending after a legal form. */
function readName(text: string, position: number): { name: string; end: number } | undefined {
  const rest = text.slice(position, position + 200)
  const word = /^\s*([A-Z0-9][\w’'&.-]*|[a-z]+[A-Z][\w’'&.-]*|[A-Z]\.|&|of|and|the|de|du|von|van|der|für|y|e)(?=[\s,(“"]|$)/
  let name = ''
  let cursor = 0
  for (let count = 0; count < 12; count++) {
    const legal = LEGAL_END.exec(rest.slice(cursor))
    if (legal && name) {
      name += legal[0]
      cursor += legal[0].length
      // "Sony Corporation of America", "Quaker Fabric Corporation of Fall River".
      const of = /^\s+of\s+(?:[A-Z][\w’'-]*)(?:\s+[A-Z][\w’'-]*){0,2}(?=\s*[,(“"]|\s+\(|\s*$)/.exec(rest.slice(cursor))
      if (of) {
        name += of[0]
        cursor += of[0].length
      }
      break
    }
    const m = word.exec(rest.slice(cursor))
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
    if (/^[a-z]/.test(token) && !CONNECTORS.test(token)) break
    name += (name ? ' ' : '') + token
    cursor += m[0].length
  }
  // Keep the period of an abbreviation ("Inc.", "Ltd."), not a sentence's after "GmbH" or "LLC".
  const trimmed = name.replace(/(?<!\b(?:Inc|Corp|Co|Ltd|Jr|Sr|[A-Z]))\.$/, '')
  const cleaned = collapse(trimmed.replace(/\s+(?:of|and|the|de|du|von|van|der|für|&)$/i, '').replace(/[,\s]+$/, ''))
  if (!cleaned || cleaned === 'The' || cleaned.length < 3 || !/[A-Za-z]{2}/.test(cleaned)) return undefined
  if (/^(?:The\s+)?(?:This|That|Agreement|Company|Party|Parties|Corporation|Each|Such|Said|Any|All|Whereas|Now|In|By|And|Employee|Executive|Consultant|Recipient|Discloser|Confidential\w*|Receiving|Disclosing)\b/i.test(cleaned)) return undefined
  if (/\b(?:Agreement|Exhibit|Section|Schedule|Parties|Party)\b/i.test(cleaned)) return undefined
  if (LEGAL_END.test(cleaned) && LEGAL_END.exec(cleaned)![0].length >= cleaned.length - 1) return undefined
  return { name: cleaned.replace(/\s*,\s*(?=(?:Inc|LLC|Ltd|Corp|L\.P|N\.A|L\.L\.C)\b)/i, ' ').replace(/\s+/g, ' '), end: position + cursor }
}

/**
 * Where the next party starts after a name: past its description (parentheses and quotes
 * balanced), at a top-level "and" or ";" followed by a capitalised name — or a comma after a
 * defined term ("(“TESARO”), located at …, GlaxoSmithKline LLC") — before the sentence ends.
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
    const joiner = /^(?:,?\s+and\s+|;\s+(?:and\s+)?)/.exec(rest) ?? (defined ? /^,\s+(?!and\b)/.exec(rest) : null)
    if (joiner) {
      const after = i + joiner[0].length
      const upcoming = text.slice(after, after + 40)
      if (/^_{3,}/.test(upcoming)) return after
      const listed = !/^,\s+$/.test(joiner[0]) || ORGANISATION.test(readName(text, after)?.name ?? '')
      if (listed && /^(?:the\s+)?[A-Z0-9]/.test(upcoming) && !/^(?:the\s+)?(?:Company|Parties|Party|Agreement|Confidential|Recipient|Discloser|Receiving|Disclosing|Employee|Executive|Purchaser|Buyer|Seller)\b/.test(upcoming) && startsName(upcoming))
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

/** Organisations and people defined in the opening: 'ACME, Inc. (“ACME”)', 'ACME, a Delaware corporation … (the “Company”)'. */
function definedParties(text: string): Party[] {
  const out: Party[] = []
  const definition = /\(\s*(?:the\s+|collectively,?\s+(?:the\s+)?|together,?\s+(?:the\s+)?|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?[“"]/g
  for (const m of text.matchAll(definition)) {
    // The defined name is the nearest capitalised name before the definition, within a clause.
    const before = text.slice(Math.max(0, m.index! - 220), m.index!)
    const candidates = [...before.matchAll(/(?:^|[\s,(])((?:The\s+)?[A-Z][\w’'&.-]*(?:\s+(?:[A-Z][\w’'&.-]*|of|and|&|de|von))*(?:,?\s+(?:Inc|Corp|Corporation|Co|Ltd|Limited|LLC|L\.L\.C|LLP|L\.P|LP|PLC|N\.A|AG|GmbH|S\.A)\b\.?)?)/g)]
    const organisation = candidates.reverse().find((c) => ORGANISATION.test(c[1]!))
    if (!organisation) continue
    const offset = m.index! - before.length + organisation.index! + organisation[0].indexOf(organisation[1]!)
    const name = readName(text, offset)
    if (!name || !ORGANISATION.test(name.name)) continue
    if (out.some((party) => party.name === name.name)) continue
    out.push({ name: name.name, offset })
    if (out.length >= 3) break
  }
  return out
}

/** The organisation a letter is addressed to: a line with a legal form in the address block at the top. */
function letterAddressee(ctx: Context, opening: string): string | undefined {
  const defined = /([A-Z][\w’'&.,-]*(?:\s+[A-Z][\w’'&.,-]*)*)\s*\(\s*(?:together\s+with[^)]*)?[“"](?:you|Recipient|Counterparty)[”"]/.exec(opening)
  if (defined) {
    const name = readName(opening, defined.index)
    if (name && ORGANISATION.test(name.name)) return name.name
  }
  if (!/\b(?:dear|gentlemen|ladies)\b/i.test(ctx.doc.text.slice(0, 4000))) return undefined
  for (const line of ctx.doc.lines.slice(0, 30)) {
    if (/^(?:re\b|dear|gentlemen|ladies)/i.test(line.text)) break
    if (line.text.length < 80 && ORGANISATION.test(line.text) && !/\b(?:agreement|exhibit|confidential)\b/i.test(line.text)) {
      const name = readName(line.text, 0)
      if (name) return name.name
    }
  }
  return undefined
}

/** The individual who signs (an employee's undertaking): a "/s/ Name" not signing "By:" for a company. */
function signingIndividual(ctx: Context): string | undefined {
  const lines = ctx.doc.lines.slice(-60)
  const signers: { name: string; officer: boolean }[] = []
  lines.forEach((line, index) => {
    for (const m of line.raw.matchAll(/\/s\/\s*([A-Z][\w.'’-]*(?:\s[A-Z][\w.'’-]*){1,3})/g)) {
      const context = lines.slice(Math.max(0, index - 2), index + 1).map((l) => l.text).join(' ')
      if (/\bwitness(?!\s+whereof)/i.test(context)) continue
      const before = line.raw.slice(Math.max(0, m.index! - 12), m.index!)
      signers.push({ name: collapse(m[1]!), officer: /by:?\s*$/i.test(before) })
    }
  })
  const individual = signers.find((signer) => !signer.officer)
  if (individual) return individual.name
  return signers.length === 1 ? signers[0]!.name : undefined
}
