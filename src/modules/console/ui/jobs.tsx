/** The account's jobs, newest first, filtered by status; one job's result, its document, cancel and delete. */
import { useEffect, useState } from 'preact/hooks'
import { api, call, ENDED, type Job, jobFile, saveBlob } from './api.ts'
import { ResultView } from './result.tsx'
import { navigate } from './router.ts'
import { formatSize, Progress, useJobPolling } from './try.tsx'
import { Labeled } from './labeled.tsx'

const STATUSES = ['', 'queued', 'running', 'succeeded', 'failed', 'canceled'] as const
type StatusFilter = (typeof STATUSES)[number]

export function JobsScreen({ selected }: { selected: string | null }) {
  const [status, setStatus] = useState<StatusFilter>('')
  const [pages, setPages] = useState<Job[][]>([])
  const [hasMore, setHasMore] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function load(after?: string) {
    try {
      const query = { limit: '20', ...(status ? { status } : {}), ...(after ? { starting_after: after } : {}) }
      const data = await call(api.GET('/api/v1/jobs', { params: { query: query as never } }))
      setPages((earlier) => (after ? [...earlier, data.jobs] : [data.jobs]))
      setHasMore(data.has_more)
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  useEffect(() => {
    load()
  }, [status, selected])

  const jobs = pages.flat()
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
          <div class="row">
            <Labeled label="Status">
              {(id) => (
                <select id={id} value={status} onChange={(event) => setStatus(event.currentTarget.value as StatusFilter)}>
                  {STATUSES.map((value) => (
                    <option key={value} value={value}>
                      {value || 'any'}
                    </option>
                  ))}
                </select>
              )}
            </Labeled>
            <button type="button" class="quiet" onClick={() => load()}>
              Refresh
            </button>
          </div>
          {jobs.length === 0 ? (
            <p class="note">No jobs{status ? ` ${status}` : ''}.</p>
          ) : (
            <ul class="plain items">
              {jobs.map((job) => (
                <li key={job.id}>
                  <a href={`#/jobs/${job.id}`} aria-current={job.id === selected ? 'true' : undefined}>
                    <strong>{job.file.name}</strong>
                    <span class="note">
                      <span class={`status status-${job.status}`}>{job.status}</span> {job.document_type} · {new Date(job.created_at).toLocaleString()}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
          {hasMore && (
            <button type="button" class="quiet" onClick={() => load(jobs.at(-1)?.id)}>
              Load more
            </button>
          )}
        </section>
        {selected ? <JobView key={selected} id={selected} onChanged={() => load()} /> : <p class="note">Choose a job.</p>}
      </div>
    </>
  )
}

function JobView({ id, onChanged }: { id: string; onChanged: () => void }) {
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
      <h2>{job.file.name}</h2>
      <dl class="facts">
        <dt>Job</dt>
        <dd>{job.id}</dd>
        <dt>Document</dt>
        <dd>
          {job.file.media_type}, {formatSize(Number(job.file.size))}
        </dd>
        <dt>Type</dt>
        <dd>{job.document_type}</dd>
        <dt>Fields from</dt>
        <dd>{job.schema_id ? <a href={`#/schemas/${job.schema_id}`}>{`${job.schema_id} v${job.schema_version}`}</a> : 'the request'}</dd>
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
