/**
 * Fields of contracts, read from the clauses lawyers write the same way everywhere: the parties
 * from the preamble (parties.ts), the effective date ("effective as of", "made and entered into …
 * on", "tritt am … in Kraft", "entre en vigueur le"), the governing law ("governed by the laws of
 * the State of X", "unterliegt deutschem Recht", "régi par le droit français") and the term ("for a
 * period of three (3) years", "Laufzeit von drei Jahren", "durée de deux ans"). The words of the
 * clauses are the contract words of the document's language in data/lexicon (D222); labelled values
 * ("Governing Law: …") are read too, through the general reader.
 */
import type { Role } from '../../../../lib/fields/concepts'
import { federations, governingLawPhrases, jurisdictionNames, lexiconWords, type PhraseMatch, type Phrases, phrases, startsWord } from '../../../../lib/lexicon'
import type { ContractList } from '../../../../lib/lexicon/lexicon-file'
import { collapse, fold } from '../../../../lib/text'
import {
  beforeSpaces,
  type Clauses,
  clausesOf,
  type Duration,
  durations,
  endsWithLead,
  tailEnds,
  firstClause,
  hasStop,
  pastBracket,
  pastSpaces,
  periodOf,
  sentenceStart,
  spaces,
} from './clauses'
import { atEachEnd, best, memo, type Answer, type Context, type Plan } from './context'
import { datesIn, lineDates } from './dates'
import type { Line } from './document'
import { genericAnswer } from './generic'
import { partiesAnswer, SIGNED_AT } from './parties'
import { allDigits, capitalised, capitalsInARow, isCapital, isSpace } from './text'
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
  notice_period: (plan, ctx) => best([labelledPeriod(genericAnswer(plan, ctx), ctx), noticePeriod(ctx)]),
  title: (plan, ctx) => {
    // "Title:" in a signature block is a person's job title: only a label near the top counts.
    const labelled = genericAnswer(plan, ctx)
    const nearTop = labelled?.line && labelled.line.page === 1 && labelled.line.index < 15 ? labelled : undefined
    return best([titleAnswer(ctx), nearTop])
  },
  signatories: (_, ctx) => signatories(ctx),
}

// ---------------------------------------------------------------- title, dates, notice, signatures

/** Words that name an agreement ("Agreement", "Vertrag", "contrat"), from the lexicons (D95). */
const AGREEMENT_WORD = phrases(lexiconWords('agreement_words'))

/**
 * The title printed at the top: the first heading that names an agreement (a short line, mostly
 * capitals or alone on its line), joined with the heading line above or below it when the
 * title is wrapped ("COVENANT NOT TO COMPETE" / "AND NON-DISCLOSURE AGREEMENT").
 */
function titleAnswer(ctx: Context): Answer | undefined {
  const clauses = clausesOf(ctx)
  const lines = ctx.doc.lines.filter((line) => line.page <= 2).slice(0, 25)
  const isHeading = (line: Line | undefined): line is Line =>
    !!line &&
    line.cells.length === 1 &&
    line.text.length <= 90 &&
    !notATitle(clauses, line.text) &&
    line.text === line.text.toUpperCase() &&
    capitalsInARow(line.text, 3)
  for (const [index, line] of lines.entries()) {
    if (!isHeading(line) || !AGREEMENT_WORD.test(line.text)) continue
    const previous = lines[index - 1]
    // A filing's exhibit line ("EX-10.5 6 dex105.htm CONFIDENTIALITY … NON-COMPETITION" over
    // "AGREEMENT") wraps: what continues it is no title of its own.
    if (previous && continuesFilingLine(line, previous)) continue
    let title = line.text
    if (isHeading(previous) && !AGREEMENT_WORD.test(previous.text) && !previous.text.endsWith('.') && !previous.text.endsWith(':'))
      title = `${previous.text} ${title}`
    const next = lines[index + 1]
    if (isHeading(next) && clauses.words('title', 'continuations').at(next.text, 0)) title = `${title} ${next.text}`
    return { value: collapse(title), confidence: CONTRACT.titleHeading, line }
  }
  // "This Non-Disclosure Agreement (the "Agreement")": the name the preamble gives itself; when
  // that is the bare word, what a filing's exhibit line says the exhibit is ("EX-10.17 9
  // dex1017.htm AT-WILL EMPLOYMENT … NO" / "CONFLICTS AGREEMENT").
  const named = selfName(clauses)
  const name = named && {
    value: collapse(clauses.flat.text.slice(named.start, named.end)),
    confidence: CONTRACT.titleInPreamble,
    line: clauses.flat.lineAt(named.start),
  }
  const filed = !name?.value.includes(' ') && filingDescription(clauses, lines)
  return filed ? { ...filed, confidence: CONTRACT.titleInPreamble } : name
}

/** The line of a filing's exhibit code ("EX-10.5 6 dex105.htm …"). */
function isFilingLine(text: string): boolean {
  return text.slice(0, 3).toUpperCase() === 'EX-'
}

/** A line right under a filing's exhibit line that does not end a sentence: the line wrapped. */
function continuesFilingLine(line: Line, previous: Line): boolean {
  if (!isFilingLine(previous.text) || previous.page !== line.page || previous.row + 1 !== line.row || /[.:]$/.test(previous.text)) return false
  // A title the filing line already names is printed again under it ("… COVENANT NOT TO COMPETE AND
  // NON-DISCLOSURE AGMT" / "COVENANT NOT TO COMPETE"); one word ("AGREEMENT") says too little to tell.
  return !line.text.includes(' ') || !fold(previous.text).includes(fold(line.text))
}

