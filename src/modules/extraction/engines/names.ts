/** The name a job records for the engine that produced it (D23), known without loading the engine. */
import type { LlmConfig } from '../../../config'

export const BUILTIN_ENGINE_NAME = 'builtin'

export function engineName(llm: LlmConfig | undefined): string {
  return llm ? `openai:${llm.model}` : BUILTIN_ENGINE_NAME
}
