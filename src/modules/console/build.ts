/**
 * Builds the console from ./ui (its browser code, D205) into ./assets with Bun's bundler:
 * `bun run console:build`. The output is committed, so the server, its tests and
 * `bun build --compile` need no step of their own; a test fails when it is out of date.
 */
import { join } from 'node:path'

const SOURCES = join(import.meta.dir, 'ui')
export const ASSETS_DIR = join(import.meta.dir, 'assets')

/** The built files by name: `console.js` and `console.css`. */
export async function buildConsole(): Promise<Map<string, string>> {
  const result = await Bun.build({
    entrypoints: [join(SOURCES, 'main.tsx'), join(SOURCES, 'console.css')],
    target: 'browser',
    format: 'esm',
    minify: true,
    naming: 'console.[ext]',
    tsconfig: join(SOURCES, 'tsconfig.json'),
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  if (!result.success) throw new AggregateError(result.logs, 'console build failed')
  const files = new Map<string, string>()
  for (const output of result.outputs) files.set(output.path.replace(/^.*\//, ''), await output.text())
  return files
}

if (import.meta.main) {
  for (const [name, text] of await buildConsole()) {
    await Bun.write(join(ASSETS_DIR, name), text)
    console.log(`${name}: ${text.length} bytes, ${Bun.gzipSync(text).length} gzipped`)
  }
}
