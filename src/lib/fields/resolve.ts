/**
 * How a field becomes the field a job reads (D91): its type declared, else for `auto` the
 * catalog type of the same key, else inferred from key, label and description (concepts.ts).
 * The one mapping used at job creation and for the JSON Schema of a result (D96), by extraction,
 * schemas and catalog alike.
 */
import { inferType } from './concepts'
import { type CatalogField, type ColumnInput, completeColumn, type FieldInput, type JobField, type ResolvedColumn } from './model'

/** A column in the job's form: `auto` resolved by inference, never to a nested table (D91). */
function resolveColumn(column: ColumnInput): ResolvedColumn {
  const { key, label, description, type, values } = completeColumn(column)
  const inferred = type === 'auto' ? inferType(key, label, description) : type
  const resolved = inferred === 'table' ? 'list' : inferred
  return { key, label, description, type: resolved, ...(resolved === 'enum' && values ? { values } : {}) }
}

/**
 * The field as the job keeps it (D91): type declared; else, for `auto`, the catalog's type of the
 * same key; else inferred. The catalog's aliases come along as further printed labels.
 */
export function resolveField(field: Omit<FieldInput, 'required'>, catalogField?: Pick<CatalogField, 'type' | 'values' | 'columns' | 'aliases'>): JobField {
  const { key, label, description = '' } = field
  const declared = (field.type ?? 'auto') !== 'auto'
  const typed = !declared && catalogField?.type && catalogField.type !== 'auto' ? catalogField : field
  const type = typed.type ?? 'auto'
  const resolved = type === 'auto' ? inferType(key, label, description) : type
  return {
    key,
    label,
    description,
    type: resolved,
    ...(resolved === 'enum' && typed.values ? { values: typed.values } : {}),
    ...(resolved === 'table' && typed.columns ? { columns: typed.columns.map(resolveColumn) } : {}),
    ...(catalogField?.aliases?.length ? { aliases: catalogField.aliases } : {}),
  }
}
