/**
 * One language's lexicon file, data/lexicon/<lang>.json (D95): checked here, by the build-time
 * macro, so a bad file fails the build as a bad catalog file does (D18). Plain checks, no framework.
 */

/** What a table column holds, as the words of its header say. */
export const COLUMN_KINDS = [
  'description',
  'quantity',
  'unit',
  'price',
  'discount',
  'rate',
  'amount',
  'net',
  'tax',
  'gross',
  'total',
  // Tables other than line items (D115): positions and codes, bank bookings, lab results, prescriptions.
  'position',
  'code',
  'date',
  'balance',
  'debit',
  'credit',
  'test',
  'result',
  'reference',
  'flag',
  'medication',
  'strength',
  'directions',
  'refills',
] as const
export type ColumnKind = (typeof COLUMN_KINDS)[number]

/**
 * The lists of words and phrases the readers match in documents (lexicon.ts builds their
 * patterns): case and accents are ignored, dots and spaces between a word's parts are optional,
 * and a `*` at either end of a word stands for letters joined to it in a compound ("*steuer*"
 * finds "Umsatzsteuer"). Every language has every list.
 */
export interface PhraseLists {
  /** Words after a total's label that make it the amount before tax ("excl", "ohne", "hors"); before a tax's name, the tax only qualifies an amount ("Total excl. VAT"). */
  excluding_tax: string[]
  /** Words after a total's label that make it the final amount, tax included ("incl", "inkl", "TTC"); before a tax's name, the tax only qualifies an amount. */
  including_tax: string[]
  /** Other words after a total's label that make it the final amount ("rounded", "payable", "à payer"). */
  total_final: string[]
  /** Headings of a tax breakdown ("VAT summary", "*steueraufschlüsselung"): the totals under one are tax bases, not the total. */
  tax_breakdown: string[]
  /** Words before a label in its cell that make the label part of a phrase ("GST included in total", "Summe der Positionen"), not the line's label. */
  label_joiners: string[]
  /** Titles of a document ("Invoice", "*rechnung*", "Facture"): its number and date may follow them on the title line. */
  document_titles: string[]
  /** Words and abbreviations for "number" ("No", "Nr", "N°", "Numéro"): they stand between a title or label and an identifier. */
  number_marks: string[]
  /** Words right before a date that tie it to what precedes ("Rechnung Nr. 7 vom 5.3.", "Facture du 2 juillet", "eingezogen am 20.3."). */
  date_leads: string[]
  /** Words before the first date of a period ("from", "vom", "du"): such a date is not the date of issue. */
  period_from: string[]
  /** Words between the two dates of a period ("to", "bis", "au"): neither date is the date of issue. */
  period_to: string[]
  /** Words of a sentence that asks for payment ("payable", "zahlbar", "règlement"): a date after `due_by` in it is the due date. */
  payment_words: string[]
  /** Means of payment ("cash", "Visa", "Überweisung", "virement"): the value of a field that asks how a document is or was paid. */
  payment_means: string[]
  /** Words right before the date by which to pay ("by", "bis zum", "avant le", "uiterlijk"). */
  due_by: string[]
  /** Words of a direct-debit sentence ("Lastschrift", "prélèvement", "incasso"), found inside longer words too: the date there is the due date. */
  direct_debit: string[]
  /** Words of an early-payment discount ("Skonto", "escompte"), found inside longer words too: a date after one is its deadline, not the due date. */
  cash_discount: string[]
  /** Words of shop and trade names ("restaurant", "Bäckerei", "pharmacie"): a letterhead line with one is likely the issuer. */
  trade_words: string[]
  /** Labels of company registration and tax numbers ("Reg. No", "VAT", "SIRET", "KvK"): a name is cut before one, and a line with one is no name. */
  registration_labels: string[]
  /** Other words of lines that are never a name: contact and address data, page and date labels, a letter's greeting and thanks ("Tel", "Straße", "Dear", "merci"). */
  not_name_words: string[]
  /** Labels of identifiers and contact data in an address block ("GLN", "Kunden-Nr.", "Adresse", "Tel"): skipped when reading the name under a heading. */
  address_labels: string[]
  /** Labels of a name in an address block ("Name:", "Firma", "Raison sociale"): their value is the name. */
  name_labels: string[]
  /** Forms of address before a person's name ("Mr", "Herrn", "Madame"): the name follows on the next line. */
  salutations: string[]
  /** Marks before an addressee that is not a person's form of address ("Attn", "Firma", "z. Hd."): the name follows on the next line. */
  addressee_marks: string[]
  /** Words of a footer line with a company's legal data ("Handelsregister", "registered office", "RCS"): the line above often names the company. */
  legal_footer: string[]
  /** The words of a company's share capital ("au capital", "Stammkapital"): a footer names the company before them ("ACME SAS au capital de …"), and a line that starts with them is no name. */
  share_capital: string[]
  /** Words that name an agreement ("Agreement", "Vertrag", "contrat"): a heading with one is a contract's title. */
  agreement_words: string[]
  /** Words before the list of a contract's parties ("by and between", "zwischen", "entre"). */
  between_parties: string[]
  /** The word "and" that joins the last items of a list ("A, B and C", "A und B"). */
  list_and: string[]
  /** Words for a page before its number ("Page 2 of 3", "Seite 1 von 2", "Strona 2 z 5"): where one document of several starts and goes on (D247). */
  page_marks: string[]
  /** Words that say a document goes on past its page ("continued", "Übertrag", "à suivre"): the next page is the same document's (D247). */
  continued_marks: string[]
}

