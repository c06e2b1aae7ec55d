/**
 * Greyscale page images and the few operations OCR needs on them. Pixels are one byte each,
 * row by row, 0 black to 255 white.
 */

export interface Raster {
  width: number
  height: number
  data: Uint8Array
  /** Resolution the image was scanned at, when the file says so. */
  dpi?: number
}

/** Greyscale from interleaved samples of 1–4 channels (grey, grey+alpha, RGB, RGBA); alpha is laid on white. */
export function toGrey(samples: ArrayLike<number>, width: number, height: number, channels: number, maxValue = 255): Raster {
  const data = new Uint8Array(width * height)
  const scale = 255 / maxValue
  for (let i = 0, p = 0; i < data.length; i++, p += channels) {
    let grey: number
    if (channels >= 3) grey = (samples[p]! * 299 + samples[p + 1]! * 587 + samples[p + 2]! * 114) / 1000
    else grey = samples[p]!
    grey *= scale
    if (channels === 2 || channels === 4) {
      const alpha = (samples[p + channels - 1]! * scale) / 255
      grey = grey * alpha + 255 * (1 - alpha)
    }
    data[i] = grey
  }
  return { width, height, data }
}

/** Bilinear resize by a factor (both directions). */
export function scale(raster: Raster, factor: number): Raster {
  const width = Math.max(1, Math.round(raster.width * factor))
  const height = Math.max(1, Math.round(raster.height * factor))
  const data = new Uint8Array(width * height)
  const { width: w, height: h, data: src } = raster
  const [left, right, weight] = between(width, w / width, w)
  const [upper, lower, depth] = between(height, h / height, h)
  for (let y = 0; y < height; y++) {
    const above = upper[y]! * w
    const below = lower[y]! * w
    const fy = depth[y]!
    for (let x = 0, at = y * width; x < width; x++, at++) {
      const x0 = left[x]!
      const x1 = right[x]!
      const fx = weight[x]!
      const top = src[above + x0]! * (1 - fx) + src[above + x1]! * fx
      const bottom = src[below + x0]! * (1 - fx) + src[below + x1]! * fx
      data[at] = top * (1 - fy) + bottom * fy
    }
  }
  return { width, height, data }
}

/**
 * For each of `count` positions spaced `step` apart (centres aligned), the two of `size` cells it
 * falls between and how far towards the second: what bilinear interpolation needs along one axis.
 */
function between(count: number, step: number, size: number): [Uint32Array, Uint32Array, Float64Array] {
  const first = new Uint32Array(count)
  const second = new Uint32Array(count)
  const weight = new Float64Array(count)
  for (let i = 0; i < count; i++) {
    const at = Math.min(size - 1, Math.max(0, (i + 0.5) * step - 0.5))
    first[i] = Math.floor(at)
    second[i] = Math.min(size - 1, first[i]! + 1)
    weight[i] = at - first[i]!
  }
  return [first, second, weight]
}

/** A quarter turn clockwise, as `rotate` makes it. */
export type Turn = 0 | 90 | 180 | 270

/**
 * Where a point of an image turned by `degrees` (as `rotate` turns it) was before the turn; both
 * as fractions of their image's width and height (D352).
 */
export function unturnPoint(degrees: Turn, [x, y]: [number, number]): [number, number] {
  if (degrees === 90) return [y, 1 - x]
  if (degrees === 180) return [1 - x, 1 - y]
  if (degrees === 270) return [1 - y, x]
  return [x, y]
}

/** Turns the image clockwise by a multiple of 90 degrees. */
export function rotate(raster: Raster, degrees: Turn): Raster {
  if (degrees === 0) return raster
  const { width: w, height: h, data: src } = raster
  const turned = degrees !== 180
  const width = turned ? h : w
  const height = turned ? w : h
  const data = new Uint8Array(w * h)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const value = src[y * w + x]!
      if (degrees === 90) data[x * width + (h - 1 - y)] = value
      else if (degrees === 180) data[(h - 1 - y) * width + (w - 1 - x)] = value
      else data[(w - 1 - x) * width + y] = value
    }
  }
  return { width, height, data }
}

/** Mirrors the image left to right. */
export function mirror(raster: Raster): Raster {
  const { width, height, data: src } = raster
  const data = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = src[y * width + width - 1 - x]!
  return { width, height, data }
}