/**
 * What a filing's exhibit line says the exhibit is: its words after the code, number and file name
 * (with the line it wraps to), up to the agreement they name ("… NON-DISCLOSURE AGREEMENT"), or
 * the agreements joined by "and", "of", "to" or a comma ("LETTER AGREEMENT, AND CONFIDENTIALITY
 * … AGREEMENT"); a plain-text exhibit runs on into its body there ("… AGREEMENT 1 NON-CIRC…").
 */
function filingDescription(clauses: Clauses, lines: Line[]): { value: string; line: Line } | undefined {
  const at = lines.findIndex((line) => isFilingLine(line.text))
  const line = lines[at]
  const described = line && /^EX-\S+\s+\d+\s+\S+\s+(\S.*)$/i.exec(line.text)?.[1]
  if (!line || !described) return undefined
  const next = lines[at + 1]
  const wrapped = next && continuesFilingLine(next, line) && next.cells.length === 1 && !notATitle(clauses, next.text)
  const words = collapse(wrapped ? `${described} ${next.text}` : described).split(' ')
  // An exhibit's own number may lead ("EXHIBIT 10.10 EMPLOYMENT …").
  while (words.length && (/^[\d.()]+$/.test(words[0]!) || notATitle(clauses, words[0]!))) words.shift()
  const isAgreement = (word: string | undefined) => !!word && AGREEMENT_WORD.test(word) && word === word.toUpperCase()
  let end = words.findIndex(isAgreement)
  if (end < 0) return undefined
  const continuations = clauses.words('title', 'continuations')
  while (words[end]!.endsWith(',') || continuations.at(words[end + 1] ?? '', 0)) {
    const further = words.findIndex((word, i) => i > end && isAgreement(word))
    if (further < 0 || words.slice(end + 1, further).some((word) => word !== word.toUpperCase())) break
    end = further
  }
  return {
    value: words
      .slice(0, end + 1)
      .join(' ')
      .replace(/[,;:]$/, ''),
    line,
  }
}

/** A heading that is no title: a filing's exhibit code, an exhibit, a page, a number, a rule. */
function notATitle(clauses: Clauses, text: string): boolean {
  return isFilingLine(text) || !!clauses.words('title', 'exclusions').at(text, 0) || allDigits(text) || text.startsWith('=')
}

/** A capitalised word ("Non-Disclosure"), read right at a position. */
const CAPITALISED_WORD = /\p{Lu}[\p{L}\p{N}_-]*/uy

/**
 * "This Non-Disclosure Agreement": "This" (a word of `self.this`, capitalised), up to six
 * capitalised words, then a capitalised name of `title.self_names`: the span after "This".
 */
function selfName(clauses: Clauses): { start: number; end: number } | undefined {
  const text = clauses.flat.text
  const names = clauses.words('title', 'self_names')
  for (const self of clauses.words('self', 'this').all(text)) {
    if (!capitalised(text.slice(self.start, self.end))) continue
    // Where each of the words after "This" starts, as long as they are capitalised words followed by a space.
    const starts: number[] = []
    let at = spaces(text, self.end)
    while (at >= 0 && starts.length <= 6) {
      starts.push(at)
      CAPITALISED_WORD.lastIndex = at
      const word = CAPITALISED_WORD.exec(text)
      if (!word) break
      at = spaces(text, at + word[0].length)
    }
    for (let k = Math.min(starts.length - 1, 6); k >= 0; k--) {
      const name = names.at(text, starts[k]!)
      if (name && capitalised(text.slice(name.start, name.end))) return { start: starts[0]!, end: name.end }
    }
  }
  return undefined
}

/** The date the agreement was made: the preamble's date, else the latest signature date. */
function agreementDate(ctx: Context): Answer | undefined {
  const effective = effectiveDate(ctx)
  const signed = signatureDate(ctx)
  if (effective && effective.confidence >= CONTRACT.effectiveStandsAsAgreementDate) return effective
  return best([signed && { ...signed, confidence: CONTRACT.signedAsAgreementDate }, effective])
}

/** "This Agreement shall expire on December 31, 2025", "Der Vertrag endet am 31.12.2025". */
function expirationDate(ctx: Context): Answer | undefined {
  const clauses = clausesOf(ctx)
  const { text } = clauses.flat
  for (const date of clauses.dates) {
    const before = text.slice(Math.max(0, date.start - 80), date.start)
    if (!isSpace(before.at(-1))) continue
    const link = clauses.words('expiry', 'links').ends(before)
    const verb = link && beforeSpaces(before, link.start) < link.start ? clauses.words('expiry', 'verbs').ends(before.slice(0, link.start)) : undefined
    if (!verb) continue
    const ofAgreement = clauses
      .words('expiry', 'subjects')
      .all(before.slice(0, verb.start))
      .some((subject) => verb.start - subject.end <= 40 && !before.slice(subject.end, verb.start).includes('.'))
    if (ofAgreement) return { value: date.iso, confidence: dateWeight(CONTRACT.expiration, date), line: clauses.flat.lineAt(date.start) }
  }
  return undefined
}

/** The units of a notice period: days to months. */
const NOTICE_UNITS = new Set(['day', 'week', 'month'] as const)

/**
 * Notice periods: a duration followed by the words of notice ("thirty (30) days' prior written
 * notice") or following them ("Kündigungsfrist von drei Monaten", "préavis de trois mois").
 */
function noticeDurations(clauses: Clauses): Duration[] {
  const { text } = clauses.flat
  const before = clauses.words('notice', 'before')
  return durations(clauses, text, NOTICE_UNITS, false).filter((duration) => {
    // A possessive between the unit and the notice: "days' notice", "days’ notice", "day's notice".
    let at = duration.end
    if (text[at] === '’' || text[at] === "'") at++
    at = pastSpaces(text, at)
    if (text[at] === "'") at = pastSpaces(text, text[at + 1] === 's' ? at + 2 : at + 1)
    return !!clauses.words('notice', 'after').at(text, at) || !!before.ends(text.slice(Math.max(0, duration.start - 60), duration.start))
  })
}

