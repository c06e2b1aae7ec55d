/** Routes of /api/v1/schemas: the account's saved extraction schemas. */
import { Elysia } from 'elysia'
import type { Database } from '../../db/database'
import type { Catalog } from '../catalog/service'
import { unknownDocumentType } from '../catalog/service'
import { resolveField } from '../../lib/fields/resolve'
import { resultJsonSchema } from '../../lib/fields/json-schema'
import type { AuthPlugin } from '../../http/auth'
import { jsonBody } from '../../http/body'
import { jsonResponse } from '../../http/json'
import { errors } from '../../http/errors'
import { pageLimit } from '../../http/paging'
import type { Idempotency } from '../../http/idempotency'
import { Deleted, errorResponses } from '../../http/models'
import {
  CreateSchemaBody,
  DEFAULT_VERSION_PAGE,
  MAX_VERSION_PAGE,
  JsonSchemaQuery,
  ResultJsonSchema,
  Schema,
  SchemaEnvelope,
  SchemaList,
  SchemaParams,
  SchemaVersionEnvelope,
  SchemaVersionList,
  UpdateSchemaBody,
  VersionParams,
  VersionsQuery,
} from './model'
import * as service from './service'

export interface SchemasDeps {
  database: Database
  catalog: Catalog
  auth: AuthPlugin
  idempotency: Idempotency
  maxJsonBytes: number
}

/** A version number as written in a path or query, or undefined when it cannot be one. */
function versionNumber(text: string): number | undefined {
  return /^[1-9][0-9]{0,8}$/.test(text) ? Number(text) : undefined
}

/**
 * D96: the JSON Schema of the result of a job with this schema's fields, `auto` typed as at job
 * creation (with `document_type`, the catalog type of the same key first).
 */
async function schemaJsonSchema(database: Database, catalog: Catalog, accountId: string, id: string, documentType: string | undefined) {
  const schema = await service.getSchema(database, accountId, id)
  let catalogFields = new Map<string, NonNullable<ReturnType<Catalog['get']>>['fields'][number]>()
  if (documentType !== undefined && documentType !== '') {
    const type = catalog.get(documentType)
    if (!type) throw unknownDocumentType(catalog, documentType)
    catalogFields = new Map(type.fields.map((field) => [field.key, field]))
  }
  const fields = schema.fields.map((field) => resolveField(field, catalogFields.get(field.key)))
  return resultJsonSchema(schema.name, fields)
}

