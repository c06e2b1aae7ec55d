// Gzips ONNX Runtime's linux-x64 library for the binary to embed (D161): 45.8 MB as it ships,
// 17.5 MB packed; the binary unpacks it once into its cache directory. Run by `npm ci` (postinstall)
// and by the Dockerfile; writes node_modules/.extractd/libonnxruntime.so.1.gz.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const source = join(root, 'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1')
const target = join(root, 'node_modules/.extractd/libonnxruntime.so.1.gz')
if (!existsSync(source)) {
  console.error(`${source} is missing: run npm ci first`)
  process.exit(1)
}
mkdirSync(dirname(target), { recursive: true })
writeFileSync(target, gzipSync(readFileSync(source), { level: 9 }))
