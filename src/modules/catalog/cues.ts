/**
 * The cues of a type whose file gives none (D241): an operator's own type is known by what it is
 * called, in every lexicon language where the lexicons know the name, and by its fields' labels
 * (which the classifier reads from the fields themselves).
 */
import type { CueSign, TypeCues } from './classification'
import { conceptOf } from '../../lib/fields/concepts'
import { lexiconWords, vocabularies } from '../../lib/lexicon'
import { escapeRegex, fold, words } from '../../lib/text'
import type { CatalogFile } from './model'

let groupForms: Map<string, string[]> | undefined

/**
 * Every language's forms of each vocabulary group, by the group's forms folded: "delivery note" →
 * Lieferschein, følgeseddel … Made with the first type that needs its cues derived, not at start
 * (D150, D371).
 */
function formsOfGroups(): Map<string, string[]> {
  if (groupForms) return groupForms
  const byGroup = new Map<string, Set<string>>()
  for (const vocabulary of vocabularies().values())
    for (const [group, forms] of Object.entries(vocabulary.groups))
      for (const form of forms) (byGroup.get(group) ?? byGroup.set(group, new Set()).get(group)!).add(form)
  groupForms = new Map()
  for (const forms of byGroup.values())
    for (const form of forms) {
      const key = words(form).join(' ')
      ;(groupForms.get(key) ?? groupForms.set(key, []).get(key)!).push(...forms)
    }
  return groupForms
}

/** The most words of a description's item that is taken as a phrase of the type: its enumerations name kinds of it ("pay stubs", "Kontoauszüge"). */
const MAX_PHRASE_WORDS = 3

let itemEnd: RegExp | undefined

/** Where a description's items end: punctuation, or the word "and" of a lexicon language. */
const itemEndPattern = () => (itemEnd ??= new RegExp(`[,;:.()]|\\s(?:${lexiconWords('list_and').map(escapeRegex).join('|')})\\s`, 'iu'))

export function derivedCues(type: CatalogFile): TypeCues {
  const titles = new Set<string>()
  // "Contract / Agreement", "Payslip (Salary Slip)": each part is a name of the type.
  for (const part of [type.label, ...type.label.split(/\s*[/|(),]\s*/), type.slug.replace(/_/g, ' ')]) {
    const name = part.trim()
    if (!/\p{L}{2}/u.test(name)) continue
    titles.add(name)
    // A name the lexicons know is known in their every language.
    for (const form of formsOfGroups().get(words(name).join(' ')) ?? []) if (/\p{L}{2}/u.test(form)) titles.add(form)
  }
  const named = new Set([...titles].map(fold))
  const phrases = new Set<string>()
  for (const item of type.description.split(itemEndPattern())) {
    const itemWords = item.trim().split(/\s+/u).filter(Boolean)
    if (itemWords.length && itemWords.length <= MAX_PHRASE_WORDS && /\p{L}{4}/u.test(item) && !named.has(fold(item.trim()))) phrases.add(itemWords.join(' '))
  }
  return { titles: distinct(titles), phrases: distinct(phrases), signs: derivedSigns(type) }
}

/** Words once each, as folded: "Delivery Note" and "delivery note" are one. */
function distinct(list: Iterable<string>): string[] {
  const seen = new Set<string>()
  return [...list].filter((word) => !seen.has(fold(word)) && seen.add(fold(word)))
}

/** Signs a type's fields imply: a total among its amounts, a table of amounts among its tables. */
function derivedSigns(type: CatalogFile): CueSign[] {
  const signs = new Set<CueSign>()
  for (const field of type.fields) {
    const kind = field.type
    if (kind === 'amount' && conceptOf(field.key, field.label)?.id === 'total') signs.add('total')
    if (kind === 'table' && field.columns?.some((column) => column.type === 'amount')) signs.add('item_table')
  }
  return [...signs]
}