export function schemasModule({ database, catalog, auth, idempotency, maxJsonBytes }: SchemasDeps) {
  const parse = jsonBody(maxJsonBytes)
  return new Elysia({ prefix: '/schemas', tags: ['Schemas'] })
    .use(auth)
    .get('', async ({ principal }) => jsonResponse(await service.listSchemasJson(database, principal.accountId)), {
      auth: true,
      response: { 200: SchemaList, ...errorResponses(401) },
      detail: { operationId: 'listSchemas', summary: 'List active schemas', description: 'Newest first. Soft-deleted schemas are left out.' },
    })
    .post(
      '',
      // async, so that Elysia awaits the answer and a refusal reaches the error handler
      async ({ principal, body, request }) =>
        idempotency.run(
          request,
          principal.accountId,
          () => JSON.stringify(body),
          async () => ({
            status: 201,
            body: `{"schema":${await service.createSchema(database, principal.accountId, body)}}`,
          }),
        ),
      {
        auth: true,
        parse,
        body: CreateSchemaBody,
        response: { 201: SchemaEnvelope, ...errorResponses(400, 401, 409, 413, 415, 429) },
        detail: {
          operationId: 'createSchema',
          'x-idempotent': true,
          summary: 'Create a schema',
          description:
            'At most 50 active schemas per account; the 51st is refused with 429. Fields come from `fields` or, from a JSON Schema ' +
            'written for another tool, `json_schema` (D97); both at once is 400. With `Idempotency-Key`, a retry gets the first answer ' +
            'again instead of a second schema; 409 when the key was used for another request or its first request is still running.',
        },
      },
    )
    .get('/:id', async ({ principal, params }) => jsonResponse(`{"schema":${await service.getSchemaJson(database, principal.accountId, params.id)}}`), {
      auth: true,
      params: SchemaParams,
      response: { 200: SchemaEnvelope, ...errorResponses(401, 404) },
      detail: { operationId: 'getSchema', summary: 'Read a schema', description: 'Soft-deleted schemas stay readable, with `is_active: false`.' },
    })
    .get('/:id/json-schema', async ({ principal, params, query }) => schemaJsonSchema(database, catalog, principal.accountId, params.id, query.document_type), {
      auth: true,
      params: SchemaParams,
      query: JsonSchemaQuery,
      response: { 200: ResultJsonSchema, ...errorResponses(401, 404) },
      detail: {
        operationId: 'getSchemaJsonSchema',
        summary: "JSON Schema of a job's result",
        description:
          'A JSON Schema (2020-12) of the `result` object of a job with this schema: one property per field, typed as the job answers it, ' +
          'null allowed (not found), every key required (D96).',
      },
    })
    .patch('/:id', async ({ principal, params, body }) => service.updateSchema(database, principal.accountId, params.id, body), {
      auth: true,
      parse,
      params: SchemaParams,
      body: UpdateSchemaBody,
      response: { 200: Schema, ...errorResponses(400, 401, 404, 413, 415) },
      detail: {
        operationId: 'updateSchema',
        summary: 'Update a schema',
        description: 'Partial update of an active schema. Answers the schema itself, not wrapped.',
      },
    })
    .delete(
      '/:id',
      async ({ principal, params }) => {
        await service.deleteSchema(database, principal.accountId, params.id)
        return { ok: true as const }
      },
      {
        auth: true,
        params: SchemaParams,
        response: { 200: Deleted, ...errorResponses(401, 404) },
        detail: { operationId: 'deleteSchema', summary: 'Soft-delete a schema', description: 'Jobs that used it keep their own copy of the fields.' },
      },
    )
    .post(
      '/:id/restore',
      async ({ principal, params, request }) =>
        idempotency.run(
          request,
          principal.accountId,
          () => '',
          async () => ({
            status: 200,
            body: JSON.stringify({ schema: await service.restoreSchema(database, principal.accountId, params.id) }),
          }),
        ),
      {
        auth: true,
        params: SchemaParams,
        response: { 200: SchemaEnvelope, ...errorResponses(400, 401, 404, 409, 429) },
        detail: {
          operationId: 'restoreSchema',
          'x-idempotent': true,
          summary: 'Restore a soft-deleted schema',
          description: 'Takes `Idempotency-Key` like schema creation.',
        },
      },
    )
    .get(
      '/:id/versions',
      async ({ principal, params, query }) => {
        const limit = pageLimit(query.limit, DEFAULT_VERSION_PAGE, MAX_VERSION_PAGE)
        const startingAfter = query.starting_after === undefined ? undefined : versionNumber(query.starting_after)
        if (query.starting_after !== undefined && startingAfter === undefined)
          throw errors.validation([{ path: 'query:/starting_after', message: 'Expected a version number' }])
        return service.listSchemaVersions(database, principal.accountId, params.id, { limit, startingAfter })
      },
      {
        auth: true,
        params: SchemaParams,
        query: VersionsQuery,
        response: { 200: SchemaVersionList, ...errorResponses(400, 401, 404) },
        detail: {
          operationId: 'listSchemaVersions',
          summary: "List a schema's versions",
          description: 'Newest first, the current version included; page with `limit` and `starting_after`. Deleted schemas keep their history.',
        },
      },
    )
    .get(
      '/:id/versions/:version',
      // Versions count from 1, so a `:version` that is no number names none (and the schema is checked first).
      async ({ principal, params }) => ({
        version: await service.getSchemaVersion(database, principal.accountId, params.id, versionNumber(params.version) ?? 0),
      }),
      {
        auth: true,
        params: VersionParams,
        response: { 200: SchemaVersionEnvelope, ...errorResponses(401, 404) },
        detail: { operationId: 'getSchemaVersion', summary: 'Read one version of a schema' },
      },
    )
}
