/**
 * Fields of contracts, read from the clauses lawyers write the same way everywhere: the parties
 * from the preamble (parties.ts), the effective date
 * ("effective as of", "dated as of", "made and entered into … on"), the governing law ("governed
 * by the laws of the State of X") and the term ("for a period of three (3) years"). Labelled
 * values ("Governing Law: …") are read too, through the general reader.
 */
import type { Role } from '../../../../lib/fields/concepts'
import { best, memo, type Answer, type Context, type Plan } from './context'
import { datesIn, lineDates, type FoundDate } from './dates'
import { flatten, type Flat, type Line } from './document'
import { genericAnswer } from './generic'
import { lexiconWords, wholeWords } from '../../../../lib/lexicon'
import { partiesAnswer, SIGNED_NAME } from './parties'
import { collapse } from '../../../../lib/text'
import { CONTRACT, dateWeight } from './weights'

type ContractRole = Extract<
  Role,
  'parties' | 'governing_law' | 'effective_date' | 'agreement_date' | 'expiration_date' | 'term' | 'notice_period' | 'title' | 'signatories'
>

/** The reader of each contract field: its clause reader, with the general reader where a label may give the value. */
export const CONTRACT_READERS: Record<ContractRole, (plan: Plan, ctx: Context) => Answer | undefined> = {
  parties: (_, ctx) => partiesAnswer(ctx),
  governing_law: (plan, ctx) => best([governingLaw(ctx), labelledJurisdiction(plan, ctx)]),
  effective_date: (plan, ctx) => best([effectiveDate(ctx), genericAnswer(plan, ctx)]),
  agreement_date: (plan, ctx) => best([genericAnswer(plan, ctx), agreementDate(ctx)]),
  expiration_date: (plan, ctx) => best([genericAnswer(plan, ctx), expirationDate(ctx)]),
  term: (_, ctx) => termAnswer(ctx),
  notice_period: (plan, ctx) => best([genericAnswer(plan, ctx), noticePeriod(ctx)]),
  title: (plan, ctx) => {
    // "Title:" in a signature block is a person's job title: only a label near the top counts.
    const labelled = genericAnswer(plan, ctx)
    const nearTop = labelled?.line && labelled.line.page === 1 && labelled.line.index < 15 ? labelled : undefined
    return best([titleAnswer(ctx), nearTop])
  },
  signatories: (_, ctx) => signatories(ctx),
}

/** The document as one string, built once per document for all clause searches. */
function flatOf(ctx: Context): Flat {
  return memo(ctx, 'flat', () => flatten(ctx.doc))
}

/** Every date of the flat document, found once for all date clauses. */
function flatDates(ctx: Context): FoundDate[] {
  return memo(ctx, 'flat-dates', () => datesIn(flatOf(ctx).text, ctx.doc))
}

// ---------------------------------------------------------------- title, dates, notice, signatures

/** Words that name an agreement ("Agreement", "Vertrag", "contrat"), from the lexicons (D95). */
const AGREEMENT_WORD = wholeWords(lexiconWords('agreement_words'))

/**
 * The title printed at the top: the first heading that names an agreement (a short line, mostly
 * capitals or alone on its line), joined with the heading line above or below it when the
 * title is wrapped ("COVENANT NOT TO COMPETE" / "AND NON-DISCLOSURE AGREEMENT").
 */
