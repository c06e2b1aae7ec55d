/**
 * A job's result: its fields with their confidence beside the page they were read from, every
 * field's box drawn on it. Hovering or focusing a field lights its box and the other way round;
 * selecting one keeps it lit and turns to its page.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { Bbox, FieldMeta, Job, JobField } from './api.ts'
import { api, call, saveJson } from './api.ts'
import { DocumentView } from './document.tsx'

/** `required`: the keys the fields' source marks required (D335), flagged when not found. */
export function ResultView({ job, file, required: given }: { job: Job; file: File | null | undefined; required?: ReadonlySet<string> }) {
  const required = useRequired(job, given)
  const [hovered, setHovered] = useState<string | null>(null)
  /** A table's row under the pointer or focus, in the table or on the page: `key:index` (D338). */
  const [row, setRow] = useState<string | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  const meta = job.fields_meta ?? {}
  const pages = useMemo(() => pagesOf(meta), [job])
  const [page, setPage] = useState(pages[0] ?? 1)
  const active = hovered ?? selected

  function select(key: string) {
    setSelected(key === selected ? null : key)
    const onPage = meta[key]?.page
    if (onPage != null) setPage(Number(onPage))
  }

  useEffect(() => setPage(pages[0] ?? 1), [job.id])

  if (job.status !== 'succeeded')
    return (
      <section aria-label="Result" class="result">
        <p class={job.status === 'failed' ? 'error' : ''}>{job.status === 'failed' ? failure(job) : `The job is ${job.status}.`}</p>
      </section>
    )

  return (
    <section aria-label="Result" class="result">
      <div class="result-fields">
        <div class="row spread">
          <h2>Fields</h2>
          <button type="button" class="quiet" onClick={() => saveJson({ job }, `${job.id}.json`)}>
            Download JSON
          </button>
        </div>
        <div class="scroll">
          <table class="fields">
            <caption class="hidden">Extracted fields, their confidence and page</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Value</th>
                <th scope="col">Confidence</th>
                <th scope="col">Page</th>
              </tr>
            </thead>
            <tbody>
              {job.fields.map((field) => (
                <FieldRow
                  key={field.key}
                  field={field}
                  value={job.result?.[field.key]}
                  meta={meta[field.key]}
                  required={required?.has(field.key) ?? false}
                  active={active === field.key}
                  selected={selected === field.key}
                  onHover={setHovered}
                  onSelect={select}
                  activeRow={row}
                  onRow={setRow}
                />
              ))}
            </tbody>
          </table>
        </div>
        <details>
          <summary>JSON</summary>
          <pre>{JSON.stringify({ result: job.result, fields_meta: job.fields_meta }, null, 2)}</pre>
        </details>
      </div>
      <PageView
        job={job}
        file={file}
        page={page}
        setPage={setPage}
        active={active}
        selected={selected}
        onHover={setHovered}
        onSelect={select}
        activeRow={row}
        onRow={setRow}
      />
    </section>
  )
}

type JobErrorCode = NonNullable<Job['error']>['code']

/** What to do after a failed job, for the codes whose message says only what went wrong (D336). */
const JOB_NEXT_STEP: Partial<Record<JobErrorCode, string>> = {
  corrupt_document: 'Check that the file opens on your computer, or save or export it again, and send the new file.',
  no_text_layer: 'Send it as a scan or photo, which is read by OCR, or a PDF with its text.',
  empty_document: 'Check that this is the right file; a scan or photo of the paper is read by OCR.',
  too_many_pages: 'Split the document, or ask the operator to raise the limit named.',
  image_too_large: 'Send a smaller image, or ask the operator to raise the limit named.',
  document_too_large: 'Split the document, or ask the operator to raise the limit named.',
  engine_timeout: 'Try again; the operator can give the model server more time (--llm-timeout-ms).',
  extraction_timeout: 'Try again; for long documents the operator can raise --job-timeout.',
  engine_unavailable: 'Try again shortly; if it goes on, the operator should check the model server (--llm-url).',
  engine_rejected: 'The operator should check the model server and its settings (--llm-url, --llm-model).',
  engine_refused: 'Try the built-in engine, or another document.',
  engine_invalid_answer: 'Try again; if it goes on, try the built-in engine.',
  extraction_failed: "Try again; if it fails again, the server's log says why.",
  file_missing: 'Send the document again.',
}

function failure(job: Job): string {
  const code = job.error?.code
  const next = code ? JOB_NEXT_STEP[code] : undefined
  return `Failed: ${job.error?.message ?? 'the server gave no reason'}${next ? ` ${next}` : ''} (${code ?? 'no code'})`
}

