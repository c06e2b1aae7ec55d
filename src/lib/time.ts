/** Timestamps as the API shows them (D5): ISO 8601 UTC with milliseconds and `Z`. */
export function nowIso(): string {
  return new Date().toISOString()
}
