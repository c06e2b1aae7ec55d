/**
 * The OpenAPI document of a test app, and the TypeScript types openapi-typescript generates from
 * it. `bun run openapi:types` rewrites src/modules/console/ui/generated/api.ts, which the console
 * (and the typed-client test) take the API's types from; a test fails when that file no longer
 * matches the document, so the typed client always speaks the API as it is.
 */
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import { makeTestApp } from './app'

export const GENERATED_TYPES = join(import.meta.dir, '../../src/modules/console/ui/generated/api.ts')

export async function openApiDocument(): Promise<Record<string, any>> {
  const t = await makeTestApp()
  const response = await t.call('GET', '/openapi.json', { key: null })
  if (response.status !== 200) throw new Error(`GET /openapi.json: ${response.status}`)
  return response.body
}

export async function generateTypes(): Promise<string> {
  const document = await openApiDocument()
  const ast = await openapiTS(document as never)
  return `// Generated from /openapi.json by \`bun run openapi:types\`. Do not edit.\n\n${astToString(ast)}`
}

if (import.meta.main) {
  await Bun.write(GENERATED_TYPES, await generateTypes())
  console.log(`wrote ${GENERATED_TYPES}`)
}
