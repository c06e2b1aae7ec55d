/** Saved extraction schemas: only the schemas module reads or writes this table. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { Typed } from '../../lib/field-types'
import { newId } from '../../lib/ids'
import { nowIso } from '../../lib/time'
import { accounts } from './accounts'

/** A schema's field as stored; rows written before typed fields (D89) have no `type`, read as `auto`. */
export interface StoredField extends Partial<Typed> {
  key: string
  label: string
  description: string
  required: boolean
}

export const schemas = sqliteTable(
  'schemas',
  {
    id: text('id').primaryKey().$defaultFn(() => newId('sch')),
    accountId: text('account_id').notNull().references(() => accounts.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    fields: text('fields', { mode: 'json' }).$type<StoredField[]>().notNull(),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    createdAt: text('created_at').notNull().$defaultFn(nowIso),
    updatedAt: text('updated_at').notNull().$defaultFn(nowIso),
  },
  // Covers the list's order too (created_at, then id), so listing needs no sort of whole rows.
  (table) => [index('schemas_account_active_idx').on(table.accountId, table.isActive, table.createdAt, table.id)],
)
