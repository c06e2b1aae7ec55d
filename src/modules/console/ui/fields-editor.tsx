/** Rows of fields (key, label, description, type, enum values, table columns): the designer's and the try screen's. */
import { type Column, FIELD_TYPES, type Field, type FieldType } from './api.ts'
import { Labeled } from './labeled.tsx'

/** Declared: a field as the editor holds it, its enum values the text the user types (one per line or comma-separated). */
export type DraftField = Omit<Field, 'values' | 'columns'> & { values: string; columns: DraftColumn[] }

/** A column as the editor holds it. */
export type DraftColumn = Pick<Column, 'key' | 'type'> & Pick<DraftField, 'values'>

/** What the flag does, truthfully (D21, D335): it flags, it does not fail the job. */
export const REQUIRED_MEANS = 'When a document lacks it, the job still succeeds with null, and the result marks it “required, not found”.'

export function emptyField(): DraftField {
  return { key: '', label: '', description: '', required: false, type: 'auto', values: '', columns: [] }
}

export function splitValues(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((value) => value.trim())
    .filter(Boolean)
}

/** A field the API answers (a schema's, a document type's), in the editor. */
export function draftOf(field: Field): DraftField {
  return {
    key: field.key,
    label: field.label,
    description: field.description,
    required: field.required,
    type: field.type,
    values: (field.values ?? []).join(', '),
    columns: (field.columns ?? []).map((column) => ({ key: column.key, type: column.type, values: (column.values ?? []).join(', ') })),
  }
}

/** The field as the API takes it: values only for enum, columns only for table. */
export function typedPart(field: DraftField) {
  return {
    type: field.type,
    ...(field.type === 'enum' ? { values: splitValues(field.values) } : {}),
    ...(field.type === 'table' && field.columns.length > 0
      ? {
          columns: field.columns.map((column) => ({
            key: column.key.trim(),
            type: column.type,
            ...(column.type === 'enum' ? { values: splitValues(column.values) } : {}),
          })),
        }
      : {}),
  }
}

/** Fields as a schema's body takes them (create, update, restore a version). */
export function fieldsBody(fields: DraftField[]) {
  return fields.map((field) => ({
    key: field.key.trim(),
    label: field.label.trim() || field.key.trim(),
    description: field.description,
    required: field.required,
    ...typedPart(field),
  }))
}

interface EditorProps {
  fields: DraftField[]
  onChange: (fields: DraftField[]) => void
  /** The try screen's inline fields have no label or required flag. */
  compact?: boolean
}

export function FieldsEditor({ fields, onChange, compact = false }: EditorProps) {
  const update = (index: number, change: Partial<DraftField>) => onChange(fields.map((field, at) => (at === index ? { ...field, ...change } : field)))
  const remove = (index: number) => onChange(fields.filter((_, at) => at !== index))
  const move = (index: number, by: number) => {
    const next = [...fields]
    const [moved] = next.splice(index, 1)
    next.splice(index + by, 0, moved!)
    onChange(next)
  }

  return (
    <fieldset class="fields-editor">
      <legend>Fields</legend>
      {fields.length === 0 && <p class="note">No fields yet.</p>}
      <ol class="plain">
        {fields.map((field, index) => {
          const name = field.key || `field ${index + 1}`
          return (
            <li key={index} class="field-row" aria-label={`Field ${index + 1}${field.key ? `: ${field.key}` : ''}`}>
              <div class="grid">
                <Labeled label="Key">
                  {(id) => (
                    <input
                      id={id}
                      value={field.key}
                      required
                      pattern="[A-Za-z0-9_]{1,64}"
                      title="Letters, digits and underscores, at most 64"
                      onInput={(event) => update(index, { key: event.currentTarget.value })}
                    />
                  )}
                </Labeled>
                {!compact && (
                  <Labeled label="Label">
                    {(id) => <input id={id} value={field.label} maxLength={100} onInput={(event) => update(index, { label: event.currentTarget.value })} />}
                  </Labeled>
                )}
                <Labeled label="Description" class="wide">
                  {(id) => (
                    <input id={id} value={field.description} maxLength={300} onInput={(event) => update(index, { description: event.currentTarget.value })} />
                  )}
                </Labeled>
                <Labeled label="Type">
                  {(id) => (
                    <select id={id} value={field.type} onChange={(event) => update(index, { type: event.currentTarget.value as FieldType })}>
                      {FIELD_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>
                  )}
                </Labeled>
                {!compact && (
                  <div class="required">
                    <label class="check">
                      <input
                        type="checkbox"
                        checked={field.required}
                        aria-describedby={`required-help-${index}`}
                        onChange={(event) => update(index, { required: event.currentTarget.checked })}
                      />
                      Required
                    </label>
                    <span class="note" id={`required-help-${index}`}>
                      {REQUIRED_MEANS}
                    </span>
                  </div>
                )}
              </div>
              {field.type === 'enum' && (
                <Labeled label="Allowed values (comma-separated)" class="wide">
                  {(id) => <input id={id} value={field.values} required onInput={(event) => update(index, { values: event.currentTarget.value })} />}
                </Labeled>
              )}
              {field.type === 'table' && <ColumnsEditor columns={field.columns} onChange={(columns) => update(index, { columns })} name={name} />}
              <div class="row">
                {!compact && (
                  <>
                    <button type="button" class="quiet" disabled={index === 0} onClick={() => move(index, -1)} aria-label={`Move ${name} up`}>
                      ↑
                    </button>
                    <button type="button" class="quiet" disabled={index === fields.length - 1} onClick={() => move(index, 1)} aria-label={`Move ${name} down`}>
                      ↓
                    </button>
                  </>
                )}
                <button type="button" class="quiet danger" onClick={() => remove(index)} aria-label={`Remove ${name}`}>
                  Remove
                </button>
              </div>
            </li>
          )
        })}
      </ol>
      <button type="button" onClick={() => onChange([...fields, emptyField()])}>
        Add a field
      </button>
    </fieldset>
  )
}

function ColumnsEditor({ columns, onChange, name }: { columns: DraftColumn[]; onChange: (columns: DraftColumn[]) => void; name: string }) {
  const update = (index: number, change: Partial<DraftColumn>) => onChange(columns.map((column, at) => (at === index ? { ...column, ...change } : column)))
  return (
    <fieldset class="columns">
      <legend>Columns of {name}</legend>
      {columns.map((column, index) => (
        <div class="row" key={index}>
          <Labeled label="Column key">
            {(id) => (
              <input id={id} value={column.key} required pattern="[A-Za-z0-9_]{1,64}" onInput={(event) => update(index, { key: event.currentTarget.value })} />
            )}
          </Labeled>
          <Labeled label="Column type">
            {(id) => (
              <select id={id} value={column.type} onChange={(event) => update(index, { type: event.currentTarget.value as DraftColumn['type'] })}>
                {FIELD_TYPES.filter((type) => type !== 'table').map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </select>
            )}
          </Labeled>
          {column.type === 'enum' && (
            <Labeled label="Column values">
              {(id) => <input id={id} value={column.values} onInput={(event) => update(index, { values: event.currentTarget.value })} />}
            </Labeled>
          )}
          <button
            type="button"
            class="quiet danger"
            onClick={() => onChange(columns.filter((_, at) => at !== index))}
            aria-label={`Remove column ${column.key || index + 1}`}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" class="quiet" onClick={() => onChange([...columns, { key: '', type: 'auto', values: '' }])}>
        Add a column
      </button>
    </fieldset>
  )
}
