/**
 * Hostile-files benchmark (D120, D180–D186): crafted documents, made here and never stored, sent
 * one by one to the compiled binary (default settings: 2 workers, default limits) in a temporary
 * directory. For each: the outcome (the job's status and error code, or the HTTP status), the wall
 * time from upload to the job's end, and the server's peak resident memory while it ran (VmRSS of
 * the server and of every process it started, summed and sampled every 10 ms; and VmHWM, the
 * kernel's own high-water mark of each of them, summed: D190), against its idle RSS.
 * Targets: every file ends in a clear job failure or a 4xx within 10 s (a file its linear reader
 * reads, such as one only deeply nested or a text trap, may succeed instead), and RSS stays within
 * idle + 600 MiB; a server that dies is a miss (and is started again for the next file).
 * Run with `bun run bench:hostile` (it builds dist/extractd first; SKIP_BUILD=1 reuses it;
 * `--binary=<path>` runs another build, such as main's, to compare; `--only=<regexp>` sends some
 * files; `--list` prints their names). Exits 1 when a target is missed.
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import {
  concat,
  docxDeepNesting,
  docxHeaders,
  docxLargeDocument,
  docxLyingSize,
  greyPage,
  heicGrid,
  heifCodedImage,
  jpegManyScans,
  jpegProgressive,
  pdfContentBomb,
  pdfDeepNesting,
  pdfJpegClaiming,
  pdfNestedForms,
  pdfPageCount,
  pdfWithImages,
  png,
  pngWithCompressedChunk,
  tiff,
  tiffLoop,
  tiffSharedStrip,
  webpLossless,
} from '../test/helpers/hostile'
import { type RunningServer, startServer, tempDir } from '../test/helpers/process'
import { TEXT_TRAPS } from '../test/helpers/text-traps'
import { treeKiB } from './servers'

const ROOT = resolve(import.meta.dir, '..')
const BINARY_ARG = process.argv.find((arg) => arg.startsWith('--binary='))?.slice('--binary='.length)
const BINARY = BINARY_ARG ? resolve(BINARY_ARG) : join(ROOT, 'dist/extractd')
const ONLY = new RegExp(process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? '')
const MiB = 1024 * 1024
const GiB = 1024 * MiB
const TIME_TARGET_MS = 10_000
const MEMORY_TARGET_MIB = 600
/** Longest the benchmark waits for one job before it calls it a miss. */
const GIVE_UP_MS = 60_000

const encoder = new TextEncoder()

