/**
 * Fields of contracts, read from the clauses lawyers write the same way everywhere: the parties
 * from the preamble (parties.ts), the effective date
 * ("effective as of", "dated as of", "made and entered into … on"), the governing law ("governed
 * by the laws of the State of X") and the term ("for a period of three (3) years"). Labelled
 * values ("Governing Law: …") are read too, through the general reader.
 */
import { best, memo, type Answer, type Context, type Plan } from './context'
import { findDates } from './dates'
import { flatten, type Flat, type Line } from './document'
import { genericAnswer } from './generic'
import { partiesAnswer } from './parties'
import { collapse } from './text'

export function contractAnswer(plan: Plan, ctx: Context): Answer | undefined {
  switch (plan.role) {
    case 'parties':
      return partiesAnswer(ctx)
    case 'governing_law':
      return best([governingLaw(ctx), labelledJurisdiction(plan, ctx)])
    case 'effective_date':
      return best([effectiveDate(ctx), genericAnswer(plan, ctx)])
    case 'agreement_date':
      return best([genericAnswer(plan, ctx), agreementDate(ctx)])
    case 'expiration_date':
      return best([genericAnswer(plan, ctx), expirationDate(ctx)])
    case 'term':
      return termAnswer(ctx)
    case 'notice_period':
      return best([genericAnswer(plan, ctx), noticePeriod(ctx)])
    case 'title': {
      // "Title:" in a signature block is a person's job title: only a label near the top counts.
      const labelled = genericAnswer(plan, ctx)
      const nearTop = labelled?.line && labelled.line.page === 1 && labelled.line.index < 15 ? labelled : undefined
      return best([titleAnswer(ctx), nearTop])
    }
    case 'signatories':
      return signatories(ctx)
  }
  return undefined
}

/** The document as one string, built once per document for all clause searches. */
function flatOf(ctx: Context): Flat {
  return memo(ctx, 'flat', () => flatten(ctx.doc))
}

// ---------------------------------------------------------------- title, dates, notice, signatures

const AGREEMENT_WORD = /\b(?:agreement|contract|covenant|nda|memorandum|addendum|amendment|lease|license|licence|terms|vertrag|vereinbarung|contrat|convention|accord|overeenkomst|contrato|acuerdo|convenio)\b/i

/**
 * The title printed at the top: the first heading that names an agreement (a short line, mostly
 * capitals or alone on its line), joined with the heading line above or below it when the
 * title is wrapped ("COVENANT NOT TO COMPETE" / "AND NON-DISCLOSURE AGREEMENT").
 */
function titleAnswer(ctx: Context): Answer | undefined {
  const lines = ctx.doc.lines.filter((line) => line.page <= 2).slice(0, 25)
  const isHeading = (line: Line | undefined) =>
    !!line && line.cells.length === 1 && line.text.length <= 90 && !/^(?:EX-|exhibit\b|page\b|\d+$|=)/i.test(line.text) &&
    line.text === line.text.toUpperCase() && /\p{Lu}{3}/u.test(line.text)
  for (const [index, line] of lines.entries()) {
    if (!isHeading(line) || !AGREEMENT_WORD.test(line.text)) continue
    let title = line.text
    const previous = lines[index - 1]
    if (isHeading(previous) && !AGREEMENT_WORD.test(previous!.text) && !/[.:]$/.test(previous!.text)) title = `${previous!.text} ${title}`
    const next = lines[index + 1]
    if (isHeading(next) && /^(?:AND|OF|FOR|TO|&)\b|^AGREEMENT\b/.test(next!.text)) title = `${title} ${next!.text}`
    return { value: collapse(title), confidence: 0.75, line }
  }
  // "This Non-Disclosure Agreement (the "Agreement")": the name the preamble gives itself.
  const flat = flatOf(ctx)
  const named = /\bThis\s+((?:[A-Z][\w-]*\s+){0,6}(?:Agreement|Contract|Covenant))\b/.exec(flat.text)
  if (named) return { value: collapse(named[1]!), confidence: 0.6, line: flat.lineAt(named.index) }
  return undefined
}