function titleAnswer(ctx: Context): Answer | undefined {
  const lines = ctx.doc.lines.filter((line) => line.page <= 2).slice(0, 25)
  const isHeading = (line: Line | undefined) =>
    !!line &&
    line.cells.length === 1 &&
    line.text.length <= 90 &&
    !/^(?:EX-|exhibit\b|page\b|\d+$|=)/i.test(line.text) &&
    line.text === line.text.toUpperCase() &&
    /\p{Lu}{3}/u.test(line.text)
  for (const [index, line] of lines.entries()) {
    if (!isHeading(line) || !AGREEMENT_WORD.test(line.text)) continue
    let title = line.text
    const previous = lines[index - 1]
    if (isHeading(previous) && !AGREEMENT_WORD.test(previous!.text) && !/[.:]$/.test(previous!.text)) title = `${previous!.text} ${title}`
    const next = lines[index + 1]
    if (isHeading(next) && /^(?:AND|OF|FOR|TO|&)\b|^AGREEMENT\b/.test(next!.text)) title = `${title} ${next!.text}`
    return { value: collapse(title), confidence: CONTRACT.titleHeading, line }
  }
  // "This Non-Disclosure Agreement (the "Agreement")": the name the preamble gives itself.
  const flat = flatOf(ctx)
  const named = /\bThis\s+((?:[A-Z][\w-]*\s+){0,6}(?:Agreement|Contract|Covenant))\b/.exec(flat.text)
  if (named) return { value: collapse(named[1]!), confidence: CONTRACT.titleInPreamble, line: flat.lineAt(named.index) }
  return undefined
}

/** The date the agreement was made: the preamble's date, else the latest signature date. */
function agreementDate(ctx: Context): Answer | undefined {
  const effective = effectiveDate(ctx)
  const signed = signatureDate(ctx)
  if (effective && effective.confidence >= CONTRACT.effectiveStandsAsAgreementDate) return effective
  return best([signed && { ...signed, confidence: CONTRACT.signedAsAgreementDate }, effective])
}

/** "This Agreement shall expire on December 31, 2025". */
function expirationDate(ctx: Context): Answer | undefined {
  const flat = flatOf(ctx)
  for (const date of flatDates(ctx)) {
    const before = flat.text.slice(Math.max(0, date.start - 80), date.start)
    if (/\b(?:agreement|term)\b[^.]{0,40}\b(?:expire[sd]?|terminate[sd]?|end[sd]?)\s+(?:on|at|upon)\s+$/i.test(before))
      return { value: date.iso, confidence: dateWeight(CONTRACT.expiration, date), line: flat.lineAt(date.start) }
  }
  return undefined
}

/** "upon thirty (30) days' prior written notice": a count as in `DURATION`, days to months, then "notice". */
const NOTICE =
  /\b(?:(\d+)|([a-z]+(?:-[a-z]+)?)(?:\s*\(\s*(\d+)\s*\))?)\s*(?:\(\s*\d+\s*\)\s*)?(day|week|month)s?[’']?\s*(?:'s?\s*)?(?:prior\s+|advance\s+)?(?:written\s+)?notice\b/gi

/** "upon thirty (30) days' prior written notice" → "30 days". */
function noticePeriod(ctx: Context): Answer | undefined {
  const flat = flatOf(ctx)
  for (const m of flat.text.matchAll(NOTICE)) {
    const before = flat.text.slice(Math.max(0, m.index! - 150), m.index!)
    if (!/\bterminat/i.test(before + flat.text.slice(m.index!, m.index! + 120))) continue
    const period = periodOf(m)
    if (period) return { value: period, confidence: CONTRACT.noticePeriod, line: flat.lineAt(m.index!) }
  }
  return undefined
}

/** "/s/ Name" or "Name: …" of a signature block. */
const SIGNATORY = new RegExp(String.raw`(?:\/s\/|\bName\s*:)\s*${SIGNED_NAME}`, 'g')

/** The people who sign: "/s/ Name" and "Name: …" lines among the last lines. */
function signatories(ctx: Context): Answer | undefined {
  const names: string[] = []
  let line: Line | undefined
  for (const candidate of ctx.doc.lines.slice(-60)) {
    for (const m of candidate.raw.matchAll(SIGNATORY)) {
      const name = collapse(m[1]!)
      if (/\b(?:Title|Date|By|Its)\b/.test(name)) continue
      if (!names.some((other) => other.toLowerCase() === name.toLowerCase())) names.push(name)
      line ??= candidate
    }
  }
  return names.length ? { value: names, confidence: CONTRACT.signatories, line } : undefined
}

