/**
 * What the text benches (text-traps.ts, text-combos.ts) share: a child process that reads texts
 * as a warm server's worker does and reports CPU times, and the parent's way of running one.
 */
import { type TrapKind, trapFields } from '../test/helpers/text-traps'

/** CPU time of this process so far, in milliseconds: the machine may be shared, and a trap is work, not waiting. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/**
 * An extraction of texts as a job of `type` runs it (its catalog fields, an invoice's with named
 * ones; issued by the seller as the catalog says, D220), warmed up on a small invoice first.
 */
export async function warmReader(type: string): Promise<(text: string, kind?: TrapKind) => Promise<unknown>> {
  const { builtinEngine } = await import('../src/modules/extraction/engines/builtin')
  const { inProcessExtractor } = await import('../src/modules/extraction/extractor')
  const { DEFAULT_READ_LIMITS, MEDIA_TYPES } = await import('../src/modules/extraction/readers/types')
  const { loadCatalog } = await import('../src/modules/catalog/service')
  const issuedBySeller = loadCatalog().get(type)!.issued_by_seller === true
  const fields = trapFields(type)
  const extract = inProcessExtractor(builtinEngine)
  const read = (text: string, kind: TrapKind = 'text') =>
    extract({ content: new TextEncoder().encode(text), mediaType: MEDIA_TYPES[kind], documentType: type, issuedBySeller, fields, limits: DEFAULT_READ_LIMITS })
  // A server's worker is warm: its lexicon loaded, its expressions compiled.
  await read('ACME GmbH\nInvoice number: 42\nDate: 01.02.2023\nTotal: 12,00 EUR\n').catch(() => undefined)
  return read
}

/** The bench `script` run again as a child with `args`, stopped after `giveUpMs`: its last line of output, parsed; undefined when it was stopped or failed. */
export async function childReading<T>(script: string, args: string[], giveUpMs: number, stderr: 'inherit' | 'ignore'): Promise<T | undefined> {
  const child = Bun.spawn([process.execPath, script, ...args], { stdout: 'pipe', stderr })
  const timer = setTimeout(() => child.kill('SIGKILL'), giveUpMs)
  const output = await new Response(child.stdout).text()
  clearTimeout(timer)
  await child.exited
  const line = output.trim().split('\n').pop()
  return child.exitCode === 0 && line ? (JSON.parse(line) as T) : undefined
}