/** The date the agreement was made: the preamble's date, else the latest signature date. */
function agreementDate(ctx: Context): Answer | undefined {
  const effective = effectiveDate(ctx)
  const signed = signatureDate(ctx)
  if (effective && effective.confidence >= 0.7) return effective
  return best([signed && { ...signed, confidence: 0.6 }, effective])
}

/** "This Agreement shall expire on December 31, 2025". */
function expirationDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  const flat = flatOf(ctx)
  for (const date of findDates(flat.text, doc.dateOrder, doc.dateOrderSure)) {
    const before = flat.text.slice(Math.max(0, date.start - 80), date.start)
    if (/\b(?:agreement|term)\b[^.]{0,40}\b(?:expire[sd]?|terminate[sd]?|end[sd]?)\s+(?:on|at|upon)\s+$/i.test(before))
      return { value: date.iso, confidence: date.guessed ? 0.5 : 0.7, line: flat.lineAt(date.start) }
  }
  return undefined
}

/** "upon thirty (30) days' prior written notice" → "30 days". */
function noticePeriod(ctx: Context): Answer | undefined {
  const flat = flatOf(ctx)
  const pattern = /\b(?:(\d+)|([a-z]+(?:-[a-z]+)?)(?:\s*\(\s*(\d+)\s*\))?)\s*(?:\(\s*\d+\s*\)\s*)?(day|week|month)s?[’']?\s*(?:'s?\s*)?(?:prior\s+|advance\s+)?(?:written\s+)?notice\b/gi
  for (const m of flat.text.matchAll(pattern)) {
    const before = flat.text.slice(Math.max(0, m.index! - 150), m.index!)
    if (!/\bterminat/i.test(before + flat.text.slice(m.index!, m.index! + 120))) continue
    const number = m[1] ? Number(m[1]) : m[3] ? Number(m[3]) : NUMBER_WORDS[(m[2] ?? '').toLowerCase()]
    if (!number) continue
    return { value: `${number} ${m[4]!.toLowerCase()}${number === 1 ? '' : 's'}`, confidence: 0.62, line: flat.lineAt(m.index!) }
  }
  return undefined
}

/** The people who sign: "/s/ Name" and "Name: …" lines among the last lines. */
function signatories(ctx: Context): Answer | undefined {
  const names: string[] = []
  let line: Line | undefined
  for (const candidate of ctx.doc.lines.slice(-60)) {
    for (const m of candidate.raw.matchAll(/(?:\/s\/|\bName\s*:)\s*([A-Z][\w.'’-]*(?:\s[A-Z][\w.'’-]*){1,3})/g)) {
      const name = collapse(m[1]!)
      if (/\b(?:Title|Date|By|Its)\b/.test(name)) continue
      if (!names.some((other) => other.toLowerCase() === name.toLowerCase())) names.push(name)
      line ??= candidate
    }
  }
  return names.length ? { value: names, confidence: 0.62, line } : undefined
}

// ---------------------------------------------------------------- governing law

const US_STATES = [
  'Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware', 'Florida', 'Georgia',
  'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky', 'Louisiana', 'Maine', 'Maryland',
  'Massachusetts', 'Michigan', 'Minnesota', 'Mississippi', 'Missouri', 'Montana', 'Nebraska', 'Nevada', 'New Hampshire',
  'New Jersey', 'New Mexico', 'New York', 'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma', 'Oregon', 'Pennsylvania',
  'Rhode Island', 'South Carolina', 'South Dakota', 'Tennessee', 'Texas', 'Utah', 'Vermont', 'Virginia', 'Washington',
  'West Virginia', 'Wisconsin', 'Wyoming', 'District of Columbia', 'Puerto Rico',
]
const COUNTRIES = [
  'England and Wales', 'England', 'Scotland', 'Northern Ireland', 'Ireland', 'United Kingdom', 'United States',
  'Germany', 'France', 'the Netherlands', 'Netherlands', 'Belgium', 'Luxembourg', 'Switzerland', 'Austria', 'Spain',
  'Portugal', 'Italy', 'Sweden', 'Norway', 'Denmark', 'Finland', 'Poland', 'Canada', 'Ontario', 'Quebec',
  'British Columbia', 'Alberta', 'Australia', 'New South Wales', 'Victoria', 'New Zealand', 'Singapore', 'Hong Kong',
  'Japan', 'China', 'India', 'Israel', 'Malaysia', 'Mexico', 'Brazil', 'Cayman Islands', 'Bermuda',
  'British Virgin Islands', 'Deutschland', 'Frankreich', 'Nederland', 'España', 'Schweiz', 'Suisse', 'Österreich',
]
const JURISDICTIONS = [...US_STATES, ...COUNTRIES].sort((a, b) => b.length - a.length)
const JURISDICTION_ALT = JURISDICTIONS.map((name) => name.replace(/ /g, '\\s+')).join('|')

