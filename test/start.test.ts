/**
 * What `extractd serve` loads before its first request (D150, D372): the source files its start
 * imports statically, read from the bundler's own graph of them. The readers, the normalisers,
 * the learning code and the review's code load with the first request that needs them; a static
 * import of one of them from the start's code would load it, and build its tables, at every start.
 */
import { expect, test } from 'bun:test'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dir, '..')

/** Loaded with the first job, review or region request, never at start. */
const LATER = [
  'src/modules/extraction/readers/index.ts',
  'src/modules/extraction/classifier.ts',
  'src/modules/extraction/normalise/',
  'src/modules/extraction/legal-forms.ts',
  'src/modules/extraction/learning/read.ts',
  'src/modules/extraction/learning/words.ts',
  'src/modules/extraction/learning/learn.ts',
  'src/modules/extraction/engines/builtin/',
  'src/modules/reviews/service.ts',
  'src/modules/reviews/region.ts',
]

test('the server starts without the readers, the normalisers, the learning code and the review service', async () => {
  const result = await Bun.build({ entrypoints: [join(ROOT, 'src/cli/serve.ts')], target: 'bun', splitting: true, metafile: true })
  const inputs = result.metafile!.inputs
  const at = (file: string) => relative(process.cwd(), join(ROOT, file))
  const loaded = new Set<string>()
  const visit = (file: string) => {
    if (loaded.has(file)) return
    loaded.add(file)
    for (const { path, kind } of inputs[file]?.imports ?? []) if (kind !== 'dynamic-import') visit(path)
  }
  visit(at('src/cli/serve.ts'))
  expect(loaded.size).toBeGreaterThan(50)
  expect([...loaded].filter((file) => LATER.some((later) => file.startsWith(at(later))))).toEqual([])
  // They are in the server all the same, loaded by an import() of the start's code.
  for (const later of ['src/modules/extraction/learning/read.ts', 'src/modules/reviews/service.ts', 'src/modules/reviews/region.ts'])
    expect(Object.keys(inputs)).toContain(at(later))
})
