/**
 * A job's result: its fields with their confidence beside the page they were read from, every
 * field's box drawn on it. Hovering or focusing a field lights its box and the other way round;
 * selecting one keeps it lit and turns to its page. On the jobs screen a value is corrected in
 * place or from a box drawn on the page, and the review confirmed (review.tsx, D341–D344).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { Bbox, FieldMeta, Job, JobField } from './api.ts'
import { api, call, saveJson } from './api.ts'
import { DocumentView, placeBox, shownAs } from './document.tsx'
import { DrawLayer, type Review, ReviewBar, targetId, useReview, ValueEditor } from './review.tsx'

/** What a result needs to be reviewed (the jobs screen's): told when the review is confirmed, and how to go to the next job to review. */
export interface Reviewing {
  onReviewed: (job: Job) => void
  onNext: () => void
}

/** `required`: the keys the fields' source marks required (D335), flagged when not found. `reviewing`: the values can be corrected (D341). */
export function ResultView({
  job,
  file,
  required: given,
  reviewing,
}: {
  job: Job
  file: File | null | undefined
  required?: ReadonlySet<string>
  reviewing?: Reviewing
}) {
  const required = useRequired(job, given)
  const [hovered, setHovered] = useState<string | null>(null)
  /** A table's row under the pointer or focus, in the table or on the page: `key:index` (D338). */
  const [row, setRow] = useState<string | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  /** The field chosen last, before the render that shows it: keys pressed quickly move from there. */
  const chosen = useRef(selected)
  chosen.current = selected
  const meta = job.fields_meta ?? {}
  const pages = useMemo(() => pagesOf(meta), [job])
  const [page, setPage] = useState(pages[0] ?? 1)
  const active = hovered ?? selected
  const review = useReview(job, selected, reviewing?.onReviewed ?? (() => {}))
  const canReview = reviewing !== undefined && job.status === 'succeeded'
  const shown = file ? shownAs(job.file.media_type, file.name) : 'none'
  const canDraw = canReview && (shown === 'pdf' || shown === 'image')
  /** The field whose value button takes the focus once it is drawn again (D343: Escape goes back to it). */
  const [focusing, setFocusing] = useState<string | null>(null)

  function select(key: string) {
    chosen.current = key === selected ? null : key
    setSelected(chosen.current)
    const onPage = meta[key]?.page
    if (onPage != null) setPage(Number(onPage))
  }
  /** Chooses a field without toggling it: the one a box is drawn for, on its page. */
  function choose(key: string) {
    if (key === chosen.current) return
    chosen.current = key
    setSelected(key)
    const onPage = meta[key]?.page
    if (onPage != null) setPage(Number(onPage))
  }
  /** The field after (or before) the key, chosen and focused. */
  function move(from: string | null, step: 1 | -1) {
    const keys = job.fields.map((field) => field.key)
    const at = from === null ? (step === 1 ? -1 : keys.length) : keys.indexOf(from)
    const next = keys[Math.min(keys.length - 1, Math.max(0, at + step))]
    if (next === undefined) return
    choose(next)
    valueButton(next)?.focus()
  }
  /** Edits a field: a table from its first cell. */
  function edit(key: string) {
    const field = job.fields.find((entry) => entry.key === key)
    if (!field) return
    choose(key)
    if (field.type !== 'table') return review.setEditing({ key })
    // A table without columns takes any cells: it is not edited cell by cell (D342).
    if (!field.columns?.length) return
    if (((review.shownValue(key) as unknown[] | null) ?? []).length === 0) return review.addRow(field)
    review.setEditing({ key, row: 0, column: field.columns?.[0]?.key })
  }

  useEffect(() => setPage(pages[0] ?? 1), [job.id])
  useLayoutEffect(() => {
    if (!focusing) return
    valueButton(focusing)?.focus()
    setFocusing(null)
  }, [focusing])
  // The review's keys (D343), on the whole page while the job is shown; an editor's own keys stay its own.
  useEffect(() => {
    if (!canReview) return
    const onKey = (event: KeyboardEvent) => {
      const into = event.target as HTMLElement
      if (into.closest('input, select, textarea')) return
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault()
        if (!review.busy) review.confirm()
        return
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return
      const inResult = into === document.body || into.closest('.result') !== null
      const key = event.key.toLowerCase()
      if (key === 'j' || (inResult && event.key === 'ArrowDown')) move(chosen.current, 1)
      else if (key === 'k' || (inResult && event.key === 'ArrowUp')) move(chosen.current, -1)
      else if (key === 'e') edit(chosen.current ?? job.fields[0]?.key ?? '')
      else if (key === 'b' && canDraw && review.target) review.setDrawing(!review.drawing)
      else if (key === 'n') reviewing.onNext()
      else if (event.key === 'Escape' && review.drawing) review.setDrawing(false)
      else return
      event.preventDefault()
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  })

  if (job.status !== 'succeeded')
    return (
      <section aria-label="Result" class="result">
        <p class={job.status === 'failed' ? 'error' : ''}>{job.status === 'failed' ? failure(job) : `The job is ${job.status}.`}</p>
      </section>
    )

  /** After a field's value is saved: the next field; after Escape, the same one again (D343). */
  const onSaved = (key: string) => move(key, 1)
  const onCanceled = (key: string) => {
    review.setEditing(null)
    setFocusing(key)
  }
  return (
    <section aria-label="Result" class="result">
      <div class="result-fields">
        <div class="row spread">
          <h2>Fields</h2>
          <button type="button" class="quiet" onClick={() => saveJson({ job }, `${job.id}.json`)}>
            Download JSON
          </button>
        </div>
        {canReview && <ReviewBar job={job} review={review} canDraw={canDraw} onNext={reviewing.onNext} />}
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
                  value={canReview ? review.shownValue(field.key) : job.result?.[field.key]}
                  meta={meta[field.key]}
                  required={required?.has(field.key) ?? false}
                  active={active === field.key}
                  selected={selected === field.key}
                  onHover={setHovered}
                  onSelect={select}
                  activeRow={row}
                  onRow={setRow}
                  review={canReview ? { review, edit, choose, onSaved, onCanceled } : undefined}
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
        drawing={canDraw && review.drawing ? review : null}
      />
    </section>
  )
}

const valueButton = (key: string) => document.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(key)}"] .value-button`)

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
  /** While the job can be reviewed: its values are buttons that open their editor. */
  review?: FieldReview
}

