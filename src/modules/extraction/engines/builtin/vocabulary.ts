/**
 * What a field a user names is about, read from its key and label with the lexicons' vocabulary
 * (D110): the groups of meaning its words belong to ("delivery_date" → delivery, date), the party
 * its words name (seller or buyer), and the shape its value must have (an IBAN, a VAT ID …).
 * From the groups come the labels to look for, in every lexicon language: each group's forms in
 * every order, with the language's joiners between them ("Lieferdatum", "Leistungs-Datum",
 * "date de livraison", "Delivered on"). Labels are compared folded to letters and digits, so a
 * compound is its parts written together.
 */
import { vocabularies } from '../../../../lib/lexicon'
import type { Shape } from '../../normalise/shapes'
import type { JobField } from '../../../../lib/fields/model'
import { type LabelEntry, type LabelHit, squashKeepingMarks } from './labels'
import { words } from '../../../../lib/text'
import { allDigits } from './text'

export type Party = 'seller' | 'buyer'

export interface FieldWords {
  /** Groups of meaning of the field's words, in their order, the party's among them. */
  groups: string[]
  /** The side of the document the field's words name. */
  party?: Party
  /** The shape the value must have, when the field's words say it. */
  shape?: Shape
  /** The part of an address the field asks for. */
  addressPart?: AddressPart
  /** Groups whose words answer "no" for this field ("unpaid" for "paid"). */
  opposites: string[]
}

export type AddressPart = 'street' | 'postcode' | 'city' | 'country'

/**
 * Groups too general to name a field by themselves: "date", "number" or "amount" alone is any
 * date, number or amount. With another group they make a label ("delivery date", "order number").
 */
const GENERAL_GROUPS = new Set(['date', 'number', 'amount', 'address', 'company', 'period'])

const PARTY_GROUPS: Record<string, Party> = { seller: 'seller', buyer: 'buyer' }

/** Groups whose words name a kind of value with a shape of its own (D111). */
export const SHAPE_GROUPS = new Set(['iban', 'bic', 'vat', 'phone', 'fax', 'email', 'website'])

/** Groups that only say which document a field is on ("invoice IBAN" is the IBAN). */
const QUALIFIERS = new Set(['invoice'])

const ADDRESS_PARTS = new Set<string>(['street', 'postcode', 'city', 'country'])

/** Words of a field's name that say nothing of what it is. */
const FILLER = new Set(['the', 'a', 'an', 'of', 'to', 'in', 'into', 'for', 'is', 'at', 'from', 'which', 'what', 'this', 'that', 'with', 'by', 'be', 'was'])

const VOCABULARIES = vocabularies()

/** Each form's words (folded) and its group, longest forms first. */
const FORMS: { words: string[]; group: string }[] = []
for (const vocabulary of VOCABULARIES.values())
  for (const [group, forms] of Object.entries(vocabulary.groups))
    for (const form of forms) {
      const formWords = words(form)
      if (formWords.length) FORMS.push({ words: formWords, group })
    }
FORMS.sort((a, b) => b.words.length - a.words.length)

/** Groups of status words ("paid", "unpaid"): a word in one of them and in another group means the status only for a yes/no field. */
const STATUS_GROUPS = new Set([...VOCABULARIES.values()].flatMap((vocabulary) => vocabulary.opposites.flat()))

/** One-word forms folded to letters, for the parts of a compound key ("lieferdatum", "kundennummer"). */
const PARTS = new Map<string, string>()
for (const form of FORMS) if (form.words.length === 1 && form.words[0]!.length >= 2 && !PARTS.has(form.words[0]!)) PARTS.set(form.words[0]!, form.group)

/** The groups of a word written as a compound of forms ("lieferdatum" → delivery, date), with an optional linking "s". */
function compoundGroups(word: string): string[] | undefined {
  const best: (string[] | undefined)[] = [[]]
  for (let end = 1; end <= word.length; end++)
    for (let start = Math.max(0, end - 24); start < end && !best[end]; start++) {
      const before = best[start]
      const group = before && PARTS.get(word.slice(start, end))
      if (before && group) best[end] = [...before, group]
      else if (before && start > 0 && word[start] === 's' && end === start + 1 && before.length) best[end] = before
    }
  const groups = best[word.length]
  return groups && groups.length > 1 ? groups : undefined
}

