/**
 * The document-type catalog: the built-in files compiled into the binary, plus an operator's
 * directory that adds or overrides types (D18). Every file is validated at start; a bad file
 * stops the start with a message naming the file and the path inside it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ApiError } from '../../http/errors'
import { duplicateKeyDetails } from '../../http/models'
import { embeddedCatalogFiles } from './embed-catalog' with { type: 'macro' }
import { CatalogFile, type CatalogField, type DocumentType, type SuggestedFields } from './model'

export interface DocumentTypeEntry {
  slug: string
  label: string
  description: string
  fields: CatalogField[]
  suggestedKeys: string[]
}

export interface Catalog {
  /** All types, ordered by slug. */
  list(): DocumentTypeEntry[]
  get(slug: string): DocumentTypeEntry | undefined
  slugs(): string[]
}

export class CatalogError extends Error {
  override name = 'CatalogError'
}

interface SourceFile {
  file: string
  text: string
}

// Elysia already loads TypeBox's compiler; its Value module would add memory for nothing.
let checker: ReturnType<typeof TypeCompiler.Compile<typeof CatalogFile>> | undefined
const catalogFileChecker = () => (checker ??= TypeCompiler.Compile(CatalogFile))

export const builtInFiles: SourceFile[] = embeddedCatalogFiles()

function parseFile({ file, text }: SourceFile): DocumentTypeEntry {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new CatalogError(`${file}: not valid JSON: ${(error as Error).message}`)
  }
  const problem = catalogFileChecker().Check(data) ? undefined : catalogFileChecker().Errors(data).First()
  if (problem) throw new CatalogError(`${file}: ${problem.path || '/'}: ${problem.message}`)
  const entry = data as CatalogFile
  const duplicate = duplicateKeyDetails(entry.fields)[0]
  if (duplicate) throw new CatalogError(`${file}: ${duplicate.path}: ${duplicate.message}`)
  if (basename(file) !== `${entry.slug}.json`)
    throw new CatalogError(`${file}: /slug: the file must be named ${entry.slug}.json`)
  return {
    ...entry,
    suggestedKeys: entry.fields.filter((field) => field.required).map((field) => field.key),
  }
}

function readDirectory(dir: string): SourceFile[] {
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json')).sort()
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
  for (const source of options.builtIns ?? builtInFiles) {
    const entry = parseFile(source)
    bySlug.set(entry.slug, entry)
  }
  if (options.extraDir) {
    for (const source of readDirectory(options.extraDir)) {
      const entry = parseFile(source)
      bySlug.set(entry.slug, entry)
    }
  }
  const entries = [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1))
  return {
    list: () => entries,
    get: (slug) => bySlug.get(slug),
    slugs: () => entries.map((entry) => entry.slug),
  }
}

export function toDocumentType(entry: DocumentTypeEntry): DocumentType {
  return { slug: entry.slug, label: entry.label, description: entry.description }
}

export function toSuggestedFields(entry: DocumentTypeEntry): SuggestedFields {
  return {
    type: entry.slug,
    label: entry.label,
    description: entry.description,
    fields: entry.fields.map(({ key, label, description, required }) => ({ key, label, description, required })),
    suggested_keys: entry.suggestedKeys,
  }
}

/** 404 for a slug the catalog does not hold, listing the ones it does (D1). */
export function unknownDocumentType(catalog: Catalog, slug: string): ApiError {
  return new ApiError('unknown_document_type', `Unknown document type: "${slug}"`, {
    available_types: catalog.slugs(),
  })
}
