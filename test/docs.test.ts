/**
 * The README states only facts (D233): its configuration table holds every option of `serve`
 * with its environment variable and default as src/config.ts has them, and every `npm run`
 * script the README and docs/ name exists.
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULTS, HELP } from '../src/config'
import { ROOT } from './helpers/process'

const readme = await Bun.file(join(ROOT, 'README.md')).text()

/** The rows of the README's configuration table: flag, environment variable, default. */
function configurationRows(): { flag: string; env: string; fallback: string }[] {
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1))
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `--') || line.startsWith('| |'))
    .map((line) => {
      const [flag = '', env = '', fallback = ''] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim())
      return { flag: flag.replace(/`/g, ''), env: env.replace(/`/g, '').replace(/=1$/, ''), fallback }
    })
}

describe("the README's configuration table", () => {
  const rows = configurationRows()

  test('lists every option of serve, and no other', () => {
    const options = [...new Set(HELP.serve.match(/--[a-z][a-z-]+/g))].filter((flag) => flag !== '--help').sort()
    expect(
      rows
        .map((row) => row.flag)
        .filter(Boolean)
        .sort(),
    ).toEqual(options)
  })

  test("names each option's environment variable as serve --help does", () => {
    for (const { flag, env } of rows.filter((row) => row.flag)) {
      const line = HELP.serve.split('\n').find((text) => text.trimStart().startsWith(`${flag} `))!
      expect(line, flag).toContain(env === 'HOST' || env === 'PORT' ? `env ${env}` : env)
    }
  })

  test('gives the defaults of src/config.ts', () => {
    const camel = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
    const known: Record<string, unknown> = { ...DEFAULTS, dbPool: DEFAULTS.dbPoolSize }
    let checked = 0
    for (const { flag, fallback } of rows.filter((row) => row.flag)) {
      const value = known[camel(flag)]
      if (value === undefined) continue
      expect(fallback, flag).toStartWith(`\`${value}\``)
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(15)
  })
})

test('every npm script the README and docs/ name exists', async () => {
  const { scripts } = (await Bun.file(join(ROOT, 'package.json')).json()) as { scripts: Record<string, string> }
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'))
  const texts = [readme, ...docs.map((name) => readFileSync(join(ROOT, 'docs', name), 'utf8'))]
  const named = new Set(texts.flatMap((text) => [...text.matchAll(/(?:npm|bun) run (?:--silent )?([a-z][a-z:-]*)/g)].map((match) => match[1]!)))
  expect(named.size).toBeGreaterThan(10)
  for (const name of named) expect(Object.keys(scripts), name).toContain(name)
})
