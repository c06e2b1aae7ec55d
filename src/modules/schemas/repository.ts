/**
 * Schemas in the database, written once for both dialects (D210). The queries every request makes
 * are prepared once per database. The limit of active schemas is checked and applied in one
 * transaction that takes turns with the account's other creates and restores (D10), on one
 * process or many; an update locks the schema's row, so concurrent updates make consecutive
 * versions.
 */
import { and, count, desc, eq, lt, type Placeholder, type SQL, sql } from 'drizzle-orm'
import { perDatabase } from '../../db/database'
import { forUpdate, lock, type Part, type Queries, run } from '../../db/dialect'
import type { Tables } from '../../db/tables/kit'
import { schemaTables, type StoredField } from '../../db/tables/schemas'
import { nowIso } from '../../lib/time'

type SchemaTables = Tables<typeof schemaTables>
export type SchemaRow = SchemaTables['schemas']['$inferSelect']
export type SchemaVersionRow = SchemaTables['schemaVersions']['$inferSelect']

/** A schema's wire columns, with `fields` as the JSON text stored (spliced into answers unparsed, D65). */
export interface WireRow {
  id: string
  name: string
  description: string
  fields: string
  version: number
  isActive: boolean
  reviewThreshold: number
  createdAt: string
  updatedAt: string
}

export type NewSchema = {
  id: string
  accountId: string
  name: string
  description: string
  fields: StoredField[]
  reviewThreshold: number
  /** One instant: a new schema's updated_at equals its created_at. */
  now: string
}

/** The current version of a schema, as the history holds it. */
export function versionRowOf(row: SchemaRow): SchemaVersionRow {
  const { id, version, name, description, fields, versionCreatedAt } = row
  return { schemaId: id, version, name, description, fields, createdAt: versionCreatedAt }
}

export type SchemaChanges = Partial<Pick<SchemaRow, 'name' | 'description' | 'fields'>>

/** Any number unique to extractd: an account's creates and restores take turns on it with the account's ID (D10). */
const ACTIVE_LIMIT_LOCK = 0x73636873 // "schs"

