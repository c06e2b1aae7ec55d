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
  const xRatio = w / width
  const yRatio = h / height
  for (let y = 0; y < height; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) * yRatio - 0.5))
    const y0 = Math.floor(sy)
    const y1 = Math.min(h - 1, y0 + 1)
    const fy = sy - y0
    for (let x = 0; x < width; x++) {
      const sx = Math.min(w - 1, Math.max(0, (x + 0.5) * xRatio - 0.5))
      const x0 = Math.floor(sx)
      const x1 = Math.min(w - 1, x0 + 1)
      const fx = sx - x0
      const top = src[y0 * w + x0]! * (1 - fx) + src[y0 * w + x1]! * fx
      const bottom = src[y1 * w + x0]! * (1 - fx) + src[y1 * w + x1]! * fx
      data[y * width + x] = top * (1 - fy) + bottom * fy
    }
  }
  return { width, height, data }
}

/** Turns the image clockwise by a multiple of 90 degrees. */
export function rotate(raster: Raster, degrees: 0 | 90 | 180 | 270): Raster {
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
    for (let bx = 0; bx < cols; bx++) {
      histogram.fill(0)
      let count = 0
      for (let y = by * block; y < Math.min(height, (by + 1) * block); y++)
        for (let x = bx * block; x < Math.min(width, (bx + 1) * block); x++) {
          histogram[src[y * width + x]!]!++
          count++
        }
      let seen = 0
      let level = 255
      while (level > 0 && (seen += histogram[level]!) < count * 0.1) level--
      paper[by * cols + bx] = Math.max(level, 1)
    }
  }
  // Where each column falls between block centres: the same for every row.
  const left = new Uint32Array(width)
  const right = new Uint32Array(width)
  const weight = new Float32Array(width)
  for (let x = 0; x < width; x++) {
    const fx = Math.min(cols - 1, Math.max(0, (x + 0.5) / block - 0.5))
    left[x] = Math.floor(fx)
    right[x] = Math.min(cols - 1, left[x]! + 1)
    weight[x] = fx - left[x]!
  }
  const data = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    const fy = Math.min(rows - 1, Math.max(0, (y + 0.5) / block - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(rows - 1, y0 + 1)
    const ty = fy - y0
    for (let x = 0; x < width; x++) {
      const [x0, x1, tx] = [left[x]!, right[x]!, weight[x]!]
      const top = paper[y0 * cols + x0]! * (1 - tx) + paper[y0 * cols + x1]! * tx
      const bottom = paper[y1 * cols + x0]! * (1 - tx) + paper[y1 * cols + x1]! * tx
      const background = top * (1 - ty) + bottom * ty
      data[y * width + x] = Math.min(255, (src[y * width + x]! * 255) / background)
    }
  }
  return { width, height, data, dpi: raster.dpi }
}