/**
 * The words of contracts' clauses (D222), in groups by what the contract reader reads: what each
 * list holds, for the reader and for whoever adds a language. Every list is a phrase list (case and
 * accents ignored, `*` joins letters: "terminat*" finds "termination"); a list left out or empty is
 * one the language's contracts are read without.
 */
export const CONTRACT_LISTS = {
  title: {
    exclusions: 'Words that open a heading that is no title ("Exhibit", "Page", "Anlage").',
    continuations: 'Words that open a heading line which continues the title above it ("AND", "OF", "AGREEMENT").',
    self_names: 'Nouns by which a preamble names the agreement after a word of `self.this` ("This Non-Disclosure Agreement"), written capitalised.',
  },
  self: {
    this: 'Words for "this" before the agreement\'s own name ("This Agreement", "Diese Vereinbarung", "Le présent accord").',
    references: 'Words that tie a clause to this agreement ("this", "hereof", "herein", "vorliegend").',
    terms: 'Defined terms, quoted, that stand for this agreement ("Agreement", "NDA", "Vereinbarung").',
    own: 'Words before an agreement\'s name that make it this one ("this", "these", "present").',
    other: 'Words before an agreement\'s name that make it another one ("the", "your", "said", "prior", "frühere").',
    nouns: 'Names of agreements and other instruments a clause may refer to ("agreement", "letter", "plan", "Vertrag").',
  },
  effective: {
    leads:
      'Phrases right before the date the agreement takes effect, a word of `articles` or `self.this` between them allowed ("effective as of", "made and entered into on", "tritt am", "entre en vigueur le").',
    follows: 'Words right after a date that make it the date the agreement takes effect ("in Kraft": "tritt am 1. März 2024 in Kraft").',
    words: 'Words that say a lead is about taking effect ("*effective*", "Kraft", "vigueur").',
    terms: 'Defined terms for that date, after it ("Effective Date", "Inkrafttreten", "Date d\'effet").',
    definition_leads: 'Words before such a defined term ("the", "hereinafter", "nachfolgend", "ci-après").',
    execution: 'Words of signing before "as of" and the date ("executed", "signed", "agreed").',
    as_of: 'The words between those and the date ("as of").',
    greetings: 'Greetings of a letter ("Dear", "Sehr geehrte", "Madame"): the date alone at its top is the letter\'s.',
    closings: 'Closings of a letter ("Sincerely", "Mit freundlichen Grüßen", "Cordialement").',
    date_labels: 'Labels of the date in a signature block ("Date", "Datum", "Fait le").',
  },
  expiry: {
    subjects: 'Words of what expires ("agreement", "term", "Vertrag").',
    verbs: 'Verbs of expiring before its date ("expires", "terminates", "endet", "expire").',
    links: 'Words between the verb and the date ("on", "upon", "am", "le").',
  },
  notice: {
    after: 'Words of notice after its period ("written notice", "prior notice": "thirty (30) days\' prior written notice").',
    before: 'Words of notice before its period ("Kündigungsfrist von", "préavis de").',
    termination: 'Words of terminating, near a notice period ("terminat*", "kündig*", "résili*").',
  },
  signature: {
    labels: 'Labels of a signer\'s name, before a colon ("Name", "Nom").',
    block_words: 'Words of a signature block that are never part of a name ("Title", "Date", "By", "Its").',
  },
  law: {
    verbs: 'Words that say a law governs the agreement, before the law ("governed by", "construed", "unterliegt", "régi").',
    weak_verbs: 'Words that put the agreement under a law without saying it governs ("subject to"): a federal law needs a word of `verbs`.',
    words: 'Words for a law or the laws ("law", "laws", "Recht", "droit").',
    links: 'Words between a law and its jurisdiction ("of", "in", "der", "de").',
    polities: 'Words for a jurisdiction\'s kind before its name ("State of", "Commonwealth of", "Staates", "État de").',
    governs: 'Words after a law named first that say it governs ("shall govern", "will apply").',
    adjective_leads: 'Words before a jurisdiction\'s name used as an adjective ("under", "by": "construed under Delaware law").',
    modifiers: 'Words between those and the name ("internal").',
  },
  term: {
    leads: 'Words right before the agreement\'s duration ("for", "period of", "Laufzeit von", "durée de").',
    periods: 'Words between a lead and the duration ("a period of", "einen Zeitraum von").',
    subjects: 'The agreement as the subject of a clause about its duration ("this agreement", "the term hereof", "diese Vereinbarung").',
    subject_heads: 'Words that open a subject naming the term of an agreement ("the term of", "die Laufzeit").',
    exclusions: 'Words that make the subject an agreement\'s obligations, not the agreement ("obligations", "provisions", "confidential*").',
    modals: 'Verbs that join the subject to its duration ("shall", "will", "is", "hat", "beträgt", "est").',
    verbs: 'Words that say the clause is about lasting ("remain*", "continue*", "expire*", "Laufzeit", "durée").',
    breakers: 'Words after which a clause is about surviving or renewing, not the term ("surviv*", "renew*").',
    negations: 'Words that negate a clause ("shall not", "will not").',
    renewals: 'Words of renewing ("renew*", "verlänger*", "reconduct*"): a clause that renews gives no term.',
    for: 'The agreement\'s own words before its duration when a layout splits the sentence ("agreement shall be for").',
    labels: 'Headings or labels that give the term itself ("Term", "Laufzeit", "Durée").',
    obligations: 'The obligations whose duration counts as the term when it runs from the start ("confidentiality", "non-disclosure").',
    obligation_verbs: 'Verbs that join those obligations to their duration ("shall", "remain", "continue").',
    undertakings: 'Words of a party undertaking those obligations ("agrees to keep", "agrees to be bound by").',
    undertaken: 'What the undertaking is about ("confidential*", "secrecy").',
    starts: 'Words before where a period starts ("from", "after", "following", "ab", "à compter de").',
    agreement_starts: 'Start points that are the agreement\'s own start ("hereof", "the effective date", "signing", "Unterzeichnung").',
    later_starts: 'Start points that make a period outlast the agreement ("termination", "disclosure", "Beendigung").',
    covenants: 'Words of covenants whose periods are not the term ("solicit*", "compet*", "standstill", "Wettbewerb*").',
    or: 'The word "or" between two start points ("or", "oder", "ou").',
    thereafter: 'Words after a duration that make it a period after another ("thereafter", "danach").',
    endings: 'Words of ending ("terminat*", "expir*", "Beendigung").',
    notwithstanding: 'Words that open a clause about what happens despite an ending ("notwithstanding", "ungeachtet").',
    despite: 'What such a clause is about ("return", "destruction", "terminat*").',
    closers: 'Words after a duration that end its clause ("unless", "commencing", "thereafter").',
    survival: 'Words of surviving ("*surviv*", "fortbestehen", "survi*").',
  },
  parties: {
    labels: 'Labels of the list of parties, before a colon ("Parties:", "Vertragsparteien:", "De ondergetekenden:").',
    made_by: 'Verbs of a preamble after which "by" opens the parties ("entered into", "made", "executed").',
    by: 'That "by".',
    not_after_by: 'Words after it that open no party ("and", "the undersigned", "between").',
    name_leads: 'Words before a party\'s name that are no part of it ("der", "die", "la société").',
    name_starts: 'Articles that open a party\'s name as part of it ("The": "The Regents of …").',
    connectors: 'Small words inside a name, in every language ("of": "Bank of America", "de", "von", "y").',
    place_links: 'The word before a place that ends a name after its legal form ("of": "Acme Corporation of America").',
    abbreviations: 'Abbreviations, written without their last dot, whose dot ends no sentence, in every language ("Inc", "Mr", "L.P", "Str").',
    comma_forms: 'Legal forms before which a name\'s comma is dropped ("Alpha Widgets, Inc." → "Alpha Widgets Inc.").',
    name_suffixes: 'Abbreviations at a name\'s end, written without their dot, that keep it ("Inc", "Ltd", "Jr").',
    description_starts: 'Words that start a description after a name, not a name ("a", "having", "located", "mit Sitz", "dont").',
    references: 'Words that refer to another agreement, whose parties are not this one\'s ("reference is made to").',
    amending: 'Words of amending ("amend*"): an amendment\'s parties are those of the agreement it refers to.',
    you: 'The addressee or the signer as a party ("you", "the undersigned", "vous").',
    first_person: 'Words of a first-person undertaking ("I agree", "my employment", "you acknowledge").',
    our_side: 'Defined terms for the side that discloses ("Company", "Discloser", "we", "Gesellschaft").',
    their_side: 'Defined terms for the side across ("Recipient", "you", "Purchaser", "Empfänger").',
    not_names: 'Words that start no party\'s name ("This", "Agreement", "Whereas", "Diese", "Parteien").',
    never_in_names: 'Words never in a party\'s name ("Agreement", "Exhibit", "Section", "Vereinbarung").',
    roles: 'Defined roles, written capitalised, that are no new party after "and" ("Company", "Recipient", "Käufer").',
    possessives: 'Possessives that open a description of a party\'s people ("its", "their", "ihre", "ses").',
    including: 'Words that open a list inside a description ("including", "such as", "einschließlich").',
    group_words: 'Words of a party\'s group ("affiliates", "subsidiaries", "Tochtergesellschaften").',
    group_includes: 'The word that lists the group\'s members ("includ*").',
    recitals: 'Headings and words, written as printed, after which the parties are no longer listed ("WHEREAS", "Präambel", "PRÉAMBULE").',
    not_party_terms: 'Defined terms that name a thing, not a party ("Agreement", "Information", "Purpose", "Zweck").',
    headings: 'Words, written as printed, of a heading or a letter\'s lines before a name ("AGREEMENT", "Dear", "Re", "Attn").',
    letter_lines: 'Words of a letter\'s lines that are no address ("agreement", "exhibit", "confidential").',
    subject_marks: 'The mark of a letter\'s subject line ("Re", "Betreff", "Objet").',
    organisation_words: 'Words, written capitalised, that only organisations\' names carry ("Bank", "University", "Stiftung").',
    together: 'Words inside a definition that join others to a party ("together with").',
    addressee_terms: 'Defined terms, as written, of a letter\'s addressee ("you", "Recipient", "Counterparty").',
    witness: 'Words of a witness\'s signature ("witness"), unless followed by `witness_not`.',
    witness_not: '("whereof": "IN WITNESS WHEREOF" is no witness.)',
  },
  articles: {
    definite: 'Articles before a noun ("the", "der", "die", "le", "la", "l\'").',
  },
} as const

