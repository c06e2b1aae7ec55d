/**
 * Hostile files against the compiled binary with its default limits (D120–D124): each fails its
 * job with a clear code, and the server goes on answering. `bun run bench:hostile` sends the
 * whole set and measures time and memory; this holds the outcomes.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { docxHeaders, png, tiffLoop, tiffSharedStrip } from '../helpers/hostile'
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
] as const)('%s fails its job with a clear code, and the server answers on', async (name, make, code) => {
  const { status, body } = await api(server, '/api/v1/extract', {
    method: 'POST',
    body: upload(make(), name, { document_type: 'invoice', fields: { invoice_number: 'Invoice number' } }),
  })
  expect(status).toBe(200)
  expect(body.job).toMatchObject({ status: 'failed', result: null, error: { code } })
  expect((await api(server, '/healthz')).status).toBe(200)
  expect(server.proc.exitCode).toBeNull()
})
