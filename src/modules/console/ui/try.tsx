/**
 * Try a document: drop a file, choose its type or let it be found, say whether it holds several
 * documents, choose where its fields come from (a catalog type's suggestions, a saved schema and
 * version, or fields typed here), watch its pages being read, see the result or the documents found.
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, call, type DocumentType, ENDED, extract, type Job, useSchemasAndTypes } from './api.ts'
import { type DraftField, emptyField, FieldsEditor, typedPart } from './fields-editor.tsx'
import { DocumentView } from './document.tsx'
import { curlOfExtract } from './export.ts'
import { ResultView } from './result.tsx'
import { Labeled } from './labeled.tsx'
import { TypeSelect } from './type-select.tsx'

type Source = 'catalog' | 'schema' | 'fields'

const ACCEPT = '.pdf,.jpg,.jpeg,.png,.tif,.tiff,.webp,.txt,.md,.html,.htm,.docx,application/pdf,image/*,text/*'

export function TryScreen({ schemaId }: { schemaId: string | null }) {
  const [file, setFile] = useState<File | null>(null)
  const [documentType, setDocumentType] = useState('invoice')
  const [split, setSplit] = useState(false)
  const [source, setSource] = useState<Source>(schemaId ? 'schema' : 'catalog')
  const [schema, setSchema] = useState(schemaId ?? '')
  const [version, setVersion] = useState('')
  const [fields, setFields] = useState<DraftField[]>([{ ...emptyField(), key: 'total', description: 'The amount to pay' }])
  const [job, setJob] = useState<Job | null>(null)
  /** The request just made, for "Copy as curl". */
  const [sent, setSent] = useState<{ fileName: string; part: Record<string, unknown>; required?: ReadonlySet<string> } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const { schemas, types } = useSchemasAndTypes(setError)
  // The first schema is chosen once the list is read, unless the screen was opened for one.
  useEffect(() => {
    if (!schemaId && schemas[0]) setSchema(schemas[0].id)
  }, [schemas])

  const chosen = schemas.find((entry) => entry.id === schema)

  async function run(event: Event) {
    event.preventDefault()
    if (!file) return setError('Choose a document first.')
    setError(null)
    setJob(null)
    setBusy(true)
    try {
      const part: Record<string, unknown> = { document_type: documentType, ...(split && { split: true }) }
      if (source === 'schema') {
        if (!schema) throw new Error('Choose a schema, or create one under Schemas.')
        part.schema_id = schema
        if (version) part.schema_version = Number(version)
      }
      if (source === 'fields')
        part.fields = Object.fromEntries(fields.map((field) => [field.key.trim(), { description: field.description, ...typedPart(field) }]))
      const { job: created } = await extract(file, part)
      setJob(created)
      // A catalog type's suggested fields are its required ones (D17), so all of such a job's are; a schema's say so themselves (read by the result).
      setSent({ fileName: file.name, part, required: source === 'catalog' ? new Set(created.fields.map((field) => field.key)) : undefined })
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
      setBusy(false)
    }
  }

  useJobPolling(job, (next) => {
    setJob(next)
    if (ENDED.has(next.status)) setBusy(false)
  })

  async function cancel() {
    if (!job) return
    try {
      const { job: canceled } = await call(api.POST('/api/v1/jobs/{id}/cancel', { params: { path: { id: job.id } } }))
      setJob(canceled)
      setBusy(false)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }

  return (
    <>
      <h1 tabIndex={-1}>Try a document</h1>
      <form class="try" onSubmit={run}>
        <DropZone file={file} onFile={setFile} />
        <div class="options">
          <TypeSelect label="Document type" types={types} value={documentType} onChange={setDocumentType} detect="Detect the type" />
          <label class="check">
            <input type="checkbox" checked={split} onChange={(event) => setSplit(event.currentTarget.checked)} />
            Several documents in one file
          </label>
          <fieldset class="choices">
            <legend>Fields from</legend>
            <label class="check">
              <input type="radio" name="source" checked={source === 'catalog'} onChange={() => setSource('catalog')} />
              The type's suggested fields
            </label>
            <label class="check">
              <input type="radio" name="source" checked={source === 'schema'} onChange={() => setSource('schema')} />A saved schema
            </label>
            <label class="check">
              <input type="radio" name="source" checked={source === 'fields'} onChange={() => setSource('fields')} />
              Fields typed here
            </label>
          </fieldset>
          {source === 'schema' && (
            <div class="row">
              <Labeled label="Schema">
                {(id) => (
                  <select
                    id={id}
                    key={schemas.length}
                    value={schema}
                    onChange={(event) => {
                      setSchema(event.currentTarget.value)
                      setVersion('')
                    }}
                  >
                    {schemas.length === 0 && <option value="">No schemas yet</option>}
                    {schemas.map((entry) => (
                      <option key={entry.id} value={entry.id}>
                        {entry.name}
                      </option>
                    ))}
                  </select>
                )}
              </Labeled>
              <Labeled label="Version">
                {(id) => (
                  <select id={id} value={version} onChange={(event) => setVersion(event.currentTarget.value)}>
                    <option value="">Current{chosen ? ` (${chosen.version})` : ''}</option>
                    {chosen &&
                      Array.from({ length: Number(chosen.version) - 1 }, (_, index) => Number(chosen.version) - 1 - index).map((number) => (
                        <option key={number} value={String(number)}>
                          {number}
                        </option>
                      ))}
                  </select>
                )}
              </Labeled>
            </div>
          )}
          {source === 'fields' && <FieldsEditor fields={fields} onChange={setFields} compact />}
          <div class="row">
            <button type="submit" disabled={busy || !file}>
              Extract
            </button>
            {job && !ENDED.has(job.status) && (
              <button type="button" class="quiet danger" onClick={cancel}>
                Cancel
              </button>
            )}
          </div>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
        </div>
      </form>
      {job && <Progress job={job} />}
      {sent && <CurlCommand command={curlOfExtract(location.origin, sent.fileName, sent.part)} />}
      {job?.classification && ENDED.has(job.status) && <Detected job={job} types={types} />}
      {job?.documents ? (
        <FoundDocuments job={job} types={types} />
      ) : job && ENDED.has(job.status) ? (
        <ResultView job={job} file={file} required={sent?.required} />
      ) : (
        file && <Preview file={file} />
      )}
    </>
  )
}

