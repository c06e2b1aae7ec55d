/**
 * The account's jobs, newest first: found by file name and filtered by status, document type,
 * schema and date (D332); one job's result, its document, cancel and delete.
 */
import { useEffect, useMemo, useState } from 'preact/hooks'
import { api, call, type DocumentType, documentTypes, ENDED, type Job, jobFile, type Schema, saveBlob, saveJson, saveText } from './api.ts'
import { jobsCsv, tableRowsCsv } from './export.ts'
import { ResultView } from './result.tsx'
import { navigate } from './router.ts'
import { formatSize, Progress, useJobPolling } from './try.tsx'
import { Labeled } from './labeled.tsx'
import { TypeSelect } from './type-select.tsx'

const STATUSES = ['', 'queued', 'running', 'succeeded', 'failed', 'canceled'] as const
type StatusFilter = (typeof STATUSES)[number]

/** The API's largest page: a search over file names, types or dates reads this many jobs a call. */
const PAGE = 100
/** A search reads at most this many jobs before it asks to go on: the newest 1,000. */
const SEARCH_BUDGET = 1000
/** Jobs listed before "Load more" when nothing is searched. */
const SHOWN = 20

interface Filters {
  status: StatusFilter
  schema: string
  type: string
  name: string
  /** `YYYY-MM-DD`, inclusive, in this browser's time zone. */
  from: string
  to: string
}

const NO_FILTERS: Filters = { status: '', schema: '', type: '', name: '', from: '', to: '' }

/** What the API cannot filter on is filtered here, on the pages it answers (D332). */
function matches(job: Job, filters: Filters): boolean {
  if (filters.type && job.document_type !== filters.type) return false
  if (filters.name && !job.file.name.toLowerCase().includes(filters.name.trim().toLowerCase())) return false
  const created = new Date(job.created_at)
  if (filters.from && created < startOfDay(filters.from)) return false
  if (filters.to && created >= startOfDay(filters.to, 1)) return false
  return true
}

function startOfDay(date: string, plusDays = 0): Date {
  const [year, month, day] = date.split('-').map(Number)
  return new Date(year!, month! - 1, day! + plusDays)
}

/** Names for the ids a job carries: its schema's, its document type's. */
export interface Names {
  schema: (id: string | null, version?: number | string | null) => string
  type: (slug: string) => string
}

export function useNames(): Names & { schemas: Schema[]; types: DocumentType[] } {
  const [schemas, setSchemas] = useState<Schema[]>([])
  const [types, setTypes] = useState<DocumentType[]>([])
  /** Schemas not in the list (deleted ones stay readable by ID, D11), fetched once each. */
  const [others, setOthers] = useState<Record<string, string>>({})
  useEffect(() => {
    call(api.GET('/api/v1/schemas')).then(
      (data) => setSchemas(data.schemas),
      () => {},
    )
    documentTypes().then(setTypes, () => {})
  }, [])
  const byId = useMemo(() => new Map(schemas.map((schema) => [schema.id, schema.name])), [schemas])
  const asked = useMemo(() => new Set<string>(), [])
  return {
    schemas,
    types,
    schema(id, version) {
      if (!id) return 'the request'
      const name = byId.get(id) ?? others[id]
      if (name === undefined && schemas.length > 0 && !asked.has(id)) {
        asked.add(id)
        call(api.GET('/api/v1/schemas/{id}', { params: { path: { id } } })).then(
          (data) => setOthers((known) => ({ ...known, [id]: `${data.schema.name}${data.schema.is_active ? '' : ' (deleted)'}` })),
          () => setOthers((known) => ({ ...known, [id]: 'a schema no longer kept' })),
        )
      }
      return `${name ?? '…'}${version ? ` v${version}` : ''}`
    },
    type: (slug) => types.find((type) => type.slug === slug)?.label ?? slug,
  }
}

