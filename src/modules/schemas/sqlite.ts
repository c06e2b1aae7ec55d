/**
 * Schemas on SQLite. The queries requests make are prepared once per database; the limit of
 * active schemas is checked and applied in one immediate transaction, so it holds across
 * concurrent requests and processes (D10).
 */
import { and, count, desc, eq, lt, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { SqliteDatabase } from '../../db/database'
import { schemas, schemaVersions } from '../../db/tables'
import { nowIso } from '../../lib/time'
import { type NewSchema, type SchemasRepository, versionRowOf, type WireRow } from './repository'

type Value = string | Placeholder

function owned(accountId: Value, id?: Value, activeOnly = false): SQL {
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

export function sqliteSchemas({ db }: SqliteDatabase): SchemasRepository {
  const accountId = sql.placeholder('accountId')
  const id = sql.placeholder('id')
  const activeCount = db
    .select({ n: count() })
    .from(schemas)
    .where(owned(accountId, undefined, true))
    .prepare()
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
  const list = db
    .select(wireColumns)
    .from(schemas)
    .where(owned(accountId, undefined, true))
    .orderBy(desc(schemas.createdAt), desc(schemas.id))
    .prepare()
  const find = db.select().from(schemas).where(owned(accountId, id)).prepare()
  const findActive = db
    .select()
    .from(schemas)
    .where(owned(accountId, id, true))
    .prepare()
  const findWire = db.select(wireColumns).from(schemas).where(owned(accountId, id)).prepare()
  const versions = db
    .select()
    .from(schemaVersions)
    .where(and(eq(schemaVersions.schemaId, id), lt(schemaVersions.version, sql.placeholder('before'))))
    .orderBy(desc(schemaVersions.version))
    .limit(sql.placeholder('limit'))
    .prepare()
  const version = db
    .select()
    .from(schemaVersions)
    .where(and(eq(schemaVersions.schemaId, id), eq(schemaVersions.version, sql.placeholder('version'))))
    .prepare()
  const countActive = (account: string) => activeCount.get({ accountId: account })?.n ?? 0
  // Made once rather than per request: the count and the insert in one immediate transaction.
  const insertWithinLimit = db.$client.transaction((values: NewSchema, limit: number): WireRow | undefined =>
    countActive(values.accountId) >= limit ? undefined : (insert.get(values) as WireRow),
  ).immediate

  return {
    listActive: async (account) => list.all({ accountId: account }) as WireRow[],
    createWithinLimit: async (values, limit) => insertWithinLimit(values, limit),
    find: async (account, schemaId, activeOnly = false) => (activeOnly ? findActive : find).get({ accountId: account, id: schemaId }),
    findWire: async (account, schemaId) => findWire.get({ accountId: account, id: schemaId }) as WireRow | undefined,
    versions: async (schemaId, before, limit) => versions.all({ id: schemaId, before, limit }),
    version: async (schemaId, number) => version.get({ id: schemaId, version: number }),

    async updateActive(account, schemaId, decide) {
      return db.transaction(
        (tx) => {
          const row = findActive.get({ accountId: account, id: schemaId })
          if (!row) return undefined
          const changes = decide(row)
          if (!changes) return row
          tx.insert(schemaVersions).values(versionRowOf(row)).run()
          const now = nowIso()
          return tx
            .update(schemas)
            .set({ ...changes, version: row.version + 1, versionCreatedAt: now, updatedAt: now })
            .where(owned(account, schemaId))
            .returning()
            .get()
        },
        { behavior: 'immediate' },
      )
    },

    async softDelete(account, schemaId) {
      return db.transaction(
        (tx) => {
          const row = find.get({ accountId: account, id: schemaId })
          if (!row) return false
          if (row.isActive) tx.update(schemas).set({ isActive: false, updatedAt: nowIso() }).where(owned(account, schemaId)).run()
          return true
        },
        { behavior: 'immediate' },
      )
    },

    async restore(account, schemaId, limit) {
      return db.transaction(
        (tx) => {
          const row = find.get({ accountId: account, id: schemaId })
          if (!row) return 'not_found'
          if (row.isActive) return row
          if (countActive(account) >= limit) return 'limit_reached'
          return tx.update(schemas).set({ isActive: true, updatedAt: nowIso() }).where(owned(account, schemaId)).returning().get()!
        },
        { behavior: 'immediate' },
      )
    },
  }
}