/**
 * The words by which the names of a document's issuer and recipient are read (D224), beyond the
 * phrase lists above: every list a phrase list, a list left out empty.
 */
export const NAME_LISTS = {
  former_marks: 'Words between a name and its former name, cut with what follows ("fka", "formerly known as", "vormals").',
  company_endings: 'Words that end a company\'s name where receipts print no legal form ("Enterprise", "Trading").',
  never_opening: 'Abbreviated legal forms that end names and never start them: a line that starts with one is no name ("Ltd", "GmbH", "SARL").',
  split_forms: 'Legal forms printed alone on the line under a name ("SDN BHD", "Co. (M) Sdn Bhd", "GmbH"): that line ends the name.',
  split_starts: 'Words that open such a line ("CO.", "(M)", "SDN").',
  country_marks: 'Marks of a company\'s country printed with its legal form ("(M)": Malaysia).',
  mail_domains: 'Domains of mail and web services, not of a company ("gmail", "gmx", "orange").',
  top_level_domains: 'Endings of web and mail addresses ("com", "de", "fr"): a line with one is no name.',
} as const

export type NameList = keyof typeof NAME_LISTS

export type ContractGroup = keyof typeof CONTRACT_LISTS
export type ContractList<G extends ContractGroup> = keyof (typeof CONTRACT_LISTS)[G]

