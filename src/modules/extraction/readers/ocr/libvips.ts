/**
 * sharp (libvips) inside the one binary (D156). `bun build --compile` embeds sharp's `.node` addon
 * but not the libvips library that the addon loads from a path beside it, so the library travels
 * as an embedded file: once compiled, it is written to a cache directory named after its version
 * (once per machine and version) and loaded before the addon, whose own reference to it then
 * resolves to the copy already loaded. Run from source, node_modules holds it and it is loaded in
 * place. Where it cannot be loaded (another platform's build), photos fall back to the built-in
 * decoders and their limits.
 */
import { dlopen } from 'bun:ffi'
import type Sharp from 'sharp'
import libvipsPath from '../../../../../node_modules/@img/sharp-libvips-linux-x64/lib/libvips-cpp.so.8.18.7' with { type: 'file' }
import { loadablePath } from './native-library'

type SharpFactory = typeof Sharp

const LIBRARY_NAME = 'libvips-cpp.so.8.18.7'

let loaded: SharpFactory | null | undefined

/** sharp, ready to decode; null where its native library cannot be loaded on this machine. */
export function sharpDecoder(): SharpFactory | null {
  if (loaded !== undefined) return loaded
  try {
    if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('libvips is embedded for linux-x64 only')
    const library = loadablePath(libvipsPath, LIBRARY_NAME, 'libvips-8.18.7')
    if (library) dlopen(library, { vips_version: { args: ['i32'], returns: 'i32' } })
    // Required (not imported) so that it runs after the library is loaded, and so that the
    // bundler embeds the addon: sharp's ES module finds it through createRequire, out of its sight.
    const sharp = require('sharp') as SharpFactory
    // Pages are decoded once each: nothing is worth caching, and jobs run side by side.
    sharp.cache(false)
    sharp.concurrency(1)
    loaded = sharp
  } catch (error) {
    console.warn(`Photos are decoded without libvips: ${(error as Error).message}`)
    loaded = null
  }
  return loaded
}