interface FieldReview {
  review: Review
  edit: (key: string) => void
  choose: (key: string) => void
  onSaved: (key: string) => void
  onCanceled: (key: string) => void
}

function FieldRow({ field, value, meta, required, active, selected, onHover, onSelect, activeRow, onRow, review }: FieldRowProps) {
  const row = useRef<HTMLTableRowElement>(null)
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: 'nearest' })
  }, [selected])
  const confidence = meta?.confidence ?? 0
  const hover = { onMouseEnter: () => onHover(field.key), onMouseLeave: () => onHover(null) }
  // A table's rows take the whole width, on a line of their own below its name; in a review, also when it has none yet.
  const rows = field.type === 'table' && Array.isArray(value) && value.length > 0 ? (value as Record<string, unknown>[]) : null
  const tableRows = field.type === 'table' && (rows || (review && field.columns?.length))
  const shown = rows ? (
    `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`
  ) : required && (value === null || value === undefined) ? (
    <span class="missing required-missing">required, not found</span>
  ) : (
    <Value field={field} value={value} />
  )
  const editing = review?.review.editing === field.key
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
          {editing && review ? (
            <ValueEditor
              typed={field}
              label={field.label}
              value={value}
              onSave={(next) => {
                review.review.save({ key: field.key }, next)
                review.onSaved(field.key)
              }}
              onConfirm={(next) => review.review.confirm({ target: { key: field.key }, value: next })}
              onCancel={() => review.onCanceled(field.key)}
            />
          ) : review ? (
            <button
              type="button"
              class="value-button"
              aria-label={`Correct ${field.label}`}
              onClick={() => review.edit(field.key)}
              onFocus={() => review.choose(field.key)}
            >
              {shown}
            </button>
          ) : (
            shown
          )}
        </td>
        <td class="nowrap">
          <meter min={0} max={1} low={0.6} high={0.85} optimum={1} value={confidence} aria-label={`Confidence of ${field.label}`} />
          <span class="confidence">{Math.round(confidence * 100)} %</span>
          <Marks meta={meta} edited={review ? Object.hasOwn(review.review.edits, field.key) : false} />
        </td>
        <td>{meta?.page ?? '—'}</td>
      </tr>
      {tableRows && (
        <tr data-rows-of={field.key} class={active ? 'active' : ''} {...hover}>
          <td colSpan={4}>
            <RowsTable
              columns={field.columns}
              rows={rows ?? []}
              rowKey={field.key}
              activeRow={activeRow}
              onRow={onRow}
              review={review && field.columns?.length ? { ...review, field } : undefined}
            />
          </td>
        </tr>
      )}
    </>
  )
}