/** Files marked `readable` are harmless in shape only: their reader is linear, so reading them is a right outcome too. */
const FILES: [name: string, fileName: string, make: () => Uint8Array | Promise<Uint8Array>, readable?: 'readable'][] = [
  // The five files of the issue.
  ['TIFF whose directory loops to itself (38 B)', 'loop.tif', tiffLoop],
  [
    'PNG: IHDR 1×1, then IHDR 20000×20000 with its data',
    'two-headers.png',
    () =>
      png([
        [1, 1],
        [20000, 20000],
      ]),
  ],
  ['PDF: one 20000×20000 Deflate image', 'big-image.pdf', () => pdfWithImages(20000, 20000)],
  ['PDF: three 20000×20000 images on a page', 'three-images.pdf', () => pdfWithImages(20000, 20000, 3)],
  ['DOCX: 40 page headers of 60 MiB each', 'headers.docx', () => docxHeaders(40, 60 * MiB)],
  ['TIFF: 100 pages of 40 MP sharing one strip', 'shared-strip.tif', () => tiffSharedStrip(100, 8000, 5000)],
  // Variants.
  ['DOCX zip bomb: document part of 1 GiB', 'bomb.docx', () => docxLargeDocument(GiB)],
  ['DOCX part declaring 1 KiB, holding 1 GiB', 'lying.docx', () => docxLyingSize(GiB, 1024)],
  ['PDF content stream 1000:1, 1 GiB', 'content-bomb.pdf', () => pdfContentBomb(GiB)],
  ['PNG 100×100 whose data inflates to 1 GiB', 'data-bomb.png', () => png([[100, 100]], GiB)],
  ['TIFF Deflate strip inflating 1000:1 past its page', 'strip-bomb.tif', stripBomb],
  ['JPEG 2000×2000 of 150 scans', 'scans.jpg', () => jpegManyScans(2000, 2000, 150)],
  ['TIFF sub-directory pointing at itself', 'subifd-loop.tif', subDirectoryLoop],
  ['PDF page tree claiming 1,000,000 pages', 'page-count.pdf', () => pdfPageCount(1_000_000)],
  ['PDF with 5,000 real pages', 'many-pages.pdf', () => manyPages(5000)],
  ['PDF forms that draw each other, nested and looping', 'forms.pdf', pdfNestedForms],
  ['PDF arrays nested 100,000 deep', 'deep.pdf', () => pdfDeepNesting(100_000)],
  ['DOCX elements nested 100,000 deep', 'deep.docx', () => docxDeepNesting(100_000), 'readable'],
  [
    'HTML elements nested 1,000,000 deep',
    'deep.html',
    () => encoder.encode(`<html><body>${'<div>'.repeat(1_000_000)}deep${'</div>'.repeat(1_000_000)}</body></html>`),
    'readable',
  ],
  ['PDF image stream cut in half', 'truncated.pdf', () => truncated(pdfWithImages(3000, 3000))],
  ['PNG image data cut in half', 'truncated.png', () => truncated(png([[3000, 3000]]))],
  ['DOCX cut in half', 'truncated.docx', () => truncated(docxHeaders(2, 4 * MiB))],
  // The second round (issue 30): ancillary chunks, every spelling of a stream, what decoders really hold.
  // Small pages: the attack is the chunk, and a readable page goes on to OCR.
  ['PNG 100×100 whose iCCP profile inflates to 1 GiB', 'iccp.png', () => pngWithCompressedChunk('iCCP', GiB), 'readable'],
  ['PNG 100×100 whose iTXt text inflates to 1 GiB', 'itxt.png', () => pngWithCompressedChunk('iTXt', GiB), 'readable'],
  ['PDF 1 GiB content stream, a space after `stream`', 'stream-space.pdf', () => pdfContentBomb(GiB, 'space-before-eol')],
  ['PDF 1 GiB content stream inside an object stream', 'object-stream.pdf', () => pdfContentBomb(GiB, 'object-stream')],
  ['PDF 1 GiB content stream deflated twice', 'flate-twice.pdf', () => pdfContentBomb(GiB, 'flate-twice')],
  ['PDF 1 GiB content stream as hex, then Deflate', 'hex-flate.pdf', () => pdfContentBomb(GiB, 'hex-then-flate')],
  ['PDF 1 GiB content stream past a decoy `endstream`', 'decoy.pdf', () => pdfContentBomb(GiB, 'decoy-endstream')],
  ['JPEG progressive 32000×32000 grey (2 MB)', 'progressive.jpg', () => jpegProgressive(32000, 32000, 1)],
  ['JPEG progressive 16000×16000 colour', 'progressive-colour.jpg', () => jpegProgressive(16000, 16000, 3)],
  ['WebP lossless 6000×6000', 'lossless.webp', () => webpLossless(6000, 6000)],
  ['HEIC grid of 8 × 4 tiles, 35 MP', 'grid.heic', () => heicGrid(heicTile(), 4, 8)],
  ['HEIC grid of 992 tiles cropped to 36 MP', 'tiles.heic', () => heicGrid(heicTile('smallest'), 31, 32, 6000, 6000)],
  ['TIFF 25 pages of 40 MP (the 1000 MP document limit)', 'pages.tif', () => tiffSharedStrip(25, 8000, 5000)],
  // A page that is one JPEG is read by the photo path (D350): its header is what it is budgeted by.
  ['PDF page that is one JPEG claiming 60000×60000', 'jpeg-page.pdf', () => pdfJpegClaiming(60000, 60000)],
  ...['html: comment openers', 'html: tag openers', 'markdown: brackets', 'markdown: underscores', 'text: spaces then a letter', 'text: minus signs'].map(
    (name): (typeof FILES)[number] => {
      const trap = TEXT_TRAPS.find((each) => each.name === name)!
      return [
        `${name} (1 MiB)`,
        `trap.${trap.kind === 'markdown' ? 'md' : trap.kind === 'html' ? 'html' : 'txt'}`,
        () => encoder.encode(trap.make(MiB)),
        'readable',
      ]
    },
  ),
]

/** A coded image of the HEIC fixture, to tile grids with. */
function heicTile(which: 'largest' | 'smallest' = 'largest') {
  return heifCodedImage(new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/example.heic'))), which)
}

if (process.argv.includes('--list')) {
  for (const [name] of FILES) console.log(name)
  process.exit(0)
}

function stripBomb(): Uint8Array {
  const strip = concat([
    new Uint8Array([0x78, 0xda]),
    (process.getBuiltinModule('node:zlib') as typeof import('node:zlib')).deflateRawSync(new Uint8Array(GiB)),
  ])
  return tiff([{ fields: (at) => greyPage(1000, 1000, at(0), strip.length, 8) }], [strip])
}

function subDirectoryLoop(): Uint8Array {
  return tiff([{ fields: (at) => [...greyPage(100, 100, at(0), 10_000), { tag: 330, type: 4, values: [8] }] }], [new Uint8Array(10_000).fill(255)])
}

function manyPages(count: number): Uint8Array {
  const kids = Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(' ')
  const lines = [`%PDF-1.7`, `1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj`, `2 0 obj << /Type /Pages /Kids [${kids}] /Count ${count} >> endobj`]
  for (let i = 0; i < count; i++) lines.push(`${i + 3} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj`)
  // No cross-reference table: PDF.js rebuilds one by scanning, as it does for damaged files.
  lines.push('trailer << /Root 1 0 R >>', '%%EOF')
  return encoder.encode(lines.join('\n'))
}

function truncated(bytes: Uint8Array): Uint8Array {
  return bytes.slice(0, Math.floor(bytes.length / 2))
}

const mib = (kib: number) => Math.round(kib / 1024)

if (!process.env.SKIP_BUILD && !BINARY_ARG) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
  if (build.exitCode !== 0) process.exit(1)
}

