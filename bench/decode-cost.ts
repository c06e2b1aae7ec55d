/**
 * What each decoder really takes, against what its budget says (D120, D180–D185). For every format
 * and decoder an image of a few dozen megapixels is made here (none is stored) and decoded in a
 * process of its own as the readers decode a page (every check, the decoder, the grey page; no
 * OCR): the growth of that process's peak resident memory (VmHWM, reset after a warm-up decode of
 * a small image, so the decoder's code and WebAssembly start-up are not counted), per megapixel,
 * against its budget: the least --max-decode-mb under which the reader's checks (which run before
 * anything is decoded) let the file through, the file then decoded under that budget; 8 MiB are
 * allowed for the process's own movements. Exits 1 when a decoder takes more than its budget says.
 * Run with `bun run bench:decode-cost` (`--only=<regexp>` for some cases).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ExtractionError } from '../src/modules/extraction/errors'
import { detectMediaType } from '../src/modules/extraction/readers'
import { builtinJpegPage, imagePages, imagePixels, jpegPhoto } from '../src/modules/extraction/readers/ocr/images'
import { checkPdfBudget } from '../src/modules/extraction/readers/pdf-budget'
import { PDF_FILE_COPIES } from '../src/modules/extraction/readers/pdf-photos'
import { MEDIA_TYPES, type MediaType, type ReadLimits } from '../src/modules/extraction/readers/types'
import {
  heicGrid,
  heifCodedImage,
  jpegProgressive,
  pdfContentBomb,
  pdfOfJpeg,
  pdfWithImages,
  pngWithCompressedChunk,
  tiffSharedStrip,
} from '../test/helpers/hostile'

const MiB = 1024 * 1024
/** A process's resident memory moves by a few MiB for reasons of its own (code compiled, heap grown): allowed over any budget. */
const NOISE = 8 * MiB

interface Case {
  name: string
  make: () => Uint8Array | Promise<Uint8Array>
  /** A small image of the same kind, decoded first so that start-up costs are not counted. */
  warm: () => Uint8Array | Promise<Uint8Array>
  /** Decoded by jpeg-js instead of libvips. */
  builtinJpeg?: boolean
}

async function sharpImage(
  width: number,
  height: number,
  channels: 1 | 3,
  encode: (image: import('sharp').Sharp) => import('sharp').Sharp,
): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp')
  // Noise, so that the encoders have something to encode and the decoders something to decode.
  const noise = sharp({ create: { width, height, channels: 3, background: '#ffffff', noise: { type: 'gaussian', mean: 200, sigma: 30 } } })
  return new Uint8Array(await encode(channels === 1 ? noise.greyscale() : noise).toBuffer())
}

const heic = () => heifCodedImage(new Uint8Array(readFileSync(join(import.meta.dir, '../test/fixtures/example.heic'))))

