/**
 * Bun macros: run at build time and inline data/document-types into the bundle, so the binary
 * carries the built-in catalog (D18). The files are checked here, so a bad one fails the build
 * and the server need not check them again at every start.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseCatalogFile } from './catalog-file'
import type { CatalogFile } from './model'

/** The files of data/document-types, read from disk (at build time when used as a macro). */
export function readCatalogFiles(): { file: string; text: string }[] {
  const dir = join(import.meta.dir, '../../../data/document-types')
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ file: `data/document-types/${name}`, text: readFileSync(join(dir, name), 'utf8') }))
}

export function embeddedCatalogTypes(): CatalogFile[] {
  return readCatalogFiles().map((source) => {
    const { suggestedKeys: _, ...type } = parseCatalogFile(source)
    return type
  })
}