const dir = tempDir('extractd-hostile-')
let server: RunningServer = await startServer([BINARY], [], dir.path)
// The server prints its first key once; a server started again on the same database keeps it.
const key = server.firstKey!
const extract = { document_type: 'invoice', fields: { invoice_number: 'Invoice number', total: 'Total' } }

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}` } })
  return { status: response.status, body: await response.json().catch(() => null) }
}

/** The server's idle RSS, taken a second after it starts. */
async function idle(): Promise<number> {
  await Bun.sleep(1000)
  return treeKiB(server.proc.pid)
}

let idleKiB = await idle()
const load = () =>
  loadavg()
    .map((each) => each.toFixed(1))
    .join(' ')
console.log(`extractd ${BINARY}, idle RSS ${mib(idleKiB)} MiB, load average ${load()} (2 cores: the machine is shared)`)
console.log(`targets: within ${TIME_TARGET_MS / 1000} s, RSS ≤ idle + ${MEMORY_TARGET_MIB} MiB\n`)
console.log(['file', 'bytes', 'outcome', 'wall ms', 'peak RSS MiB', 'over idle', 'VmHWM MiB', 'ok'].join(' | '))

let misses = 0
let deaths = 0
try {
  for (const [name, fileName, make, readable] of FILES.filter(([name]) => ONLY.test(name))) {
    const bytes = await make()
    Bun.gc(true)
    const pid = server.proc.pid
    let peakKiB = treeKiB(pid)
    const sampler = setInterval(() => {
      peakKiB = Math.max(peakKiB, treeKiB(pid))
    }, 10)
    const started = performance.now()
    const form = new FormData()
    form.append('file', new Blob([bytes]), fileName)
    form.append('extract', JSON.stringify(extract))
    let outcome: string
    let clear: boolean
    try {
      const submitted = await call('/api/v1/extract?async=true', { method: 'POST', body: form })
      if (submitted.status !== 202) {
        outcome = `HTTP ${submitted.status} ${submitted.body?.error?.code ?? ''}`.trim()
        clear = submitted.status >= 400 && submitted.status < 500
      } else {
        let job = submitted.body.job
        while (!['succeeded', 'failed', 'canceled'].includes(job.status) && performance.now() - started < GIVE_UP_MS) {
          await Bun.sleep(20)
          job = (await call(`/api/v1/jobs/${job.id}`)).body.job
        }
        outcome = job.status === 'failed' ? `failed ${job.error.code}` : job.status
        // A clear failure names what is wrong; extraction_failed and timeouts are not clear.
        clear =
          (job.status === 'failed' && !['extraction_failed', 'extraction_timeout'].includes(job.error.code)) ||
          (readable === 'readable' && job.status === 'succeeded')
        if (!['succeeded', 'failed', 'canceled'].includes(job.status)) await call(`/api/v1/jobs/${job.id}/cancel`, { method: 'POST' })
      }
    } catch (error) {
      outcome = `no answer (${(error as Error).message})`
      clear = false
    }
    const wallMs = Math.round(performance.now() - started)
    clearInterval(sampler)
    peakKiB = Math.max(peakKiB, treeKiB(pid))
    const over = mib(peakKiB - idleKiB)
    const hwm = mib(treeKiB(pid, 'VmHWM'))
    // A server that aborted may take a moment to exit; one that does not answer is given longer.
    const died = await Promise.race([server.proc.exited.then(() => true), Bun.sleep(outcome.startsWith('no answer') ? 5000 : 200).then(() => false)])
    const ok = clear && wallMs <= TIME_TARGET_MS && over <= MEMORY_TARGET_MIB && !died
    if (!ok) misses++
    console.log([name, bytes.length, died ? `${outcome}; the server died` : outcome, wallMs, mib(peakKiB), `+${over}`, hwm, ok ? 'yes' : 'NO'].join(' | '))
    if (died) {
      deaths++
      server = await startServer([BINARY], [], dir.path)
      idleKiB = await idle()
    }
  }
  const health = await fetch(`${server.url}/healthz`)
  console.log(`\n/healthz after every file: ${health.status}; the server died ${deaths} time(s); load average ${load()}`)
  console.log(misses ? `${misses} file(s) missed a target` : 'every file met both targets')
} finally {
  await server.stop()
  dir.remove()
}
process.exit(misses ? 1 : 0)