/** "upon thirty (30) days' prior written notice" near a termination clause → "30 days". */
function noticePeriod(ctx: Context): Answer | undefined {
  const clauses = clausesOf(ctx)
  const { text } = clauses.flat
  for (const duration of noticeDurations(clauses)) {
    const around = text.slice(Math.max(0, duration.start - 150), duration.start + 120)
    if (!clauses.words('notice', 'termination').test(around)) continue
    const period = periodOf(clauses, duration)
    if (period) return { value: period, confidence: CONTRACT.noticePeriod, line: clauses.flat.lineAt(duration.start) }
  }
  return undefined
}

/**
 * A notice period read after its label is the duration it states, as the clause reader gives one
 * ("30 days"): a label's value that states none ("15. WAIVER OF TRIAL BY JURY …" under a
 * "Termination" heading) is no notice period.
 */
function labelledPeriod(answer: Answer | undefined, ctx: Context): Answer | undefined {
  if (typeof answer?.value !== 'string') return undefined
  const clauses = clausesOf(ctx)
  const duration = durations(clauses, answer.value, NOTICE_UNITS, false)[0]
  const period = duration && periodOf(clauses, duration)
  return period ? { ...answer, value: period } : undefined
}

/** The people who sign: "/s/ Name" and "Name: …" lines among the last lines. */
function signatories(ctx: Context): Answer | undefined {
  const clauses = clausesOf(ctx)
  const labels = clauses.words('signature', 'labels', true)
  const blockWords = clauses.words('signature', 'block_words', true)
  const names: string[] = []
  let line: Line | undefined
  for (const candidate of ctx.doc.lines.slice(-60)) {
    const { raw } = candidate
    // "/s/" and each label followed by a colon, left to right; a name read takes its place.
    const marks: number[] = []
    for (let at = raw.indexOf('/s/'); at >= 0; at = raw.indexOf('/s/', at + 1)) marks.push(at + 3)
    for (const label of labels.all(raw)) {
      const colon = pastSpaces(raw, label.end)
      if (raw[colon] === ':') marks.push(colon + 1)
    }
    let after = 0
    for (const mark of marks.sort((a, b) => a - b)) {
      if (mark < after) continue
      SIGNED_AT.lastIndex = pastSpaces(raw, mark)
      const m = SIGNED_AT.exec(raw)
      if (!m) continue
      after = SIGNED_AT.lastIndex
      const name = collapse(m[1]!)
      if (blockWords.test(name)) continue
      if (!names.some((other) => other.toLowerCase() === name.toLowerCase())) names.push(name)
      line ??= candidate
    }
  }
  return names.length ? { value: names, confidence: CONTRACT.signatories, line } : undefined
}

// ---------------------------------------------------------------- governing law

// Read once: the names of jurisdictions in every language.
/** Jurisdictions' names in every language, with the name each is answered with. */
const JURISDICTION_OF = jurisdictionNames()
const JURISDICTIONS = phrases([...JURISDICTION_OF.keys()])
/** Phrases naming a jurisdiction's law by an adjective, in every language ("deutsches Recht", "droit français"). */
const LAW_OF = governingLawPhrases()
const GOVERNING_LAWS = phrases([...LAW_OF.keys()])
const FEDERATIONS = federations()

/** A jurisdiction named in a clause: where, and the name it is answered with. */
interface Named {
  start: number
  end: number
  jurisdiction: string
}

const named = (match: PhraseMatch): Named => ({ start: match.start, end: match.end, jurisdiction: JURISDICTION_OF.get(match.word)! })

/** Every phrase of a list that starts at `at`, in the order a pattern tries them. */
function phrasesAt(list: Phrases, text: string, at: number): PhraseMatch[] {
  const found: PhraseMatch[] = []
  list.at(text, at, (match) => {
    found.push(match)
    return false
  })
  return found
}

/** Where an optional phrase of `list` and the spaces after it may end, from `at`: with the phrase first, then without. */
function optionally(list: Phrases, text: string, at: number): number[] {
  return [
    ...phrasesAt(list, text, at)
      .map((match) => spaces(text, match.end))
      .filter((end) => end >= 0),
    at,
  ]
}

/** `[article] [polity] jurisdiction` at `at`: "the State of New York", "Bundesrepublik Deutschland", "l'État de New York". */
function placeAt(clauses: Clauses, text: string, at: number, accept: (name: Named) => boolean): Named | undefined {
  for (const afterArticle of optionally(clauses.words('articles', 'definite'), text, at))
    for (const afterPolity of optionally(clauses.words('law', 'polities'), text, afterArticle)) {
      const found = JURISDICTIONS.at(text, afterPolity, (match) => accept(named(match)))
      if (found) return named(found)
    }
  return undefined
}

/** `[article] polity jurisdiction` at `at`: a place named with its polity, "the State of Illinois" (the first that `accept` takes). */
function stateAt(clauses: Clauses, text: string, at: number, accept: (name: Named) => boolean = () => true): Named | undefined {
  for (const afterArticle of optionally(clauses.words('articles', 'definite'), text, at))
    for (const polity of phrasesAt(clauses.words('law', 'polities'), text, afterArticle)) {
      const place = spaces(text, polity.end)
      const found = place >= 0 ? JURISDICTIONS.at(text, place, (match) => accept(named(match))) : undefined
      if (found) return named(found)
    }
  return undefined
}

/**
 * What follows a law's word: `[aside] link [article] [polity] jurisdiction` — "laws of the State
 * of New York", "law (without regard to conflicts) of Delaware", "law, and not the law of
 * conflicts, of …", "Recht der Bundesrepublik Deutschland" — tried as a pattern tries them.
 */
