/**
 * Whether a Deflate stream inflates past a limit, found by inflating it with the limit as its
 * ceiling (D120): the readers ask before a decoder inflates a stream whole, so a stream of a few
 * KiB that unpacks to gigabytes (ratios past 1000:1) is refused having cost at most the limit,
 * for the moment it takes.
 */
import type * as Zlib from 'node:zlib'

/** Largest output asked for at once (--max-decode-mb stops below it). */
const MAX_OUTPUT = 2 ** 32 - 1

let zlib: typeof Zlib | undefined

/** Loaded at the first use, not when the server starts. */
function nodeZlib(): typeof Zlib {
  zlib ??= process.getBuiltinModule('node:zlib') as typeof Zlib
  return zlib
}

/** True when `data` inflates to more than `limit` bytes; data that is not valid Deflate is left to its decoder. */
export function inflatesPast(data: Uint8Array, format: 'zlib' | 'raw', limit: number): boolean {
  try {
    inflate(data, format, limit)
    return false
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
  }
}

/** The inflated bytes, at most `limit` of them: a RangeError (ERR_BUFFER_TOO_LARGE) past that. */
export function inflate(data: Uint8Array, format: 'zlib' | 'raw', limit: number): Uint8Array {
  const { inflateSync, inflateRawSync } = nodeZlib()
  const options = { maxOutputLength: Math.max(1, Math.min(limit, MAX_OUTPUT)) }
  return format === 'zlib' ? inflateSync(data, options) : inflateRawSync(data, options)
}
