/**
 * The OpenAPI document against Redocly's recommended rules (what `redocly lint` runs): no
 * errors. The only warnings left are the liveness and readiness probes having no 4XX answer,
 * which they do not have.
 */
import { expect, test } from 'bun:test'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { openApiDocument } from '../helpers/openapi'

test('passes redocly lint with the recommended rules', async () => {
  const document = await openApiDocument()
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lintFromString({ source: JSON.stringify(document), config })
  const found = problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}`)
  expect(found).toEqual(['warn operation-4xx-response #/paths/~1healthz/get/responses', 'warn operation-4xx-response #/paths/~1readyz/get/responses'])
  expect(document.servers).toEqual([{ url: '/', description: 'This server' }])
  expect(document.paths['/healthz'].get.security).toEqual([])
  expect(document.paths['/api/v1/schemas'].get.security).toEqual([{ bearerAuth: [] }])
})
