/** Saved extraction schemas: only the schemas module reads or writes this table. */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { Field } from '../../lib/fields/model'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { accounts } from './accounts'

/** A schema's field as stored: a Field, but rows written before typed fields (D89) have no `type`, read as `auto`. */
export type StoredField = Omit<Field, 'type'> & Partial<Pick<Field, 'type'>>

export const schemas = sqliteTable(
  'schemas',
  {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => newId('sch')),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    fields: text('fields', { mode: 'json' }).$type<StoredField[]>().notNull(),
    /** 1 at creation, one more on each effective change of name, description or fields. */
    version: integer('version').notNull().default(1),
    /** When the current version was made; earlier versions are in schema_versions. */
    versionCreatedAt: text('version_created_at').notNull().default(''),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
    updatedAt: text('updated_at').notNull().$defaultFn(nowIso),
  },
  // Covers the list's order too (created_at, then id), so listing needs no sort of whole rows.
  (table) => [index('schemas_account_active_idx').on(table.accountId, table.isActive, table.createdAt, table.id)],
)

/** The versions a schema had before its current one; kept when the schema is deleted. */
export const schemaVersions = sqliteTable(
  'schema_versions',
  {
    schemaId: text('schema_id')
      .notNull()
      .references(() => schemas.id),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    fields: text('fields', { mode: 'json' }).$type<StoredField[]>().notNull(),
    createdAt: text('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.schemaId, table.version] })],
)
