/**
 * Reviewing a succeeded job (issue 32, D341–D344): a value is corrected in place, typed by its
 * field, or read from a box drawn on the page (POST /jobs/{id}/region); a table's cells are
 * corrected and rows added or removed; one Confirm sends the corrections and confirms the rest
 * (POST /jobs/{id}/review). Kept in the browser until confirmed; made to be done by keyboard.
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import type { Bbox, Column, Job, JobField } from './api.ts'
import { api, call } from './api.ts'
import { placeBox } from './document.tsx'

/** A field or a table's column: what an editor types its value by. */
type Typed = Pick<JobField, 'type' | 'values'> | Pick<Column, 'type' | 'values'>
type Row = Record<string, unknown>

/** What is being corrected: a field, or one cell of a table field. */
export interface Target {
  key: string
  row?: number
  column?: string
}

export const targetId = ({ key, row, column }: Target) => (row === undefined ? key : `${key}:${row}:${column}`)

/** The shortcuts, as shown under the fields and in docs/decisions.md D343. */
export const SHORTCUTS: [string, string][] = [
  ['↑ ↓', 'field'],
  ['Enter', 'edit, save and go on'],
  ['Esc', 'cancel'],
  ['B', 'draw a box'],
  ['Ctrl+Enter', 'confirm'],
  ['N', 'next to review'],
]

export interface Review {
  /** The corrections not yet confirmed: key → the field's new value (a table's whole rows). */
  edits: Record<string, unknown>
  /** The value shown for a key: its correction, else the job's. */
  shownValue: (key: string) => unknown
  editing: string | null
  setEditing: (target: Target | null) => void
  /** Saves a field's or a cell's value, locally. */
  save: (target: Target, value: unknown) => void
  addRow: (field: JobField) => void
  removeRow: (key: string, row: number) => void
  drawing: boolean
  setDrawing: (drawing: boolean) => void
  /** Reads the words under a box drawn on the page into the field or cell being corrected. */
  readBox: (page: number, box: Bbox) => Promise<void>
  /** The field or cell a box drawn now is read into. */
  target: Target | null
  /** Confirms the review: the corrections, and with `edit` one more not yet saved (an editor's Ctrl+Enter does not wait for its save to be kept). */
  confirm: (edit?: { target: Target; value: unknown }) => Promise<void>
  busy: boolean
  message: { text: string; error: boolean } | null
}