/**
 * "governed by … the laws of the State of New York", also with an aside between law and place
 * ("the internal law, and not the law of conflicts, of the State of New York").
 */
const LAW_CLAUSE = new RegExp(
  String.raw`\b(?:govern(?:ed|s)?|constru(?:ed|e)|interpreted|enforced|governing\s+law|applicable\s+law|subject\s+to)\b[^.;]{0,160}?\blaws?(?:\s*\([^)]{0,80}\)|,[^.;]{0,60}?,)?\s+(?:of|in)\s+(?:the\s+)?(?:(?:State|Commonwealth|Province|Republic|Federal\s+Republic|Kingdom)\s+of\s+)?(${JURISDICTION_ALT})\b`,
  'gi',
)
/** "The law of the State of Illinois … shall govern". */
const LAW_FIRST = new RegExp(
  String.raw`\blaws?\s+of\s+(?:the\s+)?(?:State|Commonwealth)\s+of\s+(${JURISDICTION_ALT})\b[^.;]{0,100}?\b(?:shall|will)\s+(?:govern|apply|control)`,
  'gi',
)
/** "… of the United States and the State of Indiana": the state is the answer. */
const AND_STATE = new RegExp(String.raw`^\s+(?:of\s+America\s+)?and\s+(?:the\s+)?(?:laws\s+of\s+)?(?:the\s+)?(?:State|Commonwealth)\s+of\s+(${US_STATES.join('|').replace(/ /g, '\\s+')})\b`, 'i')
/** "… construed under Delaware law", "Delaware law governs …". */
const LAW_ADJECTIVE = new RegExp(String.raw`\b(?:under|by|with)\s+(?:the\s+)?(?:internal\s+)?(${JURISDICTION_ALT})\s+law\b`, 'gi')
/** German, French, Dutch, Spanish clauses: "unterliegt deutschem Recht", "soumis au droit français" … */
const LAW_FOREIGN: [RegExp, string][] = [
  [/\b(?:unterliegt|unterliegen)\b[^.]{0,60}\bdeutsche[mn]?\s+recht\b|\brecht\s+der\s+bundesrepublik\s+deutschland\b/i, 'Germany'],
  [/\b(?:droit|loi)\s+fran[cç]ais/i, 'France'],
  [/\bnederlands\s+recht\b/i, 'Netherlands'],
  [/\blegislaci[oó]n\s+española\b|\bley(?:es)?\s+(?:de\s+)?españa\b/i, 'Spain'],
  [/\bösterreichische[mn]?\s+recht\b/i, 'Austria'],
  [/\bschweizerische[mn]?\s+recht\b/i, 'Switzerland'],
]

function canonicalJurisdiction(found: string): string {
  const normal = collapse(found).toLowerCase()
  return JURISDICTIONS.find((name) => name.toLowerCase() === normal)?.replace(/^the /, '') ?? collapse(found)
}

/**
 * The governing law: the jurisdiction named in a choice-of-law clause. When clauses name
 * different jurisdictions the one most often named wins, with less confidence.
 */