/** The units of a duration. */
export const DURATION_UNITS = ['day', 'week', 'month', 'year'] as const
export type DurationUnit = (typeof DURATION_UNITS)[number]

/** The `contract` section of a lexicon (D222): the lists of `CONTRACT_LISTS`, and what is not a list. */
export type ContractWords = { [G in ContractGroup]: Record<ContractList<G>, string[]> } & {
  /** Jurisdictions, by the name they are answered with (in English: "New York", "Germany") → their names in this language. */
  jurisdictions: Record<string, string[]>
  /** Jurisdictions → phrases that name their law by an adjective ("deutsches Recht", "droit français"): each one found is a choice of that law. */
  governing_laws: Record<string, string[]>
  /** Federations → the jurisdictions that are their states (by their answered names): a federation's law is named with a state's. */
  federations: Record<string, string[]>
  /** The words of each unit of a duration, every form ("year", "years", "Jahren", "ans"). */
  units: Record<DurationUnit, string[]>
}

export interface Lexicon extends PhraseLists {
  /** ISO 639-1 code; the file is named after it. */
  language: string
  /** The language's own name, for people reading the file. */
  name: string
  /** Twelve lists, January first: full names and printed abbreviations. */
  months: string[][]
  /** Words that answer yes and no (boolean fields). */
  yes: string[]
  no: string[]
  /** ISO 4217 code → names of the currency in this language. */
  currencies: Record<string, string[]>
  /** Legal forms of companies as printed ("GmbH", "S.A.R.L.", "Sdn. Bhd."): dots and spaces are optional when matching. */
  legal_forms: string[]
  /** Labels of the final amount to pay ("Grand total", "Zu zahlen"): they win over other totals. */
  final_totals: string[]
  /** Number words from zero up, in order ("zero", "one", … ): a count written out. */
  numbers: string[]
  /** Frequent words of the language, one word of letters each: a document's language is the one whose words it holds most (it decides the order of numeric dates without other signs, and the OCR model). */
  common_words: string[]
  /** Single words that may stand between a total's label and its amount without making it a total of something else ("VAT", "Betrag"); the words of `including_tax` and `total_final` may too. */
  total_neutral: string[]
  /** Words of table column headers, by what the column holds: a total row's amounts are read by them (net, tax, gross), and an item table is found by them. */
  columns: Record<ColumnKind, string[]>
  /** Printed labels of the fields the built-in engine knows (its concepts, by id) in this language. */
  labels: Record<string, string[]>
  /** General business words, by meaning, that match a field a user names to the labels printed for it (D110). */
  vocabulary: Vocabulary
  /** Number words beyond twelve, with their values ("thirty", "twenty-four", "dreißig"): durations written out. */
  larger_numbers: Record<string, number>
  /** The words of contracts' clauses (D222). */
  contract: ContractWords
  /** The words by which names are read (D224). */
  names: Record<NameList, string[]>
}

