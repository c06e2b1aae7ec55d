/**
 * Saved extraction schemas of one account (D8–D15). The repository scopes every query to the
 * account and applies the limit of active schemas atomically (D10); answers are JSON text with
 * the stored fields spliced in as they are (D65).
 */
import type { Database } from '../../db/database'
import type { StoredField } from '../../db/tables/schemas'
import { errors } from '../../http/errors'
import { completeField, type Field, FieldInput, fieldListDetails } from '../../lib/fields/model'
import { DEFAULT_REVIEW_THRESHOLD } from '../../lib/fields/types'
import { isIdOf, newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { Type } from '@sinclair/typebox'
import { fieldsFromJsonSchema } from '../../lib/fields/json-schema-input'
import { type CreateSchemaBody, MAX_SCHEMAS_PER_ACCOUNT, type Schema, type SchemaVersion, type UpdateSchemaBody } from './model'
import { type NewSchema, type SchemaChanges, type SchemaRow, type SchemaVersionRow, schemasRepository, versionRowOf, type WireRow } from './repository'

function toWire(row: SchemaRow): Schema {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    fields: withTypes(row.fields),
    version: row.version,
    is_active: row.isActive,
    review_threshold: row.reviewThreshold,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

/**
 * The Schema object as JSON text, in the property order of the model. The fields are the stored
 * JSON text, written by JSON.stringify from validated input, so they are spliced in unparsed; IDs
 * (D43) and timestamps (D5) hold no character JSON escapes, so they are quoted as they are.
 */
function toWireJson(row: WireRow): string {
  return `{"id":"${row.id}","name":${JSON.stringify(row.name)},"description":${JSON.stringify(row.description)},"fields":${typedFieldsJson(row.fields)},"version":${row.version},"is_active":${row.isActive},"review_threshold":${row.reviewThreshold},"created_at":"${row.createdAt}","updated_at":"${row.updatedAt}"}`
}

/** The fields as stored and answered: complete (D7), so a stored field is a Field. */
function toStoredFields(fields: FieldInput[]): Field[] {
  return fields.map(completeField)
}

/** D89: fields stored before typed fields carry no `type`; they answer `auto`, the type they had. */
function withTypes(fields: StoredField[]): Field[] {
  return fields.map((field) => (field.type === undefined ? { ...field, type: 'auto' } : (field as Field)))
}

/**
 * A stored field without a type is one whose `"required"` is not followed by `"type"` (the order
 * toStoredFields writes); a quote inside a string is escaped, so no key or label can fake it.
 */
const UNTYPED_FIELD = /"required":(?:true|false)(?!,"type")/

/** The stored fields' JSON text, spliced as is unless a field predates typed fields (D65, D89). */
function typedFieldsJson(text: string): string {
  return UNTYPED_FIELD.test(text) ? JSON.stringify(withTypes(JSON.parse(text) as StoredField[])) : text
}

function assertValidFields(fields: readonly FieldInput[] | undefined): void {
  const details = fields ? fieldListDetails(fields) : []
  if (details.length > 0) throw errors.validation(details)
}

async function findRow(database: Database, accountId: string, id: string, activeOnly = false): Promise<SchemaRow> {
  const row = isIdOf('sch', id) ? await schemasRepository(database).find(accountId, id, activeOnly) : undefined
  if (!row) throw errors.notFound('Schema')
  return row
}

/** `{"schemas": [...]}`: the account's active schemas, newest first (D14), as JSON text. */
export async function listSchemasJson(database: Database, accountId: string): Promise<string> {
  return `{"schemas":[${(await schemasRepository(database).listActive(accountId)).map(toWireJson).join(',')}]}`
}

/** D97: the fields of a create body, from `fields` or from `json_schema` (not both). */
function fieldsOf(input: CreateSchemaBody): FieldInput[] | undefined {
  if (input.json_schema === undefined) return input.fields
  if (input.fields !== undefined) throw errors.validation([{ path: '/json_schema', message: 'Give either fields or json_schema, not both' }])
  const converted = fieldsFromJsonSchema(input.json_schema)
  if ('details' in converted) throw errors.validation(converted.details)
  // The converted fields meet every rule a `fields` body meets (lengths, enum sizes …), named under the property they came from.
  const problems = [...convertedFields().Errors(converted.fields)]
  if (problems.length > 0) {
    const details = problems.map(({ path, message }) => {
      const [, index, ...rest] = path.split('/')
      const key = converted.fields[Number(index)]?.key ?? index
      return { path: `/json_schema/properties/${key}`, message: rest.length ? `${rest.join('/')}: ${message}` : message }
    })
    throw errors.validation(details.filter((detail, i) => details.findIndex((other) => other.path === detail.path && other.message === detail.message) === i))
  }
  return converted.fields as FieldInput[]
}

let checker: TypeCheck<typeof FieldInputs> | undefined
const FieldInputs = Type.Array(FieldInput)
const convertedFields = () => (checker ??= TypeCompiler.Compile(FieldInputs))

/** The new schema as JSON text. */
export async function createSchema(database: Database, accountId: string, body: CreateSchemaBody): Promise<string> {
  const input = { ...body, fields: fieldsOf(body) }
  assertValidFields(input.fields)
  const values: NewSchema = {
    id: newId('sch'),
    accountId,
    name: input.name,
    description: input.description ?? '',
    fields: toStoredFields(input.fields ?? []),
    reviewThreshold: input.review_threshold ?? DEFAULT_REVIEW_THRESHOLD,
    now: nowIso(),
  }
  const created = await schemasRepository(database).createWithinLimit(values, MAX_SCHEMAS_PER_ACCOUNT)
  if (!created) throw errors.schemaLimitReached(MAX_SCHEMAS_PER_ACCOUNT)
  return toWireJson(created)
}

/** D11: soft-deleted schemas stay readable by ID. The schema as JSON text. */
export async function getSchemaJson(database: Database, accountId: string, id: string): Promise<string> {
  const row = isIdOf('sch', id) ? await schemasRepository(database).findWire(accountId, id) : undefined
  if (!row) throw errors.notFound('Schema')
  return toWireJson(row)
}

async function findVersion(database: Database, row: SchemaRow, version: number): Promise<SchemaVersion> {
  const stored = version === row.version ? versionRowOf(row) : await schemasRepository(database).version(row.id, version)
  if (!stored) throw errors.notFound('Schema version')
  return toVersionWire(stored)
}

/**
 * A version of an active schema of the account (its current one unless one is asked for), for
 * use by other modules (extraction).
 */
export async function getActiveSchemaVersion(
  database: Database,
  accountId: string,
  id: string,
  version?: number,
): Promise<SchemaVersion & { review_threshold: number }> {
  const row = await findRow(database, accountId, id, true)
  return { ...(await findVersion(database, row, version ?? row.version)), review_threshold: row.reviewThreshold }
}

function toVersionWire(row: SchemaVersionRow): SchemaVersion {
  return {
    schema_id: row.schemaId,
    version: row.version,
    name: row.name,
    description: row.description,
    fields: withTypes(row.fields),
    created_at: row.createdAt,
  }
}

/** A schema's versions, newest first, a page at a time; a deleted schema keeps its history (D11, D74). */
export async function listSchemaVersions(
  database: Database,
  accountId: string,
  id: string,
  { limit, startingAfter }: { limit: number; startingAfter?: number },
): Promise<{ versions: SchemaVersion[]; has_more: boolean }> {
  const row = await findRow(database, accountId, id)
  const before = Math.min(startingAfter ?? Number.POSITIVE_INFINITY, row.version + 1)
  const current = before > row.version ? [versionRowOf(row)] : []
  const earlier = await schemasRepository(database).versions(row.id, before, limit + 1 - current.length)
  const rows = [...current, ...earlier]
  return { versions: rows.slice(0, limit).map(toVersionWire), has_more: rows.length > limit }
}

export async function getSchemaVersion(database: Database, accountId: string, id: string, version: number): Promise<SchemaVersion> {
  return findVersion(database, await findRow(database, accountId, id), version)
}

/** A schema of the account, soft-deleted ones too (D11). */
export async function getSchema(database: Database, accountId: string, id: string): Promise<Schema> {
  return toWire(await findRow(database, accountId, id))
}

/**
 * The changes of a patch, as the schema's next version (D74), read and written in one transaction
 * that holds the schema's row, so concurrent updates make consecutive versions.
 */
export async function updateSchema(database: Database, accountId: string, id: string, patch: UpdateSchemaBody): Promise<Schema> {
  assertValidFields(patch.fields)
  const fields = patch.fields && toStoredFields(patch.fields)
  const repository = schemasRepository(database)
  const row = isIdOf('sch', id)
    ? await database.transaction(function* (tx) {
        const current = yield* repository.lockActive(accountId, id)
        if (!current) return undefined
        const changes: SchemaChanges = {}
        if (patch.name !== undefined && patch.name !== current.name) changes.name = patch.name
        if (patch.description !== undefined && patch.description !== current.description) changes.description = patch.description
        if (fields && JSON.stringify(fields) !== JSON.stringify(withTypes(current.fields))) changes.fields = fields // D36 on stored forms
        // D13: nothing changed, no new version.
        const saved = Object.keys(changes).length === 0 ? current : yield* repository.saveVersion(tx, current, changes)
        // D284: the review threshold is how the account checks, not what is read: no version of its own.
        const threshold = patch.review_threshold
        return threshold === undefined || threshold === saved.reviewThreshold ? saved : yield* repository.setReviewThreshold(tx, saved, threshold)
      })
    : undefined
  if (!row) throw errors.notFound('Schema')
  return toWire(row)
}

/** D11: soft delete; deleting an already deleted schema changes nothing. */
export async function deleteSchema(database: Database, accountId: string, id: string): Promise<void> {
  if (!isIdOf('sch', id) || !(await schemasRepository(database).softDelete(accountId, id))) throw errors.notFound('Schema')
}

/** D12: reactivation, within the limit of active schemas. */
export async function restoreSchema(database: Database, accountId: string, id: string): Promise<Schema> {
  const outcome = isIdOf('sch', id) ? await schemasRepository(database).restore(accountId, id, MAX_SCHEMAS_PER_ACCOUNT) : 'not_found'
  if (outcome === 'not_found') throw errors.notFound('Schema')
  if (outcome === 'limit_reached') throw errors.schemaLimitReached(MAX_SCHEMAS_PER_ACCOUNT)
  return toWire(outcome)
}
