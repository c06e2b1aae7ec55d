/**
 * ONNX Runtime (onnxruntime-node's native CPU build) for the PaddleOCR models (D161). Sessions
 * run on one thread each: extraction already runs one job per worker thread and core.
 *
 * In the one binary, as libvips (D156): the bundler embeds onnxruntime-node's `.node` addon but not
 * `libonnxruntime.so.1` beside it, so the library is embedded gzipped (packed by
 * scripts/pack-onnxruntime.mjs at install), written unpacked to the cache directory at first use
 * and loaded before the addon. Run from source, the addon finds it in node_modules. Elsewhere than
 * linux-x64 it is not loaded, and pages are read by Tesseract alone.
 */
import { dlopen } from 'bun:ffi'
import { readFileSync } from 'node:fs'
import packedRuntime from '../../../../../node_modules/.extractd/libonnxruntime.so.1.gz' with { type: 'file' }
import { isEmbedded, loadablePath } from './native-library'

const LIBRARY_NAME = 'libonnxruntime.so.1'
/** onnxruntime-node's version, pinned in package.json; it names the cache directory. */
const VERSION = '1.30.0'

export interface OnnxTensor {
  data: Float32Array
  dims: readonly number[]
}

export interface OnnxSession {
  /** Runs the model on its inputs, in the model's order; resolves to its outputs, in order. */
  run(inputs: OnnxTensor[]): Promise<OnnxTensor[]>
}

/** ONNX Runtime could not be loaded on this machine, or a model could not be. */
export class OnnxUnavailable extends Error {
  override name = 'OnnxUnavailable'
}

type Ort = typeof import('onnxruntime-node')

let runtime: Ort | null | undefined
let failure: string | undefined

/** onnxruntime-node, loaded once; null where it cannot be (the reason in `onnxFailure()`). */
export function onnxRuntime(): Ort | null {
  if (runtime !== undefined) return runtime
  try {
    if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('ONNX Runtime is embedded for linux-x64 only')
    disableTelemetry()
    if (isEmbedded(packedRuntime)) {
      const library = loadablePath(packedRuntime, LIBRARY_NAME, `onnxruntime-${VERSION}`, true)
      dlopen(library, { OrtGetApiBase: { args: [], returns: 'ptr' } })
    }
    // Required (not imported) so that it runs after the library is loaded.
    runtime = require('onnxruntime-node') as Ort
  } catch (error) {
    failure = (error as Error).message
    runtime = null
  }
  return runtime
}

/**
 * ONNX Runtime 1.29+ uploads usage events to Microsoft from Linux too, keeps a device id under
 * ~/.cache/Microsoft and writes session files into the working directory, unless
 * ORT_DISABLE_TELEMETRY is set before it starts: a self-hosted service sends nothing anywhere
 * (D161). Set in the C environment, which the library reads (Bun's process.env is not it).
 */
function disableTelemetry(): void {
  process.env.ORT_DISABLE_TELEMETRY = '1'
  const libc = dlopen('libc.so.6', { setenv: { args: ['cstring', 'cstring', 'i32'], returns: 'i32' } })
  try {
    if (libc.symbols.setenv(Buffer.from('ORT_DISABLE_TELEMETRY\0'), Buffer.from('1\0'), 1) !== 0) throw new Error('could not disable its telemetry')
  } finally {
    libc.close()
  }
}

export function onnxFailure(): string | undefined {
  return failure
}

/** A session of the model in the given file (an embedded file once compiled). */
export async function onnxSession(modelPath: string): Promise<OnnxSession> {
  const ort = onnxRuntime()
  if (!ort) throw new OnnxUnavailable(`ONNX Runtime cannot be loaded here: ${failure}`)
  const session = await ort.InferenceSession.create(readFileSync(modelPath), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableCpuMemArena: false,
    enableMemPattern: false,
  })
  return {
    async run(inputs) {
      const feeds = Object.fromEntries(inputs.map((input, index) => [session.inputNames[index]!, new ort.Tensor('float32', input.data, input.dims)]))
      const outputs = await session.run(feeds)
      return session.outputNames.map((name) => ({ data: outputs[name]!.data as Float32Array, dims: outputs[name]!.dims }))
    },
  }
}