export const schemasRepository = perDatabase((database) => {
  const { db } = database
  const { schemas, schemaVersions } = schemaTables[database.kind]

  const owned = (accountId: string | Placeholder, id?: string | Placeholder, activeOnly = false): SQL => {
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
    reviewThreshold: schemas.reviewThreshold,
    createdAt: schemas.createdAt,
    updatedAt: schemas.updatedAt,
  }

  const accountId = sql.placeholder('accountId')
  const id = sql.placeholder('id')
  const activeCount = database.prepare('schemas_active_count', (q) =>
    q
      .select({ n: count() })
      .from(schemas)
      .where(owned(accountId, undefined, true)),
  )
  const insert = database.prepare('schemas_insert', (q) =>
    q
      .insert(schemas)
      .values({
        id,
        accountId,
        name: sql.placeholder('name'),
        description: sql.placeholder('description'),
        fields: sql.placeholder('fields'),
        reviewThreshold: sql.placeholder('reviewThreshold'),
        createdAt: sql.placeholder('now'),
        updatedAt: sql.placeholder('now'),
        versionCreatedAt: sql.placeholder('now'),
      })
      .returning(wireColumns),
  )
  const list = database.prepare('schemas_list', (q) =>
    q
      .select(wireColumns)
      .from(schemas)
      .where(owned(accountId, undefined, true))
      .orderBy(desc(schemas.createdAt), desc(schemas.id)),
  )
  const find = database.prepare('schemas_find', (q) => q.select().from(schemas).where(owned(accountId, id)))
  const findActive = database.prepare('schemas_find_active', (q) =>
    q
      .select()
      .from(schemas)
      .where(owned(accountId, id, true)),
  )
  const findWire = database.prepare('schemas_find_wire', (q) => q.select(wireColumns).from(schemas).where(owned(accountId, id)))
  const versions = database.prepare('schemas_versions', (q) =>
    q
      .select()
      .from(schemaVersions)
      .where(and(eq(schemaVersions.schemaId, id), lt(schemaVersions.version, sql.placeholder('before'))))
      .orderBy(desc(schemaVersions.version))
      .limit(sql.placeholder('limit')),
  )
  const version = database.prepare('schemas_version', (q) =>
    q
      .select()
      .from(schemaVersions)
      .where(and(eq(schemaVersions.schemaId, id), eq(schemaVersions.version, sql.placeholder('version')))),
  )

  /** How many active schemas the account has. */
  function* activeOf(account: string): Part<number> {
    const [active] = yield* run(activeCount, { accountId: account })
    return active?.n ?? 0
  }

  return {
    /** The account's active schemas, newest first. */
    listActive: (account: string): Promise<WireRow[]> => list.execute({ accountId: account }) as Promise<WireRow[]>,

    /** Inserts the schema unless the account already has `limit` active ones (then undefined), atomically (D10). */
    createWithinLimit: (values: NewSchema, limit: number): Promise<WireRow | undefined> =>
      database.transaction(function* () {
        yield* lock(ACTIVE_LIMIT_LOCK, values.accountId)
        if ((yield* activeOf(values.accountId)) >= limit) return undefined
        const [row] = yield* run(insert, values)
        return row as WireRow
      }),

    find: async (account: string, schemaId: string, activeOnly = false): Promise<SchemaRow | undefined> =>
      (await (activeOnly ? findActive : find).execute({ accountId: account, id: schemaId }))[0],
    findWire: async (account: string, schemaId: string): Promise<WireRow | undefined> =>
      (await findWire.execute({ accountId: account, id: schemaId }))[0] as WireRow | undefined,

    /** Earlier versions below `before`, newest first. */
    versions: (schemaId: string, before: number, limit: number): Promise<SchemaVersionRow[]> => versions.execute({ id: schemaId, before, limit }),
    version: async (schemaId: string, number: number): Promise<SchemaVersionRow | undefined> => (await version.execute({ id: schemaId, version: number }))[0],

    /** The active schema, its row locked until the transaction ends (an update reads and writes it in one). */
    *lockActive(account: string, schemaId: string): Part<SchemaRow | undefined> {
      const [row] = yield* forUpdate(findActive, { accountId: account, id: schemaId })
      return row
    },

    /** Applies the changes as the schema's next version, the current one joining the history (D74). */
    *saveVersion(tx: Queries, row: SchemaRow, changes: SchemaChanges): Part<SchemaRow> {
      yield* run(tx.insert(schemaVersions).values(versionRowOf(row)))
      const now = nowIso()
      const [updated] = yield* run(
        tx
          .update(schemas)
          .set({ ...changes, version: row.version + 1, versionCreatedAt: now, updatedAt: now })
          .where(owned(row.accountId, row.id))
          .returning(),
      )
      return updated!
    },

    /** Sets the review threshold, which is no part of a version (D284). */
    *setReviewThreshold(tx: Queries, row: SchemaRow, reviewThreshold: number): Part<SchemaRow> {
      const [updated] = yield* run(tx.update(schemas).set({ reviewThreshold, updatedAt: nowIso() }).where(owned(row.accountId, row.id)).returning())
      return updated!
    },

    /** Marks the schema deleted; false when it is not the account's. */
    async softDelete(account: string, schemaId: string): Promise<boolean> {
      const [row] = await find.execute({ accountId: account, id: schemaId })
      if (!row) return false
      if (row.isActive)
        await db
          .update(schemas)
          .set({ isActive: false, updatedAt: nowIso() })
          .where(owned(account, schemaId, true))
      return true
    },

    /** Reactivates the schema within the limit of active schemas (D12). */
    restore: (account: string, schemaId: string, limit: number): Promise<SchemaRow | 'not_found' | 'limit_reached'> =>
      database.transaction(function* (tx) {
        yield* lock(ACTIVE_LIMIT_LOCK, account)
        const [row] = yield* run(find, { accountId: account, id: schemaId })
        if (!row) return 'not_found' as const
        if (row.isActive) return row
        if ((yield* activeOf(account)) >= limit) return 'limit_reached' as const
        const [restored] = yield* run(tx.update(schemas).set({ isActive: true, updatedAt: nowIso() }).where(owned(account, schemaId)).returning())
        return restored!
      }),
  }
})
