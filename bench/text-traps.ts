/**
 * Texts that trap regular expressions, read as a job reads them (D186): each shape of
 * test/helpers/text-traps.ts is made at 1 MiB (`--size=<KiB>` for another size) and goes through
 * media-type detection (which runs on the HTTP thread, on the first 64 KiB) and the whole
 * extraction: its reader, then the built-in engine with the invoice catalog's fields and a few
 * fields a user names (or another type's fields, for a shape that names its type). Each shape
 * runs in a process of its own, stopped after `--give-up=<s>` (default 120 s of wall time), after
 * a small invoice has warmed the engine up as a server's worker is. Times are CPU time (the
 * machine may be shared); a shape over the target is read again and the lesser time counts. Target: every shape read within 2 s. Exits 1 when one is not.
 * Run with `bun run bench:text-traps` (`--only=<regexp>` for some shapes).
 */
import { type TextTrap, TEXT_TRAPS } from '../test/helpers/text-traps'
import { childReading, cpuMs, warmReader } from './text-child'

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
  const { detectMediaType } = await import('../src/modules/extraction/readers')
  const read = await warmReader(trap.type ?? 'invoice')
  const text = trap.make(bytes)
  let started = cpuMs()
  detectMediaType(new TextEncoder().encode(text))
  const detectMs = cpuMs() - started
  started = cpuMs()
  let outcome = 'succeeded'
  try {
    await read(text, trap.kind)
  } catch (error) {
    outcome = `failed ${(error as { code?: string }).code ?? (error as Error).message}`
  }
  return { detectMs, extractMs: cpuMs() - started, outcome }
}

console.log(`${TEXT_TRAPS.filter((trap) => only.test(trap.name)).length} shapes of ${size / 1024} KiB; target: read within ${TARGET_MS / 1000} s\n`)
console.log(['shape', 'detect CPU ms', 'extract CPU ms', 'outcome', 'ok'].join(' | '))

type Reading = Awaited<ReturnType<typeof readTrap>>

/** One shape read in a process of its own; undefined when it was stopped. */
const readInChild = (trap: TextTrap) => childReading<Reading>(import.meta.path, ['--child', trap.name, `--size=${size / 1024}`], giveUpMs, 'inherit')

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
