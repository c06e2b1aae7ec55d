/** A CLI command's output captured, for tests that call a command's function in process. */
import type { Output } from '../../src/cli/keys'

export function capturedOutput(): { io: Output; lines: { out: string[]; err: string[] } } {
  const lines = { out: [] as string[], err: [] as string[] }
  return { io: { out: (line) => lines.out.push(line), err: (line) => lines.err.push(line) }, lines }
}
