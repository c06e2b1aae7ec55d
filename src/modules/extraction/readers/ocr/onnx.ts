/**
 * ONNX Runtime (onnxruntime-node's native CPU build) for the PaddleOCR models. Sessions run on
 * one thread each: extraction already runs one job per worker thread and core.
 */
import { readFileSync } from 'node:fs'

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
    runtime = require('onnxruntime-node') as Ort
  } catch (error) {
    failure = (error as Error).message
    runtime = null
  }
  return runtime
}

export function onnxFailure(): string | undefined {
  return failure
}

/** A session of the model in the given file (an embedded file once compiled). */
export async function onnxSession(modelPath: string): Promise<OnnxSession> {
  const ort = onnxRuntime()
  if (!ort) throw new OnnxUnavailable(`ONNX Runtime cannot be loaded here: ${failure}`)
  const session = await ort.InferenceSession.create(new Uint8Array(readFileSync(modelPath)), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  })
  return {
    async run(inputs) {
      const feeds = Object.fromEntries(inputs.map((input, index) => [session.inputNames[index]!, new ort.Tensor('float32', input.data, input.dims)]))
      const outputs = await session.run(feeds)
      return session.outputNames.map((name) => ({ data: outputs[name]!.data as Float32Array, dims: outputs[name]!.dims }))
    },
  }
}
