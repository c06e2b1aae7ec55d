/**
 * The account's jobs, those that need review first, then newest first (D345): found by file name
 * and filtered by status, document type, schema and date (D332); one job's result, its review,
 * its document, cancel and delete.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { api, call, type DocumentType, ENDED, type Job, jobFile, type Schema, saveBlob, saveJson, saveText, useSchemasAndTypes } from './api.ts'
import { jobsCsv, tableRowsCsv } from './export.ts'
import { ResultView } from './result.tsx'
import { navigate } from './router.ts'
import { formatSize, Progress, useJobPolling } from './try.tsx'
import { Labeled } from './labeled.tsx'
import { TypeSelect } from './type-select.tsx'

const STATUSES = ['', 'queued', 'running', 'succeeded', 'failed', 'canceled'] as const
type StatusFilter = (typeof STATUSES)[number]
/** The jobs that need review first (the default), only them, or all newest first (D345). */
const REVIEW_ORDERS = [
  ['first', 'needs review first'],
  ['only', 'needs review only'],
  ['any', 'newest first'],
] as const
type ReviewOrder = (typeof REVIEW_ORDERS)[number][0]

/** The API's largest page: a search over file names, types or dates reads this many jobs a call. */
const PAGE = 100
/** A search reads at most this many jobs before it asks to go on: the newest 1,000. */
const SEARCH_BUDGET = 1000
/** Jobs listed before "Load more" when nothing is searched. */
const SHOWN = 20

interface Filters {
  review: ReviewOrder
  status: StatusFilter
  schema: string
  type: string
  name: string
  /** `YYYY-MM-DD`, inclusive, in this browser's time zone. */
  from: string
  to: string
}

const NO_FILTERS: Filters = { review: 'first', status: '', schema: '', type: '', name: '', from: '', to: '' }

/** Where the list goes on from: in the jobs that need review, or in all of them (D345); after a job, or from the newest. */
interface Position {
  review: boolean
  after: string | null
}

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
  const { schemas, types } = useSchemasAndTypes()
  /** Schemas not in the list (deleted ones stay readable by ID, D11), fetched once each. */
  const [others, setOthers] = useState<Record<string, string>>({})
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
  /** Where to go on from; null when there are no more. */
  const [cursor, setCursor] = useState<Position | null>(null)
  const [read, setRead] = useState(0)
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const names = useNames()
  const searching = Boolean(filters.type || filters.name.trim() || filters.from || filters.to)
  const filtered = (Object.keys(NO_FILTERS) as (keyof Filters)[]).some((key) => filters[key] !== NO_FILTERS[key])
  /** The latest reading of the list: an earlier one that answers later (a slower search) is dropped, not shown over it (D374). */
  const latest = useRef(0)

  /** Reads pages until enough jobs match (or the budget is spent), from `from` or from the start: those that need review, then the rest (D345). */
  async function load(from: Position | null, kept: Job[], scanned: number) {
    const reading = ++latest.current
    setLoading(true)
    try {
      let found = kept
      let position: Position | null = from ?? { review: filters.review !== 'any', after: null }
      let seen = scanned
      // Past the jobs that need review, the rest; a job that needs review is not listed twice.
      const rest = (at: Position | null): Position | null => (at?.review && filters.review === 'first' ? { review: false, after: null } : null)
      do {
        const at: Position = position
        const query = {
          limit: String(searching ? PAGE : SHOWN),
          ...(filters.status ? { status: filters.status } : {}),
          ...(filters.schema ? { schema_id: filters.schema } : {}),
          ...(at.review ? { needs_review: 'true' } : {}),
          ...(at.after ? { starting_after: at.after } : {}),
        }
        const data = await call(api.GET('/api/v1/jobs', { params: { query } }))
        if (reading !== latest.current) return
        seen += data.jobs.length
        const fresh = at.review || filters.review !== 'first' ? data.jobs : data.jobs.filter((job) => job.needs_review !== true)
        found = [...found, ...fresh.filter((job) => matches(job, filters))]
        const oldest = data.jobs.at(-1)
        position = data.has_more && oldest ? { review: at.review, after: oldest.id } : rest(at)
        // Newest first: past the first day asked for, nothing older can match.
        if (filters.from && oldest && new Date(oldest.created_at) < startOfDay(filters.from)) position = rest(position)
      } while (position && found.length - kept.length < SHOWN && seen - scanned < SEARCH_BUDGET)
      setJobs(found)
      setCursor(position)
      setRead(seen)
      setError(null)
    } catch (failure) {
      if (reading === latest.current) setError((failure as Error).message)
    } finally {
      if (reading === latest.current) setLoading(false)
    }
  }
  /** The next job that needs review (of the schema filtered on), after confirming one (D343). */
  async function nextToReview() {
    try {
      const query = { needs_review: 'true', limit: '2', ...(filters.schema ? { schema_id: filters.schema } : {}) }
      const next = (await call(api.GET('/api/v1/jobs', { params: { query } }))).jobs.find((job) => job.id !== selected)
      setNotice(next ? null : 'No other job needs review.')
      if (next) navigate('jobs', next.id)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  useEffect(() => {
    const timer = setTimeout(() => load(null, [], 0), filters.name ? 250 : 0)
    return () => clearTimeout(timer)
  }, [filters])

  const set = (change: Partial<Filters>) => setFilters({ ...filters, ...change })
  return (
    <>
      <h1 tabIndex={-1}>Jobs</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {notice && <p class="notice">{notice}</p>}
      <div class="split">
        <section aria-label="Job list" class="list">
          <search class="filters">
            <Labeled label="Order">
              {(id) => (
                <select id={id} value={filters.review} onChange={(event) => set({ review: event.currentTarget.value as ReviewOrder })}>
                  {REVIEW_ORDERS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Labeled>
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
            <button type="button" class="quiet" disabled={!filtered} onClick={() => setFilters(NO_FILTERS)}>
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
              : `${jobs.length} ${jobs.length === 1 ? 'job' : 'jobs'}${searching ? ` found among ${read} read` : ''}${cursor ? ', more to load' : ''}`}
          </p>
          {jobs.length > 0 && (
            <ul class="plain items">
              {jobs.map((job) => (
                <li key={job.id}>
                  <a href={`#/jobs/${job.id}`} aria-current={job.id === selected ? 'true' : undefined}>
                    <strong class="file-name">{job.file.name}</strong>
                    <span class="note">
                      <span class={`status status-${job.status}`}>{job.status}</span>
                      {job.reviewed_at ? <span class="mark reviewed">reviewed</span> : job.needs_review && <span class="mark check">needs review</span>}{' '}
                      {names.type(job.document_type)}
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
        {selected ? (
          <JobView key={selected} id={selected} names={names} onChanged={() => load(null, [], 0)} onNext={nextToReview} />
        ) : (
          <p class="note">Choose a job.</p>
        )}
      </div>
    </>
  )
}

function JobView({ id, names, onChanged, onNext }: { id: string; names: Names; onChanged: () => void; onNext: () => void }) {
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
      {ENDED.has(job.status) && (
        <ResultView
          job={job}
          file={file}
          reviewing={{
            onReviewed: (reviewed) => {
              setJob(reviewed)
              onChanged()
            },
            onNext,
          }}
        />
      )}
    </section>
  )
}