/**
 * The words of a language for things documents label (D110): each group holds the forms,
 * abbreviations and synonyms of one meaning ("delivery": "Lieferung", "Liefer", "geliefert"),
 * under an id shared by every language, so that a field named in one language finds labels
 * printed in another. A German compound is its parts' forms written together ("Liefer" +
 * "datum"), so the groups hold the forms that start compounds.
 */
export interface Vocabulary {
  /** Small words that join the words of a label ("date of delivery", "date de livraison"). */
  joiners: string[]
  /** Pairs of groups that mean the opposite of each other ("paid", "unpaid"): a status word of one answers no for the other. */
  opposites: [string, string][]
  /** Pairs of a group and a broader one ("vat", "tax"): a label of the broader group also names a field of the narrower, less surely ("Steuersatz" for a VAT rate). */
  broader: [string, string][]
  /** Words after which a description says what a field is not ("the tax number, not the VAT ID"): a description is read up to the first. */
  negations: string[]
  /** Group id → the group's words in this language. */
  groups: Record<string, string[]>
}

export class LexiconError extends Error {
  override name = 'LexiconError'
}

/** How a list's words may be written: as text; as one word of letters (compared word by word); or as a phrase that may join letters with `*`. */
type WordRule = 'text' | 'letters' | 'phrase'

