/**
 * A receipt photographed at an angle (D164): the four corners of the paper found from its
 * outline, and the paper warped from that quadrilateral to an upright rectangle.
 */
import type { Raster } from './raster'

export interface Point {
  x: number
  y: number
}

/** Corners in order around the paper: top left, top right, bottom right, bottom left. */
export type Quad = [Point, Point, Point, Point]

/** Interior angles of a paper seen at an angle stay within this many degrees of a right angle. */
const MAX_ANGLE_OFF = 35
/** The outline encloses at least this share of the quadrilateral (a finger or a torn corner leaves less). */
const MIN_FILL = 0.85
/** The outline's convex hull exceeds the quadrilateral by at most this share (a bright hand joined to it does more). */
const MAX_HULL_EXCESS = 0.06
/** A side is fitted where at least this share of its length has outline points on it. */
const MIN_SIDE_SUPPORT = 0.4

/**
 * The four corners of a region from the points of its outline, or undefined when the region is
 * not a quadrilateral with confidence. The largest quadrilateral inside the outline's convex hull
 * gives each side roughly; each side is then fitted to the outline points along it, away from
 * the corners (rounded ones, or curled), and the corners are where the fitted sides meet. Points
 * off a side (a finger over the edge, a notch) are left out of its fit; one side with too few
 * points along it (a torn corner, or mostly covered) is drawn parallel to the side opposite.
 */
export function findQuad(outline: Point[], enclosed: number): Quad | undefined {
  const hull = convexHull(outline)
  if (hull.length < 4) return undefined
  const rough = largestQuad(hull)
  const fitted = [0, 1, 2, 3].map((side) => fitSide(outline, rough[side]!, rough[(side + 1) % 4]!))
  const missing = fitted.filter((line) => !line).length
  if (missing > 1) return undefined
  // One side with too little outline along it (a torn corner, a hand over it) is looked for
  // parallel to the side opposite, through the outline's outermost point that way, then fitted
  // to what outline there is along it between its neighbours.
  const lines = fitted.map((line, side) => {
    if (line) return line
    const guess = parallelOutside(outline, fitted[(side + 2) % 4]!, rough[side]!, rough[(side + 2) % 4]!)
    const [from, to] = [meet(fitted[(side + 3) % 4]!, guess), meet(guess, fitted[(side + 1) % 4]!)]
    return (from && to && fitSide(outline, from, to, guess, MIN_SIDE_SUPPORT / 2)) || guess
  })
  const corners = lines.map((line, side) => meet(lines[(side + 3) % 4]!, line))
  if (corners.some((corner) => !corner)) return undefined
  const quad = orderCorners(corners as Point[])
  const area = polygonArea(quad)
  if (!isConvex(quad) || !anglesNearRight(quad)) return undefined
  if (enclosed < area * MIN_FILL || polygonArea(hull) > area * (1 + MAX_HULL_EXCESS)) return undefined
  return quad
}

/** The convex hull of the points, its vertices in order around it (Andrew's monotone chain). */
function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((p, q) => p.x - q.x || p.y - q.y)
  if (sorted.length < 3) return sorted
  const half = (from: Point[]): Point[] => {
    const chain: Point[] = []
    for (const point of from) {
      while (chain.length >= 2 && cross(chain[chain.length - 2]!, chain[chain.length - 1]!, point) <= 0) chain.pop()
      chain.push(point)
    }
    chain.pop()
    return chain
  }
  return [...half(sorted), ...half(sorted.reverse())]
}

/**
 * The quadrilateral of largest area with its corners among the hull's vertices: for each pair
 * of opposite corners, the vertex farthest from their diagonal on either side. Along a convex
 * hull that distance rises then falls, and the farthest vertex moves on as the second corner
 * does, so each is found by stepping forward from the last one.
 */
function largestQuad(hull: Point[]): Quad {
  const n = hull.length
  const at = (index: number) => hull[index % n]!
  let best = { area: -1, corners: [0, 1, 2, 3] }
  for (let i = 0; i < n; i++) {
    let left = i + 1
    let right = i + 3
    for (let k = i + 2; k < i + n - 1; k++) {
      const area = (j: number) => Math.abs(cross(at(i), at(k), at(j)))
      while (left + 1 < k && area(left + 1) >= area(left)) left++
      right = Math.max(right, k + 1)
      while (right + 1 < i + n && area(right + 1) >= area(right)) right++
      const total = area(left) + area(right)
      if (total > best.area) best = { area: total, corners: [i, left, k, right] }
    }
  }
  return best.corners.map((index) => at(index)) as Quad
}

/** A line through `point` along the unit vector `along`. */
interface Line {
  point: Point
  along: Point
}

/**
 * The line fitted (total least squares) to the outline points near the side from `from` to `to`,
 * over its middle (the ends may be rounded corners); three times, each time with only the points
 * closer to the last fit (the side found first may run a little off the edge: its ends are hull
 * vertices near the corners, not at them). Undefined when too few points lie along it.
 */
