/**
 * Texts that trap regular expressions, read as a job reads them (D186): each shape of
 * test/helpers/text-traps.ts is made at 1 MiB (`--size=<KiB>` for another size) and goes through
 * media-type detection (which runs on the HTTP thread, on the first 64 KiB) and the whole
 * extraction: its reader, then the built-in engine with the invoice catalog's fields and a few
 * fields a user names. Each shape runs in a process of its own, stopped after `--give-up=<s>`
 * (default 120 s of wall time), after a small invoice has warmed the engine up as a server's worker is. Times are CPU time (the machine may be shared); a shape over the target is read again and the
 * lesser time counts. Target: every shape read within 2 s. Exits 1 when one is not.
 * Run with `bun run bench:text-traps` (`--only=<regexp>` for some shapes).
 */
import { type TextTrap, TEXT_TRAPS } from '../test/helpers/text-traps'

const TARGET_MS = 2000
const size = Number(process.argv.find((arg) => arg.startsWith('--size='))?.slice('--size='.length) ?? 1024) * 1024
const giveUpMs = Number(process.argv.find((arg) => arg.startsWith('--give-up='))?.slice('--give-up='.length) ?? 120) * 1000
const only = new RegExp(process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? '')

if (process.argv[2] === '--child') {
  const trap = TEXT_TRAPS.find((each) => each.name === process.argv[3])!
  console.log(JSON.stringify(await readTrap(trap, size)))
  process.exit(0)
}

/** Detection, then reader and engine, timed apart; the outcome is the job's (succeeded, or its error code). */
async function readTrap(trap: TextTrap, bytes: number): Promise<{ detectMs: number; extractMs: number; outcome: string }> {
  // CPU time, not wall time: the machine may be shared, and a trap is work, not waiting.
  const cpuMs = () => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  }
  const { detectMediaType } = await import('../src/modules/extraction/readers')
  const { builtinEngine } = await import('../src/modules/extraction/engines/builtin')
  const { inProcessExtractor } = await import('../src/modules/extraction/extractor')
  const { DEFAULT_READ_LIMITS, MEDIA_TYPES } = await import('../src/modules/extraction/readers/types')
  const { trapFields } = await import('../test/helpers/text-traps')
  const content = new TextEncoder().encode(trap.make(bytes))
  const fields = trapFields()
  const extract = inProcessExtractor(builtinEngine)
  // A server's worker is warm: its lexicon loaded, its expressions compiled.
  const invoice = new TextEncoder().encode('ACME GmbH\nInvoice number: 42\nDate: 01.02.2023\nTotal: 12,00 EUR\n')
  await extract({ content: invoice, mediaType: MEDIA_TYPES.text, documentType: 'invoice', issuedBySeller: true, fields, limits: DEFAULT_READ_LIMITS })
  let started = cpuMs()
  detectMediaType(content)
  const detectMs = cpuMs() - started
  const mediaType = trap.kind === 'html' ? MEDIA_TYPES.html : trap.kind === 'markdown' ? MEDIA_TYPES.markdown : MEDIA_TYPES.text
  started = cpuMs()
  let outcome = 'succeeded'
  try {
    await extract({ content, mediaType, documentType: 'invoice', issuedBySeller: true, fields, limits: DEFAULT_READ_LIMITS })
  } catch (error) {
    outcome = `failed ${(error as { code?: string }).code ?? (error as Error).message}`
  }
  return { detectMs, extractMs: cpuMs() - started, outcome }
}

console.log(`${TEXT_TRAPS.filter((trap) => only.test(trap.name)).length} shapes of ${size / 1024} KiB; target: read within ${TARGET_MS / 1000} s\n`)
console.log(['shape', 'detect CPU ms', 'extract CPU ms', 'outcome', 'ok'].join(' | '))

type Reading = Awaited<ReturnType<typeof readTrap>>

/** One shape read in a process of its own; undefined when it was stopped. */
async function readInChild(trap: TextTrap): Promise<Reading | undefined> {
  const child = Bun.spawn([process.execPath, import.meta.path, '--child', trap.name, `--size=${size / 1024}`], { stdout: 'pipe', stderr: 'inherit' })
  const timer = setTimeout(() => child.kill('SIGKILL'), giveUpMs)
  const output = await new Response(child.stdout).text()
  clearTimeout(timer)
  await child.exited
  const line = output.trim().split('\n').pop()
  return child.exitCode === 0 && line ? (JSON.parse(line) as Reading) : undefined
}

const within = (reading: Reading) => reading.detectMs + reading.extractMs <= TARGET_MS && !reading.outcome.includes('extraction_failed')

let misses = 0
for (const trap of TEXT_TRAPS.filter((each) => only.test(each.name))) {
  const first = await readInChild(trap)
  // One reading's CPU time varies by up to 1.8× on a shared machine: a shape over the target is
  // read again, and the lesser time counts (a trap is slow both times).
  const again = first && !within(first) ? await readInChild(trap) : undefined
  const result = again && again.detectMs + again.extractMs < first!.detectMs + first!.extractMs ? again : first
  const ok = result !== undefined && within(result)
  if (!ok) misses++
  console.log(
    [
      trap.name,
      result ? Math.round(result.detectMs) : '–',
      result
        ? `${Math.round(result.extractMs)}${again ? ` (read twice: ${Math.round(first!.extractMs)}, ${Math.round(again.extractMs)})` : ''}`
        : `> ${giveUpMs / 1000} s`,
      result?.outcome ?? 'stopped',
      ok ? 'yes' : 'NO',
    ].join(' | '),
  )
}
console.log(misses ? `\n${misses} shape(s) missed the target` : '\nevery shape was read within the target')
process.exit(misses ? 1 : 0)
