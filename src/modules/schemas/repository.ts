/** What the schemas service needs from a database; each dialect implements it. */
import type { schemas, schemaVersions, StoredField } from '../../db/tables'

export type SchemaRow = typeof schemas.$inferSelect
export type SchemaVersionRow = typeof schemaVersions.$inferSelect

/** A schema's wire columns, with `fields` as the JSON text stored (spliced into answers unparsed, D65). */
export interface WireRow {
  id: string
  name: string
  description: string
  fields: string
  version: number
  isActive: boolean
  createdAt: string
  updatedAt: string
}

export type NewSchema = {
  id: string
  accountId: string
  name: string
  description: string
  fields: StoredField[]
  /** One instant: a new schema's updated_at equals its created_at. */
  now: string
}

/** The current version of a schema, as the history holds it. */
export function versionRowOf(row: SchemaRow): SchemaVersionRow {
  const { id, version, name, description, fields, versionCreatedAt } = row
  return { schemaId: id, version, name, description, fields, createdAt: versionCreatedAt }
}

export type SchemaChanges = Partial<Pick<SchemaRow, 'name' | 'description' | 'fields'>>

export interface SchemasRepository {
  /** The account's active schemas, newest first. */
  listActive(accountId: string): Promise<WireRow[]>
  /** Inserts the schema unless the account already has `limit` active ones (then undefined), atomically (D10). */
  createWithinLimit(schema: NewSchema, limit: number): Promise<WireRow | undefined>
  find(accountId: string, id: string, activeOnly?: boolean): Promise<SchemaRow | undefined>
  findWire(accountId: string, id: string): Promise<WireRow | undefined>
  /** Earlier versions below `before`, newest first. */
  versions(schemaId: string, before: number, limit: number): Promise<SchemaVersionRow[]>
  version(schemaId: string, version: number): Promise<SchemaVersionRow | undefined>
  /**
   * Applies the changes `decide` finds for the active schema, as its next version, the current
   * one joining the history (D74); `decide` answers undefined for no change. In one transaction
   * with the read, so concurrent updates make consecutive versions. Undefined when not found.
   */
  updateActive(accountId: string, id: string, decide: (row: SchemaRow) => SchemaChanges | undefined): Promise<SchemaRow | undefined>
  /** Marks the schema deleted; false when it is not the account's. */
  softDelete(accountId: string, id: string): Promise<boolean>
  /** Reactivates the schema within the limit of active ones (D12). */
  restore(accountId: string, id: string, limit: number): Promise<SchemaRow | 'not_found' | 'limit_reached'>
}