const typeLabel = (types: DocumentType[], slug: string | null) => (slug === null ? 'No type fits' : (types.find((type) => type.slug === slug)?.label ?? slug))
const percent = (confidence: number) => `${Math.round(confidence * 100)} %`

/** The type a job with "Detect the type" found (D250), how sure, and what else it might be. */
function Detected({ job, types }: { job: Job; types: DocumentType[] }) {
  const { confidence, candidates } = job.classification!
  const others = candidates.filter((candidate) => candidate.document_type !== job.document_type)
  return (
    <p class="detected" role="status">
      Detected: <strong>{typeLabel(types, job.document_type === 'auto' ? null : job.document_type)}</strong> ({percent(confidence)})
      {others.length > 0 && ` · also ${others.map((candidate) => `${typeLabel(types, candidate.document_type)} ${percent(candidate.confidence)}`).join(', ')}`}
    </p>
  )
}

/** The documents a split job found in its file (D251), in page order, each with its pages, its type and its own job. */
function FoundDocuments({ job, types }: { job: Job; types: DocumentType[] }) {
  return (
    <section aria-label="Documents found" class="found">
      <h2>
        {job.documents!.length} {job.documents!.length === 1 ? 'document' : 'documents'} found
      </h2>
      <table class="found-documents">
        <thead>
          <tr>
            <th scope="col">Pages</th>
            <th scope="col">Type</th>
            <th scope="col">Job</th>
          </tr>
        </thead>
        <tbody>
          {job.documents!.map((found) => (
            <tr key={found.job_id} data-job={found.job_id}>
              <td>{found.first_page === found.last_page ? found.first_page : `${found.first_page}–${found.last_page}`}</td>
              <td>{typeLabel(types, found.document_type)}</td>
              <td>
                <a href={`#/jobs/${found.job_id}`}>{found.job_id}</a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** Reads the job again every half second until it ends. */
export function useJobPolling(job: Job | null, onJob: (job: Job) => void) {
  const latest = useRef(onJob)
  latest.current = onJob
  const id = job && !ENDED.has(job.status) ? job.id : null
  useEffect(() => {
    if (!id) return
    let stopped = false
    const poll = async () => {
      while (!stopped) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        if (stopped) return
        const { data } = await api.GET('/api/v1/jobs/{id}', { params: { path: { id } } })
        if (stopped || !data) continue
        latest.current(data.job)
        if (ENDED.has(data.job.status)) return
      }
    }
    poll()
    return () => {
      stopped = true
    }
  }, [id])
}

export function Progress({ job }: { job: Job }) {
  const done = Number(job.progress?.pages_done ?? 0)
  const total = Number(job.progress?.pages_total ?? 0)
  const ended = ENDED.has(job.status)
  return (
    <div class="progress" role="status" aria-live="polite">
      <span class={`status status-${job.status}`}>{job.status}</span>{' '}
      {total > 0 ? (
        <>
          <progress max={total} value={done} aria-label="Pages read" /> {done} of {total} pages read
        </>
      ) : (
        !ended && <progress aria-label="Reading the document" />
      )}{' '}
      <a href={`#/jobs/${job.id}`}>{job.id}</a>
    </div>
  )
}

/** The request just made as a curl command, copied with one click; the key stays out of it (D333). */
function CurlCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState<string | null>(null)
  async function copy() {
    try {
      await navigator.clipboard.writeText(command)
      setCopied('Copied. Set EXTRACTD_KEY to your key and run it beside the file.')
    } catch {
      setCopied('This browser refused the clipboard: select the command below and copy it.')
    }
  }
  return (
    <div class="curl">
      <div class="row">
        <button type="button" class="quiet" onClick={copy}>
          Copy as curl
        </button>
        <span class="note" role="status">
          {copied ?? 'The same request from a shell, its result printed.'}
        </span>
      </div>
      <details>
        <summary>The command</summary>
        <pre class="curl-command">{command}</pre>
      </details>
    </div>
  )
}

/** The chosen file, shown before it is read (D330): its pages, zoom and thumbnails. */
function Preview({ file }: { file: File }) {
  const [page, setPage] = useState(1)
  useEffect(() => setPage(1), [file])
  return (
    <section aria-label="Preview" class="preview">
      <DocumentView file={file} mediaType={file.type} page={page} setPage={setPage} label={`Preview of ${file.name}`} />
    </section>
  )
}

function DropZone({ file, onFile }: { file: File | null; onFile: (file: File) => void }) {
  const [over, setOver] = useState(false)
  return (
    <label
      class={`drop${over ? ' over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault()
        setOver(false)
        const dropped = event.dataTransfer?.files[0]
        if (dropped) onFile(dropped)
      }}
    >
      <span class="drop-text">{file ? `${file.name} (${formatSize(file.size)})` : 'Drop a PDF, image or text file here, or choose one'}</span>
      <input
        type="file"
        accept={ACCEPT}
        aria-label="Document"
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0]
          if (chosen) onFile(chosen)
        }}
      />
    </label>
  )
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
