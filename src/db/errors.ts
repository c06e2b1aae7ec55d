/**
 * Which failures mean "the database cannot answer now" rather than a fault in extractd: they
 * become 503 `service_unavailable` (the client may retry), not 500 (D78); of those, a database
 * whose storage is full is told as such, to the client and to readiness (D196).
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
/** SQLite's "database or disk is full" (the disk, or the file's max_page_count); PostgreSQL's disk_full. */
const SQLITE_FULL = /^SQLITE_FULL/
const POSTGRES_DISK_FULL = '53100'

/** The error and its causes, a few deep. */
function* causes(error: unknown): Generator<Error> {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) yield cause
}

const codeOf = (cause: Error) => (cause as { code?: unknown }).code

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const cause of causes(error)) {
    const code = codeOf(cause)
    if (typeof code !== 'string') {
      if (POSTGRES_CONNECTION_LOST.test(cause.message)) return true
      continue
    }
    if (cause.name === 'SQLiteError' ? SQLITE_UNAVAILABLE.test(code) : POSTGRES_UNAVAILABLE.test(code)) return true
  }
  return false
}

/** Whether the database refused a write because its storage is full. */
export function isStorageFull(error: unknown): boolean {
  for (const cause of causes(error)) {
    const code = codeOf(cause)
    if (typeof code === 'string' && (cause.name === 'SQLiteError' ? SQLITE_FULL.test(code) : code === POSTGRES_DISK_FULL)) return true
  }
  return false
}

/**
 * How long readiness reports a database full after it last refused a write for want of space,
 * unless a write succeeds meanwhile (D196): long enough for a load balancer to see it, short
 * enough that space freed while it sends no requests is noticed (a write refused again sets it
 * again).
 */
const STORAGE_FULL_REPORTED_MS = 30_000

/** When each database (by its handle) last refused a write for want of space. */
const refusedAt = new WeakMap<object, number>()

/** Remembers a failure of `database` that says its storage is full, for readiness (D196). */
export function noteDatabaseFailure(database: object, error: unknown): void {
  if (isStorageFull(error)) refusedAt.set(database, Date.now())
}

/** A write of `database` succeeded: its storage has room again. */
export function noteDatabaseWrite(database: object): void {
  refusedAt.delete(database)
}

/** Whether `database` refused a write for want of space within STORAGE_FULL_REPORTED_MS, and none succeeded since. */
export function refusedForSpace(database: object): boolean {
  const at = refusedAt.get(database)
  return at !== undefined && Date.now() - at < STORAGE_FULL_REPORTED_MS
}