function fitSide(outline: Point[], from: Point, to: Point, start?: Line, support = MIN_SIDE_SUPPORT): Line | undefined {
  const length = distance(from, to)
  if (length < 8) return undefined
  const along = unit(from, to)
  let line: Line = start ?? { point: from, along }
  for (const tolerance of [Math.max(3, length * 0.06), Math.max(2, length * 0.03), 1.5]) {
    const near = outline.filter((point) => {
      const t = (point.x - from.x) * along.x + (point.y - from.y) * along.y
      const off = Math.abs((point.x - line.point.x) * line.along.y - (point.y - line.point.y) * line.along.x)
      return t > length * 0.1 && t < length * 0.9 && off <= tolerance
    })
    if (near.length < length * 0.8 * support) return undefined
    line = fitLine(near)
  }
  return line
}

function fitLine(points: Point[]): Line {
  let mx = 0
  let my = 0
  for (const p of points) {
    mx += p.x / points.length
    my += p.y / points.length
  }
  let sxx = 0
  let sxy = 0
  let syy = 0
  for (const p of points) {
    sxx += (p.x - mx) ** 2
    sxy += (p.x - mx) * (p.y - my)
    syy += (p.y - my) ** 2
  }
  // The direction of greatest spread (the principal axis of the points).
  const angle = Math.atan2(2 * sxy, sxx - syy) / 2
  return { point: { x: mx, y: my }, along: { x: Math.cos(angle), y: Math.sin(angle) } }
}

/** The line along `opposite` through the outline point farthest from it on the side of `towards` (away from `from`). */
function parallelOutside(outline: Point[], opposite: Line, towards: Point, from: Point): Line {
  let normal = { x: -opposite.along.y, y: opposite.along.x }
  if (normal.x * (towards.x - from.x) + normal.y * (towards.y - from.y) < 0) normal = { x: -normal.x, y: -normal.y }
  const outermost = outline.reduce((best, p) => (p.x * normal.x + p.y * normal.y > best.x * normal.x + best.y * normal.y ? p : best))
  return { point: outermost, along: opposite.along }
}

/** Where two lines cross, or undefined when they are (nearly) parallel. */
function meet(a: Line, b: Line): Point | undefined {
  const denominator = a.along.x * b.along.y - a.along.y * b.along.x
  if (Math.abs(denominator) < 0.2) return undefined
  const t = ((b.point.x - a.point.x) * b.along.y - (b.point.y - a.point.y) * b.along.x) / denominator
  return { x: a.point.x + t * a.along.x, y: a.point.y + t * a.along.y }
}

/** The corners from top left, clockwise on the page: the one nearest the top-left is first. */
function orderCorners(corners: Point[]): Quad {
  const cx = corners.reduce((sum, p) => sum + p.x, 0) / 4
  const cy = corners.reduce((sum, p) => sum + p.y, 0) / 4
  const around = [...corners].sort((p, q) => Math.atan2(p.y - cy, p.x - cx) - Math.atan2(q.y - cy, q.x - cx))
  // Sorted by angle from -π: top left comes first unless the paper is turned past 45°.
  const first = around.reduce((best, p, index) => (p.x + p.y < around[best]!.x + around[best]!.y ? index : best), 0)
  return [0, 1, 2, 3].map((step) => around[(first + step) % 4]!) as Quad
}

function cross(o: Point, a: Point, b: Point): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

export function polygonArea(points: Point[]): number {
  let twice = 0
  for (let i = 0; i < points.length; i++) {
    const [p, q] = [points[i]!, points[(i + 1) % points.length]!]
    twice += p.x * q.y - q.x * p.y
  }
  return Math.abs(twice) / 2
}

function isConvex(quad: Quad): boolean {
  const turns = quad.map((p, i) => Math.sign(cross(p, quad[(i + 1) % 4]!, quad[(i + 2) % 4]!)))
  return turns.every((turn) => turn !== 0 && turn === turns[0])
}

function anglesNearRight(quad: Quad): boolean {
  return quad.every((corner, i) => {
    const [before, after] = [quad[(i + 3) % 4]!, quad[(i + 1) % 4]!]
    const a = Math.atan2(before.y - corner.y, before.x - corner.x)
    const b = Math.atan2(after.y - corner.y, after.x - corner.x)
    let degrees = Math.abs(((a - b) * 180) / Math.PI) % 360
    if (degrees > 180) degrees = 360 - degrees
    return Math.abs(degrees - 90) <= MAX_ANGLE_OFF
  })
}

/**
 * The quadrilateral's contents as an upright rectangle, `inset` pixels cut off each side: each
 * pixel of the rectangle is sampled (bilinear) where the projective map from the rectangle to
 * the quadrilateral puts it. The rectangle is as wide as the quadrilateral's longer top or bottom
 * side and as high as its longer left or right side, so the print nearest the camera keeps its
 * size.
 */
