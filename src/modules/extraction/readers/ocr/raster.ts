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
