/**
 * Schemas on PostgreSQL. Changes that depend on what is stored lock first: the account row for
 * the limit of active schemas (D10, exact across instances under concurrent creates and
 * restores), the schema row for an update, so concurrent updates make consecutive versions.
 */
import { and, count, desc, eq, lt, type SQL, sql } from 'drizzle-orm'
import type { PostgresDatabase } from '../../db/database'
import type { PgTx } from '../../db/postgres'
import { accounts, schemas, schemaVersions } from '../../db/pg-tables'
import { nowIso } from '../../lib/time'
import { type SchemasRepository, versionRowOf, type WireRow } from './repository'

function owned(accountId: string, id?: string, activeOnly = false): SQL {
  const conditions = [eq(schemas.accountId, accountId)]
  if (id !== undefined) conditions.push(eq(schemas.id, id))
  if (activeOnly) conditions.push(eq(schemas.isActive, true))
  return and(...conditions)!
}

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

/** Holds the account's row until the transaction ends: its schema count cannot change meanwhile. */
async function lockAccount(tx: PgTx, accountId: string): Promise<void> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update')
}

async function activeCount(tx: PgTx, accountId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(schemas)
    .where(owned(accountId, undefined, true))
  return row?.n ?? 0
}

export function postgresSchemas({ db, transaction }: PostgresDatabase): SchemasRepository {
  return {
    listActive: (accountId) =>
      db
        .select(wireColumns)
        .from(schemas)
        .where(owned(accountId, undefined, true))
        .orderBy(desc(schemas.createdAt), desc(schemas.id)),

    createWithinLimit: (values, limit) =>
      transaction(async (tx) => {
        await lockAccount(tx, values.accountId)
        if ((await activeCount(tx, values.accountId)) >= limit) return undefined
        const { now, ...schema } = values
        const [row] = await tx
          .insert(schemas)
          .values({ ...schema, createdAt: now, updatedAt: now, versionCreatedAt: now })
          .returning(wireColumns)
        return row as WireRow
      }),

    find: async (accountId, id, activeOnly = false) =>
      (
        await db
          .select()
          .from(schemas)
          .where(owned(accountId, id, activeOnly))
      )[0],
    findWire: async (accountId, id) => (await db.select(wireColumns).from(schemas).where(owned(accountId, id)))[0],
    versions: (schemaId, before, limit) =>
      db
        .select()
        .from(schemaVersions)
        .where(and(eq(schemaVersions.schemaId, schemaId), lt(schemaVersions.version, before)))
        .orderBy(desc(schemaVersions.version))
        .limit(limit),
    version: async (schemaId, version) =>
      (
        await db
          .select()
          .from(schemaVersions)
          .where(and(eq(schemaVersions.schemaId, schemaId), eq(schemaVersions.version, version)))
      )[0],

    updateActive: (accountId, id, decide) =>
      transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(schemas)
          .where(owned(accountId, id, true))
          .for('update')
        if (!row) return undefined
        const changes = decide(row)
        if (!changes) return row
        await tx.insert(schemaVersions).values(versionRowOf(row))
        const now = nowIso()
        const [updated] = await tx
          .update(schemas)
          .set({ ...changes, version: row.version + 1, versionCreatedAt: now, updatedAt: now })
          .where(owned(accountId, id))
          .returning()
        return updated
      }),

    async softDelete(accountId, id) {
      const [row] = await db.select({ isActive: schemas.isActive }).from(schemas).where(owned(accountId, id))
      if (!row) return false
      if (row.isActive)
        await db
          .update(schemas)
          .set({ isActive: false, updatedAt: nowIso() })
          .where(owned(accountId, id, true))
      return true
    },

    restore: (accountId, id, limit) =>
      transaction(async (tx) => {
        await lockAccount(tx, accountId)
        const [row] = await tx.select().from(schemas).where(owned(accountId, id))
        if (!row) return 'not_found' as const
        if (row.isActive) return row
        if ((await activeCount(tx, accountId)) >= limit) return 'limit_reached' as const
        const [restored] = await tx.update(schemas).set({ isActive: true, updatedAt: nowIso() }).where(owned(accountId, id)).returning()
        return restored!
      }),
  }
}