export function JobsScreen({ selected }: { selected: string | null }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS)
  const [jobs, setJobs] = useState<Job[]>([])
  /** The last job the API answered, to go on from; null when there are no more. */
  const [cursor, setCursor] = useState<string | null>(null)
  const [read, setRead] = useState(0)
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const names = useNames()
  const searching = Boolean(filters.type || filters.name.trim() || filters.from || filters.to)

  /** Reads pages until enough jobs match (or the budget is spent), after `after` or from the newest. */
  async function load(after: string | null, kept: Job[], scanned: number) {
    setLoading(true)
    try {
      let found = kept
      let next: string | null = after
      let seen = scanned
      do {
        const query = {
          limit: String(searching ? PAGE : SHOWN),
          ...(filters.status ? { status: filters.status } : {}),
          ...(filters.schema ? { schema_id: filters.schema } : {}),
          ...(next ? { starting_after: next } : {}),
        }
        const data = await call(api.GET('/api/v1/jobs', { params: { query } }))
        seen += data.jobs.length
        found = [...found, ...data.jobs.filter((job) => matches(job, filters))]
        next = data.has_more ? (data.jobs.at(-1)?.id ?? null) : null
        // Newest first: past the first day asked for, nothing older can match.
        const oldest = data.jobs.at(-1)
        if (filters.from && oldest && new Date(oldest.created_at) < startOfDay(filters.from)) next = null
      } while (searching && next && found.length - kept.length < SHOWN && seen - scanned < SEARCH_BUDGET)
      setJobs(found)
      setCursor(next)
      setRead(seen)
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setLoading(false)
    }
  }
  useEffect(() => {
    const timer = setTimeout(() => load(null, [], 0), filters.name ? 250 : 0)
    return () => clearTimeout(timer)
  }, [filters, selected])

  const set = (change: Partial<Filters>) => setFilters({ ...filters, ...change })
  return (
    <>
      <h1 tabIndex={-1}>Jobs</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="split">
        <section aria-label="Job list" class="list">
          <search class="filters">
            <Labeled label="File name" class="wide">
              {(id) => <input id={id} type="search" value={filters.name} placeholder="Search" onInput={(event) => set({ name: event.currentTarget.value })} />}
            </Labeled>
            <Labeled label="Status">
              {(id) => (
                <select id={id} value={filters.status} onChange={(event) => set({ status: event.currentTarget.value as StatusFilter })}>
                  {STATUSES.map((value) => (
                    <option key={value} value={value}>
                      {value || 'any'}
                    </option>
                  ))}
                </select>
              )}
            </Labeled>
            <TypeSelect label="Document type" types={names.types} value={filters.type} onChange={(type) => set({ type })} any="any" />
            <Labeled label="Schema">
              {(id) => (
                <select id={id} key={names.schemas.length} value={filters.schema} onChange={(event) => set({ schema: event.currentTarget.value })}>
                  <option value="">any</option>
                  {names.schemas.map((schema) => (
                    <option key={schema.id} value={schema.id}>
                      {schema.name}
                    </option>
                  ))}
                </select>
              )}
            </Labeled>
            <Labeled label="From">
              {(id) => <input id={id} type="date" value={filters.from} onInput={(event) => set({ from: event.currentTarget.value })} />}
            </Labeled>
            <Labeled label="To">{(id) => <input id={id} type="date" value={filters.to} onInput={(event) => set({ to: event.currentTarget.value })} />}</Labeled>
          </search>
          <div class="row">
            <button type="button" class="quiet" onClick={() => load(null, [], 0)}>
              Refresh
            </button>
            <button type="button" class="quiet" disabled={filters === NO_FILTERS} onClick={() => setFilters(NO_FILTERS)}>
              Clear filters
            </button>
          </div>
          <fieldset class="row export">
            <legend>Export the jobs shown</legend>
            <button type="button" class="quiet" disabled={jobs.length === 0} onClick={() => saveText(jobsCsv(jobs), 'jobs.csv', 'text/csv')}>
              CSV
            </button>
            <button type="button" class="quiet" disabled={jobs.length === 0} onClick={() => saveText(tableRowsCsv(jobs), 'jobs-table-rows.csv', 'text/csv')}>
              Table rows CSV
            </button>
            <button type="button" class="quiet" disabled={jobs.length === 0} onClick={() => saveJson({ jobs }, 'jobs.json')}>
              JSON
            </button>
          </fieldset>
          <p class="note" role="status">
            {loading
              ? 'Loading…'
              : `${jobs.length} ${jobs.length === 1 ? 'job' : 'jobs'}${searching ? ` found in the newest ${read}` : ''}${cursor ? ', more to load' : ''}`}
          </p>
          {jobs.length > 0 && (
            <ul class="plain items">
              {jobs.map((job) => (
                <li key={job.id}>
                  <a href={`#/jobs/${job.id}`} aria-current={job.id === selected ? 'true' : undefined}>
                    <strong class="file-name">{job.file.name}</strong>
                    <span class="note">
                      <span class={`status status-${job.status}`}>{job.status}</span> {names.type(job.document_type)}
                      {job.schema_id ? ` · ${names.schema(job.schema_id, job.schema_version)}` : ''} · {new Date(job.created_at).toLocaleString()}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
          {cursor && (
            <button type="button" class="quiet" disabled={loading} onClick={() => load(cursor, jobs, read)}>
              Load more
            </button>
          )}
        </section>
        {selected ? <JobView key={selected} id={selected} names={names} onChanged={() => load(null, [], 0)} /> : <p class="note">Choose a job.</p>}
      </div>
    </>
  )
}

function JobView({ id, names, onChanged }: { id: string; names: Names; onChanged: () => void }) {
  const [job, setJob] = useState<Job | null>(null)
  /** undefined while it is being fetched; null when the server no longer keeps it. */
  const [file, setFile] = useState<File | null | undefined>(undefined)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    call(api.GET('/api/v1/jobs/{id}', { params: { path: { id } } }))
      .then((data) => setJob(data.job))
      .catch((failure: Error) => setError(failure.message))
  }, [id])
  useJobPolling(job, (next) => {
    setJob(next)
    if (ENDED.has(next.status)) onChanged()
  })
  // The document, for its pages, while the server keeps it.
  useEffect(() => {
    if (job && ENDED.has(job.status)) jobFile(job).then(setFile)
  }, [job?.id, job?.status])

  if (error)
    return (
      <p role="alert" class="error">
        {error}
      </p>
    )
  if (!job) return <p>Loading…</p>

  async function act(action: () => Promise<unknown>) {
    try {
      await action()
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  const current = job
  return (
    <section aria-label={`Job ${job.id}`} class="job">
      <h2 class="file-name">{job.file.name}</h2>
      <dl class="facts">
        <dt>Job</dt>
        <dd>{job.id}</dd>
        <dt>Document</dt>
        <dd>
          {job.file.media_type}, {formatSize(Number(job.file.size))}
        </dd>
        <dt>Type</dt>
        <dd>{names.type(job.document_type)}</dd>
        <dt>Fields from</dt>
        <dd>{job.schema_id ? <a href={`#/schemas/${job.schema_id}`}>{names.schema(job.schema_id, job.schema_version)}</a> : 'the request'}</dd>
        <dt>Engine</dt>
        <dd>{job.engine}</dd>
      </dl>
      <Progress job={job} />
      <div class="row">
        {!ENDED.has(job.status) && (
          <button
            type="button"
            class="quiet danger"
            onClick={() =>
              act(async () => {
                setJob((await call(api.POST('/api/v1/jobs/{id}/cancel', { params: { path: { id: current.id } } }))).job)
                onChanged()
              })
            }
          >
            Cancel job
          </button>
        )}
        {file && (
          <button type="button" class="quiet" onClick={() => saveBlob(file, current.file.name)}>
            Download document
          </button>
        )}
        {ENDED.has(job.status) && (
          <button
            type="button"
            class="quiet danger"
            onClick={() =>
              confirm('Delete this job, its result and its document?') &&
              act(async () => {
                await call(api.DELETE('/api/v1/jobs/{id}', { params: { path: { id: current.id } } }))
                onChanged()
                navigate('jobs')
              })
            }
          >
            Delete job
          </button>
        )}
      </div>
      {ENDED.has(job.status) && <ResultView job={job} file={file} />}
    </section>
  )
}