const PHRASE_LISTS: (keyof PhraseLists)[] = [
  'excluding_tax',
  'including_tax',
  'total_final',
  'tax_breakdown',
  'label_joiners',
  'document_titles',
  'number_marks',
  'date_leads',
  'period_from',
  'period_to',
  'payment_words',
  'payment_means',
  'due_by',
  'direct_debit',
  'cash_discount',
  'trade_words',
  'registration_labels',
  'not_name_words',
  'address_labels',
  'name_labels',
  'salutations',
  'addressee_marks',
  'legal_footer',
  'share_capital',
  'agreement_words',
  'between_parties',
  'list_and',
  'page_marks',
  'continued_marks',
]

/** Every list of words of a lexicon but the months, currencies, columns and labels, with how its words are written. */
const WORD_LISTS: Record<string, WordRule> = {
  yes: 'text',
  no: 'text',
  legal_forms: 'text',
  final_totals: 'text',
  numbers: 'text',
  common_words: 'letters',
  total_neutral: 'letters',
  ...Object.fromEntries(PHRASE_LISTS.map((list) => [list, 'phrase'])),
}

const KEYS = ['language', 'name', 'months', 'currencies', 'columns', 'labels', 'vocabulary', 'larger_numbers', 'contract', 'names', ...Object.keys(WORD_LISTS)]

function words(value: unknown, path: string, file: string, rule: WordRule = 'text'): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new LexiconError(`${file}: ${path}: expected a non-empty array of words`)
  value.forEach((word, index) => {
    if (typeof word !== 'string' || word.trim() === '' || word !== word.trim())
      throw new LexiconError(`${file}: ${path}/${index}: expected a word without surrounding spaces`)
    if (rule === 'letters' && !/^\p{L}+$/u.test(word)) throw new LexiconError(`${file}: ${path}/${index}: expected one word of letters`)
    if (word.includes('*') && (rule !== 'phrase' || !/^\*?[^*]+\*?$/.test(word)))
      throw new LexiconError(`${file}: ${path}/${index}: a * may only stand at the start or end of a word of a phrase list`)
  })
  return value as string[]
}

/** The value as an object; the error says what object was expected. */
function record(value: unknown, path: string, file: string, expected: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LexiconError(`${file}: ${path}: expected an object of ${expected}`)
  return value as Record<string, unknown>
}

