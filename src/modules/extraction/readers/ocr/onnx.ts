/**
 * ONNX Runtime (onnxruntime-node's native CPU build) for the PaddleOCR models (D161). A model
 * runs on the cores no other extraction job is using: all of them (up to four) for a job alone,
 * one each when the jobs running are as many as the cores (D175).
 *
 * In the one binary, as libvips (D156): the bundler embeds onnxruntime-node's `.node` addon but not
 * `libonnxruntime.so.1` beside it, so the library is embedded gzipped (packed by
 * scripts/pack-onnxruntime.mjs at install), written unpacked to the cache directory at first use
 * and loaded before the addon. Run from source, the addon finds it in node_modules. Elsewhere than
 * linux-x64 it is not loaded, and pages are read by Tesseract alone.
 */
import { dlopen } from 'bun:ffi'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import packedRuntime from '../../../../../node_modules/.extractd/libonnxruntime.so.1.gz' with { type: 'file' }
import { loadablePath } from './native-library'

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
    const library = loadablePath(packedRuntime, LIBRARY_NAME, `onnxruntime-${VERSION}`, true)
    if (library) dlopen(library, { OrtGetApiBase: { args: [], returns: 'ptr' } })
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

/** More threads than this gain little on models this small, and each thread count is a session of its own. */
const MAX_THREADS = 4

let runningJobs: Int32Array | undefined
let mostThreads = MAX_THREADS

/**
 * Shares the count of extraction jobs running (kept by the thread pool, read atomically), by
 * which each model run takes its share of the cores, `most` at the most (the operator's
 * --ocr-threads). Without it a job counts itself alone.
 */
export function shareRunningJobs(counter: Int32Array, most = MAX_THREADS): void {
  runningJobs = counter
  mostThreads = most
}

/** The machine's cores, read once. */
const CORES = availableParallelism()

/** The threads a model run takes now: the cores shared among the jobs running, one at least. */
export function threadsForRun(cores = CORES): number {
  const jobs = runningJobs ? Math.max(1, Atomics.load(runningJobs, 0)) : 1
  return Math.max(1, Math.min(mostThreads, Math.floor(cores / jobs)))
}

/**
 * A session of the model in the given file (an embedded file once compiled). Each run takes
 * the threads `threadsForRun` gives it, from a session made for that many (on first need).
 */
export async function onnxSession(modelPath: string): Promise<OnnxSession> {
  const ort = onnxRuntime()
  if (!ort) throw new OnnxUnavailable(`ONNX Runtime cannot be loaded here: ${failure}`)
  const sessions = new Map<number, Promise<InferenceSession>>()
  const withThreads = (threads: number) => {
    let session = sessions.get(threads)
    if (!session) sessions.set(threads, (session = createSession(ort, modelPath, threads)))
    return session
  }
  // Made now: a model that cannot be loaded fails here, not at its first run.
  await withThreads(threadsForRun())
  return {
    async run(inputs) {
      const session = await withThreads(threadsForRun())
      const feeds = Object.fromEntries(inputs.map((input, index) => [session.inputNames[index]!, new ort.Tensor('float32', input.data, input.dims)]))
      const outputs = await session.run(feeds)
      return session.outputNames.map((name) => ({ data: outputs[name]!.data as Float32Array, dims: outputs[name]!.dims }))
    },
  }
}

type InferenceSession = Awaited<ReturnType<Ort['InferenceSession']['create']>>

/**
 * The CPU memory arena keeps a run's buffers for the next one: without it the detector's large
 * feature maps are mapped and faulted in anew at every page, which took it twice as long (D175).
 */
function createSession(ort: Ort, modelPath: string, threads: number): Promise<InferenceSession> {
  return ort.InferenceSession.create(readFileSync(modelPath), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableCpuMemArena: true,
    enableMemPattern: false,
  })
}