/** The keys required by the schema version a job used, read from the API; else what the caller knows (the try screen, of a catalog type). */
function useRequired(job: Job, given: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  const [fromSchema, setFromSchema] = useState<ReadonlySet<string> | undefined>(undefined)
  const { schema_id: id, schema_version: version } = job
  useEffect(() => {
    setFromSchema(undefined)
    if (!id || !version) return
    call(api.GET('/api/v1/schemas/{id}/versions/{version}', { params: { path: { id, version: String(version) } } })).then(
      (data) => setFromSchema(new Set(data.version.fields.filter((field) => field.required).map((field) => field.key))),
      // A schema no longer readable leaves the fields unmarked: the job stands alone (D20).
      () => {},
    )
  }, [id, version])
  return fromSchema ?? given
}

function pagesOf(meta: Record<string, FieldMeta>): number[] {
  const pages = new Set<number>()
  for (const entry of Object.values(meta)) if (entry.page != null) pages.add(Number(entry.page))
  return [...pages].sort((a, b) => a - b)
}

interface FieldRowProps {
  field: JobField
  value: unknown
  meta: FieldMeta | undefined
  required: boolean
  active: boolean
  selected: boolean
  onHover: (key: string | null) => void
  onSelect: (key: string) => void
  activeRow: string | null
  onRow: (row: string | null) => void
}

function FieldRow({ field, value, meta, required, active, selected, onHover, onSelect, activeRow, onRow }: FieldRowProps) {
  const row = useRef<HTMLTableRowElement>(null)
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: 'nearest' })
  }, [selected])
  const confidence = meta?.confidence ?? 0
  const hover = { onMouseEnter: () => onHover(field.key), onMouseLeave: () => onHover(null) }
  // A table's rows take the whole width, on a line of their own below its name.
  const rows = field.type === 'table' && Array.isArray(value) && value.length > 0 ? (value as Record<string, unknown>[]) : null
  return (
    <>
      <tr ref={row} data-key={field.key} class={active ? 'active' : ''} {...hover}>
        <th scope="row">
          <button
            type="button"
            class="link"
            aria-pressed={selected}
            onClick={() => onSelect(field.key)}
            onFocus={() => onHover(field.key)}
            onBlur={() => onHover(null)}
          >
            {field.label}
          </button>
          <span class="type">
            {field.type}
            {required && ', required'}
          </span>
        </th>
        <td class="value">
          {rows ? (
            `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`
          ) : required && (value === null || value === undefined) ? (
            <span class="missing required-missing">required, not found</span>
          ) : (
            <Value field={field} value={value} />
          )}
        </td>
        <td class="nowrap">
          <meter min={0} max={1} low={0.6} high={0.85} optimum={1} value={confidence} aria-label={`Confidence of ${field.label}`} />
          <span class="confidence">{Math.round(confidence * 100)} %</span>
        </td>
        <td>{meta?.page ?? '—'}</td>
      </tr>
      {rows && (
        <tr data-rows-of={field.key} class={active ? 'active' : ''} {...hover}>
          <td colSpan={4}>
            <RowsTable columns={field.columns} rows={rows} rowKey={field.key} activeRow={activeRow} onRow={onRow} />
          </td>
        </tr>
      )}
    </>
  )
}

export function Value({ field, value }: { field: Pick<JobField, 'type' | 'columns'>; value: unknown }) {
  if (value === null || value === undefined) return <span class="missing">not found</span>
  if (field.type === 'table' && Array.isArray(value)) return <RowsTable columns={field.columns} rows={value as Record<string, unknown>[]} />
  if (Array.isArray(value))
    return (
      <ul class="plain">
        {value.map((item, index) => (
          <li key={index}>{String(item)}</li>
        ))}
      </ul>
    )
  if (typeof value === 'boolean') return <span>{value ? 'yes' : 'no'}</span>
  if (typeof value === 'object') return <code>{JSON.stringify(value)}</code>
  return <span>{String(value)}</span>
}

interface RowsTableProps {
  columns: JobField['columns']
  rows: Record<string, unknown>[]
  /** The table field's key, when its rows are linked to their boxes on the page. */
  rowKey?: string
  activeRow?: string | null
  onRow?: (row: string | null) => void
}

