/**
 * The paper in a photo (D158): a receipt lying on a table or held in a hand is the largest bright
 * region standing out from a darker surround. It is found on a small copy of the photo (a
 * threshold between the two brightnesses, then the largest connected bright region) and the photo
 * is cut to it, so OCR reads the receipt, not the wood grain. When the region is a quadrilateral
 * (a receipt seen at an angle, turned, or in perspective) the paper is warped from its four corners
 * to an upright rectangle (D164, perspective.ts); otherwise it is cut to its box. A page with no
 * such region (a scan, paper on a white table, a photo of a screen) is left whole.
 */
import { findQuad, type Point, polygonArea, type Quad, unwarpPoint, warpQuad } from './perspective'
import type { Raster } from './raster'

/** The copy the paper is looked for on has about this many pixels on its longest side. */
const SURVEY_SIDE = 320
/** Paper and surround must differ by this much (0–255) to be told apart. */
const MIN_CONTRAST = 50
/** The paper covers at least this share of the photo, and leaves at least the rest around it. */
const MIN_PAPER_SHARE = 0.02
const MAX_PAPER_SHARE = 0.8

/** The photo cut to the paper in it, and where that was; the page unchanged when no paper stands out. */
export function findPaper(page: Raster): { page: Raster; paper?: PaperFound } {
  const paper = locatePaper(page)
  return paper ? { page: cutPaper(page, paper), paper } : { page }
}

/** The paper found in a photo, cut out of it: straightened from its corners, or cut to its box. */
export function cutPaper(page: Raster, paper: PaperFound): Raster {
  if ('corners' in paper) return warpQuad(page, paper.corners, paper.inset)
  return crop(page, paper.left, paper.top, paper.width, paper.height)
}

/** Where a point of the paper cut out of a photo (pixels of `cutPaper`'s raster) lies in the photo (D352). */
export function photoPoint(paper: PaperFound, point: Point): Point {
  if ('corners' in paper) return unwarpPoint(paper.corners, paper.inset, point)
  return { x: paper.left + point.x, y: paper.top + point.y }
}

/**
 * Where the paper is in a photo: its four corners, when it shows them with confidence, to be
 * straightened and cut `inset` pixels inside its edge; else the box to cut it to; undefined when
 * no paper stands out.
 */
export type PaperFound = { corners: Quad; inset: number } | { left: number; top: number; width: number; height: number }

export function locatePaper(page: Raster): PaperFound | undefined {
  const step = Math.max(1, Math.ceil(Math.max(page.width, page.height) / SURVEY_SIDE))
  const survey = shrinkByAverage(page, step)
  const threshold = otsuThreshold(survey.data)
  if (threshold === undefined) return undefined
  const region = largestBrightRegion(survey, threshold)
  const area = survey.width * survey.height
  if (region.pixels < area * MIN_PAPER_SHARE) return undefined
  // A paper photographed at an angle is straightened (D164): its corners, found on the survey
  // copy, are scaled to the page, and the paper is cut one survey pixel inside its edge.
  const { points, area: enclosed } = outline(region)
  const quad = findQuad(points, enclosed)
  if (quad && !squareToSurvey(quad, region)) {
    if (polygonArea(quad) > area * MAX_PAPER_SHARE) return undefined
    return { corners: quad.map(({ x, y }) => ({ x: x * step, y: y * step })) as Quad, inset: step }
  }
  const boxArea = (region.right - region.left + 1) * (region.bottom - region.top + 1)
  if (boxArea > area * MAX_PAPER_SHARE) return undefined
  // Cut just inside the paper's edge (one survey pixel): a strip of table left along it is read as
  // a column of marks, and its dark band can hide the print beside it from the line finder.
  const left = (region.left + 1) * step
  const top = (region.top + 1) * step
  const right = Math.min(page.width, region.right * step)
  const bottom = Math.min(page.height, region.bottom * step)
  if (right - left < step * 4 || bottom - top < step * 4) return undefined
  return { left, top, width: right - left, height: bottom - top }
}

/**
 * Whether a quadrilateral is the region's box to within a survey pixel: a paper lying square to
 * the photo is cut to its box, pixels as they are, without resampling.
 */
function squareToSurvey(quad: Quad, region: Region): boolean {
  const box = [
    { x: region.left, y: region.top },
    { x: region.right + 1, y: region.top },
    { x: region.right + 1, y: region.bottom + 1 },
    { x: region.left, y: region.bottom + 1 },
  ]
  return quad.every((corner, i) => Math.abs(corner.x - box[i]!.x) <= 1 && Math.abs(corner.y - box[i]!.y) <= 1)
}

