/**
 * Saved extraction schemas of one account (D8–D15). Every query goes through `owned()`, which
 * applies the account filter; the limit of active schemas is checked and applied in one
 * immediate transaction, so it holds across concurrent requests and processes (D10).
 * The queries are prepared once per database; answers are JSON text with the stored fields
 * spliced in as they are (D65).
 */
import { and, count, desc, eq, lt, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { preparedFor } from '../../db/prepared'
import { schemaVersions, schemas, type StoredField } from '../../db/tables'
import { errors } from '../../http/errors'
import { type Field, FieldInput, fieldListDetails } from '../../http/models'
import { typePart } from '../../lib/field-types'
import { isIdOf, newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { Type } from '@sinclair/typebox'
import { fieldsFromJsonSchema } from './json-schema-input'
import { type CreateSchemaBody, MAX_SCHEMAS_PER_ACCOUNT, type Schema, type SchemaVersion, type UpdateSchemaBody } from './model'

type SchemaRow = typeof schemas.$inferSelect
type SchemaVersionRow = typeof schemaVersions.$inferSelect
type Value = string | Placeholder

function owned(accountId: Value, id?: Value, activeOnly = false): SQL {
  const conditions = [eq(schemas.accountId, accountId)]
  if (id !== undefined) conditions.push(eq(schemas.id, id))
  if (activeOnly) conditions.push(eq(schemas.isActive, true))
  return and(...conditions)!
}

/** The columns of the wire form, with `fields` as the JSON text SQLite stores. */
const wireColumns = {
  id: schemas.id,
  name: schemas.name,
  description: schemas.description,
  fields: sql<string>`${schemas.fields}`,
  version: schemas.version,
  isActive: schemas.isActive,
  createdAt: schemas.createdAt,
  updatedAt: schemas.updatedAt,
}

type WireRow = { [K in keyof typeof wireColumns]: K extends 'fields' ? string : SchemaRow[K] }

type NewSchema = {
  id: string
  accountId: string
  name: string
  description: string
  fields: StoredField[]
  now: string
}

const statements = preparedFor((db) => {
  const accountId = sql.placeholder('accountId')
  const id = sql.placeholder('id')
  const activeCount = db.select({ n: count() }).from(schemas).where(owned(accountId, undefined, true)).prepare()
  const insert = db
    .insert(schemas)
    .values({
      id,
      accountId,
      name: sql.placeholder('name'),
      description: sql.placeholder('description'),
      fields: sql.placeholder('fields'),
      createdAt: sql.placeholder('now'),
      updatedAt: sql.placeholder('now'),
      versionCreatedAt: sql.placeholder('now'),
    })
    .returning(wireColumns)
    .prepare()
  return {
    list: db
      .select(wireColumns)
      .from(schemas)
      .where(owned(accountId, undefined, true))
      .orderBy(desc(schemas.createdAt), desc(schemas.id))
      .prepare(),
    find: db.select().from(schemas).where(owned(accountId, id)).prepare(),
    findActive: db.select().from(schemas).where(owned(accountId, id, true)).prepare(),
    findWire: db.select(wireColumns).from(schemas).where(owned(accountId, id)).prepare(),
    activeCount,
    /** D10: the count and the insert in one immediate transaction, made once rather than per request. */
    insertWithinLimit: db.$client.transaction((values: NewSchema) => {
      if ((activeCount.get(values)?.n ?? 0) >= MAX_SCHEMAS_PER_ACCOUNT) throw errors.schemaLimitReached(MAX_SCHEMAS_PER_ACCOUNT)
      return insert.get(values)!
    }).immediate,
    versions: db
      .select()
      .from(schemaVersions)
      .where(and(eq(schemaVersions.schemaId, id), lt(schemaVersions.version, sql.placeholder('before'))))
      .orderBy(desc(schemaVersions.version))
      .limit(sql.placeholder('limit'))
      .prepare(),
    version: db
      .select()
      .from(schemaVersions)
      .where(and(eq(schemaVersions.schemaId, id), eq(schemaVersions.version, sql.placeholder('version'))))
      .prepare(),
  }
})

function toWire(row: SchemaRow): Schema {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    fields: withTypes(row.fields),
    version: row.version,
    is_active: row.isActive,
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
  return `{"id":"${row.id}","name":${JSON.stringify(row.name)},"description":${JSON.stringify(row.description)},"fields":${typedFieldsJson(row.fields)},"version":${row.version},"is_active":${row.isActive},"created_at":"${row.createdAt}","updated_at":"${row.updatedAt}"}`
}

function toStoredFields(fields: FieldInput[]): StoredField[] {
  return fields.map((field) => ({
    key: field.key,
    label: field.label,
    description: field.description ?? '',
    required: field.required,
    ...typePart(field),
  }))
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

function activeCount(db: Db, accountId: string): number {
  return statements(db).activeCount.get({ accountId })?.n ?? 0
}

function findRow(db: Db, accountId: string, id: string, activeOnly = false): SchemaRow {
  const { find, findActive } = statements(db)
  const row = isIdOf('sch', id) ? (activeOnly ? findActive : find).get({ accountId, id }) : undefined
  if (!row) throw errors.notFound('Schema')
  return row
}

/** `{"schemas": [...]}`: the account's active schemas, newest first (D14), as JSON text. */
export function listSchemasJson(db: Db, accountId: string): string {
  return `{"schemas":[${statements(db).list.all({ accountId }).map(toWireJson).join(',')}]}`
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
export function createSchema(db: Db, accountId: string, body: CreateSchemaBody): string {
  const input = { ...body, fields: fieldsOf(body) }
  assertValidFields(input.fields)
  const values: NewSchema = {
    id: newId('sch'), // the table's default would be computed once, when the statement is prepared
    accountId,
    name: input.name,
    description: input.description ?? '',
    fields: toStoredFields(input.fields ?? []),
    now: nowIso(), // one instant: a new schema's updated_at equals its created_at
  }
  return toWireJson(statements(db).insertWithinLimit(values))
}

/** D11: soft-deleted schemas stay readable by ID. The schema as JSON text. */
export function getSchemaJson(db: Db, accountId: string, id: string): string {
  const row = isIdOf('sch', id) ? statements(db).findWire.get({ accountId, id }) : undefined
  if (!row) throw errors.notFound('Schema')
  return toWireJson(row)
}

/** The current version of a schema, as the history shows it. */
function versionOf(row: SchemaRow): SchemaVersionRow {
  const { id, version, name, description, fields, versionCreatedAt } = row
  return { schemaId: id, version, name, description, fields, createdAt: versionCreatedAt }
}

function findVersion(db: Db, row: SchemaRow, version: number): SchemaVersion {
  const stored = version === row.version ? versionOf(row) : statements(db).version.get({ id: row.id, version })
  if (!stored) throw errors.notFound('Schema version')
  return toVersionWire(stored)
}

/**
 * A version of an active schema of the account (its current one unless one is asked for), for
 * use by other modules (extraction).
 */
export function getActiveSchemaVersion(db: Db, accountId: string, id: string, version?: number): SchemaVersion {
  const row = findRow(db, accountId, id, true)
  return findVersion(db, row, version ?? row.version)
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
export function listSchemaVersions(
  db: Db,
  accountId: string,
  id: string,
  { limit, startingAfter }: { limit: number; startingAfter?: number },
): { versions: SchemaVersion[]; has_more: boolean } {
  const row = findRow(db, accountId, id)
  const before = Math.min(startingAfter ?? Number.POSITIVE_INFINITY, row.version + 1)
  const current = before > row.version ? [versionOf(row)] : []
  const earlier = statements(db).versions.all({ id: row.id, before, limit: limit + 1 - current.length })
  const rows = [...current, ...earlier]
  return { versions: rows.slice(0, limit).map(toVersionWire), has_more: rows.length > limit }
}

export function getSchemaVersion(db: Db, accountId: string, id: string, version: number): SchemaVersion {
  return findVersion(db, findRow(db, accountId, id), version)
}

/** A schema of the account, soft-deleted ones too (D11). */
export function getSchema(db: Db, accountId: string, id: string): Schema {
  return toWire(findRow(db, accountId, id))
}

export function updateSchema(db: Db, accountId: string, id: string, patch: UpdateSchemaBody): Schema {
  assertValidFields(patch.fields)
  return db.transaction(
    (tx) => {
      const row = findRow(db, accountId, id, true)
      const changes: Partial<Pick<SchemaRow, 'name' | 'description' | 'fields'>> = {}
      if (patch.name !== undefined && patch.name !== row.name) changes.name = patch.name
      if (patch.description !== undefined && patch.description !== row.description) changes.description = patch.description
      if (patch.fields !== undefined) {
        const fields = toStoredFields(patch.fields)
        if (JSON.stringify(fields) !== JSON.stringify(withTypes(row.fields))) changes.fields = fields // D36 on stored forms
      }
      if (Object.keys(changes).length === 0) return toWire(row) // D13: nothing changed
      // D74: the version being replaced joins the history; the row holds the new one.
      tx.insert(schemaVersions).values(versionOf(row)).run()
      const now = nowIso()
      const updated = tx
        .update(schemas)
        .set({ ...changes, version: row.version + 1, versionCreatedAt: now, updatedAt: now })
        .where(owned(accountId, id))
        .returning()
        .get()!
      return toWire(updated)
    },
    { behavior: 'immediate' },
  )
}

/** D11: soft delete; deleting an already deleted schema changes nothing. */
export function deleteSchema(db: Db, accountId: string, id: string): void {
  db.transaction(
    (tx) => {
      const row = findRow(db, accountId, id)
      if (!row.isActive) return
      tx.update(schemas).set({ isActive: false, updatedAt: nowIso() }).where(owned(accountId, id)).run()
    },
    { behavior: 'immediate' },
  )
}

/** D12: reactivation, within the limit of active schemas. */
export function restoreSchema(db: Db, accountId: string, id: string): Schema {
  return db.transaction(
    (tx) => {
      const row = findRow(db, accountId, id)
      if (row.isActive) return toWire(row)
      if (activeCount(db, accountId) >= MAX_SCHEMAS_PER_ACCOUNT) throw errors.schemaLimitReached(MAX_SCHEMAS_PER_ACCOUNT)
      const restored = tx
        .update(schemas)
        .set({ isActive: true, updatedAt: nowIso() })
        .where(owned(accountId, id))
        .returning()
        .get()
      return toWire(restored!)
    },
    { behavior: 'immediate' },
  )
}
