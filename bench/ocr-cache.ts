/**
 * Readings kept on disk for the benchmarks (`--ocr-cache=<dir>`): what the readers return for each
 * document, read from there next time, so a change of the engine's rules is measured in seconds
 * instead of re-running OCR. An entry is keyed by the document's bytes, the read options and a hash
 * of every reader source file, so a change to the readers (OCR, layout, photo crop) reads the
 * documents again. Used by bench/extract.ts and bench/classify.ts.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readDocument } from '../src/modules/extraction/readers'
import type { DocumentText, MediaType, ReadOptions } from '../src/modules/extraction/readers/types'

/**
 * Hash of the readers' source files, the shared code and data they use (the lexicons: OCR mends
 * misread label words towards them and picks its languages by them), the OCR models and the pinned
 * dependencies: what a cached reading depends on.
 */
function readersHash(): string {
  const hash = createHash('sha256')
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else {
        hash.update(path.slice(import.meta.dir.length))
        hash.update(readFileSync(path))
      }
    }
  }
  for (const dir of ['../src/modules/extraction/readers', '../src/lib', '../data/ocr', '../data/lexicon']) visit(resolve(import.meta.dir, dir))
  for (const file of ['../src/modules/extraction/normalise/currency.ts', '../data/concepts.json', '../package-lock.json']) {
    hash.update(file)
    hash.update(readFileSync(resolve(import.meta.dir, file)))
  }
  return hash.digest('hex').slice(0, 16)
}

/** readDocument, keeping each reading in `dir` under the hash of the document, the options and the readers. */
export function cachedReader(dir: string) {
  mkdirSync(dir, { recursive: true })
  const readers = readersHash()
  return async (bytes: Uint8Array, mediaType: MediaType, options?: ReadOptions): Promise<DocumentText> => {
    const key = createHash('sha256')
      .update(bytes)
      // The recogniser `--recogniser=` picks changes the reading as much as the readers' code does.
      // A reading stopped early (`textPages`) is another reading; a whole one keys as it always did.
      .update(
        JSON.stringify([
          mediaType,
          options?.limits,
          options?.readTwice === true,
          readers,
          options?.recogniser ?? '',
          ...(options?.textPages ? [options.textPages] : []),
        ]),
      )
      .digest('hex')
    const path = join(dir, `${key}.json`)
    if (existsSync(path)) {
      const document = JSON.parse(readFileSync(path, 'utf8')) as DocumentText
      options?.onPage?.(document.pages.length, document.pages.length)
      return revive(document)
    }
    const document = await readDocument(bytes, mediaType, options)
    writeFileSync(path, JSON.stringify(document))
    return document
  }
}

/** JSON writes a page without layout as null; the engines expect undefined there. */
function revive(document: DocumentText): DocumentText {
  const layout = document.layout?.map((page) => page ?? undefined)
  const second = document.secondReading ? revive(document.secondReading) : undefined
  const { pageCount } = document
  return { pages: document.pages, ...(layout ? { layout } : {}), ...(second ? { secondReading: second } : {}), ...(pageCount ? { pageCount } : {}) }
}