/** The review of one job; `selected` is the field chosen in the result, the target of a box when no cell is being edited. */
export function useReview(job: Job, selected: string | null, onReviewed: (job: Job) => void): Review {
  const [edits, setEdits] = useState<Record<string, unknown>>({})
  const [editing, setEditingTarget] = useState<Target | null>(null)
  const [drawing, setDrawing] = useState(false)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<Review['message']>(null)
  const shownValue = (key: string) => (Object.hasOwn(edits, key) ? edits[key] : (job.result?.[key] ?? null))
  const fieldOf = (key: string) => job.fields.find((field) => field.key === key)

  function withValue(current: Record<string, unknown>, { key, row, column }: Target, value: unknown) {
    if (row === undefined || column === undefined) return { ...current, [key]: value }
    const rows = [...((Object.hasOwn(current, key) ? current[key] : job.result?.[key]) as Row[] | null)!]
    rows[row] = { ...rows[row], [column]: value }
    return { ...current, [key]: rows }
  }

  const target: Target | null = editing?.column !== undefined ? editing : selected && fieldOf(selected)?.type !== 'table' ? { key: selected } : null

  return {
    edits,
    shownValue,
    editing: editing && targetId(editing),
    setEditing: setEditingTarget,
    save(target, value) {
      setEdits((current) => withValue(current, target, value))
      setEditingTarget(null)
    },
    addRow(field) {
      const rows = (shownValue(field.key) as Row[] | null) ?? []
      const empty = Object.fromEntries((field.columns ?? []).map((column) => [column.key, null]))
      setEdits((current) => ({ ...current, [field.key]: [...rows, empty] }))
      setEditingTarget({ key: field.key, row: rows.length, column: field.columns?.[0]?.key })
    },
    removeRow(key, row) {
      const rows = (shownValue(key) as Row[]).filter((_, index) => index !== row)
      setEdits((current) => ({ ...current, [key]: rows.length ? rows : null }))
      setEditingTarget(null)
    },
    drawing,
    setDrawing,
    target,
    async readBox(page, box) {
      setDrawing(false)
      if (!target) return
      try {
        const { region } = await call(
          api.POST('/api/v1/jobs/{id}/region', { params: { path: { id: job.id } }, body: { key: target.key, column: target.column, page, box } }),
        )
        if (!region.text) setMessage({ text: 'No words under the box: draw it around the value.', error: true })
        else if (region.value === null) setMessage({ text: `“${region.text}” holds no ${typeName(target)}: draw again, or type the value.`, error: true })
        else {
          setEdits((current) => withValue(current, target, region.value))
          setEditingTarget(null)
          setMessage({ text: `Read “${region.text}” as ${shown(region.value)}.`, error: false })
        }
      } catch (failure) {
        setMessage({ text: (failure as Error).message, error: true })
      }
    },
    async confirm(edit) {
      setBusy(true)
      try {
        // A second review starts again from what the engine read (D271): the values an earlier review corrected are sent again, as shown (D344).
        const corrected = job.fields.filter((field) => job.fields_meta?.[field.key]?.corrected).map((field) => [field.key, job.result?.[field.key] ?? null])
        const fields = { ...Object.fromEntries(corrected), ...(edit ? withValue(edits, edit.target, edit.value) : edits) }
        const { job: reviewed } = await call(api.POST('/api/v1/jobs/{id}/review', { params: { path: { id: job.id } }, body: { fields } }))
        setEdits({})
        setEditingTarget(null)
        const count = Object.values(reviewed.fields_meta ?? {}).filter((meta) => meta.corrected).length
        setMessage({ text: `Reviewed: ${count} corrected, the rest confirmed as read.`, error: false })
        onReviewed(reviewed)
      } catch (failure) {
        setMessage({ text: (failure as Error).message, error: true })
      } finally {
        setBusy(false)
      }
    },
    busy,
    message,
  }

  function typeName({ key, column }: Target) {
    const field = fieldOf(key)
    return (column ? field?.columns?.find((entry) => entry.key === column)?.type : field?.type) ?? 'value'
  }
}

function shown(value: unknown): string {
  return Array.isArray(value) ? value.join('; ') : String(value)
}

/** A value as an editor's input holds it. */
function toInput(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.join('; ')
  return String(value)
}

/** An input's text as the value the review sends, typed as the API takes it (D276); empty is null. */
function fromInput(typed: Typed, text: string): unknown {
  const trimmed = text.trim()
  if (trimmed === '') return null
  switch (typed.type) {
    case 'number':
    case 'amount':
      return Number(trimmed)
    case 'boolean':
      return trimmed === 'true'
    case 'currency':
      return trimmed.toUpperCase()
    case 'list':
      return trimmed
        .split(';')
        .map((item) => item.trim())
        .filter(Boolean)
    default:
      return trimmed
  }
}

interface EditorProps {
  typed: Typed
  label: string
  value: unknown
  onSave: (value: unknown) => void
  /** Ctrl+Enter: save, then confirm the review with it. */
  onConfirm: (value: unknown) => void
  onCancel: () => void
}