function lawOfAt(clauses: Clauses, text: string, at: number): Named | undefined {
  const links = clauses.words('law', 'links')
  const accept = () => true
  const asides: number[] = []
  const open = pastSpaces(text, at)
  if (text[open] === '(') {
    const close = text.indexOf(')', open)
    if (close > open && close - open - 1 <= 80) asides.push(close + 1)
  }
  if (text[at] === ',')
    for (let comma = text.indexOf(',', at + 1); comma > at && comma - at - 1 <= 60 && !hasStop(text, at + 1, comma); comma = text.indexOf(',', comma + 1))
      asides.push(comma + 1)
  asides.push(at)
  for (const aside of asides) {
    const link = spaces(text, aside)
    if (link < 0) continue
    for (const found of phrasesAt(links, text, link)) {
      const place = spaces(text, found.end)
      const name = place >= 0 ? placeAt(clauses, text, place, accept) : undefined
      if (name) return name
    }
  }
  return undefined
}

/** A law's word ("law", "laws", "Recht") at `at`, the longer first. */
function lawWordsAt(clauses: Clauses, text: string, at: number): PhraseMatch[] {
  return startsWord(text, at) ? phrasesAt(clauses.words('law', 'words'), text, at) : []
}

/** A choice of law found, with where it counts from and how strong it is. */
interface Vote {
  jurisdiction: string
  offset: number
  strength: number
}

/**
 * "governed by … the laws of the State of New York": a word that the law governs, then within
 * the clause (160 characters, no stop) the law of a jurisdiction. A federation's law ("the United
 * States") counts as such only when the clause says it governs, and gives way to a state named
 * with it ("… of the United States and the State of Indiana").
 */
function lawClauses(clauses: Clauses): Vote[] {
  const { text } = clauses
  const votes: Vote[] = []
  const strong = clauses.words('law', 'verbs')
  const verbs = lawVerbs(clauses)
  const all: PhraseMatch[] = []
  for (let verb = verbs.find(text); verb; verb = verbs.find(text, verb.start + 1)) all.push(verb)
  // A clause read, the next is looked for after it.
  let after = 0
  for (const verb of atEachEnd(all, LAW_VERBS_AT_EACH_END)) {
    if (verb.start < after) continue
    let found: Named | undefined
    for (let gap = verb.end; gap <= verb.end + 160 && !found; gap++) {
      if (gap > verb.end && (text[gap - 1] === '.' || text[gap - 1] === ';')) break
      for (const law of lawWordsAt(clauses, text, gap)) if ((found = lawOfAt(clauses, text, law.end))) break
    }
    if (!found) continue
    const federal = FEDERATIONS.get(found.jurisdiction)
    const state = federal && stateNamedWith(clauses, text, found.end, federal)
    // "data subject to the export laws of the United States" is not a choice of law: federal law
    // counts only when the clause says it governs.
    const governs = strong.at(text, verb.start) !== undefined
    votes.push(
      state
        ? { jurisdiction: state.jurisdiction, offset: found.start, strength: CONTRACT.lawClause }
        : { jurisdiction: found.jurisdiction, offset: found.start, strength: federal && !governs ? CONTRACT.federalLaw : CONTRACT.lawClause },
    )
    after = found.end
  }
  return votes
}

/**
 * The words that put an agreement under a law read at each end of the text, at most: a contract
 * names its law a few times, near its end or in its opening, and each word is read with the 160
 * characters after it. A text of thousands of them ("Governing Law  Governing Law …") took
 * minutes (D411).
 */
const LAW_VERBS_AT_EACH_END = 100

/** The words that put the agreement under a law, strong and weak. */
function lawVerbs(clauses: Clauses): Phrases {
  return clauses.joined('law verbs', () => [...clauses.words('law', 'verbs').words, ...clauses.words('law', 'weak_verbs').words])
}

/** "this" or "the" of the language, before an agreement's name. */
function thisOrTheOf(clauses: Clauses): Phrases {
  return clauses.joined('this or the', () => [...clauses.words('self', 'this').words, ...clauses.words('articles', 'definite').words])
}

/** "… United States and [the] [laws of] [the] State of Indiana": the state named with its federation, within 80 characters. */
function stateNamedWith(clauses: Clauses, text: string, end: number, states: Set<string>): Named | undefined {
  const window = text.slice(0, end + 80)
  const articles = clauses.words('articles', 'definite')
  const start = spaces(window, end)
  if (start < 0) return undefined
  for (const and of phrasesAt(
    clauses.joined('and', () => lexiconWords('list_and', clauses.language)),
    window,
    start,
  )) {
    const after = spaces(window, and.end)
    if (after < 0) continue
    for (const afterArticle of optionally(articles, window, after)) {
      const laws = lawWordsAt(clauses, window, afterArticle).flatMap((law) => {
        const link = spaces(window, law.end)
        return link < 0 ? [] : phrasesAt(clauses.words('law', 'links'), window, link).map((found) => spaces(window, found.end))
      })
      for (const afterLaws of [...laws.filter((place) => place >= 0), afterArticle]) {
        const state = stateAt(clauses, window, afterLaws, (name) => states.has(name.jurisdiction))
        if (state) return state
      }
    }
  }
  return undefined
}

