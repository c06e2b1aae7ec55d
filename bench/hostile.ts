/**
 * Hostile-files benchmark (D120): crafted documents, made here and never stored, sent one by one
 * to the compiled binary (default settings: 2 workers, default limits) in a temporary directory.
 * For each: the outcome (the job's status and error code, or the HTTP status), the wall time from
 * upload to the job's end, and the server's peak resident memory while it ran (VmRSS sampled
 * every 10 ms, and VmHWM, the kernel's own high-water mark), against its idle RSS, each of the
 * server and its extraction processes together (D190).
 * Targets: every file ends in a clear job failure or a 4xx within 10 s (a file only deeply nested,
 * which its linear reader reads, may succeed), and RSS stays within idle + 600 MiB. Run with `bun run bench:hostile` (it builds dist/extractd first; SKIP_BUILD=1
 * reuses it). Exits 1 when a target is missed.
 */
import { join, resolve } from 'node:path'
import {
  concat,
  docxDeepNesting,
  docxHeaders,
  docxLargeDocument,
  docxLyingSize,
  greyPage,
  jpegManyScans,
  pdfContentBomb,
  pdfDeepNesting,
  pdfNestedForms,
  pdfPageCount,
  pdfWithImages,
  png,
  tiff,
  tiffLoop,
  tiffSharedStrip,
} from '../test/helpers/hostile'
import { startServer, tempDir } from '../test/helpers/process'
import { treeKiB } from './servers'

const ROOT = resolve(import.meta.dir, '..')
const BINARY = join(ROOT, 'dist/extractd')
const MiB = 1024 * 1024
const GiB = 1024 * MiB
const TIME_TARGET_MS = 10_000
const MEMORY_TARGET_MIB = 600
/** Longest the benchmark waits for one job before it calls it a miss. */
const GIVE_UP_MS = 60_000

const encoder = new TextEncoder()

/** Files marked `readable` are harmless in shape only: their reader is linear, so reading them is a right outcome too. */
const FILES: [name: string, fileName: string, make: () => Uint8Array, readable?: 'readable'][] = [
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
]

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

/** The server's and its extraction processes' together (D190). */
const rssKiB = treeKiB

const mib = (kib: number) => Math.round(kib / 1024)

if (!process.env.SKIP_BUILD) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
  if (build.exitCode !== 0) process.exit(1)
}

const dir = tempDir('extractd-hostile-')
const server = await startServer([BINARY], [], dir.path)
const pid = server.proc.pid
const key = server.firstKey!
const extract = { document_type: 'invoice', fields: { invoice_number: 'Invoice number', total: 'Total' } }

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}` } })
  return { status: response.status, body: await response.json().catch(() => null) }
}

await Bun.sleep(1000)
const idleKiB = rssKiB(pid, 'VmRSS')
console.log(`extractd ${BINARY}, idle RSS ${mib(idleKiB)} MiB, targets: within ${TIME_TARGET_MS / 1000} s, RSS ≤ idle + ${MEMORY_TARGET_MIB} MiB\n`)
console.log(['file', 'bytes', 'outcome', 'wall ms', 'peak RSS MiB', 'over idle', 'VmHWM MiB', 'ok'].join(' | '))

let misses = 0
try {
  for (const [name, fileName, make, readable] of FILES) {
    const bytes = make()
    Bun.gc(true)
    let peakKiB = rssKiB(pid, 'VmRSS')
    const sampler = setInterval(() => {
      peakKiB = Math.max(peakKiB, rssKiB(pid, 'VmRSS'))
    }, 10)
    const started = performance.now()
    const form = new FormData()
    form.append('file', new Blob([bytes]), fileName)
    form.append('extract', JSON.stringify(extract))
    let outcome: string
    let clear: boolean
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
    const wallMs = Math.round(performance.now() - started)
    clearInterval(sampler)
    peakKiB = Math.max(peakKiB, rssKiB(pid, 'VmRSS'))
    const over = mib(peakKiB - idleKiB)
    const ok = clear && wallMs <= TIME_TARGET_MS && over <= MEMORY_TARGET_MIB && server.proc.exitCode === null
    if (!ok) misses++
    console.log([name, bytes.length, outcome, wallMs, mib(peakKiB), `+${over}`, mib(rssKiB(pid, 'VmHWM')), ok ? 'yes' : 'NO'].join(' | '))
  }
  const health = await fetch(`${server.url}/healthz`)
  console.log(
    `\n/healthz after every file: ${health.status}; server's peak RSS over the run (VmHWM) ${mib(rssKiB(pid, 'VmHWM'))} MiB, idle ${mib(idleKiB)} MiB`,
  )
  console.log(misses ? `${misses} file(s) missed a target` : 'every file met both targets')
} finally {
  await server.stop()
  dir.remove()
}
process.exit(misses ? 1 : 0)