export function warpQuad(page: Raster, quad: Quad, inset = 0): Raster {
  const { fullWidth, fullHeight, width, height } = warpFrame(quad, inset)
  const [a, b, c, d, e, f, g, h] = squareToQuad(quad)
  const { width: w, height: hh, data: src } = page
  const data = new Uint8Array(width * height)
  // Along a row of the rectangle the three terms of the map grow by a constant step.
  const du = 1 / fullWidth
  for (let y = 0; y < height; y++) {
    const v = (inset + y + 0.5) / fullHeight
    const u0 = (inset + 0.5) / fullWidth
    let nx = a * u0 + b * v + c
    let ny = d * u0 + e * v + f
    let nw = g * u0 + h * v + 1
    for (let x = 0, at = y * width; x < width; x++, at++) {
      // Pixel centres are at +0.5 in the page's coordinates.
      const px = Math.min(w - 1, Math.max(0, nx / nw - 0.5))
      const py = Math.min(hh - 1, Math.max(0, ny / nw - 0.5))
      const x0 = px | 0
      const y0 = py | 0
      const x1 = x0 + 1 < w ? x0 + 1 : x0
      const row0 = y0 * w
      const row1 = (y0 + 1 < hh ? y0 + 1 : y0) * w
      const fx = px - x0
      const fy = py - y0
      const top = src[row0 + x0]! + (src[row0 + x1]! - src[row0 + x0]!) * fx
      const bottom = src[row1 + x0]! + (src[row1 + x1]! - src[row1 + x0]!) * fx
      data[at] = top + (bottom - top) * fy + 0.5
      nx += a * du
      ny += d * du
      nw += g * du
    }
  }
  return { width, height, data, dpi: page.dpi }
}

/** The rectangle a quadrilateral is warped to: its full size, and its size once `inset` is cut off each side. */
function warpFrame([tl, tr, br, bl]: Quad, inset: number): { fullWidth: number; fullHeight: number; width: number; height: number } {
  const fullWidth = Math.max(distance(tl, tr), distance(bl, br))
  const fullHeight = Math.max(distance(tl, bl), distance(tr, br))
  return { fullWidth, fullHeight, width: Math.max(1, Math.round(fullWidth - 2 * inset)), height: Math.max(1, Math.round(fullHeight - 2 * inset)) }
}

/** Where a point of the rectangle `warpQuad` made (its pixels' edges, not centres) lies in the page it was warped from (D352). */
export function unwarpPoint(quad: Quad, inset: number, point: Point): Point {
  const { fullWidth, fullHeight } = warpFrame(quad, inset)
  const [a, b, c, d, e, f, g, h] = squareToQuad(quad)
  const u = (inset + point.x) / fullWidth
  const v = (inset + point.y) / fullHeight
  const w = g * u + h * v + 1
  return { x: (a * u + b * v + c) / w, y: (d * u + e * v + f) / w }
}

/** A projective map, 3 × 3 row by row: (x, y) goes to ((m0 x + m1 y + m2) / w, (m3 x + m4 y + m5) / w), w = m6 x + m7 y + m8. */
export type Projective = [number, number, number, number, number, number, number, number, number]

/** The projective map from the unit square (0,0), (1,0), (1,1), (0,1) to a quadrilateral's corners (Heckbert 1989). */
export function squareToQuad([tl, tr, br, bl]: Quad): Projective {
  const [sx, sy] = [tl.x - tr.x + br.x - bl.x, tl.y - tr.y + br.y - bl.y]
  const [dx1, dy1, dx2, dy2] = [tr.x - br.x, tr.y - br.y, bl.x - br.x, bl.y - br.y]
  const determinant = dx1 * dy2 - dx2 * dy1
  const g = (sx * dy2 - dx2 * sy) / determinant
  const h = (dx1 * sy - sx * dy1) / determinant
  return [tr.x - tl.x + g * tr.x, bl.x - tl.x + h * bl.x, tl.x, tr.y - tl.y + g * tr.y, bl.y - tl.y + h * bl.y, tl.y, g, h, 1]
}

/** The map back: from the quadrilateral to the unit square (the adjugate, scaled). */
export function inverseMap([a, b, c, d, e, f, g, h, i]: Projective): Projective {
  const adjugate: Projective = [
    e * i - f * h,
    c * h - b * i,
    b * f - c * e,
    f * g - d * i,
    a * i - c * g,
    c * d - a * f,
    d * h - e * g,
    b * g - a * h,
    a * e - b * d,
  ]
  const determinant = a * adjugate[0] + b * adjugate[3] + c * adjugate[6]
  return adjugate.map((value) => value / determinant) as Projective
}

function distance(p: Point, q: Point): number {
  return Math.hypot(q.x - p.x, q.y - p.y)
}

function unit(from: Point, to: Point): Point {
  const length = distance(from, to)
  return { x: (to.x - from.x) / length, y: (to.y - from.y) / length }
}
