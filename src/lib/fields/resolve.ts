/**
 * How a field becomes the field a job reads (D91): its type declared, else for `auto` the
 * catalog type of the same key, else inferred from key, label and description (concepts.ts).
 * The one mapping used at job creation and for the JSON Schema of a result (D96), by extraction,
 * schemas and catalog alike. Framework-free.
 */
import { inferType } from './concepts'
import { type ColumnInput, type Field, type FieldInput, type ResolvedColumn, toColumn } from './types'

/** What the catalog knows of a field of the same key: its type part and its other printed labels. */
export type CatalogKnowledge = Pick<FieldInput, 'type' | 'values' | 'columns'> & { aliases?: string[] }

/** A column in the job's form: `auto` resolved by inference, never to a nested table (D91). */
function resolveColumn(column: ColumnInput): ResolvedColumn {
  const { key, label, description, type, values } = toColumn(column)
  const inferred = type === 'auto' ? inferType(key, label, description) : type
  const resolved = inferred === 'table' ? 'list' : inferred
  return { key, label, description, type: resolved, ...(resolved === 'enum' && values ? { values } : {}) }
}

/**
 * The field as the job keeps it (D91): type declared; else, for `auto`, the catalog's type of the
 * same key; else inferred. The catalog's aliases come along as further printed labels.
 */
export function resolveField(field: FieldInput, catalogField?: CatalogKnowledge): Field {
  const declared = (field.type ?? 'auto') !== 'auto'
  const typed = !declared && catalogField?.type && catalogField.type !== 'auto' ? catalogField : field
  const type = typed.type ?? 'auto'
  const resolved = type === 'auto' ? inferType(field.key, field.label, field.description) : type
  return {
    key: field.key,
    label: field.label,
    description: field.description,
    type: resolved,
    ...(resolved === 'enum' && typed.values ? { values: typed.values } : {}),
    ...(resolved === 'table' && typed.columns ? { columns: typed.columns.map(resolveColumn) } : {}),
    ...(catalogField?.aliases?.length ? { aliases: catalogField.aliases } : {}),
  }
}
