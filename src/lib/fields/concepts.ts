/**
 * What a field means (D91, D95): the concepts of data/concepts.json — common fields whatever a
 * caller names them — and the type inferred for a field declared `auto`. Their printed labels are
 * the lexicons' (`conceptLabels`), read only where documents are read; typing a field reads only
 * their words for identifiers (D281). Knowledge as data: the engine's readers pick up a concept by its `role`;
 * catalog, schemas, jobs and the OCR reader's label mending read the same table.
 *
 * Labels of every concept also serve as competitors: "Due Date" is a longer label than "Date",
 * so a line "Due Date: …" is never read as the invoice date even when only `date` is asked for.
 */
import conceptsFile from '../../../data/concepts.json'
import { vocabularies } from '../lexicon'
import { words } from '../text'
import { RESOLVED_TYPES, type ResolvedType } from './types'

export const ROLES = [
  'invoice_number',
  'issue_date',
  'due_date',
  'total',
  'subtotal',
  'tax',
  'currency',
  'issuer',
  'recipient',
  'parties',
  'governing_law',
  'effective_date',
  'agreement_date',
  'expiration_date',
  'term',
  'notice_period',
  'title',
  'signatories',
] as const

/** What picks a concept's special reader in an engine. */
export type Role = (typeof ROLES)[number]

export interface Concept {
  id: string
  role?: Role
  kind: ResolvedType
  /** Field keys that stand for the concept whatever their label. */
  keys: string[]
  /** Word groups: a field whose key and label hold a word of every group stands for it … */
  words: string[][]
  /** … unless they hold one of these. */
  notWords: string[]
}

interface ConceptEntry {
  id: string
  role?: string
  kind: string
  keys?: string[]
  words?: string[][]
  not_words?: string[]
}

interface KindEntry {
  kind: string
  not_head?: string[]
  head?: string[]
  any?: string[]
  description?: string[]
}

function checkedKind(kind: string, where: string): ResolvedType {
  if (!(RESOLVED_TYPES as readonly string[]).includes(kind)) throw new Error(`data/concepts.json: ${where} has an unknown kind "${kind}"`)
  return kind as ResolvedType
}

function checkedRole(role: string | undefined, where: string): Role | undefined {
  if (role !== undefined && !(ROLES as readonly string[]).includes(role)) throw new Error(`data/concepts.json: ${where} has an unknown role "${role}"`)
  return role as Role | undefined
}

export const CONCEPTS: readonly Concept[] = (conceptsFile.concepts as ConceptEntry[]).map((entry) => ({
  id: entry.id,
  role: checkedRole(entry.role, entry.id),
  kind: checkedKind(entry.kind, entry.id),
  keys: entry.keys ?? [],
  words: entry.words ?? [],
  notWords: entry.not_words ?? [],
}))

/**
 * Words of a kind's `not_head`, with every lexicon's forms of the vocabulary group of the same name
 * ("number" → Nummer, numéro, kenmerk …; "iban"): a key or label naming an identifier ("vat_id",
 * "USt-IdNr", "IBAN") is never inferred as an amount (D281).
 */
function notHead(list: readonly string[]): string[] {
  const groups = [...vocabularies().values()].map((vocabulary) => vocabulary.groups)
  const forms = list.flatMap((word) => groups.flatMap((group) => (Object.hasOwn(group, word) ? group[word]! : [])))
  return [...new Set([...list, ...forms.flatMap((form) => words(form))])]
}

let kinds: { kind: ResolvedType; notHead: string[]; head: string[]; any: string[]; description: string[] }[] | undefined

/** The kinds' words, made with the first field typed, not at start: `notHead` reads the lexicons (D150, D375). */
const kindsOf = () =>
  (kinds ??= (conceptsFile.kinds as KindEntry[]).map((entry) => ({
    kind: checkedKind(entry.kind, `kinds/${entry.kind}`),
    notHead: notHead(entry.not_head ?? []),
    head: entry.head ?? [],
    any: entry.any ?? [],
    description: entry.description ?? [],
  })))

const hasAny = (list: readonly string[], wanted: readonly string[]) => wanted.some((word) => list.includes(word))

function means(concept: Concept, keyWords: string[], key: string): boolean {
  if (concept.keys.includes(key)) return true
  if (!concept.words.length) return false
  return concept.words.every((group) => hasAny(keyWords, group)) && !hasAny(keyWords, concept.notWords)
}

/** The concept a requested field stands for, judged from its key and label; undefined for others. */
export function conceptOf(key: string, label: string): Concept | undefined {
  const keyWords = words(`${key} ${label}`)
  const normalisedKey = key.toLowerCase()
  return CONCEPTS.find((concept) => means(concept, keyWords, normalisedKey))
}

/** The type of a field that stands for no concept, from the words of its key, label and description. */
function inferKind(key: string, label: string, description: string): ResolvedType {
  // "#" is written for "number" ("VAT #"), and words() drops it.
  const head = words(`${key} ${label}`.replace(/#/g, ' number '))
  const all = words(`${key} ${label} ${description}`)
  const phrase = description.toLowerCase()
  const found = kindsOf().find(
    (entry) =>
      !hasAny(head, entry.notHead) && (hasAny(head, entry.head) || hasAny(all, entry.any) || entry.description.some((wanted) => phrase.includes(wanted))),
  )
  return found?.kind ?? 'text'
}

/**
 * The type of a field declared `auto` (D91), as the engine has always read it: its concept's
 * kind, else inferred from its key, label and description.
 */
export function inferType(key: string, label: string, description: string): ResolvedType {
  return conceptOf(key, label)?.kind ?? inferKind(key, label, description)
}

/** The amounts checked against each other between a job's answers (D282). */
export const SUM_ROLES = ['rate', 'subtotal', 'tax', 'cash', 'change', 'paid', 'total'] as const
export type SumRole = (typeof SUM_ROLES)[number]

const SUM_WORDS = conceptsFile.sums as unknown as Record<SumRole, string[]>

/**
 * Which amount of the sums a field stands for (D282): its concept's role for the catalog's total,
 * subtotal and tax; else the first role one of whose words its key or label holds (a rate only
 * beside a tax word: "vat_rate"). Amount fields only, and a rate may be a number.
 */
export function sumRoleOf(key: string, label: string, type: ResolvedType): SumRole | undefined {
  if (type !== 'amount' && type !== 'number') return undefined
  const concept = conceptOf(key, label)
  if (concept?.kind === type && (concept.role === 'total' || concept.role === 'subtotal' || concept.role === 'tax')) return concept.role
  const said = words(`${key} ${label}`)
  const says = (role: SumRole) => hasAny(said, SUM_WORDS[role])
  if (says('rate') || said.includes('%')) return says('tax') ? 'rate' : undefined
  if (type !== 'amount') return undefined
  return SUM_ROLES.find((role) => role !== 'rate' && says(role))
}
