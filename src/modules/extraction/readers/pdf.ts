/**
 * PDF text layer → page texts. pdf.js gives text runs with positions; lines are rebuilt from
 * them (runs grouped by baseline, ordered by x) and laid out on a character grid, so label/value
 * columns and table columns stay apart and aligned the way they were printed.
 */
import type { getDocumentProxy } from 'unpdf'
import { ExtractionError } from '../engines/types'

interface Run {
  text: string
  x: number
  y: number
  width: number
  size: number
}

interface PdfTextItem {
  str?: string
  transform?: number[]
  width?: number
  height?: number
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>

/** Reads the text of every page; throws ExtractionError for corrupt, locked or image-only PDFs. */
export async function readPdf(bytes: Uint8Array): Promise<string[]> {
  const pdf = await openPdf(bytes)
  try {
    const pages: string[] = []
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const content = await page.getTextContent()
      pages.push(layoutPage(toRuns(content.items as PdfTextItem[])))
      page.cleanup()
    }
    if (!pages.some((text) => /\p{L}|\p{N}/u.test(text)))
      throw new ExtractionError(
        'no_text_layer',
        'The PDF has no text layer (it is probably a scan or images only); run OCR on it first or send a PDF with selectable text.',
      )
    return pages
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    throw new ExtractionError('corrupt_document', `The PDF could not be read: ${messageOf(error)}`)
  } finally {
    await pdf.loadingTask.destroy().catch(() => {})
  }
}

async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  try {
    // Loaded on the first PDF, not at start: PDF.js is most of the server's start-up time.
    const { getDocumentProxy } = await import('unpdf')
    // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
  } catch (error) {
    if ((error as { name?: string })?.name === 'PasswordException')
      throw new ExtractionError(
        'encrypted_document',
        'The PDF is encrypted and needs a password to open; remove the password and send it again.',
      )
    throw new ExtractionError('corrupt_document', `The file is not a readable PDF: ${messageOf(error)}`)
  }
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown })?.message
  return typeof message === 'string' && message ? message : 'unknown error'
}

/** Text items with a position and a size; upright text only (rotated runs keep their order). */
function toRuns(items: PdfTextItem[]): Run[] {
  const runs: Run[] = []
  for (const item of items) {
    if (typeof item.str !== 'string' || !item.transform) continue
    const text = item.str.replace(/\s+/g, ' ')
    if (!text.trim()) continue
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform
    const size = Math.max(Math.hypot(c, d), Math.hypot(a, b), 1)
    runs.push({ text, x: e, y: f, width: Math.max(item.width ?? 0, 0), size })
  }
  return runs
}

/** Groups runs into lines by baseline, top to bottom, each line ordered by x. */
function groupLines(runs: Run[]): Run[][] {
  const sorted = [...runs].sort((p, q) => q.y - p.y || p.x - q.x)
  const lines: { y: number; size: number; runs: Run[] }[] = []
  for (const run of sorted) {
    const line = lines[lines.length - 1]
    // Runs whose baselines differ by less than ~40% of the font size share a line (subscripts,
    // mixed fonts and slightly offset table cells).
    if (line && Math.abs(line.y - run.y) <= Math.min(line.size, run.size) * 0.4) {
      line.runs.push(run)
      line.size = Math.max(line.size, run.size)
    } else {
      lines.push({ y: run.y, size: run.size, runs: [run] })
    }
  }
  return lines.map((line) => line.runs.sort((p, q) => p.x - q.x))
}

/**
 * Places each line's runs on a character grid (like `pdftotext -layout`): a run starts at the
 * column its x maps to, so columns line up across lines. A wide gap always gets at least two
 * spaces, the mark of a column break for the engine; a narrow gap gets one space or none.
 */
function layoutPage(runs: Run[]): string {
  if (!runs.length) return ''
  const charWidth = estimateCharWidth(runs)
  const minX = Math.min(...runs.map((run) => run.x))
  const out: string[] = []
  for (const line of groupLines(runs)) {
    let text = ''
    let end = -Infinity
    for (const run of line) {
      const gap = run.x - end
      const column = Math.round((run.x - minX) / charWidth)
      if (text) {
        if (gap > run.size * 0.8) text += ' '.repeat(Math.max(2, column - text.length))
        else if (gap > run.size * 0.12 && !text.endsWith(' ') && !run.text.startsWith(' ')) text += ' '
      } else if (column > 0) {
        text = ' '.repeat(column)
      }
      text += run.text
      end = run.x + run.width
    }
    out.push(text.trimEnd())
  }
  return out.join('\n')
}

/** Median advance per character over the page's runs: the grid's column width. */
function estimateCharWidth(runs: Run[]): number {
  const widths = runs
    .filter((run) => run.width > 0 && run.text.length >= 2)
    .map((run) => run.width / run.text.length)
    .sort((p, q) => p - q)
  const median = widths[Math.floor(widths.length / 2)]
  return median && median > 0.5 ? median : 5
}