/** "The law of the State of Illinois … shall govern": the law of a state named first, then within 100 characters the words that it governs. */
function lawFirst(clauses: Clauses): Vote[] {
  const { text } = clauses
  const votes: Vote[] = []
  const words = clauses.words('law', 'words')
  const governs = clauses.words('law', 'governs')
  for (let law = words.find(text); law; ) {
    const name = stateLawAt(clauses, text, law.end)
    let end: number | undefined
    if (name)
      for (let gap = name.end; gap <= name.end + 100 && end === undefined; gap++) {
        // The gap holds no stop, but for the dots of abbreviations ("U.S.", "Inc., ").
        const char = text[gap - 1]
        if (gap > name.end && (char === ';' || (char === '.' && text[gap] !== ',' && !(text[gap]! >= 'A' && text[gap]! <= 'Z')))) break
        if (startsWord(text, gap) && governs.at(text, gap)) end = gap
      }
    if (name && end !== undefined) votes.push({ jurisdiction: name.jurisdiction, offset: law.start, strength: CONTRACT.lawFirst })
    law = words.find(text, end ?? law.start + 1)
  }
  return votes
}

/** `link [article] polity jurisdiction` after a law's word: "of the State of Illinois". */
function stateLawAt(clauses: Clauses, text: string, at: number): Named | undefined {
  const link = spaces(text, at)
  if (link < 0) return undefined
  for (const found of phrasesAt(clauses.words('law', 'links'), text, link)) {
    const afterLink = spaces(text, found.end)
    if (afterLink < 0) continue
    const name = stateAt(clauses, text, afterLink)
    if (name) return name
  }
  return undefined
}

/** "construed under Delaware law": a lead, then the jurisdiction's name as an adjective before the law's word. */
function lawAdjective(clauses: Clauses): Vote[] {
  const { text } = clauses
  const votes: Vote[] = []
  const leads = clauses.words('law', 'adjective_leads')
  for (let lead = leads.find(text); lead; ) {
    let found: { name: Named; end: number } | undefined
    const after = spaces(text, lead.end)
    if (after >= 0)
      for (const afterArticle of optionally(clauses.words('articles', 'definite'), text, after))
        for (const afterModifier of optionally(clauses.words('law', 'modifiers'), text, afterArticle)) {
          const name = JURISDICTIONS.at(text, afterModifier, (match) => {
            const law = spaces(text, match.end)
            return law >= 0 && lawWordsAt(clauses, text, law).length > 0
          })
          if (name && !found) found = { name: named(name), end: name.end }
        }
    if (found) {
      const federal = FEDERATIONS.has(found.name.jurisdiction)
      // "patents protected under United States law" is not a choice of law either.
      votes.push({ jurisdiction: found.name.jurisdiction, offset: lead.start, strength: federal ? CONTRACT.federalLaw : CONTRACT.lawAdjective })
    }
    lead = leads.find(text, found ? found.end : lead.start + 1)
  }
  return votes
}

/** "unterliegt deutschem Recht", "soumis au droit français": a law named by its adjective anywhere, once for each jurisdiction. */
function lawByAdjective(clauses: Clauses): Vote[] {
  const seen = new Set<string>()
  const votes: Vote[] = []
  for (const found of GOVERNING_LAWS.all(clauses.text)) {
    const jurisdiction = LAW_OF.get(found.word)!
    if (seen.has(jurisdiction)) continue
    seen.add(jurisdiction)
    votes.push({ jurisdiction, offset: found.start, strength: CONTRACT.lawForeign })
  }
  return votes
}

/**
 * The governing law: the jurisdiction named in a choice-of-law clause. When clauses name
 * different jurisdictions the one most often named wins, with less confidence.
 */
function governingLaw(ctx: Context): Answer | undefined {
  const clauses = clausesOf(ctx)
  const votes = new Map<string, { count: number; offset: number; strength: number }>()
  for (const { jurisdiction, offset, strength } of [...lawClauses(clauses), ...lawFirst(clauses), ...lawAdjective(clauses), ...lawByAdjective(clauses)]) {
    const entry = votes.get(jurisdiction) ?? { count: 0, offset, strength: 0 }
    entry.count++
    entry.strength = Math.max(entry.strength, strength)
    votes.set(jurisdiction, entry)
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1].strength - a[1].strength || b[1].count - a[1].count)
  const [top, second] = ranked
  if (!top) return undefined
  let confidence = top[1].strength
  if (second && second[1].count >= top[1].count) confidence *= CONTRACT.lawContested
  return { value: top[0], confidence, line: clauses.flat.lineAt(top[1].offset) }
}

/** A labelled "Governing law: …" value, kept only when it names a known jurisdiction. */
function labelledJurisdiction(plan: Plan, ctx: Context): Answer | undefined {
  const answer = genericAnswer(plan, ctx)
  if (!answer || typeof answer.value !== 'string') return undefined
  const found = JURISDICTIONS.find(answer.value)
  return found ? { ...answer, value: named(found).jurisdiction } : undefined
}

// ---------------------------------------------------------------- effective date

/** Quotation marks that open a defined term, and those that close it. */
const OPENING_QUOTES = '“"„«'
const CLOSING_QUOTES = '”"“»'

/** 'March 1, 2020 (the "Effective Date")', '1. März 2024 („Inkrafttreten“)': the date a definition names. */
function definedAsEffective(clauses: Clauses, after: string): boolean {
  let at = pastSpaces(after, 0)
  while (after[at] === ',' || after[at] === '(') at++
  at = pastSpaces(after, at)
  if (after[at] === '(') at = pastSpaces(after, at + 1)
  const leads = phrasesAt(clauses.words('effective', 'definition_leads'), after, at).map((lead) => pastSpaces(after, lead.end))
  return [...leads, at].some((start) => {
    const term = OPENING_QUOTES.includes(after[start] ?? '\u0000') || after[start] === "'" ? start + 1 : start
    return !!clauses.words('effective', 'terms').at(after, term)
  })
}

