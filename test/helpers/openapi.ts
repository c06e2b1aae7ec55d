/**
 * The OpenAPI document of a test app, and the TypeScript types openapi-typescript generates from
 * it. `bun run openapi:types` rewrites src/modules/console/ui/generated/api.ts, which the console
 * (and the typed-client test) take the API's types from; a test fails when that file no longer
 * matches the document, so the typed client always speaks the API as it is.
 */
import { join } from 'node:path'
import ts from 'typescript'
import openapiTS, { astToString, type OpenAPITSOptions } from 'openapi-typescript'
import { makeTestApp } from './app'

export const GENERATED_TYPES = join(import.meta.dir, '../../src/modules/console/ui/generated/api.ts')

export async function openApiDocument(): Promise<Record<string, any>> {
  const t = await makeTestApp()
  const response = await t.call('GET', '/openapi.json', { key: null })
  if (response.status !== 200) throw new Error(`GET /openapi.json: ${response.status}`)
  return response.body
}

/**
 * An upload is a Blob (a File is one), as openapi-typescript's documentation shows for file
 * uploads; by default it would be a string, which a File is not.
 */
export const GENERATOR_OPTIONS: OpenAPITSOptions = {
  transform(schema) {
    if (schema.format === 'binary') return ts.factory.createTypeReferenceNode('Blob')
  },
}

export async function generateTypes(document?: Record<string, any>): Promise<string> {
  const ast = await openapiTS((document ?? (await openApiDocument())) as never, GENERATOR_OPTIONS)
  return `// Generated from /openapi.json by \`bun run openapi:types\`. Do not edit.\n\n${astToString(ast)}`
}

if (import.meta.main) {
  await Bun.write(GENERATED_TYPES, await generateTypes())
  console.log(`wrote ${GENERATED_TYPES}`)
}