function RowsTable({ columns, rows, rowKey, activeRow, onRow }: RowsTableProps) {
  const keys = columns?.map((column) => column.key) ?? [...new Set(rows.flatMap((row) => Object.keys(row ?? {})))]
  const labels = new Map(columns?.map((column) => [column.key, column.label]) ?? [])
  if (rows.length === 0) return <span class="missing">no rows</span>
  return (
    <div class="scroll">
      <table class="rows">
        <thead>
          <tr>
            {keys.map((key) => (
              <th scope="col" key={key}>
                {labels.get(key) ?? key}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr
              key={index}
              data-row={rowKey === undefined ? undefined : index}
              class={rowKey !== undefined && activeRow === `${rowKey}:${index}` ? 'active' : undefined}
              onMouseEnter={rowKey === undefined ? undefined : () => onRow?.(`${rowKey}:${index}`)}
              onMouseLeave={rowKey === undefined ? undefined : () => onRow?.(null)}
            >
              {keys.map((key) => (
                <td key={key}>{row?.[key] == null ? '' : String(row[key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

interface PageViewProps {
  job: Job
  file: File | null | undefined
  page: number
  setPage: (page: number) => void
  active: string | null
  selected: string | null
  onHover: (key: string | null) => void
  onSelect: (key: string) => void
  activeRow: string | null
  onRow: (row: string | null) => void
}

/** The job's page with its boxes, or what tells why it cannot be shown (D144, D331). */
function PageView({ job, file, page, setPage, active, selected, onHover, onSelect, activeRow, onRow }: PageViewProps) {
  if (file === undefined) return <p class="note page-view">Loading the document…</p>
  if (!file)
    return (
      <p class="note page-view">
        The server kept this document only while its job ran, so its page cannot be shown. To see past jobs' pages, start the server with{' '}
        <code>--keep-files 30d</code> (or any duration): documents are then kept that long after their job.
      </p>
    )
  const boxes = (onPage: number) => [...fieldBoxes(onPage), ...rowBoxes(onPage)]
  // Each printed row of a table, and its cells where they were found (D338).
  const rowBoxes = (onPage: number) =>
    job.fields.flatMap((field) =>
      (job.fields_meta?.[field.key]?.rows ?? []).flatMap((place, index) => {
        if (!place || place.page !== onPage) return []
        const id = `${field.key}:${index}`
        return [
          <button
            type="button"
            key={id}
            class={`box row-box${(activeRow ? activeRow === id : active === field.key) ? ' active' : ''}`}
            data-table={field.key}
            data-row={index}
            aria-label={`${field.label}, row ${index + 1}, on page ${onPage}`}
            ref={(element) => {
              if (element) placeBox(element, place.bbox)
            }}
            onMouseEnter={() => onRow(id)}
            onMouseLeave={() => onRow(null)}
            onFocus={() => onRow(id)}
            onBlur={() => onRow(null)}
            onClick={() => onSelect(field.key)}
          />,
          ...Object.entries(place.cells).flatMap(([column, cell]) =>
            cell
              ? [
                  <span
                    key={`${id}:${column}`}
                    class="cell-box"
                    data-table={field.key}
                    data-row={index}
                    data-column={column}
                    ref={(element) => {
                      if (element) placeBox(element, cell)
                    }}
                  />,
                ]
              : [],
          ),
        ]
      }),
    )
  const fieldBoxes = (onPage: number) =>
    job.fields
      .map((field) => ({ field, meta: job.fields_meta?.[field.key] }))
      .filter((entry): entry is { field: JobField; meta: FieldMeta & { bbox: Bbox } } => entry.meta?.bbox != null && Number(entry.meta.page) === onPage)
      .map(({ field, meta }) => (
        <button
          type="button"
          key={field.key}
          class={`box${active === field.key ? ' active' : ''}`}
          data-key={field.key}
          aria-label={`${field.label} on page ${onPage}`}
          aria-pressed={selected === field.key}
          title={field.label}
          ref={(element) => {
            if (element) placeBox(element, meta.bbox)
          }}
          onMouseEnter={() => onHover(field.key)}
          onMouseLeave={() => onHover(null)}
          onFocus={() => onHover(field.key)}
          onBlur={() => onHover(null)}
          onClick={() => onSelect(field.key)}
        />
      ))
  return <DocumentView file={file} mediaType={job.file.media_type} page={page} setPage={setPage} overlay={boxes} />
}

/** Fractions of the page, as the API gives them, become percentages of the drawn page (set through the DOM: the CSP has no inline styles). */
function placeBox(element: HTMLElement, bbox: Bbox) {
  element.style.left = `${bbox.left * 100}%`
  element.style.top = `${bbox.top * 100}%`
  element.style.width = `${bbox.width * 100}%`
  element.style.height = `${bbox.height * 100}%`
}
