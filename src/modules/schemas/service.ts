/**
 * Saved extraction schemas of one account (D8–D15). Every query goes through `owned()`, which
 * applies the account filter; the limit of active schemas is checked and applied in one
 * immediate transaction, so it holds across concurrent requests and processes (D10).
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { schemas, type StoredField } from '../../db/tables'
import { ApiError, errors } from '../../http/errors'
import { duplicateKeyDetails, type FieldInput } from '../../http/models'
import { isIdOf } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { type CreateSchemaBody, MAX_SCHEMAS_PER_ACCOUNT, type Schema, type UpdateSchemaBody } from './model'

type SchemaRow = typeof schemas.$inferSelect

function owned(accountId: string, id?: string, activeOnly = false): SQL {
  const conditions = [eq(schemas.accountId, accountId)]
  if (id !== undefined) conditions.push(eq(schemas.id, id))
  if (activeOnly) conditions.push(eq(schemas.isActive, true))
  return and(...conditions)!
}

function toWire(row: SchemaRow): Schema {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    fields: row.fields,
    is_active: row.isActive,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

function toStoredFields(fields: FieldInput[]): StoredField[] {
  return fields.map((field) => ({
    key: field.key,
    label: field.label,
    description: field.description ?? '',
    required: field.required,
  }))
}

function assertUniqueKeys(fields: readonly FieldInput[] | undefined): void {
  const details = fields ? duplicateKeyDetails(fields) : []
  if (details.length > 0) throw errors.validation(details)
}

function limitReached(): ApiError {
  return new ApiError(
    'schema_limit_reached',
    `Schema limit reached: an account can hold at most ${MAX_SCHEMAS_PER_ACCOUNT} active schemas`,
  )
}

function activeCount(db: Pick<Db, 'select'>, accountId: string): number {
  return db.select({ n: count() }).from(schemas).where(owned(accountId, undefined, true)).get()?.n ?? 0
}

function findRow(db: Pick<Db, 'select'>, accountId: string, id: string, activeOnly = false): SchemaRow {
  const row = isIdOf('sch', id) ? db.select().from(schemas).where(owned(accountId, id, activeOnly)).get() : undefined
  if (!row) throw errors.notFound('Schema')
  return row
}

export function listSchemas(db: Db, accountId: string): Schema[] {
  return db
    .select()
    .from(schemas)
    .where(owned(accountId, undefined, true))
    .orderBy(desc(schemas.createdAt), desc(schemas.id))
    .all()
    .map(toWire)
}

export function createSchema(db: Db, accountId: string, input: CreateSchemaBody): Schema {
  assertUniqueKeys(input.fields)
  return db.transaction(
    (tx) => {
      if (activeCount(tx, accountId) >= MAX_SCHEMAS_PER_ACCOUNT) throw limitReached()
      const now = nowIso() // one instant: a new schema's updated_at equals its created_at
      const row = tx
        .insert(schemas)
        .values({
          createdAt: now,
          updatedAt: now,
          accountId,
          name: input.name,
          description: input.description ?? '',
          fields: toStoredFields(input.fields ?? []),
        })
        .returning()
        .get()
      return toWire(row)
    },
    { behavior: 'immediate' },
  )
}

/** D11: soft-deleted schemas stay readable by ID. */
export function getSchema(db: Db, accountId: string, id: string): Schema {
  return toWire(findRow(db, accountId, id))
}

/** An active schema of the account, for use by other modules (extraction). */
export function getActiveSchema(db: Db, accountId: string, id: string): Schema {
  return toWire(findRow(db, accountId, id, true))
}

export function updateSchema(db: Db, accountId: string, id: string, patch: UpdateSchemaBody): Schema {
  assertUniqueKeys(patch.fields)
  return db.transaction(
    (tx) => {
      const row = findRow(tx, accountId, id, true)
      const changes: Partial<Pick<SchemaRow, 'name' | 'description' | 'fields'>> = {}
      if (patch.name !== undefined && patch.name !== row.name) changes.name = patch.name
      if (patch.description !== undefined && patch.description !== row.description) changes.description = patch.description
      if (patch.fields !== undefined) {
        const fields = toStoredFields(patch.fields)
        if (JSON.stringify(fields) !== JSON.stringify(row.fields)) changes.fields = fields
      }
      if (Object.keys(changes).length === 0) return toWire(row) // D13: nothing changed
      const updated = tx
        .update(schemas)
        .set({ ...changes, updatedAt: nowIso() })
        .where(owned(accountId, id))
        .returning()
        .get()
      return toWire(updated!)
    },
    { behavior: 'immediate' },
  )
}

/** D11: soft delete; deleting an already deleted schema changes nothing. */
export function deleteSchema(db: Db, accountId: string, id: string): void {
  db.transaction(
    (tx) => {
      const row = findRow(tx, accountId, id)
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
      const row = findRow(tx, accountId, id)
      if (row.isActive) return toWire(row)
      if (activeCount(tx, accountId) >= MAX_SCHEMAS_PER_ACCOUNT) throw limitReached()
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
