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
import { inverseMap, type Quad, squareToQuad } from '../src/modules/extraction/readers/ocr/perspective'

const SOURCE = resolve(import.meta.dir, '../../shared/eval/dev-scans/sroie')
const OUT = process.argv.find((arg) => arg.startsWith('--out='))?.slice('--out='.length)
if (!OUT) throw new Error('usage: bun bench/photograph.ts --out=<directory>')
const target = join(OUT, 'dev-scans', 'sroie')
mkdirSync(target, { recursive: true })
const sharp = sharpDecoder()
if (!sharp) throw new Error('libvips is needed to make the photos')

/** A phone's 13 MP frame, portrait. */
const [WIDTH, HEIGHT] = [3126, 4168]

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
  const back = inverseMap(squareToQuad(corners as Quad))
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