/** "The parties have executed this Agreement as of …", "Accepted and agreed as of …": the date after. */
function executedAsOf(clauses: Clauses, before: string): boolean {
  if (!isSpace(before.at(-1))) return false
  const end = beforeSpaces(before, before.length)
  const article = clauses.words('articles', 'definite').ends(before)
  const ends = [...(article && beforeSpaces(before, article.start) < article.start ? [beforeSpaces(before, article.start)] : []), end]
  return ends.some((at) => {
    const asOf = clauses.words('effective', 'as_of').ends(before.slice(0, at))
    return (
      !!asOf &&
      clauses
        .words('effective', 'execution')
        .all(before.slice(0, asOf.start))
        .some((word) => asOf.start - word.end <= 60 && !before.slice(word.end, asOf.start).includes('.'))
    )
  })
}

/**
 * The effective date: a date defined as the "Effective Date", the date of the preamble ("made
 * and entered into as of …", "dated as of …", "effective …", "tritt am … in Kraft"), the date the
 * parties executed it "as of", a letter's date, or — least sure — the latest date by the signatures.
 */
function effectiveDate(ctx: Context): Answer | undefined {
  return memo(ctx, 'effective-date', () => findEffectiveDate(ctx))
}

function findEffectiveDate(ctx: Context): Answer | undefined {
  const clauses = clausesOf(ctx)
  const { text } = clauses
  const candidates: Answer[] = []
  const preambleEnd = Math.min(text.length, 4000)
  const leads = clauses.words('effective', 'leads')
  const thisOrThe = thisOrTheOf(clauses)
  for (const date of clauses.dates) {
    const before = text.slice(Math.max(0, date.start - 60), date.start)
    const after = text.slice(date.end, date.end + 60)
    const guess = date.guessed ? CONTRACT.effectiveGuessed : 1
    const line = clauses.flat.lineAt(date.start)
    if (definedAsEffective(clauses, after)) candidates.push({ value: date.iso, confidence: CONTRACT.effectiveDefined * guess, line })
    else if (executedAsOf(clauses, before)) candidates.push({ value: date.iso, confidence: CONTRACT.effectiveExecuted * guess, line })
    else if (endsWithLead(before, leads, [thisOrThe]) || clauses.words('effective', 'follows').at(after, pastSpaces(after, 0))) {
      // The date of this agreement, not of another one it mentions ("the Consulting Agreement
      // between the parties dated …"); in the preamble, not deep in the text.
      const clause = text.slice(Math.max(0, date.start - 160), date.start)
      if (namesOtherAgreement(clauses, clause)) continue
      const strength = !isOurs(clauses, clause)
        ? CONTRACT.effectiveNotOurs
        : date.start < preambleEnd
          ? CONTRACT.effectiveInPreamble
          : clauses.words('effective', 'words').test(before)
            ? CONTRACT.effectiveLater
            : CONTRACT.effectiveDeep
      candidates.push({ value: date.iso, confidence: strength * guess, line })
    }
  }
  return best([...candidates, letterDate(ctx), signatureDate(ctx)])
}

/** The clause before a date is about this agreement: "this", "hereof" within it, or the defined term closed right before it ('the “Agreement”)'). */
function isOurs(clauses: Clauses, clause: string): boolean {
  const inClause = (end: number, within: number) => clause.length - end <= within && !hasStop(clause, end)
  if (
    clauses
      .words('self', 'references')
      .all(clause)
      .some((found) => inClause(found.end, 100))
  )
    return true
  return clauses
    .words('self', 'terms')
    .all(clause)
    .some((term) => {
      if (!OPENING_QUOTES.includes(clause[term.start - 1] ?? '\u0000') || !CLOSING_QUOTES.includes(clause[term.end] ?? '\u0000')) return false
      const close = pastSpaces(clause, term.end + 1)
      return clause[close] === ')' && inClause(close + 1, 60)
    })
}

/**
 * The date before belongs to another agreement: the last agreement named before it is "the
 * Services Agreement", "your prior consulting agreement", "that certain Agreement" — not
 * "this Agreement" or a defined “Agreement”.
 */
function namesOtherAgreement(clauses: Clauses, clause: string): boolean {
  const sentence = clause.slice(sentenceStart(clause))
  const last = clauses.words('self', 'nouns').last(sentence)
  if (!last) return false
  const lead = sentence.slice(Math.max(0, last.start - 80), last.start)
  const quoteAt = beforeSpaces(lead, lead.length) - 1
  if (OPENING_QUOTES.includes(lead[quoteAt] ?? '\u0000') || lead[quoteAt] === "'") return false
  const words = lead.trim().split(' ').slice(-5).join(' ')
  if (clauses.words('self', 'own').test(words)) return false
  return clauses.words('self', 'other').test(words)
}

/** A letter's date: a line near the top holding nothing but a date. */
function letterDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  const clauses = clausesOf(ctx)
  if (!clauses.words('effective', 'greetings').test(doc.text) && !clauses.words('effective', 'closings').test(doc.text)) return undefined
  for (const line of doc.lines.slice(0, 15)) {
    const dates = lineDates(ctx, line)
    const date = dates[0]
    const rest = date && line.text.replace(line.text.slice(date.start, date.end), '')
    if (date && dates.length === 1 && rest!.replaceAll(' ', '').replaceAll(',', '').replaceAll('.', '').length <= 2)
      return { value: date.iso, confidence: dateWeight(CONTRACT.letterDate, date), line }
  }
  return undefined
}

/** Characters after a date label that hold the date it labels: the longest date written out is about 30. */
const DATE_REACH = 80

