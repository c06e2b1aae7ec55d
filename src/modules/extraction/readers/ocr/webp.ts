/** WebP decoding with libwebp compiled to WebAssembly; its .wasm travels inside the binary. */
import { init } from '@jsquash/webp/decode.js'
import decode from '@jsquash/webp/decode.js'
import wasmPath from '@jsquash/webp/codec/dec/webp_dec.wasm' with { type: 'file' }

let ready: Promise<void> | undefined

export async function decodeWebp(bytes: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  ready ??= Bun.file(wasmPath)
    .arrayBuffer()
    .then((wasm) => init(new WebAssembly.Module(wasm)))
  await ready
  const copy = bytes.slice()
  return decode(copy.buffer)
}
