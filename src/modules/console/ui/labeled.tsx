/**
 * A control with its label beside it, tied by `for`: a label wrapped around a control would take
 * the control's value into its accessible name ("Type auto").
 */
import type { ComponentChild } from 'preact'
import { useId } from 'preact/hooks'

export function Labeled({ label, class: className, children }: { label: string; class?: string; children: (id: string) => ComponentChild }) {
  const id = useId()
  return (
    <div class={className ? `labeled ${className}` : 'labeled'}>
      <label for={id}>{label}</label>
      {children(id)}
    </div>
  )
}
