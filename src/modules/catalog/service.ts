/**
 * The document-type catalog: the built-in files compiled into the binary, plus an operator's
 * directory that adds or overrides types (D18). Every file is validated at start; a bad file
 * stops the start with a message naming the file and the path inside it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ApiError } from '../../http/errors'
import type { ClassifiableType, TypeCues } from './classification'
import { completeField } from '../../lib/fields/model'
import { resolveField } from '../../lib/fields/resolve'
import { embeddedCatalogTypes } from './embed-catalog' with { type: 'macro' }
import { CatalogError, parseCatalogFile, type SourceFile, toEntry } from './catalog-file'
import { derivedCues } from './cues'
import type { CatalogFile, DocumentType, DocumentTypeEntry, SuggestedFields } from './model'

export { CatalogError }
export type { DocumentTypeEntry }

export interface Catalog {
  /** All types, ordered by slug. */
  list(): DocumentTypeEntry[]
  get(slug: string): DocumentTypeEntry | undefined
  slugs(): string[]
  /** Every type with its cues and typed fields, as the classifier reads them (D240). */
  classifiable(): ClassifiableType[]
}

/** The built-in types, already checked when the binary was built (the build fails on a bad file). */
const builtInTypes: CatalogFile[] = embeddedCatalogTypes()

/**
 * A type's cues, or those derived from it when it gives none (D241). Here, not in catalog-file.ts,
 * which the build-time macro runs without the lexicons.
 */
function cuesOf(type: DocumentTypeEntry): TypeCues {
  const { cues } = type
  return cues ? { titles: cues.titles, phrases: cues.phrases ?? [], signs: cues.signs ?? [] } : derivedCues(type)
}

function readDirectory(dir: string): SourceFile[] {
  let names: string[]
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
  } catch (error) {
    throw new CatalogError(`${dir}: cannot read the catalog directory: ${(error as Error).message}`)
  }
  return names.map((name) => {
    const file = join(dir, name)
    try {
      return { file, text: readFileSync(file, 'utf8') }
    } catch (error) {
      throw new CatalogError(`${file}: cannot read the file: ${(error as Error).message}`)
    }
  })
}

/** Builds the catalog from the built-in files and, when given, an operator's directory. */
export function loadCatalog(options: { extraDir?: string; builtIns?: SourceFile[] } = {}): Catalog {
  const bySlug = new Map<string, DocumentTypeEntry>()
  const builtIns = options.builtIns ? options.builtIns.map(parseCatalogFile) : builtInTypes.map(toEntry)
  for (const entry of builtIns) bySlug.set(entry.slug, entry)
  if (options.extraDir) {
    for (const source of readDirectory(options.extraDir)) {
      const entry = parseCatalogFile(source)
      bySlug.set(entry.slug, entry)
    }
  }
  const entries = [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1))
  const slugs = entries.map((entry) => entry.slug)
  // Made with the first classification, not at start: deriving cues reads the lexicons (D150, D371).
  let classifiable: ClassifiableType[] | undefined
  return {
    list: () => entries,
    get: (slug) => bySlug.get(slug),
    slugs: () => slugs,
    classifiable: () => (classifiable ??= entries.map(toClassifiable)),
  }
}

function toClassifiable(type: DocumentTypeEntry): ClassifiableType {
  const { slug, label, fields } = type
  return { slug, label, cues: cuesOf(type), fields: fields.map(({ aliases, ...field }) => resolveField(field, { type: field.type, aliases })) }
}

export function toDocumentType(entry: DocumentTypeEntry): DocumentType {
  return { slug: entry.slug, label: entry.label, description: entry.description }
}

export function toSuggestedFields(entry: DocumentTypeEntry): SuggestedFields {
  return {
    type: entry.slug,
    label: entry.label,
    description: entry.description,
    fields: entry.fields.map(completeField),
    suggested_keys: entry.suggestedKeys,
  }
}

/** 404 for a slug the catalog does not hold, listing the ones it does (D1). */
export function unknownDocumentType(catalog: Catalog, slug: string): ApiError {
  return new ApiError('unknown_document_type', `Unknown document type: "${slug}"`, {
    available_types: catalog.slugs(),
  })
}