const CASES: Case[] = [
  {
    name: 'PNG grey 8-bit 36 MP',
    make: () => sharpImage(6000, 6000, 1, (i) => i.png({ compressionLevel: 1 })),
    warm: () => sharpImage(64, 64, 1, (i) => i.png()),
  },
  {
    name: 'PNG RGB 8-bit 24 MP',
    make: () => sharpImage(6000, 4000, 3, (i) => i.png({ compressionLevel: 1 })),
    warm: () => sharpImage(64, 64, 3, (i) => i.png()),
  },
  {
    name: 'PNG palette 36 MP',
    make: () => sharpImage(6000, 6000, 3, (i) => i.png({ palette: true, colours: 16, effort: 1 })),
    warm: () => sharpImage(64, 64, 3, (i) => i.png({ palette: true })),
  },
  {
    name: 'PNG 1 MP with a 200 MiB iCCP chunk',
    make: () => pngWithCompressedChunk('iCCP', 200 * MiB, 1000, 1000),
    warm: () => sharpImage(64, 64, 1, (i) => i.png()),
  },
  { name: 'JPEG baseline colour 24 MP (libvips)', make: () => sharpImage(6000, 4000, 3, (i) => i.jpeg()), warm: () => sharpImage(64, 64, 3, (i) => i.jpeg()) },
  {
    name: 'JPEG baseline photo 96 MP (libvips, shrunk on load)',
    make: () => sharpImage(12000, 8000, 3, (i) => i.jpeg()),
    warm: () => sharpImage(64, 64, 3, (i) => i.jpeg()),
  },
  {
    name: 'JPEG progressive colour 24 MP (libvips)',
    make: () => sharpImage(6000, 4000, 3, (i) => i.jpeg({ progressive: true })),
    warm: () => sharpImage(64, 64, 3, (i) => i.jpeg({ progressive: true })),
  },
  { name: 'JPEG progressive grey 256 MP (libvips, shrunk on load)', make: () => jpegProgressive(16000, 16000, 1), warm: () => jpegProgressive(64, 64, 1) },
  { name: 'JPEG progressive colour 144 MP (libvips, shrunk on load)', make: () => jpegProgressive(12000, 12000, 3), warm: () => jpegProgressive(64, 64, 3) },
  {
    name: 'JPEG baseline colour 24 MP (jpeg-js)',
    make: () => sharpImage(6000, 4000, 3, (i) => i.jpeg()),
    warm: () => sharpImage(64, 64, 3, (i) => i.jpeg()),
    builtinJpeg: true,
  },
  {
    name: 'JPEG progressive colour 24 MP (jpeg-js)',
    make: () => sharpImage(6000, 4000, 3, (i) => i.jpeg({ progressive: true })),
    warm: () => sharpImage(64, 64, 3, (i) => i.jpeg({ progressive: true })),
    builtinJpeg: true,
  },
  {
    name: 'WebP lossless 36 MP',
    make: () => sharpImage(6000, 6000, 3, (i) => i.webp({ lossless: true, effort: 0 })),
    warm: () => sharpImage(64, 64, 3, (i) => i.webp({ lossless: true })),
  },
  {
    name: 'WebP lossy 36 MP',
    make: () => sharpImage(6000, 6000, 3, (i) => i.webp({ quality: 80, effort: 0 })),
    warm: () => sharpImage(64, 64, 3, (i) => i.webp()),
  },
  { name: 'HEIC 1.1 MP', make: () => heicGrid(heic(), 1, 1), warm: () => heicGrid(heic(), 1, 1) },
  { name: 'HEIC grid 4 × 8 tiles, 35 MP', make: () => heicGrid(heic(), 4, 8), warm: () => heicGrid(heic(), 1, 1) },
  { name: 'TIFF grey Deflate 40 MP', make: () => tiffSharedStrip(1, 8000, 5000), warm: () => tiffSharedStrip(1, 64, 64) },
  { name: 'TIFF 5 pages × 40 MP, one after another', make: () => tiffSharedStrip(5, 8000, 5000), warm: () => tiffSharedStrip(1, 64, 64) },
  {
    name: 'PDF page that is one JPEG, photo 96 MP (libvips, shrunk on load)',
    make: async () => pdfOfJpeg(await sharpImage(12000, 8000, 3, (i) => i.jpeg()), 12000, 8000),
    warm: async () => pdfOfJpeg(await sharpImage(64, 64, 3, (i) => i.jpeg()), 64, 64),
  },
  { name: 'PDF grey Deflate image 36 MP', make: () => pdfWithImages(6000, 6000), warm: () => pdfWithImages(64, 64) },
  { name: 'PDF content stream of 100 MiB', make: () => pdfContentBomb(100 * MiB), warm: () => pdfContentBomb(1000) },
]

interface Measured {
  pixels: number
  /** What the reader's check asks for, in bytes (its message under a 1 MiB budget). */
  budget: number | null
  /** Growth of the peak resident memory while decoding. */
  peak: number
  ms: number
  outcome: string
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await child(process.argv[3] as MediaType, process.argv[4]!, process.argv[5]!, process.argv[6] === 'jpeg-js')))
  process.exit(0)
}

async function child(mediaType: MediaType, file: string, warmFile: string, builtinJpeg: boolean): Promise<Measured> {
  const bytes = new Uint8Array(readFileSync(file))
  const warm = new Uint8Array(readFileSync(warmFile))
  const decode = decoder(mediaType, builtinJpeg)
  await decode(warm, limitsOf(4096 * MiB)).catch(() => {})
  // The least budget, in MiB, under which the reader's checks let the file through.
  let budget: number | null = null
  let outcome = 'decoded'
  if (accepted(mediaType, bytes, 65_536 * MiB, builtinJpeg)) {
    let [low, high] = [0, 65_536]
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2)
      if (accepted(mediaType, bytes, middle * MiB, builtinJpeg)) high = middle
      else low = middle
    }
    budget = high * MiB
  } else outcome = 'refused at any budget'
  Bun.gc(true)
  await Bun.sleep(50)
  // Writing 5 to clear_refs resets the peak (VmHWM) to the present size.
  writeFileSync('/proc/self/clear_refs', '5')
  const before = status('VmRSS')
  const started = performance.now()
  try {
    if (budget !== null) await decode(bytes, limitsOf(budget))
  } catch (error) {
    outcome = `${(error as { code?: string }).code ?? 'error'}: ${(error as Error).message}`
  }
  return { pixels: pixelsOf(mediaType, bytes), budget, peak: status('VmHWM') - before, ms: performance.now() - started, outcome }
}

