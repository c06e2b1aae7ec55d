/**
 * The OpenAPI document against the rules of redocly.yaml (what `redocly lint` runs in the
 * repository): Redocly's recommended rules with one replaced (D322). No problem of any severity.
 */
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { createConfig, lintFromString, loadConfig } from '@redocly/openapi-core'
import { openApiDocument } from '../helpers/openapi'

const document = await openApiDocument()
const REDOCLY_CONFIG = join(import.meta.dir, '../../redocly.yaml')

async function lint(source: Record<string, any>, config: Awaited<ReturnType<typeof createConfig>>) {
  const problems = await lintFromString({ source: JSON.stringify(source), config })
  return problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}`)
}

test('passes redocly lint with the rules of redocly.yaml: no error, no warning', async () => {
  expect(await lint(document, await loadConfig({ configPath: REDOCLY_CONFIG }))).toEqual([])
  expect(document.servers).toEqual([{ url: '/', description: 'This server' }])
  expect(document.paths['/healthz'].get.security).toEqual([])
  expect(document.paths['/api/v1/schemas'].get.security).toEqual([{ bearerAuth: [] }])
})

test('the recommended rules alone find only the probes without a 4xx answer, the rule redocly.yaml replaces', async () => {
  expect(await lint(document, await createConfig({ extends: ['recommended'] }))).toEqual([
    'warn operation-4xx-response #/paths/~1healthz/get/responses',
    'warn operation-4xx-response #/paths/~1readyz/get/responses',
  ])
})

test("redocly.yaml's own rule fails an operation that needs a key and leaves out its 401", async () => {
  const jobs = document.paths['/api/v1/jobs'].get
  const { 401: _, ...responses } = jobs.responses
  const broken = { ...document, paths: { ...document.paths, '/api/v1/jobs': { get: { ...jobs, responses } } } }
  expect(await lint(broken, await loadConfig({ configPath: REDOCLY_CONFIG }))).toEqual([
    'error rule/keyed-operation-documents-401 #/paths/~1api~1v1~1jobs/get/responses',
  ])
})