function governingLaw(ctx: Context): Answer | undefined {
  const flat = flatOf(ctx)
  const votes = new Map<string, { count: number; offset: number; strength: number }>()
  const vote = (name: string, offset: number, strength: number) => {
    const key = canonicalJurisdiction(name)
    const entry = votes.get(key) ?? { count: 0, offset, strength: 0 }
    entry.count++
    entry.strength = Math.max(entry.strength, strength)
    votes.set(key, entry)
  }
  for (const m of flat.text.matchAll(LAW_CLAUSE)) {
    const state = /^united\s+states$/i.test(m[1]!) ? AND_STATE.exec(flat.text.slice(m.index! + m[0].length, m.index! + m[0].length + 80)) : null
    vote(state ? state[1]! : m[1]!, m.index! + m[0].length - m[1]!.length, 0.85)
  }
  for (const m of flat.text.matchAll(LAW_FIRST)) vote(m[1]!, m.index!, 0.8)
  for (const m of flat.text.matchAll(LAW_ADJECTIVE)) vote(m[1]!, m.index!, 0.75)
  for (const [pattern, name] of LAW_FOREIGN) {
    const m = pattern.exec(flat.text)
    if (m) vote(name, m.index, 0.8)
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1].strength - a[1].strength || b[1].count - a[1].count)
  const [top, second] = ranked
  if (!top) return undefined
  let confidence = top[1].strength
  if (second && second[1].count >= top[1].count) confidence *= 0.7
  return { value: top[0], confidence, line: flat.lineAt(top[1].offset) }
}

/** A labelled "Governing law: …" value, kept only when it names a known jurisdiction. */
function labelledJurisdiction(plan: Plan, ctx: Context): Answer | undefined {
  const answer = genericAnswer(plan, ctx)
  if (!answer || typeof answer.value !== 'string') return undefined
  const m = new RegExp(String.raw`\b(${JURISDICTION_ALT})\b`, 'i').exec(answer.value)
  return m ? { ...answer, value: canonicalJurisdiction(m[1]!) } : undefined
}

// ---------------------------------------------------------------- effective date

/** Phrases that put the date the agreement takes effect right before a date. */
const EFFECTIVE_LEAD =
  /(?:effective\s+(?:as\s+of|on|from|date\s+(?:of|is))?|dated\s+(?:as\s+of\s+)?|made\s+(?:and\s+entered\s+into\s+)?(?:as\s+of|on|this|effective)?|entered\s+into\s+(?:as\s+of|on|effective)?|executed\s+(?:as\s+of|on)|as\s+of|commenc\w+\s+on|(?:dated|made)\s+(?:and\s+effective\s+)?(?:as\s+of\s+)?)\s*(?:this|the)?\s*$/i

