/** The name a job records for the engine that produced it (D23), known without loading the engine. */
export const BUILTIN_ENGINE_NAME = 'builtin'

export function engineName(llm: { model: string } | undefined): string {
  return llm ? `openai:${llm.model}` : BUILTIN_ENGINE_NAME
}
