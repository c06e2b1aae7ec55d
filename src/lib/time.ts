/** Timestamps as the API shows them (D5): ISO 8601 UTC with milliseconds and `Z`. */
export function nowIso(): string {
  return new Date().toISOString()
}

/** The instant `ms` milliseconds from now, as the API shows timestamps. */
export function isoIn(ms: number): string {
  return new Date(Date.now() + ms).toISOString()
}
