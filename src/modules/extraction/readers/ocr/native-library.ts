/**
 * Shared libraries inside the one binary (D156): `bun build --compile` embeds a `.node` addon but
 * not the libraries it loads from a path beside it, so those travel as embedded files, written
 * once per machine and version to a cache directory named after the version and contents, and
 * loaded before the addon, whose own reference to the library then resolves to the copy loaded.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { basename, join } from 'node:path'

/** Inside a compiled binary, embedded files live under this virtual root. */
const EMBEDDED_ROOT = '/$bunfs/'

/**
 * The path to load the library from before its addon, in a compiled binary: the embedded file
 * written to `<cache>/extractd/<label>-<digest>/<name>`, a gzipped one (`gzipped`) unpacked.
 * Undefined when run from source: the addon finds the library beside it in node_modules. The build names an embedded file after a hash of its contents
 * ("libonnxruntime.so.1-brvx2cgw.gz"), so the digest is taken of that name: each extraction
 * thread that starts finds the copy without reading the library (tens of MB) again.
 */
export function loadablePath(embedded: string, name: string, label: string, gzipped = false): string | undefined {
  if (!embedded.startsWith(EMBEDDED_ROOT)) return undefined
  const digest = createHash('sha256').update(basename(embedded)).digest('hex').slice(0, 16)
  for (const base of cacheRoots()) {
    const directory = join(base, 'extractd', `${label}-${digest}`)
    const target = join(directory, name)
    try {
      // Copies are renamed into place whole, so one that exists is complete.
      if (existsSync(target)) return target
      mkdirSync(directory, { recursive: true })
      // Written beside and renamed, so a process starting alongside never loads half a file.
      const partial = `${target}.${process.pid}.part`
      const bytes = readFileSync(embedded)
      writeFileSync(partial, gzipped ? Bun.gunzipSync(bytes) : bytes, { mode: 0o644 })
      renameSync(partial, target)
      return target
    } catch {
      // Not writable here: the next place is tried.
    }
  }
  throw new Error(`no writable cache directory for ${label}`)
}

/** The user's cache directory, else the system's temporary one (which honours TMPDIR). */
function cacheRoots(): string[] {
  return [join(homedir(), '.cache'), tmpdir()]
}
