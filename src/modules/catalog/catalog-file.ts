/** One catalog file: its checks, shared by the build-time macro and the operator's directory (D18, D39). */
import { basename } from 'node:path'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { fieldListDetails } from '../../lib/fields/model'
import { AUTO_TYPE } from './classification'
import { CatalogFile, type DocumentTypeEntry } from './model'

export class CatalogError extends Error {
  override name = 'CatalogError'
}

export interface SourceFile {
  file: string
  text: string
}

// Elysia already loads TypeBox's compiler; its Value module would add memory for nothing.
let checker: ReturnType<typeof TypeCompiler.Compile<typeof CatalogFile>> | undefined
const catalogFileChecker = () => (checker ??= TypeCompiler.Compile(CatalogFile))

/** A checked file with the keys of its fields marked `required`. */
export function toEntry(data: CatalogFile): DocumentTypeEntry {
  return { ...data, suggestedKeys: data.fields.filter((field) => field.required).map((field) => field.key) }
}

/** Parses and checks a file; a problem is a CatalogError naming the file and the JSON path. */
export function parseCatalogFile({ file, text }: SourceFile): DocumentTypeEntry {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new CatalogError(`${file}: not valid JSON: ${(error as Error).message}`)
  }
  const problem = catalogFileChecker().Check(data) ? undefined : catalogFileChecker().Errors(data).First()
  if (problem) throw new CatalogError(`${file}: ${problem.path || '/'}: ${problem.message}`)
  const entry = data as CatalogFile
  for (const [index, field] of entry.fields.entries()) {
    if (field.kind === undefined) continue
    if (field.type !== undefined) throw new CatalogError(`${file}: /fields/${index}/kind: give type only (kind is its old name)`)
    const { kind, ...rest } = field
    entry.fields[index] = { ...rest, type: kind }
  }
  const duplicate = fieldListDetails(entry.fields)[0]
  if (duplicate) throw new CatalogError(`${file}: ${duplicate.path}: ${duplicate.message}`)
  if (entry.slug === AUTO_TYPE) throw new CatalogError(`${file}: /slug: "${AUTO_TYPE}" asks for the classifier and cannot be a type's slug`)
  if (basename(file) !== `${entry.slug}.json`) throw new CatalogError(`${file}: /slug: the file must be named ${entry.slug}.json`)
  return toEntry(entry)
}