/**
 * The outline of a region, in survey coordinates of pixel edges: where each row enters and leaves
 * it, and each column. Holes (the print) are not part of it. With it, the area it encloses: the
 * smaller of the rows' and the columns' spans, so a notch from either way counts as missing.
 */
function outline(region: Region): { points: Point[]; area: number } {
  const { labels, label, width, left, top, right, bottom } = region
  const points: Point[] = []
  let [rowSpans, columnSpans] = [0, 0]
  for (let y = top; y <= bottom; y++) {
    let [first, last] = [-1, -1]
    for (let x = left; x <= right; x++) if (labels[y * width + x] === label) [first, last] = [first < 0 ? x : first, x]
    if (first < 0) continue
    points.push({ x: first, y: y + 0.5 }, { x: last + 1, y: y + 0.5 })
    rowSpans += last + 1 - first
  }
  for (let x = left; x <= right; x++) {
    let [first, last] = [-1, -1]
    for (let y = top; y <= bottom; y++) if (labels[y * width + x] === label) [first, last] = [first < 0 ? y : first, y]
    if (first < 0) continue
    points.push({ x: x + 0.5, y: first }, { x: x + 0.5, y: last + 1 })
    columnSpans += last + 1 - first
  }
  return { points, area: Math.min(rowSpans, columnSpans) }
}

function shrinkByAverage(page: Raster, step: number): Raster {
  const width = Math.floor(page.width / step)
  const height = Math.floor(page.height / step)
  const data = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0
      for (let dy = 0; dy < step; dy++) {
        const row = (y * step + dy) * page.width + x * step
        for (let dx = 0; dx < step; dx++) sum += page.data[row + dx]!
      }
      data[y * width + x] = sum / (step * step)
    }
  }
  return { width, height, data }
}

/** Otsu's threshold between dark and bright, or undefined when the two are too alike to part. */
function otsuThreshold(pixels: Uint8Array): number | undefined {
  const histogram = new Float64Array(256)
  for (const value of pixels) histogram[value]!++
  const total = pixels.length
  let sumAll = 0
  for (let v = 0; v < 256; v++) sumAll += v * histogram[v]!
  let darkCount = 0
  let darkSum = 0
  let best = { threshold: -1, variance: -1, darkMean: 0, brightMean: 0 }
  for (let t = 0; t < 255; t++) {
    darkCount += histogram[t]!
    darkSum += t * histogram[t]!
    const brightCount = total - darkCount
    if (darkCount === 0 || brightCount === 0) continue
    const darkMean = darkSum / darkCount
    const brightMean = (sumAll - darkSum) / brightCount
    const variance = darkCount * brightCount * (darkMean - brightMean) ** 2
    if (variance > best.variance) best = { threshold: t, variance, darkMean, brightMean }
  }
  if (best.threshold < 0 || best.brightMean - best.darkMean < MIN_CONTRAST) return undefined
  return best.threshold
}

interface Region {
  pixels: number
  left: number
  top: number
  right: number
  bottom: number
  /** Each survey pixel's region number (0 for none), the survey's width, and this region's number. */
  labels: Int32Array
  width: number
  label: number
}

/** The largest 4-connected region of pixels brighter than the threshold, and its bounding box. */
function largestBrightRegion(survey: Raster, threshold: number): Region {
  const { width, height, data } = survey
  const labels = new Int32Array(width * height)
  const queue = new Int32Array(width * height)
  let best: Region = { pixels: 0, left: 0, top: 0, right: 0, bottom: 0, labels, width, label: 0 }
  let label = 0
  for (let start = 0; start < data.length; start++) {
    if (labels[start] || data[start]! <= threshold) continue
    label++
    const region: Region = { pixels: 0, left: width, top: height, right: 0, bottom: 0, labels, width, label }
    let head = 0
    let tail = 0
    queue[tail++] = start
    labels[start] = label
    while (head < tail) {
      const at = queue[head++]!
      const x = at % width
      const y = (at - x) / width
      region.pixels++
      if (x < region.left) region.left = x
      if (x > region.right) region.right = x
      if (y < region.top) region.top = y
      if (y > region.bottom) region.bottom = y
      for (const next of [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, y > 0 ? at - width : -1, y < height - 1 ? at + width : -1]) {
        if (next >= 0 && !labels[next] && data[next]! > threshold) {
          labels[next] = label
          queue[tail++] = next
        }
      }
    }
    if (region.pixels > best.pixels) best = region
  }
  return best
}

function crop(page: Raster, left: number, top: number, width: number, height: number): Raster {
  const data = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) data.set(page.data.subarray((top + y) * page.width + left, (top + y) * page.width + left + width), y * width)
  return { width, height, data }
}
