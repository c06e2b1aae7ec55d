/** Saved extraction schemas: only the schemas module reads or writes this table. */
import type { Field } from '../../lib/fields/model'
import { nowIso } from '../../lib/time'
import { accountTables } from './accounts'
import { defineTables } from './kit'

/** A schema's field as stored: a Field, but rows written before typed fields (D89) have no `type`, read as `auto`. */
export type StoredField = Omit<Field, 'type'> & Partial<Pick<Field, 'type'>>

export const schemaTables = defineTables((k) => {
  const { accounts } = k.of(accountTables)

  const schemas = k.table(
    'schemas',
    {
      id: k.id('sch'),
      accountId: k
        .text('account_id')
        .notNull()
        .references(() => accounts.id),
      name: k.text('name').notNull(),
      description: k.text('description').notNull().default(''),
      fields: k.json<StoredField[]>('fields').notNull(),
      /** 1 at creation, one more on each effective change of name, description or fields. */
      version: k.integer('version').notNull().default(1),
      /** When the current version was made; earlier versions are in schema_versions. */
      versionCreatedAt: k.text('version_created_at').notNull().default(''),
      isActive: k.boolean('is_active').notNull().default(true),
      /** The confidence under which a value of the schema's jobs needs a person (D284); not versioned: it says how the account checks, not what is read. */
      reviewThreshold: k.real('review_threshold').notNull().default(0.95),
      createdAt: k.text('created_at').notNull().$defaultFn(nowIso),
      updatedAt: k.text('updated_at').notNull().$defaultFn(nowIso),
    },
    // Covers the list's order too (created_at, then id), so listing needs no sort of whole rows.
    (table) => [k.index('schemas_account_active_idx').on(table.accountId, table.isActive, table.createdAt, table.id)],
  )

  /** The versions a schema had before its current one; kept when the schema is deleted. */
  const schemaVersions = k.table(
    'schema_versions',
    {
      schemaId: k
        .text('schema_id')
        .notNull()
        .references(() => schemas.id),
      version: k.integer('version').notNull(),
      name: k.text('name').notNull(),
      description: k.text('description').notNull(),
      fields: k.json<StoredField[]>('fields').notNull(),
      createdAt: k.text('created_at').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.schemaId, table.version] })],
  )

  return { schemas, schemaVersions }
})