/** The latest "Date: …" among the signature blocks at the end. */
function signatureDate(ctx: Context): Answer | undefined {
  const { doc } = ctx
  const labels = clausesOf(ctx).words('effective', 'date_labels')
  let latest: Answer | undefined
  for (const line of doc.lines.slice(-50)) {
    // Signature blocks side by side put several "Date:" labels on one line: each one counts.
    // A label ("Date:", or "Date" opening the line), not "… the agreement dated May 1, 2020".
    for (const label of labels.all(line.text)) {
      let end = pastSpaces(line.text, label.end)
      const colon = line.text[end] === ':'
      if (colon) end = pastSpaces(line.text, end + 1)
      else if (end === label.end && end < line.text.length) continue
      if (label.start !== 0 && !colon) continue
      // Only a date right after the label counts: the few words after it are read, not the rest of a line of labels (D186).
      const date = datesIn(line.text.slice(end, end + DATE_REACH), doc)[0]
      if (!date || date.start > 2) continue
      if (!latest || String(latest.value) < date.iso) latest = { value: date.iso, confidence: dateWeight(CONTRACT.signatureDate, date), line }
    }
  }
  return latest
}

// ---------------------------------------------------------------- term

/** The units of an agreement's duration. */
const TERM_UNITS = new Set(['day', 'week', 'month', 'year'] as const)

/** A word of `list` at `at` with spaces, then the given test at each place the spaces may end. */
function phraseThen(list: Phrases, text: string, at: number, then: (after: number) => boolean): boolean {
  return phrasesAt(list, text, at).some((found) => then(found.end))
}

/**
 * After the agreement as a subject (`subjectEnd`), the rest of the sentence says it lasts: a gap of
 * up to 160 characters without a stop or a word of its obligations ("the obligations of this
 * Agreement"), a word that joins it to its duration ("shall", "is", "hat") followed in the clause by
 * a word of lasting ("remain", "expire", "Laufzeit"), then to the end up to 140 characters without
 * a stop or a word of surviving or renewing.
 */
function lastsAfter(clauses: Clauses, sentence: string, subjectEnd: number): boolean {
  const exclusions = clauses.words('term', 'exclusions')
  const modals = clauses.words('term', 'modals')
  const verbs = clauses.words('term', 'verbs')
  const breakers = clauses.words('term', 'breakers')
  for (let at = subjectEnd; at <= subjectEnd + 160 && at <= sentence.length; at++) {
    const gapChar = sentence[at - 1]
    if (at > subjectEnd && (gapChar === '.' || gapChar === ';' || (startsWord(sentence, at - 1) && exclusions.at(sentence, at - 1)))) break
    if (!startsWord(sentence, at)) continue
    const lasts = phraseThen(modals, sentence, at, (end) => {
      const clauseEnd = firstStop(sentence, at)
      const tail = sentence.slice(end)
      return verbs.find(sentence.slice(0, clauseEnd), at) !== undefined && tail.length <= 140 && !hasStop(tail) && !breakers.test(tail)
    })
    if (lasts) return true
  }
  return false
}

/** The first stop from `at`, or the text's end. */
function firstStop(text: string, at: number): number {
  for (let i = at; i < text.length; i++) if (text[i] === '.' || text[i] === ';') return i
  return text.length
}

/**
 * The agreement is the subject of the sentence's clause about its duration: "This Agreement shall
 * remain in full force and effect for …", "The term of this Agreement shall be …", "Diese
 * Vereinbarung … hat eine Laufzeit von …" — with no obligations between (those are "the obligations
 * of this Agreement", not the agreement).
 */
function agreementIsSubject(clauses: Clauses, sentence: string): boolean {
  const subjects = clauses.words('term', 'subjects')
  for (const subject of subjects.all(sentence)) if (lastsAfter(clauses, sentence, subject.end)) return true
  // "the term of this Agreement", "the term of the Confidentiality Agreement": up to three words between.
  const thisOrThe = thisOrTheOf(clauses)
  const nouns = clauses.words('self', 'terms')
  for (const head of clauses.words('term', 'subject_heads').all(sentence)) {
    const afterHead = spaces(sentence, head.end)
    if (afterHead < 0) continue
    for (const article of phrasesAt(thisOrThe, sentence, afterHead)) {
      let at = spaces(sentence, article.end)
      for (let words = 0; words <= 3 && at >= 0; words++) {
        const noun = nouns.at(sentence, at)
        if (noun && lastsAfter(clauses, sentence, noun.end)) return true
        const word = /^[\w-]+/.exec(sentence.slice(at))
        at = word ? spaces(sentence, at + word[0].length) : -1
      }
    }
  }
  return false
}

/**
 * The agreement's confidentiality obligations are the sentence's subject: "The obligations of
 * confidentiality shall remain in effect for …", "Recipient agrees to keep … confidential for …".
 */
function obligationsAreSubject(clauses: Clauses, sentence: string): boolean {
  const verbs = clauses.words('term', 'verbs')
  const joins = clauses.words('term', 'obligation_verbs')
  for (const subject of clauses.words('term', 'obligations').all(sentence))
    for (let at = subject.end; at <= subject.end + 160 && at <= sentence.length; at++) {
      if (at > subject.end && (sentence[at - 1] === '.' || sentence[at - 1] === ';')) break
      if (!startsWord(sentence, at) || verbs.find(sentence.slice(0, firstStop(sentence, at)), at) === undefined) continue
      if (phraseThen(joins, sentence, at, (end) => sentence.length - end <= 220 && !hasStop(sentence, end))) return true
    }
  const undertaken = clauses.words('term', 'undertaken')
  return clauses
    .words('term', 'undertakings')
    .all(sentence)
    .some((undertaking) =>
      undertaken
        .all(sentence)
        .some(
          (what) =>
            what.start >= undertaking.end &&
            what.start - undertaking.end <= 80 &&
            !hasStop(sentence, undertaking.end, what.start) &&
            sentence.length - what.end <= 80 &&
            !hasStop(sentence, what.end),
        ),
    )
}