/** Parses and checks one lexicon file; a problem names the file and the JSON path. */
export function parseLexiconFile({ file, text }: { file: string; text: string }): Lexicon {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new LexiconError(`${file}: not valid JSON: ${(error as Error).message}`)
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new LexiconError(`${file}: /: expected an object`)
  const lexicon = data as Record<string, unknown>
  for (const key of Object.keys(lexicon)) if (!KEYS.includes(key)) throw new LexiconError(`${file}: /${key}: unknown property`)
  for (const key of KEYS) if (!Object.hasOwn(lexicon, key)) throw new LexiconError(`${file}: /${key}: missing`)
  const { language, name, months } = lexicon
  if (typeof language !== 'string' || !/^[a-z]{2}$/.test(language)) throw new LexiconError(`${file}: /language: expected an ISO 639-1 code such as "de"`)
  if (!file.endsWith(`/${language}.json`) && file !== `${language}.json`) throw new LexiconError(`${file}: /language: the file must be named ${language}.json`)
  if (typeof name !== 'string' || name.trim() === '') throw new LexiconError(`${file}: /name: expected the language's name`)
  if (!Array.isArray(months) || months.length !== 12) throw new LexiconError(`${file}: /months: expected 12 lists, January first`)
  months.forEach((names, index) => words(names, `/months/${index}`, file))
  for (const [list, rule] of Object.entries(WORD_LISTS)) words(lexicon[list], `/${list}`, file, rule)
  const labels = record(lexicon.labels, '/labels', file, 'concept → labels')
  for (const [concept, names] of Object.entries(labels)) {
    if (!/^[a-z_]+$/.test(concept)) throw new LexiconError(`${file}: /labels/${concept}: expected a concept id such as "invoice_number"`)
    words(names, `/labels/${concept}`, file)
  }
  const currencies = record(lexicon.currencies, '/currencies', file, 'ISO 4217 code → names')
  for (const [code, names] of Object.entries(currencies)) {
    if (!/^[A-Z]{3}$/.test(code)) throw new LexiconError(`${file}: /currencies/${code}: expected an ISO 4217 code`)
    words(names, `/currencies/${code}`, file)
  }
  const columns = record(lexicon.columns, '/columns', file, `column kind (${COLUMN_KINDS.join(', ')}) → words`)
  for (const kind of Object.keys(columns))
    if (!(COLUMN_KINDS as readonly string[]).includes(kind)) throw new LexiconError(`${file}: /columns/${kind}: unknown column kind`)
  for (const kind of COLUMN_KINDS) {
    if (!Object.hasOwn(columns, kind)) throw new LexiconError(`${file}: /columns/${kind}: missing`)
    words(columns[kind], `/columns/${kind}`, file, 'phrase')
  }
  checkVocabulary(lexicon.vocabulary, file)
  const larger = record(lexicon.larger_numbers, '/larger_numbers', file, 'number word → value')
  for (const [word, value] of Object.entries(larger)) {
    if (word.trim() === '' || word !== word.trim()) throw new LexiconError(`${file}: /larger_numbers/${word}: expected a word without surrounding spaces`)
    if (!Number.isInteger(value) || (value as number) <= 12) throw new LexiconError(`${file}: /larger_numbers/${word}: expected a whole number over 12`)
  }
  return {
    ...(data as Lexicon),
    contract: checkContract(lexicon.contract, file),
    names: checkLists(lexicon.names, NAME_LISTS, '/names', file) as Lexicon['names'],
  }
}

/** Lists of phrases, each of `lists` or left out (then empty), nothing else. */
function checkLists(value: unknown, lists: Record<string, string>, path: string, file: string): Record<string, string[]> {
  const given = only(value ?? {}, Object.keys(lists), path, file, 'lists of words')
  return Object.fromEntries(Object.keys(lists).map((list) => [list, given[list] === undefined ? [] : phrasesOrNone(given[list], `${path}/${list}`, file)]))
}