/** Negations of every language, as word lists, longest first. */
const NEGATIONS = [...new Set([...VOCABULARIES.values()].flatMap((vocabulary) => vocabulary.negations))]
  .map((negation) => words(negation))
  .sort((a, b) => b.length - a.length)

/**
 * How a text is read for groups: every word known (a key or label); unknown words passed over
 * ("Payee IBAN" → iban); or as prose, also up to its first negation ("the tax number, not the
 * VAT ID" → tax, number).
 */
type Reading = 'strict' | 'known' | 'prose'

/** The groups of a text's words, in order; undefined when none, or a word is unknown in a strict reading. */
function groupsOf(text: string, kind: string, reading: Reading = 'strict'): string[] | undefined {
  const tokens = words(
    text
      .replaceAll('_', ' ')
      .replace(/['’]s\b/g, '')
      .replace(/(\p{L})(\d)|(\d)(\p{L})/gu, '$1$3 $2$4'),
  )
  const groups: string[] = []
  const add = (group: string) => groups.includes(group) || groups.push(group)
  let i = 0
  while (i < tokens.length) {
    // Forms first: a filler may open one ("to pay").
    const matching = FORMS.filter((candidate) => candidate.words.every((word, j) => tokens[i + j] === word))
    const length = matching[0]?.words.length ?? 0
    const longest = matching.filter((form) => form.words.length === length)
    // "outstanding" is an amount still due, or a status of a yes/no field.
    const form = longest.find((candidate) => STATUS_GROUPS.has(candidate.group) === (kind === 'boolean')) ?? longest[0]
    if (form) {
      add(form.group)
      i += form.words.length
      continue
    }
    if (reading === 'prose' && NEGATIONS.some((negation) => negation.every((word, j) => tokens[i + j] === word))) break
    // A number in a key ("address_line2") tells its place, not what it is.
    if (FILLER.has(tokens[i]!) || allDigits(tokens[i]!)) {
      i++
      continue
    }
    const parts = compoundGroups(tokens[i]!)
    if (!parts && reading === 'strict') return undefined
    parts?.forEach(add)
    i++
  }
  return groups.length ? groups : undefined
}

/** What fields' words say, by key, label and type: the same for every document. */
const FIELD_WORDS = new Map<string, FieldWords | undefined>()

/** The groups, party, shape and address part of a field, from its key, else its label. */
export function fieldWords(spec: JobField): FieldWords | undefined {
  const id = JSON.stringify([spec.key, spec.label, spec.description, spec.type])
  if (FIELD_WORDS.has(id)) return FIELD_WORDS.get(id)
  const words = readFieldWords(spec)
  // Fields are named by users: keep the cache to a few thousand of them.
  if (FIELD_WORDS.size > 5000) FIELD_WORDS.clear()
  FIELD_WORDS.set(id, words)
  return words
}

/**
 * A key or label with a word no lexicon knows still names its field by the words it does know,
 * when one of them names something by itself (not only a date, number or party): "Payee IBAN",
 * "ship_date". Tried after every word of the key, then of the label, is known.
 */
function knownWordsOf(text: string, kind: string): string[] | undefined {
  const groups = groupsOf(text, kind, 'known')
  return groups?.some(namesSomething) ? groups : undefined
}

/** A group that names something by itself: not only a date, number, amount, party or document. */
function namesSomething(group: string): boolean {
  return !GENERAL_GROUPS.has(group) && !isPartyGroup(group) && !QUALIFIERS.has(group)
}

/** A group of a party's words ("seller", "buyer"). */
export function isPartyGroup(group: string): boolean {
  return Object.hasOwn(PARTY_GROUPS, group)
}

function readFieldWords(spec: JobField): FieldWords | undefined {
  const named = nameGroups(spec)
  const described = spec.description ? groupsOf(spec.description, spec.type, 'prose') : undefined
  if (!named) {
    // Nothing in the key or label is known: the description's words say what the field is, when
    // one of them names something by itself; of its parties, the first named is the field's
    // ("Account number of the customer at the supplier").
    if (!described?.some(namesSomething)) return undefined
    const party = described.find(isPartyGroup)
    return wordsOfGroups(
      described.filter((group) => !isPartyGroup(group) || group === party),
      spec,
    )
  }
  return described ? withDescription(named, described, spec) : wordsOfGroups(named, spec)
}

/**
 * Whether the field's key or label says what it is in words the lexicons know. A field of a
 * concept's role says more than the role only by its name: its description is prose about the
 * role ("Total before tax, as a decimal number" is no field of taxes and numbers).
 */
export function isNamedInWords(spec: JobField): boolean {
  return nameGroups(spec) !== undefined
}

/** The groups the key says, else the label (see below), else the words of the key that are known. */
function nameGroups(spec: JobField): string[] | undefined {
  const fromKey = groupsOf(spec.key, spec.type)
  const fromLabel = groupsOf(spec.label, spec.type) ?? knownWordsOf(spec.label, spec.type)
  // The key says what the field is; where it names no shape of value and the label does
  // ("payee_account" labelled "Payee IBAN"), the label says more.
  if (fromKey && !(shapeOf(fromKey, spec) === undefined && fromLabel && shapeOf(fromLabel, spec) !== undefined)) return fromKey
  return fromLabel ?? knownWordsOf(spec.key, spec.type)
}

/**
 * Groups of what a party is or has: a field named by these alone ("tax_id", "zip", "phone") is
 * the party's the description names ("Postcode of the customer's address").
 */
const PARTY_ATTRIBUTES = new Set([
  'street',
  'postcode',
  'city',
  'country',
  'address',
  'vat',
  'tax',
  'registration',
  'number',
  'account',
  'phone',
  'fax',
  'email',
  'website',
  'contact',
  'company',
])

/**
 * The groups a description narrows a broader name to: the kind of value it names in place of the
 * name's broader words ("Tax ID": "the supplier's VAT number" is a VAT ID; "Account": "the IBAN
 * the payment goes to").
 */
const NARROWER: Record<string, string[]> = {
  vat: ['tax'],
  iban: ['account', 'bank', 'number'],
  bic: ['bank', 'number'],
  email: ['contact', 'address'],
  phone: ['contact', 'number'],
  website: ['contact', 'address'],
}

/**
 * A field's groups from its name, made more exact by its description (D171): the party the
 * description names where the name names none and the field is something a party has, and the
 * kind of value it names where the name says only a broader one. Prose says more than a field is
 * ("the amount still to be paid after prepayments"), so nothing else of it is taken.
 */
function withDescription(named: string[], described: string[], spec: JobField): FieldWords {
  let groups = named
  const core = groups.filter((group) => !isPartyGroup(group) && !QUALIFIERS.has(group))
  const party = described.find(isPartyGroup)
  if (party && !groups.some(isPartyGroup) && core.every((group) => PARTY_ATTRIBUTES.has(group))) groups = [party, ...groups]
  if (spec.type === 'text') {
    for (const [narrow, broader] of Object.entries(NARROWER)) {
      if (!described.includes(narrow) || groups.includes(narrow)) continue
      const replaced = groups.findIndex((group) => broader.includes(group))
      if (replaced < 0 && shapeOf(core, spec) !== undefined) continue
      groups =
        replaced < 0 ? [...groups, narrow] : [...groups.slice(0, replaced), narrow, ...groups.slice(replaced + 1).filter((group) => !broader.includes(group))]
      break
    }
  }
  return wordsOfGroups(groups, spec)
}

/** Groups of documents a text field named by one of them alone refers to by number ("PO", "purchase order"). */
const REFERENCES = new Set(['order', 'delivery_note'])

function wordsOfGroups(named: string[], spec: JobField): FieldWords {
  const party = named.map((group) => PARTY_GROUPS[group]).find(Boolean)
  const reference = spec.type === 'text' && named.filter((group) => !isPartyGroup(group)).length === 1 && named.some((group) => REFERENCES.has(group))
  const groups = reference ? [...named, 'number'] : named
  const core = groups.filter((group) => !isPartyGroup(group))
  const opposites = [...VOCABULARIES.values()].flatMap((vocabulary) =>
    vocabulary.opposites.flatMap(([a, b]) => (core.includes(a) ? [b] : core.includes(b) ? [a] : [])),
  )
  return {
    groups,
    party,
    shape: shapeOf(core, spec),
    addressPart: core.find((group) => ADDRESS_PARTS.has(group)) as AddressPart | undefined,
    opposites: [...new Set(opposites)],
  }
}

/** The shape a field's groups ask for, for the kinds that carry one. */
function shapeOf(core: string[], spec: JobField): Shape | undefined {
  const has = (group: string) => core.includes(group)
  if (spec.type === 'number') return has('rate') ? 'percent' : undefined
  if (spec.type !== 'text') return undefined
  if (has('iban') || (has('account') && (has('bank') || has('payment')))) return 'iban'
  if (has('bic')) return 'bic'
  if (has('vat')) return 'vat_id'
  if (has('tax') && (has('number') || has('registration'))) return 'tax_number'
  if (has('phone') || has('fax')) return 'phone'
  if (has('email')) return 'email'
  if (has('website')) return 'url'
  if (has('payment') && has('method')) return 'payment_means'
  if (has('number')) return 'identifier'
  return undefined
}

/**
 * The most labels one field's words make: three groups of many forms in seven languages would make
 * tens of thousands, most of them never printed; the surest sets come first.
 */
const MAX_LABELS = 6000

/** The most groups combined into one label. */
const MAX_GROUPS = 3

/**
 * How a label stands for a field: by all its words, its party's among them ("Kundennummer"); by
 * its words without the party's ("USt-IdNr" for the seller's VAT ID), on that party's side only;
 * by broader words or without its general words ("Steuersatz" for a VAT rate, "Bestellung:" for
 * an order number), less surely; or by general words that name the field only inside its party's
 * block ("Nummer" under "Käufer").
 */
export type LabelKind = 'words' | 'core' | 'wider' | 'side'

export const LABEL_KINDS: readonly LabelKind[] = ['words', 'core', 'wider', 'side']

/**
 * The labels that stand for a field in the given languages: the forms of its groups in every
 * order, joined directly or by a joiner of the language. With a party among its groups, labels
 * without the party's words count as well when what remains names something by itself
 * ("USt-IdNr" for the seller's VAT ID); when it is general ("Nummer" for a customer number),
 * only inside the party's block.
 */
export function labelsFor(field: FieldWords, languages: readonly string[]): { phrase: string; kind: LabelKind }[] {
  const sets: [string[], LabelKind][] = [[field.groups, 'words']]
  // The party's words, and "invoice" on the invoice itself, qualify a field; labels often leave them out.
  const core = field.groups.filter((group) => !isPartyGroup(group) && !QUALIFIERS.has(group))
  const specific = (groups: string[]) => groups.some((group) => !GENERAL_GROUPS.has(group))
  if (core.length < field.groups.length && core.length) sets.push([core, specific(core) ? 'core' : 'side'])
  const withoutGeneral = core.filter((group) => !GENERAL_GROUPS.has(group))
  if (withoutGeneral.length && withoutGeneral.length < core.length) sets.push([withoutGeneral, 'wider'])
  // The word of a kind of value alone names it ("Telefon" for a contact phone, "BIC" for a bank's SWIFT code).
  const kind = core.length > 1 ? core.find((group) => SHAPE_GROUPS.has(group)) : undefined
  if (kind) sets.push([[kind], 'wider'])
  // A VAT rate may be printed as a tax rate ("Steuersatz"), and a tax rate as a VAT rate ("USt. %").
  for (const [narrow, broad] of BROADER) {
    if (core.includes(narrow)) sets.push([core.map((group) => (group === narrow ? broad : group)), 'wider'])
    if (core.includes(broad)) sets.push([core.map((group) => (group === broad ? narrow : group)), 'wider'])
  }
  // A sign that ends a value ("19 % VAT") starts no label.
  const labels = new Map<string, LabelKind>()
  // Fewer words first: they are printed more often than the longest phrase ("USt-IdNr" more than "Lieferanten-USt-IdNr").
  for (const [set, kind] of sets.sort((a, b) => a[0].length - b[0].length)) {
    if (set.length > MAX_GROUPS || (kind !== 'side' && set.length === 1 && GENERAL_GROUPS.has(set[0]!))) continue
    for (const language of languages) {
      const vocabulary = VOCABULARIES.get(language)
      if (!vocabulary) continue
      const forms = set.map((group) => vocabulary.groups[group] ?? [])
      if (forms.some((list) => !list.length)) continue
      const joiners = set.length === 2 ? ['', ...vocabulary.joiners] : ['']
      // Two or three words are printed in their order or the reverse ("date de livraison"), not shuffled.
      for (const order of [forms, [...forms].reverse()])
        for (const phrase of combine(order, joiners)) {
          if (labels.size >= MAX_LABELS) return [...labels].map(([phrase, kind]) => ({ phrase, kind }))
          if (!labels.has(phrase) && !phrase.startsWith('%')) labels.set(phrase, kind)
        }
    }
  }
  return [...labels].map(([phrase, kind]) => ({ phrase, kind }))
}

interface FoldedLabels {
  list: { squashed: string; kind: LabelKind }[]
  byLabel: Map<string, LabelKind>
}

/** The labels of every language for a field's words, folded for matching: the same for every document, made once. */
const FOLDED_LABELS = new Map<string, FoldedLabels>()

function foldedLabels(field: FieldWords): FoldedLabels {
  const id = field.groups.join(' ')
  const cached = FOLDED_LABELS.get(id)
  if (cached) return cached
  const byLabel = new Map<string, LabelKind>()
  for (const { phrase, kind } of labelsFor(field, vocabularyLanguages())) {
    const squashed = squashKeepingMarks(phrase).chars
    if (squashed.length >= 2 && !byLabel.has(squashed)) byLabel.set(squashed, kind)
  }
  const folded = { list: [...byLabel].map(([squashed, kind]) => ({ squashed, kind })), byLabel }
  // Fields are named by users: keep the cache to the words of a few thousand of them.
  if (FOLDED_LABELS.size > 2000) FOLDED_LABELS.clear()
  FOLDED_LABELS.set(id, folded)
  return folded
}

/** The folded labels that stand for a field (see `labelsFor`), as entries owned by the field. */
export function namedLabelEntries(field: FieldWords, key: string): LabelEntry[] {
  const owners = Object.fromEntries(LABEL_KINDS.map((kind) => [kind, namedOwner(kind, key)]))
  return foldedLabels(field).list.map(({ squashed, kind }) => ({ squashed, owner: owners[kind]! }))
}

/** Pairs of a narrower and a broader group, from every language. */
const BROADER: [string, string][] = [
  ...new Map([...VOCABULARIES.values()].flatMap((vocabulary) => vocabulary.broader).map((pair) => [pair.join(' '), pair])).values(),
]

/** Every phrase of one form from each list, in order, with each joiner between two forms. */
function combine(lists: string[][], joiners: string[]): string[] {
  let phrases = ['']
  lists.forEach((list, index) => {
    const next: string[] = []
    for (const phrase of phrases)
      for (const form of list) {
        if (index === 0) next.push(form)
        else for (const joiner of joiners) next.push(`${phrase} ${joiner} ${form}`)
      }
    phrases = next
  })
  return phrases
}

/** Every form of a group in every language: status words ("PAID", "bezahlt") and the words of headings. */
export function formsOf(group: string): string[] {
  return [...new Set([...VOCABULARIES.values()].flatMap((vocabulary) => vocabulary.groups[group] ?? []))]
}

/** Every language with a vocabulary. */
export function vocabularyLanguages(): string[] {
  return [...VOCABULARIES.keys()]
}

/**
 * A longer label that ends with a field's label names the field too ("Liefer- und
 * Leistungsdatum" ends with "Leistungsdatum"): a hit of another owner's longer label is also a
 * hit of the named field whose label ends it, since the longer label hides the shorter one; not
 * when the shorter one is a general word that names the field only inside its party's block.
 */
export function withLongerLabels(hits: LabelHit[], fields: { key: string; words: FieldWords }[]): LabelHit[] {
  const added: LabelHit[] = []
  // The owners a label gives depend on the label alone: a document of one label repeated finds them once (D186).
  const ownersOf = new Map<string, string[]>()
  for (const hit of hits) {
    if (isNamedOwner(hit.entry.owner)) continue
    const label = hit.entry.squashed
    let owners = ownersOf.get(label)
    if (!owners) {
      owners = []
      for (const { key, words } of fields) {
        const labels = foldedLabels(words).byLabel
        for (let start = 1; start <= label.length - 5; start++) {
          const kind = labels.get(label.slice(start))
          // A general word ends many labels of other things ("Steuernummer" is no "Nummer").
          if (kind && kind !== 'side') owners.push(namedOwner(kind, key))
        }
      }
      ownersOf.set(label, owners)
    }
    for (const owner of owners) added.push({ ...hit, entry: { squashed: label, owner } })
  }
  return added.length ? [...hits, ...added] : hits
}

/** The owner of a label that stands for a named field, by how it does. */
export function namedOwner(kind: LabelKind, key: string): string {
  return `${kind}:${key}`
}

function isNamedOwner(owner: string): boolean {
  const colon = owner.indexOf(':')
  return colon > 0 && (LABEL_KINDS as readonly string[]).includes(owner.slice(0, colon))
}
