/**
 * The web console (D140): a page at /console and its scripts, built from ./ui by
 * `bun run console:build` into ./assets and embedded in the binary as files. Nothing is read
 * until the console is asked for, so the server starts and idles as without it. Asset URLs carry
 * a hash of their contents: a new build is a new URL, so they can be cached for good.
 */
import { Elysia } from 'elysia'
// pdf.js draws pages in the browser: pdfjs-dist's own build, not unpdf's copy of it, which the
// bundler would turn into a file path for the server's PDF reader too.
import pdfScript from 'pdfjs-dist/build/pdf.min.mjs' with { type: 'file' }
import pdfWorker from 'pdfjs-dist/build/pdf.worker.min.mjs' with { type: 'file' }
import { errors } from '../../http/errors'
import consoleStyles from './assets/console.css' with { type: 'file' }
import consoleScript from './assets/console.js' with { type: 'file' }

/**
 * Scripts only from the server itself and none inline; styles likewise (attributes are set through
 * the DOM, which a CSP allows). pdf.js runs in a worker from the server; page images are drawn from blobs, and the API is the same origin.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

const ASSETS = {
  'console.js': { path: consoleScript, type: 'text/javascript; charset=utf-8' },
  'console.css': { path: consoleStyles, type: 'text/css; charset=utf-8' },
  'pdf.mjs': { path: pdfScript, type: 'text/javascript; charset=utf-8' },
  'pdf.worker.mjs': { path: pdfWorker, type: 'text/javascript; charset=utf-8' },
} as const

type AssetName = keyof typeof ASSETS

let version: Promise<string> | undefined

/** A hash of every asset, computed once on the first visit. */
function assetVersion(): Promise<string> {
  version ??= (async () => {
    const hasher = new Bun.CryptoHasher('sha256')
    for (const { path } of Object.values(ASSETS)) hasher.update(await Bun.file(path).arrayBuffer())
    return hasher.digest('hex').slice(0, 16)
  })()
  return version
}

/** What the console must know of the server that the API does not say. */
export interface ConsoleOptions {
  /** How long a finished job's document is kept (`--keep-files`): the console asks for it only then (D331). */
  keepFileMs: number
}

function page(assets: string, { keepFileMs }: ConsoleOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>extractd console</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${assets}/console.css">
  <script type="module" src="${assets}/console.js"></script>
</head>
<body>
  <div id="console" data-keep-files-ms="${keepFileMs}" data-server-time="${Date.now()}"><noscript>The extractd console needs JavaScript.</noscript></div>
</body>
</html>`
}

export function consoleModule(options: ConsoleOptions) {
  return new Elysia({ name: 'console' })
    .get('/', ({ redirect }) => redirect('/console', 302), { detail: { hide: true } })
    .get(
      '/console',
      async () =>
        new Response(page(`/console/assets/${await assetVersion()}`, options), {
          headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
        }),
      { detail: { hide: true } },
    )
    .get(
      '/console/assets/:version/:name',
      async ({ params }) => {
        const asset = ASSETS[params.name as AssetName]
        if (!Object.hasOwn(ASSETS, params.name) || !asset || params.version !== (await assetVersion())) throw errors.notFound('Console asset')
        return new Response(Bun.file(asset.path), {
          headers: { ...SECURITY_HEADERS, 'content-type': asset.type, 'cache-control': 'public, max-age=31536000, immutable' },
        })
      },
      { detail: { hide: true } },
    )
}