/** What a person did or should do with a value: not yet confirmed, corrected in a review (with what was read), or below the review threshold. */
function Marks({ meta, edited }: { meta: FieldMeta | undefined; edited: boolean }) {
  if (edited) return <span class="mark edited">edited</span>
  if (meta?.corrected)
    return (
      <span class="mark corrected" title={`Read as: ${meta.read_value == null ? 'not found' : JSON.stringify(meta.read_value)}`}>
        corrected
      </span>
    )
  if (meta?.needs_review) return <span class="mark check">check</span>
  return null
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
  /** While the job can be reviewed: cells are corrected in place, rows added and removed (D342). */
  review?: FieldReview & { field: JobField }
}

function RowsTable({ columns, rows, rowKey, activeRow, onRow, review }: RowsTableProps) {
  const keys = columns?.map((column) => column.key) ?? [...new Set(rows.flatMap((row) => Object.keys(row ?? {})))]
  const labels = new Map(columns?.map((column) => [column.key, column.label]) ?? [])
  if (rows.length === 0 && !review) return <span class="missing">no rows</span>
  /** The cell after a saved one, row by row; after the last, the next field. */
  const next = (key: string, index: number, column: string) => {
    const at = keys.indexOf(column)
    if (at + 1 < keys.length) return review?.review.setEditing({ key, row: index, column: keys[at + 1] })
    if (index + 1 < rows.length) return review?.review.setEditing({ key, row: index + 1, column: keys[0] })
    review?.onSaved(key)
  }
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
            {review && (
              <th scope="col">
                <span class="hidden">Row</span>
              </th>
            )}
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
              {keys.map((key) => {
                const text = row?.[key] == null ? '' : String(row[key])
                if (!review) return <td key={key}>{text}</td>
                const { field } = review
                const target = { key: field.key, row: index, column: key }
                const column = columns?.find((entry) => entry.key === key)
                const label = `${field.label}, row ${index + 1}, ${labels.get(key) ?? key}`
                return (
                  <td key={key} data-column={key}>
                    {review.review.editing === targetId(target) && column ? (
                      <ValueEditor
                        typed={column}
                        label={label}
                        value={row?.[key] ?? null}
                        onSave={(value) => {
                          review.review.save(target, value)
                          next(field.key, index, key)
                        }}
                        onConfirm={(value) => {
                          review.review.save(target, value)
                          review.review.confirm({ target, value })
                        }}
                        onCancel={() => review.onCanceled(field.key)}
                      />
                    ) : (
                      <button
                        type="button"
                        class="value-button cell"
                        aria-label={`Correct ${label}`}
                        disabled={!column}
                        onClick={() => review.review.setEditing(target)}
                      >
                        {text || <span class="missing">—</span>}
                      </button>
                    )}
                  </td>
                )
              })}
              {review && (
                <td>
                  <button
                    type="button"
                    class="quiet danger"
                    aria-label={`Remove row ${index + 1} of ${review.field.label}`}
                    onClick={() => review.review.removeRow(review.field.key, index)}
                  >
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {review && (
        <button type="button" class="quiet" onClick={() => review.review.addRow(review.field)}>
          Add a row to {review.field.label}
        </button>
      )}
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
  /** The review a box drawn on the page is read into, while drawing. */
  drawing: Review | null
}

/** The job's page with its boxes, or what tells why it cannot be shown (D144, D331). */
function PageView({ job, file, page, setPage, active, selected, onHover, onSelect, activeRow, onRow, drawing }: PageViewProps) {
  if (file === undefined) return <p class="note page-view">Loading the document…</p>
  if (!file)
    return (
      <p class="note page-view">
        The server kept this document only while its job ran, so its page cannot be shown. To see past jobs' pages, start the server with{' '}
        <code>--keep-files 30d</code> (or any duration): documents are then kept that long after their job.
      </p>
    )
  const boxes = (onPage: number) => [
    ...fieldBoxes(onPage),
    ...rowBoxes(onPage),
    drawing && <DrawLayer key="draw" label={`Draw a box around the value on page ${onPage}`} onBox={(box) => drawing.readBox(onPage, box)} />,
  ]
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