/** The raster as a binary PGM (P5), a format Leptonica reads without a codec. */
export function toPgm(raster: Raster): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${raster.width} ${raster.height}\n255\n`)
  const out = new Uint8Array(header.length + raster.data.length)
  out.set(header)
  out.set(raster.data, header.length)
  return out
}

/** Rows of an image: from `top`, `height` rows. */
export interface Band {
  top: number
  height: number
}

/** The rows of a band of an image. */
export function rows(raster: Raster, { top, height }: Band): Raster {
  const { width } = raster
  return { width, height, data: raster.data.subarray(top * width, (top + height) * width), dpi: raster.dpi }
}

/**
 * A row between lines of text below about `share` of the page's ink (or else above it), where the
 * page can be cut without cutting a line; undefined when there is none near it. Rows crossed only
 * by a table's rules or specks count as blank, and the gap between lines must be a few rows high.
 */
export function blankRowNear(raster: Raster, share: number): number | undefined {
  const { width, height, data } = raster
  const ink = new Uint32Array(height)
  let total = 0
  for (let y = 0; y < height; y++) {
    let count = 0
    for (let x = y * width, end = x + width; x < end; x++) if (data[x]! < INK) count++
    ink[y] = count
    total += count
  }
  if (!total) return undefined
  let seen = 0
  let target = 0
  while (target < height && (seen += ink[target]!) < total * share) target++
  const blank = Math.max(2, width * 0.01)
  const gap = Math.max(3, Math.round(height * 0.002))
  const reach = Math.round(height * 0.15)
  const gapAt = (y: number) => {
    if (y < 0 || y + gap > height) return false
    for (let row = y; row < y + gap; row++) if (ink[row]! > blank) return false
    return true
  }
  for (let step = 0; step <= reach; step++) {
    if (gapAt(target + step)) return target + step + (gap >> 1)
    if (step && gapAt(target - step - gap) && target - step > gap) return target - step - (gap >> 1)
  }
  return undefined
}

/** Darker than this is ink. */
const INK = 128

/** Side of the blocks whose paper brightness is measured, in pixels of the image as decoded (dev-scans: 48 read best of 24–96). */
const PAPER_BLOCK = 48

/**
 * Evens out the paper: each pixel is divided by the brightness of the paper around it (the
 * brightest tenth of each block, smoothed between blocks), so shadows, a photo's uneven light
 * and yellowed paper become white while ink keeps its contrast.
 */
export function flattenBackground(raster: Raster, block = PAPER_BLOCK): Raster {
  const { width, height, data: src } = raster
  const cols = Math.ceil(width / block)
  const rows = Math.ceil(height / block)
  const paper = new Float32Array(cols * rows)
  const histogram = new Uint32Array(256)
  for (let by = 0; by < rows; by++) {
    const [top, bottom] = [by * block, Math.min(height, (by + 1) * block)]
    for (let bx = 0; bx < cols; bx++) {
      const [start, end] = [bx * block, Math.min(width, (bx + 1) * block)]
      histogram.fill(0)
      for (let y = top; y < bottom; y++) for (let at = y * width + start, stop = y * width + end; at < stop; at++) histogram[src[at]!]!++
      const brightest = (bottom - top) * (end - start) * 0.1
      let seen = 0
      let level = 255
      while (level > 0 && (seen += histogram[level]!) < brightest) level--
      paper[by * cols + bx] = Math.max(level, 1)
    }
  }
  // Where each column and row falls between block centres.
  const [left, right, weight] = between(width, 1 / block, cols)
  const [upper, lower, depth] = between(height, 1 / block, rows)
  const data = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    const above = upper[y]! * cols
    const below = lower[y]! * cols
    const ty = depth[y]!
    for (let x = 0, at = y * width; x < width; x++, at++) {
      const x0 = left[x]!
      const x1 = right[x]!
      const tx = weight[x]!
      const top = paper[above + x0]! * (1 - tx) + paper[above + x1]! * tx
      const bottom = paper[below + x0]! * (1 - tx) + paper[below + x1]! * tx
      const background = top * (1 - ty) + bottom * ty
      data[at] = Math.min(255, (src[at]! * 255) / background)
    }
  }
  return { width, height, data, dpi: raster.dpi }
}
