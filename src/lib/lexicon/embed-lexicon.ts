/**
 * Bun macro: runs at build time and inlines data/lexicon into the bundle, so the binary carries
 * every language's words (D95). The files are checked here: a bad one fails the build.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Lexicon, parseLexiconFile } from './lexicon-file'

/** The files of data/lexicon, read from disk. */
export function readLexiconFiles(): { file: string; text: string }[] {
  const dir = join(import.meta.dir, '../../../data/lexicon')
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ file: `data/lexicon/${name}`, text: readFileSync(join(dir, name), 'utf8') }))
}

export function embeddedLexicons(): Lexicon[] {
  return readLexiconFiles().map(parseLexiconFile)
}
