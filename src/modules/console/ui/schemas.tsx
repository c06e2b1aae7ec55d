/**
 * The schema designer: the account's schemas, one edited at a time, started from a catalog type's
 * suggested fields if wished; its versions and what each changed; JSON Schema out and in.
 */
import { useEffect, useState } from 'preact/hooks'
import { api, call, type DocumentType, documentTypes, type Field, type Schema, saveJson } from './api.ts'
import { navigate } from './router.ts'
import { type DraftField, draftOf, FieldsEditor, fieldsBody } from './fields-editor.tsx'
import { Labeled } from './labeled.tsx'
import { TypeSelect } from './type-select.tsx'

type Version = { version: number | string; name: string; description: string; fields: Field[]; created_at: string }

export function SchemasScreen({ selected }: { selected: string | null }) {
  const [schemas, setSchemas] = useState<Schema[] | null>(null)
  const [deleted, setDeleted] = useState<Schema[]>([])
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null)

  async function reload() {
    try {
      setSchemas((await call(api.GET('/api/v1/schemas'))).schemas)
    } catch (failure) {
      setMessage({ text: (failure as Error).message, error: true })
    }
  }
  useEffect(() => {
    reload()
  }, [])

  const current = selected && selected !== 'new' ? schemas?.find((schema) => schema.id === selected) : undefined

  async function importJsonSchema(file: File) {
    try {
      const jsonSchema = JSON.parse(await file.text())
      const name = String(jsonSchema.title ?? file.name.replace(/\.json$/i, '')).slice(0, 100)
      const { schema } = await call(api.POST('/api/v1/schemas', { body: { name, json_schema: jsonSchema } as never }))
      setMessage({ text: `Imported “${schema.name}” with ${schema.fields.length} fields.` })
      await reload()
      navigate('schemas', schema.id)
    } catch (failure) {
      setMessage({
        text: `Import failed: ${(failure as Error).message}${failure instanceof SyntaxError ? '. Choose a JSON Schema file (.json).' : ''}`,
        error: true,
      })
    }
  }

  async function restore(schema: Schema) {
    try {
      await call(api.POST('/api/v1/schemas/{id}/restore', { params: { path: { id: schema.id } } }))
      setDeleted(deleted.filter((entry) => entry.id !== schema.id))
      setMessage({ text: `Restored “${schema.name}”.` })
      await reload()
    } catch (failure) {
      setMessage({ text: (failure as Error).message, error: true })
    }
  }

  return (
    <>
      <h1 tabIndex={-1}>Schemas</h1>
      {message && (
        <p role={message.error ? 'alert' : 'status'} class={message.error ? 'error' : 'notice'}>
          {message.text}
        </p>
      )}
      <div class="split">
        <section aria-label="Schema list" class="list">
          <div class="row">
            <a class="button" href="#/schemas/new">
              New schema
            </a>
            <label class="button quiet file-button">
              Import JSON Schema
              <input
                type="file"
                accept=".json,application/json,application/schema+json"
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0]
                  if (file) importJsonSchema(file)
                  event.currentTarget.value = ''
                }}
              />
            </label>
          </div>
          {schemas === null ? (
            <p>Loading…</p>
          ) : schemas.length === 0 ? (
            <p class="note">No schemas yet.</p>
          ) : (
            <ul class="plain items">
              {schemas.map((schema) => (
                <li key={schema.id}>
                  <a href={`#/schemas/${schema.id}`} aria-current={schema.id === selected ? 'true' : undefined}>
                    <strong>{schema.name}</strong>
                    <span class="note">
                      {schema.fields.length} fields · v{schema.version}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
          {deleted.length > 0 && (
            <section aria-label="Deleted in this session">
              <h2>Deleted</h2>
              <ul class="plain items">
                {deleted.map((schema) => (
                  <li key={schema.id} class="row spread">
                    <span>{schema.name}</span>
                    <button type="button" class="quiet" onClick={() => restore(schema)} aria-label={`Restore ${schema.name}`}>
                      Restore
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <RestoreById onRestore={(id) => restore({ id, name: id } as Schema)} />
        </section>
        {selected === 'new' || current ? (
          <SchemaEditor
            key={current ? `${current.id}:${current.version}` : 'new'}
            schema={current ?? null}
            onSaved={async (schema, created) => {
              setMessage({ text: created ? `Created “${schema.name}”.` : `Saved “${schema.name}” as version ${schema.version}.` })
              await reload()
              if (created) navigate('schemas', schema.id)
            }}
            onRestored={async (schema, from) => {
              setMessage({ text: `Restored version ${from} of “${schema.name}” as version ${schema.version}.` })
              await reload()
            }}
            onDeleted={async (schema) => {
              setDeleted([schema, ...deleted])
              setMessage({ text: `Deleted “${schema.name}”. Jobs that used it keep their fields; it can be restored.` })
              await reload()
              navigate('schemas')
            }}
            onError={(text) => setMessage({ text, error: true })}
          />
        ) : (
          <p class="note">Choose a schema, or create one.</p>
        )}
      </div>
    </>
  )
}

function RestoreById({ onRestore }: { onRestore: (id: string) => void }) {
  const [schemaId, setSchemaId] = useState('')
  return (
    <form
      class="row"
      onSubmit={(event) => {
        event.preventDefault()
        if (schemaId.trim()) onRestore(schemaId.trim())
      }}
    >
      <Labeled label="Restore a deleted schema by ID">
        {(id) => <input id={id} value={schemaId} placeholder="sch_…" onInput={(event) => setSchemaId(event.currentTarget.value)} />}
      </Labeled>
      <button type="submit" class="quiet">
        Restore
      </button>
    </form>
  )
}

interface EditorProps {
  schema: Schema | null
  onSaved: (schema: Schema, created: boolean) => void
  onRestored: (schema: Schema, from: number) => void
  onDeleted: (schema: Schema) => void
  onError: (message: string) => void
}

function SchemaEditor({ schema, onSaved, onRestored, onDeleted, onError }: EditorProps) {
  const [name, setName] = useState(schema?.name ?? '')
  const [description, setDescription] = useState(schema?.description ?? '')
  const [fields, setFields] = useState<DraftField[]>(schema?.fields.map(draftOf) ?? [])
  const [types, setTypes] = useState<DocumentType[]>([])
  const [starter, setStarter] = useState('invoice')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    documentTypes().then(setTypes, onError)
  }, [])

  async function addSuggested() {
    try {
      const suggestion = await call(api.GET('/api/v1/fields', { params: { query: { type: starter } } }))
      const have = new Set(fields.map((field) => field.key))
      const wanted = suggestion.fields.filter((field) => suggestion.suggested_keys.includes(field.key) && !have.has(field.key))
      setFields([...fields, ...wanted.map(draftOf)])
      if (!name) setName(suggestion.label)
    } catch (failure) {
      onError((failure as Error).message)
    }
  }

  async function save(event: Event) {
    event.preventDefault()
    setBusy(true)
    const body = { name: name.trim(), description, fields: fieldsBody(fields) }
    try {
      if (schema) onSaved(await call(api.PATCH('/api/v1/schemas/{id}', { params: { path: { id: schema.id } }, body: body as never })), false)
      else onSaved((await call(api.POST('/api/v1/schemas', { body: body as never }))).schema, true)
    } catch (failure) {
      onError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  async function remove() {
    if (!schema || !confirm(`Delete “${schema.name}”? It can be restored afterwards.`)) return
    try {
      await call(api.DELETE('/api/v1/schemas/{id}', { params: { path: { id: schema.id } } }))
      onDeleted(schema)
    } catch (failure) {
      onError((failure as Error).message)
    }
  }

  async function exportJsonSchema() {
    if (!schema) return
    try {
      const document = await call(api.GET('/api/v1/schemas/{id}/json-schema', { params: { path: { id: schema.id } } }))
      saveJson(document, `${schema.name.replace(/[^\w.-]+/g, '_')}.schema.json`)
    } catch (failure) {
      onError((failure as Error).message)
    }
  }

  return (
    <section aria-label={schema ? `Schema ${schema.name}` : 'New schema'} class="editor">
      <h2>{schema ? `${schema.name} · version ${schema.version}` : 'New schema'}</h2>
      {schema && <p class="note">ID {schema.id}</p>}
      <form onSubmit={save}>
        <div class="grid">
          <Labeled label="Name">
            {(id) => <input id={id} value={name} required maxLength={100} onInput={(event) => setName(event.currentTarget.value)} />}
          </Labeled>
          <Labeled label="Description" class="wide">
            {(id) => <input id={id} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />}
          </Labeled>
        </div>
        <div class="row">
          <TypeSelect label="Start from a catalog type" types={types} value={starter} onChange={setStarter} />
          <button type="button" class="quiet" onClick={addSuggested}>
            Add suggested fields
          </button>
        </div>
        <FieldsEditor fields={fields} onChange={setFields} />
        <div class="row">
          <button type="submit" disabled={busy}>
            {schema ? 'Save' : 'Create schema'}
          </button>
          {schema && (
            <>
              <button type="button" class="quiet" onClick={() => navigate('try', schema.id)}>
                Run on a document
              </button>
              <button type="button" class="quiet" onClick={exportJsonSchema}>
                Export JSON Schema
              </button>
              <button type="button" class="quiet danger" onClick={remove}>
                Delete
              </button>
            </>
          )}
        </div>
      </form>
      {schema && <Versions schema={schema} onRestored={(restored, from) => onRestored(restored, from)} onError={onError} />}
    </section>
  )
}

interface VersionsProps {
  schema: Schema
  onRestored: (schema: Schema, from: number) => void
  onError: (message: string) => void
}

/** A schema's versions (D74, D334): each viewed, any two compared field by field, an old one restored as a new version. */
function Versions({ schema, onRestored, onError }: VersionsProps) {
  const [versions, setVersions] = useState<Version[] | null>(null)
  const [viewed, setViewed] = useState<number | null>(null)
  const [left, setLeft] = useState<number | null>(null)
  const [right, setRight] = useState<number | null>(null)
  useEffect(() => {
    call(api.GET('/api/v1/schemas/{id}/versions', { params: { path: { id: schema.id }, query: { limit: '100' } } }))
      .then((data) => {
        const listed = data.versions as Version[]
        setVersions(listed)
        setRight(Number(listed[0]?.version ?? 1))
        setLeft(Number(listed[1]?.version ?? listed[0]?.version ?? 1))
      })
      .catch((failure: Error) => onError(`The versions could not be read: ${failure.message}. Reload the page to try again.`))
  }, [schema.id, schema.version])
  if (!versions) return null
  const byNumber = (number: number | null) => versions.find((version) => Number(version.version) === number)
  const shown = byNumber(viewed)

  async function restore(version: Version) {
    if (!confirm(`Make version ${version.version} the current one? It is saved as version ${Number(schema.version) + 1}; no version is lost.`)) return
    try {
      const body = { name: version.name, description: version.description, fields: fieldsBody(version.fields.map(draftOf)) }
      onRestored(await call(api.PATCH('/api/v1/schemas/{id}', { params: { path: { id: schema.id } }, body: body as never })), Number(version.version))
    } catch (failure) {
      onError(`Version ${version.version} could not be restored: ${(failure as Error).message}`)
    }
  }

  return (
    <section aria-label="Versions" class="versions">
      <h3>Versions</h3>
      <ol class="plain items">
        {versions.map((version, index) => {
          const number = Number(version.version)
          const current = number === Number(schema.version)
          return (
            <li key={number} aria-label={`Version ${number}`}>
              <div class="row spread">
                <span>
                  <strong>v{number}</strong>
                  {current && ' (current)'} <span class="note">{new Date(version.created_at).toLocaleString()}</span>
                </span>
                <span class="row">
                  <button type="button" class="quiet" aria-pressed={viewed === number} onClick={() => setViewed(viewed === number ? null : number)}>
                    View
                  </button>
                  {!current && (
                    <button type="button" class="quiet" onClick={() => restore(version)}>
                      Restore as v{Number(schema.version) + 1}
                    </button>
                  )}
                </span>
              </div>
              <ul>
                {changes(versions[index + 1], version).map((change) => (
                  <li key={change}>{change}</li>
                ))}
              </ul>
            </li>
          )
        })}
      </ol>
      {shown && <VersionView version={shown} />}
      {versions.length > 1 && (
        <section aria-label="Compare versions">
          <h3>Compare</h3>
          <div class="row">
            {(
              [
                ['Compare version', left, setLeft],
                ['with version', right, setRight],
              ] as const
            ).map(([label, value, set]) => (
              <Labeled key={label} label={label}>
                {(id) => (
                  <select id={id} value={String(value)} onChange={(event) => set(Number(event.currentTarget.value))}>
                    {versions.map((version) => (
                      <option key={version.version} value={String(version.version)}>
                        v{version.version}
                      </option>
                    ))}
                  </select>
                )}
              </Labeled>
            ))}
          </div>
          {byNumber(left) && byNumber(right) && <Comparison before={byNumber(left)!} after={byNumber(right)!} />}
        </section>
      )}
    </section>
  )
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no')

/** What a field is, property by property, in the words the comparison shows. */
function described(field: Field): [string, string][] {
  return [
    ['label', field.label],
    ['type', field.type],
    ['required', yesNo(field.required)],
    ['description', field.description || '—'],
    ...(field.values?.length ? [['values', field.values.join(', ')] as [string, string]] : []),
    ...(field.columns?.length ? [['columns', field.columns.map((column) => `${column.key} (${column.type})`).join(', ')] as [string, string]] : []),
  ]
}

function VersionView({ version }: { version: Version }) {
  return (
    <section aria-label={`Version ${version.version} as saved`} class="version-view">
      <h3>
        Version {version.version}: {version.name}
      </h3>
      {version.description && <p>{version.description}</p>}
      <div class="scroll">
        <table class="rows">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Label</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {version.fields.map((field) => (
              <tr key={field.key}>
                <td>{field.key}</td>
                <td>{field.label}</td>
                <td>{field.type === 'enum' && field.values ? `enum: ${field.values.join(', ')}` : field.type}</td>
                <td>{yesNo(field.required)}</td>
                <td>{field.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

/** Field by field: added, removed, or each property that differs, old → new. */
function Comparison({ before, after }: { before: Version; after: Version }) {
  const old = new Map(before.fields.map((field) => [field.key, field]))
  const now = new Map(after.fields.map((field) => [field.key, field]))
  const keys = [...new Set([...before.fields.map((field) => field.key), ...after.fields.map((field) => field.key)])]
  const rows = keys.map((key) => {
    const a = old.get(key)
    const b = now.get(key)
    if (!a) return { key, state: 'added', detail: described(b!).map(([name, value]) => `${name}: ${value}`) }
    if (!b) return { key, state: 'removed', detail: [] }
    const was = new Map(described(a))
    const is = new Map(described(b))
    const detail = [...new Set([...was.keys(), ...is.keys()])]
      .filter((name) => was.get(name) !== is.get(name))
      .map((name) => `${name}: ${was.get(name) ?? '—'} → ${is.get(name) ?? '—'}`)
    return { key, state: detail.length ? 'changed' : 'same', detail }
  })
  return (
    <div class="scroll">
      <table class="rows comparison">
        <caption class="note">
          v{before.version} → v{after.version}
          {before.name !== after.name ? ` · name: ${before.name} → ${after.name}` : ''}
          {before.description !== after.description ? ' · description changed' : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Change</th>
            <th scope="col">What differs</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-key={row.key} class={`change-${row.state}`}>
              <td>{row.key}</td>
              <td>{row.state}</td>
              <td>
                {row.detail.map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** What a version changed from the one before it, in words. */
export function changes(before: Version | undefined, after: Version): string[] {
  if (!before) return [`created with ${after.fields.length} fields`]
  const out: string[] = []
  if (before.name !== after.name) out.push(`renamed “${before.name}” → “${after.name}”`)
  if (before.description !== after.description) out.push('description changed')
  const old = new Map(before.fields.map((field) => [field.key, field]))
  const now = new Map(after.fields.map((field) => [field.key, field]))
  for (const key of now.keys()) if (!old.has(key)) out.push(`added ${key}`)
  for (const key of old.keys()) if (!now.has(key)) out.push(`removed ${key}`)
  for (const [key, field] of now) {
    const previous = old.get(key)
    if (previous && JSON.stringify(previous) !== JSON.stringify(field))
      out.push(`changed ${key}${previous.type !== field.type ? ` (${previous.type} → ${field.type})` : ''}`)
  }
  if (out.length === 0 && before.fields.map((field) => field.key).join() !== after.fields.map((field) => field.key).join()) out.push('fields reordered')
  return out.length ? out : ['no visible change']
}
