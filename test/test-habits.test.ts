/**
 * Habits of the test files themselves, where breaking one makes a test flaky rather than wrong.
 */
import { expect, test } from 'bun:test'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')

test('no browser test matches a pending promise with .resolves or .rejects', async () => {
  // bun:test waits for such a promise by running the event loop inside the matcher, and the
  // immediates queued during that wait run before the rest of the batch that was running
  // (oven-sh/bun#39103). Playwright hands each of Chromium's messages over in an immediate of its
  // own, so they arrive out of order: "Cannot find parent object request@… to create response@…"
  // failed a console test in 2 of 6 full runs. Awaiting the value first keeps them in order.
  const offenders: string[] = []
  for await (const file of new Bun.Glob('test/**/*.ts').scan({ cwd: ROOT })) {
    const code = await Bun.file(join(ROOT, file)).text()
    if (!/from '(playwright-core|\.\.?\/(helpers\/)?(browser|console-page))'/.test(code)) continue
    const lines = code.split('\n').flatMap((line, at) => (/\.(resolves|rejects)\b/.test(line) ? [`${file}:${at + 1}`] : []))
    offenders.push(...lines)
  }
  expect(offenders).toEqual([])
})
