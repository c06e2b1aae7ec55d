/**
 * Shared libraries inside the one binary (D156): `bun build --compile` embeds a `.node` addon but
 * not the libraries it loads from a path beside it, so those travel as embedded files, written
 * once per machine and version to a cache directory named after the version and contents, and
 * loaded before the addon, whose own reference to the library then resolves to the copy loaded.
 */
import { createHash } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { basename, join } from 'node:path'

/** Inside a compiled binary, embedded files live under this virtual root. */
const EMBEDDED_ROOT = '/$bunfs/'

/**
 * The path to load the library from before its addon, in a compiled binary: the embedded file
 * written to `<cache>/extractd/<label>-<digest>/<name>`, a gzipped one (`gzipped`) unpacked.
 * Undefined when run from source: the addon finds the library beside it in node_modules. The build names an embedded file after a hash of its contents
 * ("libonnxruntime.so.1-brvx2cgw.gz"), so the digest is taken of that name: each extraction
 * process that starts finds the copy without reading the library (tens of MB) again.
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
      unpackOnce(target, () => {
        const bytes = readFileSync(embedded)
        return gzipped ? Bun.gunzipSync(bytes) : bytes
      })
      return target
    } catch {
      // Not writable here: the next place is tried.
    }
  }
  throw new Error(`no writable cache directory for ${label}`)
}

/** A lock older than this was left by a process that died while unpacking. */
const STALE_LOCK_MS = 60_000

/**
 * Writes `target` unless another process is writing it: extraction processes starting together
 * (D190), or two servers on one machine, unpack a library once, the others waiting for its copy.
 * Written beside and renamed, so no process ever loads half a file.
 */
function unpackOnce(target: string, contents: () => Uint8Array): void {
  const lock = `${target}.lock`
  while (!existsSync(target)) {
    let fd: number
    try {
      fd = openSync(lock, 'wx')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true })
      } catch {
        // Gone meanwhile: the copy is there, or the next turn takes the lock.
      }
      Bun.sleepSync(50)
      continue
    }
    try {
      const partial = `${target}.${process.pid}.part`
      writeFileSync(partial, contents(), { mode: 0o644 })
      renameSync(partial, target)
    } finally {
      closeSync(fd)
      rmSync(lock, { force: true })
    }
  }
}

/** The user's cache directory, else the system's temporary one (which honours TMPDIR). */
function cacheRoots(): string[] {
  return [join(homedir(), '.cache'), tmpdir()]
}
