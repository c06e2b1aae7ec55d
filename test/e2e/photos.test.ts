/**
 * Phone photos inside the compiled binary (D156, D157): libvips, carried in the executable, is
 * written to the cache directory on first use and decodes a 48 MP JPEG shrunk on load; libheif
 * (WebAssembly) decodes a HEIC. The binary runs in an empty directory with a home of its own, whose ~/.cache it writes.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { renderPage } from '../helpers/images'
import { buildBinary, type RunningServer, startServer, tempDir } from '../helpers/process'

setDefaultTimeout(120_000)

let server: RunningServer
const dir = tempDir('extractd-photos-')
const home = join(dir.path, 'home')
const cache = join(home, '.cache')
const FIELDS = { document_type: 'invoice', fields: { invoice_number: 'Receipt number', date: 'Date', total: 'Total' } }

beforeAll(async () => {
  const binary = await buildBinary()
  await Bun.$`mkdir -p ${home}`
  server = await startServer([binary], [], home, { HOME: home })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  dir.remove()
})

async function extract(content: Uint8Array, name: string) {
  const form = new FormData()
  form.set('file', new File([content], name))
  form.set('extract', JSON.stringify(FIELDS))
  const response = await fetch(`${server.url}/api/v1/extract`, { method: 'POST', body: form, headers: { authorization: `Bearer ${server.firstKey ?? ''}` } })
  return { status: response.status, body: (await response.json()) as any }
}

test('the binary reads a 48 MP phone photo of a receipt, its libvips and ONNX Runtime written once to the cache directory', async () => {
  const receipt = await renderPage({ lines: ['CORNER GROCER LTD', 'Receipt No: CG-3390', 'Date: 05/11/2024', 'TOTAL          12.40'] }, 480)
  const width = 6000
  const photo = new Uint8Array(width * 8000).fill(60) // a dark table
  for (let y = 0; y < receipt.height; y++) photo.set(receipt.data.subarray(y * receipt.width, (y + 1) * receipt.width), (3000 + y) * width + 2000)
  const jpeg = new Uint8Array(
    await sharp(photo, { raw: { width, height: 8000, channels: 1 } })
      .jpeg({ quality: 85 })
      .toBuffer(),
  )
  const { status, body } = await extract(jpeg, 'IMG_2231.jpg')
  expect(status).toBe(200)
  expect(body.job).toMatchObject({
    status: 'succeeded',
    file: { media_type: 'image/jpeg' },
    result: { invoice_number: 'CG-3390', date: '2024-11-05', total: '12.40' },
  })
  // libvips decodes the photo (D156), ONNX Runtime runs PaddleOCR, which reads receipts (D160, D161).
  const [libvips, onnxruntime, ...others] = readdirSync(join(cache, 'extractd')).sort()
  expect(others).toEqual([])
  expect(libvips).toMatch(/^libvips-8\.18\.7-[0-9a-f]{16}$/)
  expect(readdirSync(join(cache, 'extractd', libvips!))).toEqual(['libvips-cpp.so.8.18.7'])
  expect(onnxruntime).toMatch(/^onnxruntime-1\.30\.0-[0-9a-f]{16}$/)
  expect(readdirSync(join(cache, 'extractd', onnxruntime!))).toEqual(['libonnxruntime.so.1'])
  // Its usage reports to Microsoft are off: no device id beside the cache, no session file in the working directory.
  expect(readdirSync(cache)).not.toContain('Microsoft')
})

test('the binary decodes a HEIC', async () => {
  const heic = new Uint8Array(await Bun.file(new URL('../fixtures/example.heic', import.meta.url)).arrayBuffer())
  const { status, body } = await extract(heic, 'IMG_0001.HEIC')
  expect(status).toBe(200)
  // libheif's example is a landscape without print: decoded and read, it holds no text.
  expect(body.job).toMatchObject({ status: 'failed', file: { media_type: 'image/heic' }, error: { code: 'empty_document' } })
})