// ---------------------------------------------------------------- governing law

const US_STATES = [
  'Alabama',
  'Alaska',
  'Arizona',
  'Arkansas',
  'California',
  'Colorado',
  'Connecticut',
  'Delaware',
  'Florida',
  'Georgia',
  'Hawaii',
  'Idaho',
  'Illinois',
  'Indiana',
  'Iowa',
  'Kansas',
  'Kentucky',
  'Louisiana',
  'Maine',
  'Maryland',
  'Massachusetts',
  'Michigan',
  'Minnesota',
  'Mississippi',
  'Missouri',
  'Montana',
  'Nebraska',
  'Nevada',
  'New Hampshire',
  'New Jersey',
  'New Mexico',
  'New York',
  'North Carolina',
  'North Dakota',
  'Ohio',
  'Oklahoma',
  'Oregon',
  'Pennsylvania',
  'Rhode Island',
  'South Carolina',
  'South Dakota',
  'Tennessee',
  'Texas',
  'Utah',
  'Vermont',
  'Virginia',
  'Washington',
  'West Virginia',
  'Wisconsin',
  'Wyoming',
  'District of Columbia',
  'Puerto Rico',
]
const COUNTRIES = [
  'England and Wales',
  'England',
  'Scotland',
  'Northern Ireland',
  'Ireland',
  'United Kingdom',
  'United States',
  'Germany',
  'France',
  'the Netherlands',
  'Netherlands',
  'Belgium',
  'Luxembourg',
  'Switzerland',
  'Austria',
  'Spain',
  'Portugal',
  'Italy',
  'Sweden',
  'Norway',
  'Denmark',
  'Finland',
  'Poland',
  'Canada',
  'Ontario',
  'Quebec',
  'British Columbia',
  'Alberta',
  'Australia',
  'New South Wales',
  'Victoria',
  'New Zealand',
  'Singapore',
  'Hong Kong',
  'Japan',
  'China',
  'India',
  'Israel',
  'Malaysia',
  'Mexico',
  'Brazil',
  'Cayman Islands',
  'Bermuda',
  'British Virgin Islands',
  'Deutschland',
  'Frankreich',
  'Nederland',
  'España',
  'Schweiz',
  'Suisse',
  'Österreich',
]
const JURISDICTIONS = [...US_STATES, ...COUNTRIES].sort((a, b) => b.length - a.length)
const JURISDICTION_ALT = JURISDICTIONS.map((name) => name.replace(/ /g, '\\s+')).join('|')
/** A jurisdiction named anywhere in a text. */
const JURISDICTION = new RegExp(String.raw`\b(${JURISDICTION_ALT})\b`, 'i')
/** Each jurisdiction as written in the lists (without a leading "the"), by its lower-case name. */
const CANONICAL_JURISDICTION = new Map(JURISDICTIONS.map((name) => [name.toLowerCase(), name.replace(/^the /, '')]))

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
  String.raw`\blaws?\s+of\s+(?:the\s+)?(?:State|Commonwealth)\s+of\s+(${JURISDICTION_ALT})\b(?:[^.;]|\.(?=[A-Z,])){0,100}?\b(?:shall|will)\s+(?:govern|apply|control)`,
  'gi',
)
/** "… of the United States and the State of Indiana": the state is the answer. */
const AND_STATE = new RegExp(
  String.raw`^\s+(?:of\s+America\s+)?and\s+(?:the\s+)?(?:laws\s+of\s+)?(?:the\s+)?(?:State|Commonwealth)\s+of\s+(${US_STATES.join('|').replace(/ /g, '\\s+')})\b`,
  'i',
)
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
  const written = collapse(found)
  return CANONICAL_JURISDICTION.get(written.toLowerCase()) ?? written
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
    const federal = /^united\s+states$/i.test(m[1]!)
    const state = federal ? AND_STATE.exec(flat.text.slice(m.index! + m[0].length, m.index! + m[0].length + 80)) : null
    // "data subject to the export laws of the United States" is not a choice of law: federal law
    // counts only when the clause says it governs.
    const governs = /^(?:govern|constru|interpret|enforced|governing|applicable)/i.test(m[0])
    vote(state ? state[1]! : m[1]!, m.index! + m[0].length - m[1]!.length, federal && !state && !governs ? CONTRACT.federalLaw : CONTRACT.lawClause)
  }
  for (const m of flat.text.matchAll(LAW_FIRST)) vote(m[1]!, m.index!, CONTRACT.lawFirst)
  // "patents protected under United States law" is not a choice of law either.
  for (const m of flat.text.matchAll(LAW_ADJECTIVE)) vote(m[1]!, m.index!, /^united\s+states$/i.test(m[1]!) ? CONTRACT.federalLaw : CONTRACT.lawAdjective)
  for (const [pattern, name] of LAW_FOREIGN) {
    const m = pattern.exec(flat.text)
    if (m) vote(name, m.index, CONTRACT.lawForeign)
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1].strength - a[1].strength || b[1].count - a[1].count)
  const [top, second] = ranked
  if (!top) return undefined
  let confidence = top[1].strength
  if (second && second[1].count >= top[1].count) confidence *= CONTRACT.lawContested
  return { value: top[0], confidence, line: flat.lineAt(top[1].offset) }
}

