/**
 * A job's result: its fields with their confidence beside the page they were read from, every
 * field's box drawn on it. Hovering or focusing a field lights its box and the other way round;
 * selecting one keeps it lit and turns to its page.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { Bbox, FieldMeta, Job, JobField } from './api.ts'
import { saveJson } from './api.ts'
import { DocumentView } from './document.tsx'

export function ResultView({ job, file }: { job: Job; file: File | null | undefined }) {
  const [hovered, setHovered] = useState<string | null>(null)
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
        <p class={job.status === 'failed' ? 'error' : ''}>
          {job.status === 'failed' ? `Failed: ${job.error?.message ?? 'unknown error'} (${job.error?.code})` : `The job is ${job.status}.`}
        </p>
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
                  active={active === field.key}
                  selected={selected === field.key}
                  onHover={setHovered}
                  onSelect={select}
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
      <PageView job={job} file={file} page={page} setPage={setPage} active={active} selected={selected} onHover={setHovered} onSelect={select} />
    </section>
  )
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
  active: boolean
  selected: boolean
  onHover: (key: string | null) => void
  onSelect: (key: string) => void
}

function FieldRow({ field, value, meta, active, selected, onHover, onSelect }: FieldRowProps) {
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
          <span class="type">{field.type}</span>
        </th>
        <td class="value">{rows ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}` : <Value field={field} value={value} />}</td>
        <td class="nowrap">
          <meter min={0} max={1} low={0.6} high={0.85} optimum={1} value={confidence} aria-label={`Confidence of ${field.label}`} />
          <span class="confidence">{Math.round(confidence * 100)} %</span>
        </td>
        <td>{meta?.page ?? '—'}</td>
      </tr>
      {rows && (
        <tr data-rows-of={field.key} class={active ? 'active' : ''} {...hover}>
          <td colSpan={4}>
            <RowsTable columns={field.columns} rows={rows} />
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

function RowsTable({ columns, rows }: { columns: JobField['columns']; rows: Record<string, unknown>[] }) {
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
            <tr key={index}>
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
}

/** The job's page with its boxes, or what tells why it cannot be shown (D144, D331). */
function PageView({ job, file, page, setPage, active, selected, onHover, onSelect }: PageViewProps) {
  if (file === undefined) return <p class="note page-view">Loading the document…</p>
  if (!file)
    return (
      <p class="note page-view">
        The server kept this document only while its job ran, so its page cannot be shown. To see past jobs' pages, start the server with{' '}
        <code>--keep-files 30d</code> (or any duration): documents are then kept that long after their job.
      </p>
    )
  const boxes = (onPage: number) =>
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
