/**
 * Receipts photographed at an angle, made from the receipt scans (D164): every seventh scan of
 * ../shared/eval/dev-scans/sroie no larger than 3000 px is laid, through a projective map, on a
 * dark textured table in a 13 MP photo, turned 3–14°, its far side up to 18 % shorter, under
 * light falling off across the photo, and saved as a JPEG beside its truth. The poses come from
 * a fixed seed, so the same photos are made each time. Read them with
 * `bun run bench:extract --eval-root=<out> --set=dev-scans --dataset=sroie --split`.
 *
 *   bun bench/photograph.ts --out=/tmp/photographed
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { jpegFrameSize } from '../src/modules/extraction/readers/ocr/jpeg-header'
import { sharpDecoder } from '../src/modules/extraction/readers/ocr/libvips'

const SOURCE = resolve(import.meta.dir, '../../shared/eval/dev-scans/sroie')
const OUT = process.argv.find((arg) => arg.startsWith('--out='))?.slice('--out='.length)
if (!OUT) throw new Error('usage: bun bench/photograph.ts --out=<directory>')
const target = join(OUT, 'dev-scans', 'sroie')
mkdirSync(target, { recursive: true })
const sharp = sharpDecoder()
if (!sharp) throw new Error('libvips is needed to make the photos')

/** A phone's 13 MP frame, portrait. */
const [WIDTH, HEIGHT] = [3126, 4168]

type Point = { x: number; y: number }

const scans = readdirSync(SOURCE)
  .filter((file) => file.endsWith('.jpg'))
  .filter((file) => {
    const size = jpegFrameSize(new Uint8Array(readFileSync(join(SOURCE, file))))
    return size !== undefined && Math.max(size.width, size.height) <= 3000
  })
  .sort()
  .filter((_, index) => index % 7 === 3)

let seed = 7
/** A fixed sequence in [0, 1): the same photos every time. */
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}

for (const [index, file] of scans.entries()) {
  const { data: paper, info } = await sharp(readFileSync(join(SOURCE, file)))
    .rotate()
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const [pw, ph] = [info.width, info.height]
  const size = Math.min((0.7 * HEIGHT) / ph, (0.7 * WIDTH) / pw)
  const [w, h] = [pw * size, ph * size]
  const angle = ((index % 2 ? 1 : -1) * (3 + random() * 11) * Math.PI) / 180
  const tilt = random() * 0.18
  const [cx, cy] = [WIDTH / 2 + (random() - 0.5) * 200, HEIGHT / 2 + (random() - 0.5) * 200]
  const corners = [
    { x: (-w / 2) * (1 - tilt), y: -h / 2 },
    { x: (w / 2) * (1 - tilt), y: -h / 2 },
    { x: w / 2, y: h / 2 },
    { x: -w / 2, y: h / 2 },
  ].map(({ x, y }) => ({ x: cx + x * Math.cos(angle) - y * Math.sin(angle), y: cy + x * Math.sin(angle) + y * Math.cos(angle) }))
  const back = inverse(squareToQuad(corners))
  const dimmest = 0.6 + random() * 0.25
  const fromRight = random() < 0.5
  const table = 40 + random() * 50
  const photo = new Uint8Array(WIDTH * HEIGHT)
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const [px, py] = [x + 0.5, y + 0.5]
      const q = back[6] * px + back[7] * py + back[8]
      const u = ((back[0] * px + back[1] * py + back[2]) / q) * pw - 0.5
      const v = ((back[3] * px + back[4] * py + back[5]) / q) * ph - 0.5
      let value: number
      if (u >= 0 && v >= 0 && u < pw - 1 && v < ph - 1) {
        const [x0, y0] = [Math.floor(u), Math.floor(v)]
        const [fx, fy] = [u - x0, v - y0]
        const at = y0 * pw + x0
        const top = paper[at]! * (1 - fx) + paper[at + 1]! * fx
        const bottom = paper[at + pw]! * (1 - fx) + paper[at + pw + 1]! * fx
        value = top * (1 - fy) + bottom * fy
      } else value = table + ((x * 7 + y * 13) % 29) + (((x >> 6) + (y >> 4)) & 1) * 20
      const across = ((fromRight ? 1 - x / WIDTH : x / WIDTH) + y / HEIGHT) / 2
      photo[y * WIDTH + x] = value * (1 - (1 - dimmest) * across)
    }
  }
  await sharp(photo, { raw: { width: WIDTH, height: HEIGHT, channels: 1 } })
    .jpeg({ quality: 88 })
    .toFile(join(target, file))
  copyFileSync(join(SOURCE, file.replace('.jpg', '.truth.json')), join(target, file.replace('.jpg', '.truth.json')))
  console.log(
    `${file}: turned ${((angle * 180) / Math.PI).toFixed(1)}°, far side ${(tilt * 100).toFixed(0)} % shorter, light down to ${(dimmest * 100).toFixed(0)} %`,
  )
}
const manifest = JSON.parse(readFileSync(join(SOURCE, 'manifest.json'), 'utf8')) as Record<string, unknown>
writeFileSync(join(target, 'manifest.json'), JSON.stringify({ ...manifest, documents: undefined, count: scans.length }))

type Matrix = [number, number, number, number, number, number, number, number, number]

/** The projective map (3 × 3, row by row) from the unit square to four corners (Heckbert 1989). */
function squareToQuad([p0, p1, p2, p3]: Point[]): Matrix {
  const [a, b, c, d] = [p0!, p1!, p2!, p3!]
  const [sx, sy] = [a.x - b.x + c.x - d.x, a.y - b.y + c.y - d.y]
  const [dx1, dy1, dx2, dy2] = [b.x - c.x, b.y - c.y, d.x - c.x, d.y - c.y]
  const det = dx1 * dy2 - dx2 * dy1
  const [g, h] = [(sx * dy2 - dx2 * sy) / det, (dx1 * sy - sx * dy1) / det]
  return [b.x - a.x + g * b.x, d.x - a.x + h * d.x, a.x, b.y - a.y + g * b.y, d.y - a.y + h * d.y, a.y, g, h, 1]
}

function inverse([a, b, c, d, e, f, g, h, i]: Matrix): Matrix {
  const adjugate: Matrix = [
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
  const det = a * adjugate[0] + b * adjugate[3] + c * adjugate[6]
  return adjugate.map((value) => value / det) as Matrix
}