/** A labelled "Governing law: …" value, kept only when it names a known jurisdiction. */
function labelledJurisdiction(plan: Plan, ctx: Context): Answer | undefined {
  const answer = genericAnswer(plan, ctx)
  if (!answer || typeof answer.value !== 'string') return undefined
  const m = JURISDICTION.exec(answer.value)
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
  const flat = flatOf(ctx)
  const candidates: Answer[] = []
  const preambleEnd = Math.min(flat.text.length, 4000)
  for (const date of flatDates(ctx)) {
    const before = flat.text.slice(Math.max(0, date.start - 60), date.start)
    const after = flat.text.slice(date.end, date.end + 60)
    const guess = date.guessed ? CONTRACT.effectiveGuessed : 1
    const line = flat.lineAt(date.start)
    if (EFFECTIVE_DEFINITION.test(after)) candidates.push({ value: date.iso, confidence: CONTRACT.effectiveDefined * guess, line })
    else if (EXECUTION_LEAD.test(before)) candidates.push({ value: date.iso, confidence: CONTRACT.effectiveExecuted * guess, line })
    else if (EFFECTIVE_LEAD.test(before)) {
      // The date of this agreement, not of another one it mentions ("the Consulting Agreement
      // between the parties dated …"); in the preamble, not deep in the text.
      const clause = flat.text.slice(Math.max(0, date.start - 160), date.start)
      if (namesOtherAgreement(clause)) continue
      const ours = /\b(?:this|hereof|herein)\b[^.;]{0,100}$/i.test(clause) || /[“"](?:Agreement|NDA)[”"]\s*\)[^.;]{0,60}$/i.test(clause)
      const strength = !ours
        ? CONTRACT.effectiveNotOurs
        : date.start < preambleEnd
          ? CONTRACT.effectiveInPreamble
          : /effective/i.test(before)
            ? CONTRACT.effectiveLater
            : CONTRACT.effectiveDeep
      candidates.push({ value: date.iso, confidence: strength * guess, line })
    }
  }
  return best([...candidates, letterDate(ctx), signatureDate(ctx)])
}

/**
 * The date before belongs to another agreement: the last agreement named before it is "the
 * Services Agreement", "your prior consulting agreement", "that certain Agreement" — not
 * "this Agreement" or a defined “Agreement”.
 */
