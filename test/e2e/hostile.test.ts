/**
 * Hostile files against the compiled binary with its default limits (D120–D124, D180–D187): each
 * fails its job with a clear code (a text trap is read), and the server goes on answering.
 * `bun run bench:hostile` sends the whole set and measures time and memory; this holds the outcomes.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import {
  docxHeaders,
  heicGrid,
  heifCodedImage,
  jpegProgressive,
  pdfContentBomb,
  png,
  pngWithCompressedChunk,
  tiffLoop,
  tiffSharedStrip,
  webpLossless,
} from '../helpers/hostile'
import { TEXT_TRAPS } from '../helpers/text-traps'
import { api, upload } from '../helpers/llm-stub'
import { buildBinary, type RunningServer, startServer, tempDir } from '../helpers/process'

setDefaultTimeout(60_000)

const dir = tempDir('extractd-hostile-e2e-')
let server: RunningServer

beforeAll(async () => {
  server = await startServer([await buildBinary()], [], dir.path)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  dir.remove()
})

const MiB = 1024 * 1024
const HEIC = new Uint8Array(await Bun.file(new URL('../fixtures/example.heic', import.meta.url)).arrayBuffer())

test.each([
  ['loop.tif', tiffLoop, 'corrupt_document'],
  [
    'two-headers.png',
    () =>
      png([
        [1, 1],
        [4000, 4000],
      ]),
    'corrupt_document',
  ],
  ['headers.docx', () => docxHeaders(40, 60 * MiB), 'document_too_large'],
  ['shared-strip.tif', () => tiffSharedStrip(100, 8000, 5000), 'document_too_large'],
  // Its 256 MiB ICC profile is never inflated: the page is read, and holds no text.
  ['iccp.png', () => pngWithCompressedChunk('iCCP', 256 * MiB), 'empty_document'],
  ['stream-space.pdf', () => pdfContentBomb(64 * MiB, 'space-before-eol'), 'document_too_large'],
  ['object-stream.pdf', () => pdfContentBomb(64 * MiB, 'object-stream'), 'document_too_large'],
  ['progressive.jpg', () => jpegProgressive(32000, 32000, 1), 'image_too_large'],
  ['lossless.webp', () => webpLossless(6000, 6000), 'image_too_large'],
  ['tiles.heic', () => heicGrid(heifCodedImage(HEIC, 'smallest'), 31, 32, 6000, 6000), 'image_too_large'],
  ['pages.tif', () => tiffSharedStrip(25, 8000, 5000), 'document_too_large'],
] as const)('%s fails its job with a clear code, and the server answers on', async (name, make, code) => {
  const { status, body } = await api(server, '/api/v1/extract', {
    method: 'POST',
    body: upload(await make(), name, { document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }),
  })
  expect(status).toBe(200)
  expect(body.job).toMatchObject({ status: 'failed', result: null, error: { code } })
  expect((await api(server, '/healthz')).status).toBe(200)
  expect(server.proc.exitCode).toBeNull()
})

test.each(['html: comment openers', 'html: tag openers', 'markdown: brackets', 'text: spaces then a letter'])(
  'a megabyte of %s is read, and the server answers on',
  async (name) => {
    const trap = TEXT_TRAPS.find((each) => each.name === name)!
    const fileName = `trap.${trap.kind === 'markdown' ? 'md' : trap.kind === 'html' ? 'html' : 'txt'}`
    const { status, body } = await api(server, '/api/v1/extract', {
      method: 'POST',
      body: upload(new TextEncoder().encode(trap.make(MiB)), fileName, { document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }),
    })
    expect(status).toBe(200)
    expect(body.job).toMatchObject({ status: 'succeeded', error: null })
    expect((await api(server, '/healthz')).status).toBe(200)
  },
)
