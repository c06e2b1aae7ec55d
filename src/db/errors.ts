/**
 * Which failures mean "the database cannot answer now" rather than a fault in extractd: they
 * become 503 `service_unavailable` (the client may retry), not 500.
 */

/** SQLite result codes of a database that is busy past the busy timeout, full, or unreadable. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL|NOTADB)/

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code
    if (cause.name === 'SQLiteError' && typeof code === 'string' && SQLITE_UNAVAILABLE.test(code)) return true
  }
  return false
}
