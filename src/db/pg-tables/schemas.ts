/** Saved extraction schemas and their earlier versions, on PostgreSQL: as tables/schemas.ts. */
import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import type { StoredField } from '../tables/schemas'
import { accounts } from './accounts'
import { jsonText } from './columns'

export const schemas = pgTable(
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
    fields: jsonText<StoredField[]>('fields').notNull(),
    version: integer('version').notNull().default(1),
    versionCreatedAt: text('version_created_at').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
    updatedAt: text('updated_at').notNull().$defaultFn(nowIso),
  },
  (table) => [index('schemas_account_active_idx').on(table.accountId, table.isActive, table.createdAt, table.id)],
)

export const schemaVersions = pgTable(
  'schema_versions',
  {
    schemaId: text('schema_id')
      .notNull()
      .references(() => schemas.id),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    fields: jsonText<StoredField[]>('fields').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.schemaId, table.version] })],
)
