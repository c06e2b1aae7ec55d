/**
 * Which failures mean "the database cannot answer now" rather than a fault in extractd: they
 * become 503 `service_unavailable` (the client may retry), not 500 (D78).
 */

/** SQLite result codes of a database that is busy past the busy timeout, full, or unreadable. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL|NOTADB)/
/**
 * PostgreSQL: a connection that could not be made (socket codes), and the server's SQLSTATEs of
 * classes 08 (connection exception), 53 (insufficient resources), 57P (shutting down, starting
 * up) and 58 (system error).
 */
const POSTGRES_UNAVAILABLE =
  /^(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|ENOTFOUND|EAI_AGAIN|ConnectionRefused|ConnectionClosed|08...|53...|57P0[1-4]|58...)$/
/** node-postgres reports a connection lost, or not made in time, with these messages and no code. */
const POSTGRES_CONNECTION_LOST =
  /^(?:Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect)/

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code
    if (typeof code !== 'string') {
      if (POSTGRES_CONNECTION_LOST.test(cause.message)) return true
      continue
    }
    if (cause.name === 'SQLiteError' ? SQLITE_UNAVAILABLE.test(code) : POSTGRES_UNAVAILABLE.test(code)) return true
  }
  return false
}