/** Before the duration, a word that makes it the object of the clause: "for", "be", "expire", "(ii)" … — not "within ten days of", "by giving thirty days". */
function leadsToDuration(clauses: Clauses, before: string): boolean {
  return tailEnds(before, [clauses.words('term', 'periods'), clauses.words('articles', 'definite')]).some((end) => {
    const lead = before.slice(0, end)
    return clauses.words('term', 'leads').ends(lead) !== undefined || ENUMERATION.test(lead)
  })
}

/** An enumeration's mark ending a text: "(ii)", "(b)", "(3)". */
const ENUMERATION = /\(\s*(?:[ivx]+|[a-z]|\d)\s*\)\s*$/i

/** A heading or label that gives the term itself: "Term: 2 years", "Term of Agreement. Three (3) years", "3. Laufzeit: 2 Jahre". */
function labelsTerm(clauses: Clauses, before: string): boolean {
  const end = beforeSpaces(before, before.length)
  const mark = before[end - 1]
  if (mark !== ':' && mark !== '.') return false
  const label = clauses.words('term', 'labels').ends(before.slice(0, end - 1))
  if (!label) return false
  const lead = before.slice(0, label.start)
  if (lead === '') return true
  const spaced = beforeSpaces(lead, lead.length)
  return (spaced < lead.length && ['.', ':', ';'].includes(lead[spaced - 1] ?? '')) || /\d\.\s*$/.test(lead)
}

/**
 * The agreement's term: a duration stated for the agreement itself ("This Agreement shall remain
 * in effect for three (3) years from the date hereof", "The term of this Agreement shall be two
 * years"), or — less sure — for its confidentiality obligations when they run from the agreement's
 * start. Never a period that runs after termination or from a disclosure (a survival period), a
 * covenant's period (standstill, non-solicitation) or a notice period: null rather than those.
 */
function termAnswer(ctx: Context): Answer | undefined {
  const clauses = clausesOf(ctx)
  const { text } = clauses
  const words = (list: ContractList<'term'>) => clauses.words('term', list)
  const candidates: Answer[] = []
  for (const duration of durations(clauses, text, TERM_UNITS)) {
    const value = periodOf(clauses, duration)
    if (!value) continue
    const before = text.slice(Math.max(0, duration.start - 300), duration.start)
    const sentence = before.slice(sentenceStart(before, { colons: true, digits: true }))
    const rest = text.slice(duration.end, duration.end + 200)
    const clauseAfter = firstClause(rest)
    const next = pastBracket(rest)
    const start = periodStart(clauses, rest)
    // Measured from termination, a disclosure or another event: the period outlasts the agreement.
    const firstStart = start === undefined ? undefined : start.slice(0, words('or').find(start)?.start ?? start.length)
    const later = start !== undefined && words('later_starts').test(start) && !words('agreement_starts').test(firstStart!)
    const thereafter = !!words('thereafter').at(rest, next) && words('endings').test(sentence)
    const notwithstanding = words('notwithstanding').at(sentence, pastSpaces(sentence, 0), (found) => {
      const after = spaces(sentence, found.end)
      return after >= 0 && !!words('despite').at(sentence, after)
    })
    const fromStart = start !== undefined && words('agreement_starts').test(start) && !later
    const ends = start === undefined && (next >= rest.length || '.;,'.includes(rest[next]!) || !!words('closers').at(rest, next))
    // A notice period ("thirty (30) days' written notice"), a negated or conditional clause, a renewal.
    const notice = followedByNotice(clauses, rest)
    if (later || thereafter || notwithstanding || notice || words('negations').test(sentence) || words('renewals').test(sentence)) continue
    const line = clauses.flat.lineAt(duration.start)
    if (endsWithLead(before, words('for'), [words('periods')]) && (fromStart || ends || isCapital(rest[next]))) {
      candidates.push({ value, confidence: CONTRACT.termAgreementFor, line })
      continue
    }
    const labelled = labelsTerm(clauses, before)
    if (!leadsToDuration(clauses, before) && !labelled) continue
    // A section's number run into its first word ("6.1This Agreement") does not hide the subject.
    const subject = sentence.replace(/\d(?=\p{L})/gu, ' ')
    if ((fromStart || ends) && agreementIsSubject(clauses, subject)) {
      candidates.push({ value, confidence: clauses.words('self', 'this').test(subject) ? CONTRACT.termOfThisAgreement : CONTRACT.termOfAgreement, line })
      continue
    }
    if (labelled && (fromStart || ends)) {
      candidates.push({ value, confidence: CONTRACT.termLabelled, line })
      continue
    }
    if (
      (fromStart || ends) &&
      obligationsAreSubject(clauses, sentence) &&
      !words('survival').test(sentence) &&
      !words('covenants').test(sentence) &&
      !words('covenants').test(clauseAfter.slice(0, 120))
    )
      candidates.push({ value, confidence: CONTRACT.termOfObligations, line })
  }
  return best(candidates)
}

/** Where a period starts, as written after it: "… years from the date hereof" → "the date hereof"; up to 70 characters, to the next stop or comma. */
function periodStart(clauses: Clauses, rest: string): string | undefined {
  const at = pastBracket(rest)
  let start: string | undefined
  clauses.words('term', 'starts').at(rest, at, (found) => {
    const after = spaces(rest, found.end)
    if (after < 0) return false
    let end = after
    while (end < rest.length && end - after < 70 && !'.;,'.includes(rest[end]!)) end++
    start = rest.slice(after, end)
    return true
  })
  return start
}

/** Notice words right after a duration: "days' prior written notice", "days’ notice". */
function followedByNotice(clauses: Clauses, rest: string): boolean {
  let at = pastBracket(rest)
  if (rest[at] === '’' || rest[at] === "'") at++
  if (rest[at] === 's') at++
  if (rest[at] === '’' || rest[at] === "'") at++
  return !!clauses.words('notice', 'after').at(rest, pastSpaces(rest, at))
}
