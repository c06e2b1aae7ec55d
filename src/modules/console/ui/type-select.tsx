/**
 * The catalog's document types as a labelled select; `any` adds a first choice that picks none (a
 * filter), `detect` one that leaves the type to the classifier (`auto`, D250).
 */
import type { DocumentType } from './api.ts'
import { Labeled } from './labeled.tsx'

export function TypeSelect({
  label,
  types,
  value,
  onChange,
  any,
  detect,
}: {
  label: string
  types: DocumentType[]
  value: string
  onChange: (slug: string) => void
  any?: string
  detect?: string
}) {
  return (
    <Labeled label={label}>
      {(id) => (
        // Keyed by the count: the select is made again once the types arrive, so it shows `value`.
        <select id={id} key={types.length} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          {any !== undefined && <option value="">{any}</option>}
          {detect !== undefined && <option value="auto">{detect}</option>}
          {types.map((type) => (
            <option key={type.slug} value={type.slug}>
              {type.label}
            </option>
          ))}
        </select>
      )}
    </Labeled>
  )
}