function status(field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024
}

function limitsOf(maxDecodeBytes: number): ReadLimits {
  return { maxPages: 100, maxPagePixels: 1_000_000_000, maxDocumentPixels: 100_000_000_000, maxDecodeBytes }
}

/** Whether the reader's checks, which run before anything is decoded, let the file through. */
function accepted(mediaType: MediaType, bytes: Uint8Array, maxDecodeBytes: number, builtinJpeg: boolean): boolean {
  try {
    if (mediaType === MEDIA_TYPES.pdf) checkPdfBudget(bytes, limitsOf(maxDecodeBytes))
    else if (builtinJpeg) builtinJpegPage(bytes, limitsOf(maxDecodeBytes))
    else imagePages(bytes, mediaType, limitsOf(maxDecodeBytes))
    return true
  } catch (error) {
    if (!(error instanceof ExtractionError) || !['image_too_large', 'document_too_large'].includes(error.code)) throw error
    return false
  }
}

/** Decodes every page of the file as the reader does, short of OCR. */
function decoder(mediaType: MediaType, builtinJpeg: boolean): (bytes: Uint8Array, limits: ReadLimits) => Promise<void> {
  if (mediaType === MEDIA_TYPES.pdf) return decodePdf
  if (builtinJpeg)
    return async (bytes, limits) => {
      builtinJpegPage(bytes, limits)()
    }
  return async (bytes, limits) => {
    const pages = imagePages(bytes, mediaType, limits)
    for (let index = 0; index < pages.count; index++) await pages.decode(index)
  }
}

/**
 * A PDF's pages as the PDF reader takes them: the budget, then text, operators and images of each
 * page; a page that is one JPEG decoded by the photo path (D350).
 */
async function decodePdf(bytes: Uint8Array, limits: ReadLimits): Promise<void> {
  const plan = checkPdfBudget(bytes, limits)
  const { getDocumentProxy, getResolvedPDFJS } = await import('unpdf')
  const { OPS } = await getResolvedPDFJS()
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, maxImageSize: plan.maxImageSize })
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number)
    await page.getTextContent()
    const photo = plan.photos.get(number)
    if (photo) {
      await jpegPhoto(photo.jpeg, limits, 0, PDF_FILE_COPIES * bytes.length)()
      continue
    }
    const operators = await page.getOperatorList()
    for (let i = 0; i < operators.fnArray.length; i++) {
      if (operators.fnArray[i] !== OPS.paintImageXObject) continue
      const key = (operators.argsArray[i] as string[])[0]!
      await new Promise((resolve) => (key.startsWith('g_') ? page.commonObjs : page.objs).get(key, resolve))
    }
    page.cleanup()
  }
  await pdf.loadingTask.destroy()
}

function pixelsOf(mediaType: MediaType, bytes: Uint8Array): number {
  try {
    return imagePixels(bytes, mediaType)
  } catch {
    return 0
  }
}

const only = new RegExp(process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? '')
const dir = mkdtempSync(join(tmpdir(), 'extractd-decode-cost-'))
const mb = (bytes: number) => (bytes / MiB).toFixed(0)
console.log(['case', 'MP', 'budget MiB', 'measured MiB', 'measured MiB/MP', 'measured / budget', 'ms', 'outcome', 'ok'].join(' | '))
let over = 0
try {
  for (const item of CASES.filter((c) => only.test(c.name))) {
    const file = join(dir, 'image')
    const warm = join(dir, 'warm')
    const bytes = await item.make()
    writeFileSync(file, bytes)
    writeFileSync(warm, await item.warm())
    const mediaType = detectMediaType(bytes)!
    const run = Bun.spawnSync([process.execPath, import.meta.path, '--child', mediaType, file, warm, item.builtinJpeg ? 'jpeg-js' : ''], { stderr: 'inherit' })
    const measured = JSON.parse(run.stdout.toString().trim().split('\n').pop()!) as Measured
    const ok = measured.budget === null ? measured.peak <= 600 * MiB : measured.peak <= measured.budget + NOISE
    if (!ok) over++
    const mp = measured.pixels / 1e6
    console.log(
      [
        item.name,
        mp.toFixed(1),
        measured.budget === null ? '–' : mb(measured.budget),
        mb(measured.peak),
        mp ? (measured.peak / MiB / mp).toFixed(2) : '–',
        measured.budget ? (measured.peak / measured.budget).toFixed(2) : '–',
        Math.round(measured.ms),
        measured.outcome,
        ok ? 'yes' : 'NO',
      ].join(' | '),
    )
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
console.log(over ? `${over} decoder(s) took more than their budget` : 'every decoder kept to its budget')
process.exit(over ? 1 : 0)