/** A list of phrases that may be empty. */
function phrasesOrNone(value: unknown, path: string, file: string): string[] {
  if (!Array.isArray(value)) throw new LexiconError(`${file}: ${path}: expected an array of words (it may be empty)`)
  return value.length ? words(value, path, file, 'phrase') : []
}

/** An object of at most the given keys. */
function only(value: unknown, keys: readonly string[], path: string, file: string, expected: string): Record<string, unknown> {
  const object = record(value, path, file, expected)
  for (const key of Object.keys(object)) if (!keys.includes(key)) throw new LexiconError(`${file}: ${path}/${key}: unknown property`)
  return object
}

/**
 * The contract section (D222): groups of `CONTRACT_LISTS`, the jurisdictions, their laws, the
 * federations and the units of durations. A group or list left out is empty (a language's
 * contracts are read with the words it has); an unknown one is an error. Returned whole.
 */
function checkContract(value: unknown, file: string): ContractWords {
  const records = ['jurisdictions', 'governing_laws', 'federations', 'units']
  const contract = only(value, [...Object.keys(CONTRACT_LISTS), ...records], '/contract', file, 'groups of contract words')
  const whole: Record<string, unknown> = {}
  for (const [group, lists] of Object.entries(CONTRACT_LISTS)) {
    const path = `/contract/${group}`
    const given = only(contract[group] ?? {}, Object.keys(lists), path, file, 'lists of words')
    whole[group] = Object.fromEntries(
      Object.keys(lists).map((list) => [list, given[list] === undefined ? [] : phrasesOrNone(given[list], `${path}/${list}`, file)]),
    )
  }
  const named = (key: string, expected: string, rule: WordRule) => {
    const entries = record(contract[key] ?? {}, `/contract/${key}`, file, expected)
    for (const [name, list] of Object.entries(entries)) words(list, `/contract/${key}/${name}`, file, rule)
    whole[key] = entries
  }
  named('jurisdictions', 'jurisdiction → its names', 'text')
  named('governing_laws', 'jurisdiction → phrases naming its law', 'phrase')
  named('federations', 'federation → its states', 'text')
  const units = only(contract.units ?? {}, DURATION_UNITS, '/contract/units', file, `unit (${DURATION_UNITS.join(', ')}) → words`)
  whole.units = Object.fromEntries(DURATION_UNITS.map((unit) => [unit, units[unit] === undefined ? [] : words(units[unit], `/contract/units/${unit}`, file)]))
  return whole as ContractWords
}

/** The vocabulary's joiners, groups (ids as concept ids) and pairs of opposite groups, each naming a group of the file. */
function checkVocabulary(value: unknown, file: string): void {
  const vocabulary = record(value, '/vocabulary', file, 'joiners, opposites, broader, negations and groups')
  for (const key of Object.keys(vocabulary))
    if (!['joiners', 'opposites', 'broader', 'negations', 'groups'].includes(key)) throw new LexiconError(`${file}: /vocabulary/${key}: unknown property`)
  words(vocabulary.joiners, '/vocabulary/joiners', file)
  words(vocabulary.negations, '/vocabulary/negations', file)
  const groups = record(vocabulary.groups, '/vocabulary/groups', file, 'group id → words')
  for (const [group, forms] of Object.entries(groups)) {
    if (!/^[a-z_]+$/.test(group)) throw new LexiconError(`${file}: /vocabulary/groups/${group}: expected a group id such as "delivery"`)
    words(forms, `/vocabulary/groups/${group}`, file)
  }
  for (const list of ['opposites', 'broader']) {
    const pairs = vocabulary[list]
    if (!Array.isArray(pairs)) throw new LexiconError(`${file}: /vocabulary/${list}: expected an array of pairs of group ids`)
    pairs.forEach((pair, index) => {
      if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((group) => typeof group === 'string' && Object.hasOwn(groups, group)))
        throw new LexiconError(`${file}: /vocabulary/${list}/${index}: expected two group ids of /vocabulary/groups`)
    })
  }
}
