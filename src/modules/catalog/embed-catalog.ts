/**
 * Bun macro: runs at build time and inlines every file of data/document-types into the bundle,
 * so the binary carries the built-in catalog (D18). Files are inlined as text and validated at
 * start like an operator's own files.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export function embeddedCatalogFiles(): { file: string; text: string }[] {
  const dir = join(import.meta.dir, '../../../data/document-types')
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ file: `data/document-types/${name}`, text: readFileSync(join(dir, name), 'utf8') }))
}
