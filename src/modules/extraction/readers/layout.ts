/**
 * Positioned words → page text laid out like the printed page (as `pdftotext -layout` does), and
 * the position of every word in that text. Both readers that know where words are (the PDF text
 * layer and OCR) use it, so the engines see lines and columns the same way for both, and a value
 * found in the text can be traced back to its box on the page.
 */

/** A word or run of text with its box in page units, y growing downwards. */
export interface PositionedWord {
  text: string
  x0: number
  y0: number
  x1: number
  y1: number
  /** Size of the type in page units: gaps wider than ~0.8 of it separate columns. */
  size: number
  /** How sure the reader is of the text, 0–1 (1 for a text layer). */
  confidence: number
}

/** Where a word of the page text sits: line and character span in the text, box on the page. */
export interface PlacedWord {
  /** 0-based line of the page text. */
  line: number
  start: number
  end: number
  /** [x0, y0, x1, y1] as fractions of the page's width and height, from its top-left corner. */
  box: [number, number, number, number]
  confidence: number
}

export interface PageLayout {
  words: PlacedWord[]
}

export interface LaidOutPage {
  text: string
  layout: PageLayout
  /** A doubtful scanned page's second reading (D67). */
  second?: LaidOutPage
}

/** One reading of a page: lines of positioned words on a page of this size. */
export interface PageWords {
  lines: PositionedWord[][]
  width: number
  height: number
}

/** Lays out a page read by OCR and, when a doubtful page was read a second time, that reading too. */
export function layOutReadings(page: PageWords & { second?: PageWords | undefined }): LaidOutPage {
  const first = layOut(page.lines, page.width, page.height)
  return page.second ? { ...first, second: layOut(page.second.lines, page.second.width, page.second.height) } : first
}

/**
 * Lays out a page. `units` are groups of words that belong on one line whatever their y (an OCR
 * line, whose words drift on a skewed scan); units whose vertical centres are close share a row.
 */
export function layOut(units: PositionedWord[][], pageWidth: number, pageHeight: number): LaidOutPage {
  const rows = groupRows(units.filter((unit) => unit.length > 0))
  const all = rows.flat()
  if (!all.length) return { text: '', layout: { words: [] } }
  const charWidth = estimateCharWidth(all)
  const minX = Math.min(...all.map((word) => word.x0))
  const out: string[] = []
  const placed: PlacedWord[] = []
  rows.forEach((row, line) => {
    let text = ''
    let end = -Infinity
    for (const word of row) {
      const gap = word.x0 - end
      const column = Math.round((word.x0 - minX) / charWidth)
      if (text) {
        if (gap > word.size * 0.8) text += ' '.repeat(Math.max(2, column - text.length))
        else if (gap > word.size * 0.12 && !text.endsWith(' ') && !word.text.startsWith(' ')) text += ' '
      } else if (column > 0) {
        text = ' '.repeat(column)
      }
      placed.push({
        line,
        start: text.length,
        end: text.length + word.text.length,
        box: [word.x0 / pageWidth, word.y0 / pageHeight, word.x1 / pageWidth, word.y1 / pageHeight].map(clamp01) as PlacedWord['box'],
        confidence: word.confidence,
      })
      text += word.text
      end = word.x1
    }
    out.push(text.trimEnd())
  })
  return { text: out.join('\n'), layout: { words: placed } }
}

/**
 * A laid-out page (and its second reading) with each word's box carried to another frame: `map`
 * takes a point as fractions of the page read to fractions of the page shown, and a box becomes
 * the box around its corners carried so. The text and its lines stay as read (D352).
 */
export function mapBoxes(page: LaidOutPage, map: (point: [number, number]) => [number, number]): LaidOutPage {
  const words = page.layout.words.map((word) => {
    const [x0, y0, x1, y1] = word.box
    const corners = [map([x0, y0]), map([x1, y0]), map([x0, y1]), map([x1, y1])]
    const xs = corners.map(([x]) => x)
    const ys = corners.map(([, y]) => y)
    const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map(clamp01) as PlacedWord['box']
    return { ...word, box }
  })
  const mapped: LaidOutPage = { text: page.text, layout: { words } }
  return page.second ? { ...mapped, second: mapBoxes(page.second, map) } : mapped
}

function clamp01(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000
}

/** Rows top to bottom, each ordered by x: units join the row whose centre line they sit on. */
function groupRows(units: PositionedWord[][]): PositionedWord[][] {
  const sorted = units
    .map((words) => ({ words, centre: median(words.map((word) => (word.y0 + word.y1) / 2)), size: median(words.map((word) => word.size)) }))
    .sort((p, q) => p.centre - q.centre || p.words[0]!.x0 - q.words[0]!.x0)
  const rows: { centre: number; size: number; words: PositionedWord[] }[] = []
  for (const unit of sorted) {
    const row = rows[rows.length - 1]
    // Centres closer than ~40% of the type size share a row (mixed fonts, offset table cells).
    if (row && Math.abs(row.centre - unit.centre) <= Math.min(row.size, unit.size) * 0.4) {
      row.words.push(...unit.words)
      row.size = Math.max(row.size, unit.size)
    } else {
      rows.push({ centre: unit.centre, size: unit.size, words: [...unit.words] })
    }
  }
  return rows.map((row) => row.words.sort((p, q) => p.x0 - q.x0))
}

/** The middle value of a list (the upper one of an even list's two), 0 for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((p, q) => p - q)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** Median advance per character over the page's words: the grid's column width. */
function estimateCharWidth(words: PositionedWord[]): number {
  const widths = words
    .filter((word) => word.x1 > word.x0 && word.text.length >= 2)
    .map((word) => (word.x1 - word.x0) / word.text.length)
    .sort((p, q) => p - q)
  const median = widths[Math.floor(widths.length / 2)]
  return median && median > 0 ? median : (words[0]?.size ?? 10) / 2
}