/** An inline editor typed by the field: Enter saves, Escape cancels, empty is "not found". */
export function ValueEditor({ typed, label, value, onSave, onConfirm, onCancel }: EditorProps) {
  const [text, setText] = useState(toInput(value))
  const input = useRef<HTMLInputElement & HTMLSelectElement>(null)
  useEffect(() => {
    input.current?.focus()
    input.current?.select?.()
  }, [])
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      event.stopPropagation()
      const typedValue = fromInput(typed, (event.currentTarget as HTMLInputElement).value)
      if (event.ctrlKey || event.metaKey) onConfirm(typedValue)
      else onSave(typedValue)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onCancel()
    }
  }
  const common = {
    ref: input,
    'aria-label': `New value of ${label}`,
    class: 'editor',
    value: text,
    onKeyDown: keys,
    onInput: (event: Event) => setText((event.currentTarget as HTMLInputElement).value),
  }
  if (typed.type === 'boolean' || typed.type === 'enum')
    return (
      <select {...common}>
        <option value="">not found</option>
        {(typed.type === 'boolean' ? ['true', 'false'] : (typed.values ?? [])).map((option) => (
          <option key={option} value={option}>
            {typed.type === 'boolean' ? (option === 'true' ? 'yes' : 'no') : option}
          </option>
        ))}
      </select>
    )
  if (typed.type === 'date') return <input {...common} type="date" />
  if (typed.type === 'number' || typed.type === 'amount') return <input {...common} type="number" step="any" placeholder="empty: not found" />
  return <input {...common} type="text" placeholder={typed.type === 'list' ? 'items; separated; by semicolons' : 'empty: not found'} />
}

/** Catches a box drawn with the pointer over the page, in fractions of it, while drawing. */
export function DrawLayer({ onBox, label }: { onBox: (box: Bbox) => void; label: string }) {
  const [start, setStart] = useState<{ x: number; y: number } | null>(null)
  const box = useRef<HTMLSpanElement>(null)
  const at = (event: PointerEvent) => {
    const frame = (event.currentTarget as HTMLElement).getBoundingClientRect()
    return { x: clamp((event.clientX - frame.left) / frame.width), y: clamp((event.clientY - frame.top) / frame.height) }
  }
  const rectangle = (from: { x: number; y: number }, to: { x: number; y: number }): Bbox => ({
    left: Math.min(from.x, to.x),
    top: Math.min(from.y, to.y),
    width: Math.abs(to.x - from.x),
    height: Math.abs(to.y - from.y),
  })
  return (
    <div
      class="draw-layer"
      role="application"
      aria-label={label}
      onPointerDown={(event) => {
        ;(event.currentTarget as HTMLElement).setPointerCapture(event.pointerId)
        setStart(at(event))
      }}
      onPointerMove={(event) => {
        if (start && box.current) placeBox(box.current, rectangle(start, at(event)))
      }}
      onPointerUp={(event) => {
        if (!start) return
        const drawn = rectangle(start, at(event))
        setStart(null)
        if (drawn.width > 0.002 && drawn.height > 0.002) onBox(drawn)
      }}
    >
      {start && <span ref={box} class="draw-box" />}
    </div>
  )
}

const clamp = (share: number) => Math.min(1, Math.max(0, share))

/** Confirm, what the review will send, what happened, and the keys. */
export function ReviewBar({ job, review, canDraw, onNext }: { job: Job; review: Review; canDraw: boolean; onNext: () => void }) {
  const edited = Object.keys(review.edits).length
  return (
    <div class="review-bar">
      <div class="row">
        <button type="button" disabled={review.busy} onClick={() => review.confirm()} aria-keyshortcuts="Control+Enter">
          {review.busy ? 'Confirming…' : 'Confirm'}
        </button>
        <span class="note">
          {edited ? `${edited} ${edited === 1 ? 'field' : 'fields'} corrected, the rest confirmed as read` : 'Confirms every value as read'}
        </span>
        {canDraw && (
          <button
            type="button"
            class="quiet"
            aria-pressed={review.drawing}
            aria-keyshortcuts="B"
            disabled={!review.target}
            title={review.target ? undefined : 'Choose a field, or edit a cell, first'}
            onClick={() => review.setDrawing(!review.drawing)}
          >
            {review.drawing ? 'Drawing: drag over the value' : 'Draw a box'}
          </button>
        )}
        <button type="button" class="quiet" onClick={onNext} aria-keyshortcuts="N">
          Next to review
        </button>
      </div>
      {job.reviewed_at && <p class="notice">Reviewed {new Date(job.reviewed_at).toLocaleString()}.</p>}
      <p class={review.message?.error ? 'error' : 'note'} role="status">
        {review.message?.text ?? ''}
      </p>
      <p class="shortcuts note">
        {SHORTCUTS.map(([key, what]) => (
          <span key={key}>
            <kbd>{key}</kbd> {what}
          </span>
        ))}
      </p>
    </div>
  )
}