function namesOtherAgreement(clause: string): boolean {
  const sentence = clause.slice(clause.search(/[.;]\s+(?=[A-Z“"(])[^.;]*$/) + 1)
  const last = [...sentence.matchAll(/\b(?:agreement|contract|letter|nda|amendment|plan|understanding)\b/gi)].at(-1)
  if (!last) return false
  const lead = sentence.slice(Math.max(0, last.index! - 80), last.index!)
  if (/[“"']\s*$/.test(lead)) return false
  const words = lead.trim().split(/\s+/).slice(-5).join(' ')
  if (/\b(?:this|these|within|present)\b/i.test(words)) return false
  return /\b(?:the|your|its|our|their|that|certain|a|an|said|such|existing|original|prior|separate)\b/i.test(words)
}

/** A letter's date: a line near the top holding nothing but a date. */
function letterDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  if (!/\b(?:dear|gentlemen|ladies|very truly yours|sincerely)\b/i.test(doc.text)) return undefined
  for (const line of doc.lines.slice(0, 15)) {
    const dates = lineDates(ctx, line)
    const date = dates[0]
    if (date && dates.length === 1 && line.text.replace(line.text.slice(date.start, date.end), '').replace(/[\s,.]/g, '').length <= 2)
      return { value: date.iso, confidence: dateWeight(CONTRACT.letterDate, date), line }
  }
  return undefined
}

/** The latest "Date: …" among the signature blocks at the end. */
function signatureDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  let latest: Answer | undefined
  for (const line of doc.lines.slice(-50)) {
    // Signature blocks side by side put several "Date:" labels on one line: each one counts.
    // A label ("Date:", or "Date" opening the line), not "… the agreement dated May 1, 2020".
    for (const m of line.text.matchAll(/\b(?:date|dated)\s*(?::\s*|$|\s+)/gi)) {
      if (m.index !== 0 && !m[0].includes(':')) continue
      const date = datesIn(line.text.slice(m.index! + m[0].length), doc)[0]
      if (!date || date.start > 2) continue
      if (!latest || String(latest.value) < date.iso) latest = { value: date.iso, confidence: dateWeight(CONTRACT.signatureDate, date), line }
    }
  }
  return latest
}

// ---------------------------------------------------------------- term

const NUMBER_WORDS = new Map(
  Object.entries({
    one: 1,
    two: 2,
    three: 3,
    four: 4,
    five: 5,
    six: 6,
    seven: 7,
    eight: 8,
    nine: 9,
    ten: 10,
    eleven: 11,
    twelve: 12,
    thirteen: 13,
    fourteen: 14,
    fifteen: 15,
    sixteen: 16,
    seventeen: 17,
    eighteen: 18,
    nineteen: 19,
    twenty: 20,
    'twenty-four': 24,
    thirty: 30,
    'thirty-six': 36,
    forty: 40,
    'forty-eight': 48,
    fifty: 50,
    sixty: 60,
    ninety: 90,
  }),
)

/** "three (3) years", "3 years", "twelve months" → number and unit. */
const DURATION = /\b(?:(\d+(?:\.\d+)?)|([a-z]+(?:-[a-z]+)?)(?:\s*\(\s*(\d+(?:\.\d+)?)\s*\))?)\s*(?:\(\s*\d+\s*\)\s*)?(year|month|week|day)s?\b/gi

/**
 * The period a match of `DURATION` or `NOTICE` states, as "3 years": its number in digits, the
 * digits in brackets after a word, or the word; undefined when it is no positive number.
 */
function periodOf(m: RegExpMatchArray): string | undefined {
  const [, digits, word, bracketed, unit] = m
  const number = digits ? Number(digits) : bracketed ? Number(bracketed) : NUMBER_WORDS.get((word ?? '').toLowerCase())
  if (number === undefined || !Number.isFinite(number) || number <= 0) return undefined
  return `${number} ${unit!.toLowerCase()}${number === 1 ? '' : 's'}`
}

/**
 * The subject of a clause about the agreement's own duration, then its verb: "This Agreement
 * shall remain in full force and effect for …", "The term of this Agreement shall be …", "this
 * letter agreement will terminate …" — with no obligations, provisions or restrictions between
 * (those are "the obligations of this Agreement", not the agreement).
 */
const AGREEMENT_SUBJECT =
  /(?<![A-Za-z])(?:this\s+(?:letter\s+)?(?:agreement|nda|undertaking)|the\s+term\s+(?:of\s+(?:this|the)\s+(?:[\w-]+\s+){0,3}?(?:agreement|nda)|hereof))\b(?:(?!\b(?:obligations?|provisions?|restrictions?|covenants?|duty|duties|confidential\w*|information|terms)\b)[^.;]){0,160}?\b(?=[^.;]*\b(?:remain|continue|be|expire|terminate|end|last|effective|force|run)\w*\b)(?:shall|will|is|to)\b(?:(?!\bsurviv|\brenew)[^.;]){0,140}$/i

/** What puts a duration as the object of the clause: "for", "be", "expire", "(ii)" … — not "within ten days of", "by giving thirty days". */
const DURATION_LEAD =
  /(?:\b(?:for|be|expire|terminate|end|last|continue|until|date|entirety|thereafter)|\b(?:date|day)\s+(?:that|which)\s+is|\b(?:period|term)\s+of|\b(?:earlier|later)\s+of|\(\s*(?:[ivx]+|[a-z]|\d)\s*\))\s*(?:a\s+(?:period|term)\s+of\s+)?(?:the\s+)?$/i

/** "… Agreement shall be for two (2) years": the subject's own words when a layout splits the sentence. */
const AGREEMENT_FOR = /\bagreement\s+(?:shall|will)\s+(?:be|remain\s+in\s+effect)\s+for\s+(?:a\s+(?:period|term)\s+of\s+)?$/i

/** A heading or label that gives the term itself: "Term: 2 years", "Term of Agreement. Three (3) years". */
const TERM_LABEL = /(?:^|[.:;]\s+|\d\.\s*)term(?:\s+of\s+(?:this\s+)?agreement)?\s*[:.]\s*$/i

/** Obligations whose duration counts as the term when it runs from the agreement's start: confidentiality, non-use, its provisions. */
const OBLIGATION_SUBJECT =
  /\b(?:obligations?|provisions?|restrictions?|covenants?|duty|duties|confidentiality|non-?disclosure|secrecy|non-?use|terms\s+of\s+this\s+agreement)\b[^.;]{0,160}?\b(?=[^.;]*\b(?:remain|continue|be|expire|terminate|end|last|effective|force|run)\w*\b)(?:shall|will|expires?|terminates?|remains?|continues?)\b[^.;]{0,220}$|\bagrees?\s+to\s+(?:abide\s+by|be\s+bound\s+by|maintain|keep|hold|protect)\b[^.;]{0,80}\b(?:confidential\w*|non-?disclosure|secrecy|non-?use)\b[^.;]{0,80}$/i

/** Where a period starts, as written after it: "… years from the date hereof", "… after the termination". */
const PERIOD_START = /^\s*(?:\)\s*)?(?:from|after|following|beyond|of)\s+([^.;,]{0,70})/i

/** Start points that are the agreement's own start. */
const AGREEMENT_START =
  /\b(?:hereof|this\s+(?:letter\s+)?agreement|effective\s+date|execution|executed|first\s+(?:written|set\s+forth|above)|signature|signed|signing|commencement)\b/i

/** Start points that make a period outlast the agreement or depend on events: termination, disclosure, the end of talks. */
const LATER_START = /\b(?:terminat\w*|expir\w*|disclos\w*|receipt|received|cessation|ceas\w*|last\b|completion|consummation|discussions?|closing|return)\b/i

/** Covenants whose periods are not the agreement's term: standstill, non-solicitation, non-competition … */
const COVENANT =
  /\b(?:solicit\w*|hire|employ\w*|recruit\w*|compet\w*|standstill|acquire|purchase|tender\s+offer|proxy|shall\s+not|will\s+not|neither|not\s+to\s+(?:directly|indirectly)|refrain|restricted\s+period|restrictive\s+covenant|payment|invoice|notice|cure|retain|destroy|return)\b/i

/**
 * The agreement's term: a duration stated for the agreement itself ("This Agreement shall remain
 * in effect for three (3) years from the date hereof", "The term of this Agreement shall be two
 * years"), or — less sure — for its confidentiality obligations when they run from the agreement's
 * start. Never a period that runs after termination or from a disclosure (a survival period), a
 * covenant's period (standstill, non-solicitation) or a notice period: null rather than those.
 */
function termAnswer(ctx: Context): Answer | undefined {
  const flat = flatOf(ctx)
  const candidates: Answer[] = []
  for (const m of flat.text.matchAll(DURATION)) {
    const value = periodOf(m)
    if (!value) continue
    const before = flat.text.slice(Math.max(0, m.index! - 300), m.index!)
    const sentence = before.slice(before.search(/(?:[.;]|:(?!\s*$))\s+(?=[A-Z(“"\d])[^.;]*$/) + 1)
    const rest = flat.text.slice(m.index! + m[0].length, m.index! + m[0].length + 200)
    const clauseAfter = rest.split(/[.;]\s+(?=[A-Z(“"\d])|;/)[0] ?? rest
    const start = PERIOD_START.exec(rest)?.[1]
    // Measured from termination, a disclosure or another event: the period outlasts the agreement.
    const later = start !== undefined && LATER_START.test(start) && !AGREEMENT_START.test(start.split(/\bor\b/)[0]!)
    const thereafter = /^\s*(?:\)\s*)?thereafter\b/i.test(rest) && /\b(?:terminat|expir)\w*/i.test(sentence)
    const notwithstanding = /^\s*notwithstanding\s+(?:the\s+|any\s+)?(?:return|destruction|terminat|expir)/i.test(sentence)
    const fromStart = start !== undefined && AGREEMENT_START.test(start) && !later
    const ends = start === undefined && /^\s*(?:\)\s*)?(?:[.;,]|$|unless|and\s+(?:shall|will|then)|commencing|beginning|thereafter)/i.test(rest)
    // A notice period ("thirty (30) days' written notice"), a negated or conditional clause, a renewal.
    const notice = /^\s*(?:\)\s*)?[’']?s?[’']?\s*(?:prior\s+|advance\s+)?(?:written\s+)?notice\b/i.test(rest)
    if (later || thereafter || notwithstanding || notice || /\b(?:shall|will)\s+not\b|\brenew/i.test(sentence)) continue
    const line = flat.lineAt(m.index!)
    if (AGREEMENT_FOR.test(before) && (fromStart || ends || /^\s*(?:\)\s*)?[A-Z]/.test(rest))) {
      candidates.push({ value, confidence: CONTRACT.termAgreementFor, line })
      continue
    }
    if (!DURATION_LEAD.test(before) && !TERM_LABEL.test(before)) continue
    if (AGREEMENT_SUBJECT.test(sentence) && (fromStart || ends)) {
      candidates.push({ value, confidence: /(?<![A-Za-z])this\b/i.test(sentence) ? CONTRACT.termOfThisAgreement : CONTRACT.termOfAgreement, line })
      continue
    }
    if (TERM_LABEL.test(before) && (fromStart || ends)) {
      candidates.push({ value, confidence: CONTRACT.termLabelled, line })
      continue
    }
    if (
      OBLIGATION_SUBJECT.test(sentence) &&
      (fromStart || ends) &&
      !/surviv/i.test(sentence) &&
      !COVENANT.test(sentence) &&
      !COVENANT.test(clauseAfter.slice(0, 120))
    )
      candidates.push({ value, confidence: CONTRACT.termOfObligations, line })
  }
  return best(candidates)
}