/** 'March 1, 2020 (the "Effective Date")': the date a definition names. */
const EFFECTIVE_DEFINITION = /^\s*[,(]*\s*(?:\(?\s*(?:the|hereinafter|herein)?\s*[“"']?(?:effective|commencement)\s+date)/i

/** "The parties have executed this Agreement as of …", "Accepted and agreed as of …". */
const EXECUTION_LEAD = /(?:executed|signed|accepted|agreed|acknowledged)\b[^.]{0,60}?\bas\s+of\s+(?:the\s+)?$/i

/**
 * The effective date: a date defined as the "Effective Date", the date of the preamble ("made
 * and entered into as of …", "dated as of …", "effective …"), the date the parties executed it
 * "as of", a letter's date, or — least sure — the latest date by the signatures.
 */
function effectiveDate(ctx: Context): Answer | undefined {
  return memo(ctx, 'effective-date', () => findEffectiveDate(ctx))
}

function findEffectiveDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  const flat = flatOf(ctx)
  const candidates: Answer[] = []
  const preambleEnd = Math.min(flat.text.length, 4000)
  for (const date of findDates(flat.text, doc.dateOrder, doc.dateOrderSure)) {
    const before = flat.text.slice(Math.max(0, date.start - 60), date.start)
    const after = flat.text.slice(date.end, date.end + 60)
    const guess = date.guessed ? 0.8 : 1
    const line = flat.lineAt(date.start)
    if (EFFECTIVE_DEFINITION.test(after)) candidates.push({ value: date.iso, confidence: 0.9 * guess, line })
    else if (EXECUTION_LEAD.test(before)) candidates.push({ value: date.iso, confidence: 0.7 * guess, line })
    else if (EFFECTIVE_LEAD.test(before)) {
      // The date of this agreement, not of another one it mentions ("the Consulting Agreement
      // between the parties dated …"); in the preamble, not deep in the text.
      const clause = flat.text.slice(Math.max(0, date.start - 160), date.start)
      const ours = /\b(?:this|hereof|herein)\b[^.;]{0,100}$/i.test(clause) || /[“"](?:Agreement|NDA)[”"]\s*\)[^.;]{0,60}$/i.test(clause)
      const strength = !ours ? 0.4 : date.start < preambleEnd ? 0.8 : /effective/i.test(before) ? 0.6 : 0.45
      candidates.push({ value: date.iso, confidence: strength * guess, line })
    }
  }
  return best([...candidates, letterDate(ctx), signatureDate(ctx)])
}

/** A letter's date: a line near the top holding nothing but a date. */
function letterDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  if (!/\b(?:dear|gentlemen|ladies|very truly yours|sincerely)\b/i.test(doc.text)) return undefined
  for (const line of doc.lines.slice(0, 15)) {
    const dates = findDates(line.text, doc.dateOrder, doc.dateOrderSure)
    const date = dates[0]
    if (date && dates.length === 1 && line.text.replace(line.text.slice(date.start, date.end), '').replace(/[\s,.]/g, '').length <= 2)
      return { value: date.iso, confidence: date.guessed ? 0.45 : 0.6, line }
  }
  return undefined
}

/** The latest "Date: …" among the signature blocks at the end. */
function signatureDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  let latest: Answer | undefined
  for (const line of doc.lines.slice(-50)) {
    const m = /\b(?:date|dated)\s*:?\s*/i.exec(line.text)
    if (!m) continue
    for (const date of findDates(line.text.slice(m.index + m[0].length), doc.dateOrder, doc.dateOrderSure)) {
      if (date.start > 2) break
      if (!latest || String(latest.value) < date.iso) latest = { value: date.iso, confidence: date.guessed ? 0.4 : 0.55, line }
    }
  }
  return latest
}

// ---------------------------------------------------------------- term

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
  'twenty-four': 24, thirty: 30, 'thirty-six': 36, forty: 40, 'forty-eight': 48, fifty: 50, sixty: 60, ninety: 90,
}

/** "three (3) years", "3 years", "twelve months" → number and unit. */
const DURATION = /\b(?:(\d+(?:\.\d+)?)|([a-z]+(?:-[a-z]+)?)(?:\s*\(\s*(\d+(?:\.\d+)?)\s*\))?)\s*(?:\(\s*\d+\s*\)\s*)?(year|month|week|day)s?\b/gi

function durationAt(text: string): { number: number; unit: string; index: number } | undefined {
  for (const m of text.matchAll(DURATION)) {
    const number = m[1] ? Number(m[1]) : m[3] ? Number(m[3]) : NUMBER_WORDS[(m[2] ?? '').toLowerCase()]
    if (number === undefined || !Number.isFinite(number) || number <= 0) continue
    return { number, unit: m[4]!.toLowerCase(), index: m.index! }
  }
  return undefined
}

/** Clauses that state how long the agreement (or its obligations) lasts, strongest first. */
const TERM_CLAUSES: [RegExp, number][] = [
  [/\bterm\s+of\s+this\s+(?:agreement|nda)\s+(?:shall|will)\s+(?:be|commence[^.]{0,80}?(?:and\s+)?(?:continue|end|expire)[^.]{0,20}?)\s+(?:for\s+)?(?:a\s+(?:period|term)\s+of\s+)?$/i, 0.82],
  [/\b(?:agreement|obligations?|restrictions?|covenants?)\b[^.]{0,80}\b(?:shall|will)\s+(?:remain|continue|be|survive)\s+(?:valid\s+and\s+)?(?:in\s+(?:full\s+)?(?:force|effect)(?:\s+and\s+effect)?|effective|valid|binding)?\s*(?:for\s+all\s+purposes[^.]{0,120}?)?(?:for|during|until)\s+(?:a\s+(?:period|term)\s+of\s+)?$/i, 0.78],
  [/\b(?:this\s+)?agreement\s+(?:shall|will)\s+(?:automatically\s+)?(?:expire|terminate)\b[^.;]{0,40}?$/i, 0.8],
  [/\bagreement\s+shall\s+be\s+for\s+$/i, 0.72],
  [/\bexpire\s+$/i, 0.6],
  [/\bfor\s+a\s+(?:period|term)\s+of\s+$/i, 0.58],
  [/\b(?:until|within|for)\s+$/i, 0.45],
]

/** What must follow a duration for it to be the agreement's term: a start point. */
const TERM_ANCHOR = /^\s*(?:\(\s*\d+\s*\)\s*)?(?:years?|months?|weeks?|days?)\s*(?:\)\s*)?(?:from|after|following|of|commencing|beginning|thereafter|\.|,)/i

/** The subject of a term clause: the agreement, its obligations, confidential information. */
const TERM_SUBJECT = /\b(?:agreement|obligations?|confidential\w*|information|term|secrecy|non-?disclosure|non-?use)\b/i

/** Covenants whose periods are not the agreement's term: standstill, non-solicitation, non-competition … */
const COVENANT =
  /\b(?:solicit\w*|hire|employ\w*|recruit\w*|compet\w*|standstill|acquire|purchase|tender\s+offer|proxy|shall\s+not|will\s+not|neither|not\s+to\s+(?:directly|indirectly)|refrain|restricted\s+period|restrictive\s+covenant|payment|invoice|notice|cure|retain|destroy|return)\b/i

/**
 * The agreement's term: a duration in a clause about how long the agreement (or its
 * confidentiality obligations) lasts, not a covenant's period or a survival period.
 */
function termAnswer(ctx: Context): Answer | undefined {
  const flat = flatOf(ctx)
  const candidates: Answer[] = []
  for (const m of flat.text.matchAll(DURATION)) {
    const duration = durationAt(m[0])
    if (!duration) continue
    const before = flat.text.slice(Math.max(0, m.index! - 200), m.index!)
    const sentence = before.slice(Math.max(0, before.search(/[.;:]\s+(?=[A-Z(“"])[^.;:]*$/) + 1))
    const after = flat.text.slice(m.index! + m[0].length - m[4]!.length - 1, m.index! + m[0].length + 160)
    const sentenceAfter = after.split(/\.\s+(?=[A-Z(])/)[0] ?? after
    for (const [pattern, strength] of TERM_CLAUSES) {
      if (!pattern.test(before)) continue
      let confidence = strength
      if (!TERM_ANCHOR.test(after)) confidence -= 0.1
      if (!TERM_SUBJECT.test(sentence)) confidence -= 0.15
      if (COVENANT.test(sentence) || COVENANT.test(sentenceAfter.slice(0, 120))) confidence -= 0.3
      // Obligations that survive the end of the agreement last beyond its term.
      const survival = /surviv|termination|expiration/i.test(sentence) || /^[^.]{0,40}\b(?:following|after)\s+(?:the\s+|any\s+)?(?:expiration|termination)|^[^.]{0,20}\bthereafter/i.test(sentenceAfter)
      if (survival && !/\bagreement\s+(?:shall|will)\s+(?:automatically\s+)?(?:expire|terminate)/i.test(sentence)) confidence = Math.min(confidence, 0.56)
      const unit = `${duration.unit}${duration.number === 1 ? '' : 's'}`
      candidates.push({ value: `${duration.number} ${unit}`, confidence, line: flat.lineAt(m.index!) })
      break
    }
  }
  return best(candidates)
}

