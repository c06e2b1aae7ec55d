/**
 * Instances on one PostgreSQL database tell each other of new work (D98): NOTIFY when a
 * transaction commits, LISTEN on a connection of its own that comes back by itself. Apart from
 * postgres.ts, and node-postgres loaded when a listening connection is first made, so the
 * repositories that use these do not load the driver on a server that runs on SQLite (D150).
 */
import { type SQL, sql } from 'drizzle-orm'
import type pg from 'pg'

/** A transaction of postgres.ts, as far as a notification needs it. */
interface Executor {
  execute(query: SQL): Promise<unknown>
}

/** A server that cannot be reached fails a request (503) after this long rather than holding it. */
const CONNECT_TIMEOUT_MS = 10_000
/** How soon a lost listening connection is made again. */
const RELISTEN_MS = 1_000

export function connectionConfig(url: string): pg.ClientConfig {
  return { connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'extractd' }
}

/** Tells the instances listening on `channel` when the transaction commits. */
export async function notify(tx: Executor, channel: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, '')`)
}

/**
 * Calls `wake` on every notification on `channel`, on a connection of its own, and whenever that
 * connection is (re)made, since notifications sent while it was down are lost. A connection that
 * is lost, or cannot be made (the database is away), is tried again a second later; meanwhile
 * the caller's own poll finds the work. Returns what stops it.
 */
export function listen(url: string, channel: string, wake: () => void): () => void {
  let stopped = false
  let current: pg.Client | undefined
  let retry: ReturnType<typeof setTimeout> | undefined

  const again = () => {
    if (stopped) return
    retry = setTimeout(connect, RELISTEN_MS)
    retry.unref?.()
  }
  async function connect(): Promise<void> {
    const { default: pg } = await import('pg')
    const client = new pg.Client(connectionConfig(url))
    client.on('notification', (message) => message.channel === channel && wake())
    // A lost connection reports an error, then ends.
    client.on('error', () => {})
    client.on('end', () => {
      if (current !== client) return
      current = undefined
      again()
    })
    try {
      await client.connect()
      await client.query(`listen "${channel.replace(/"/g, '""')}"`)
    } catch {
      await client.end().catch(() => {})
      return again()
    }
    if (stopped) return void (await client.end().catch(() => {}))
    current = client
    wake()
  }

  void connect()
  return () => {
    stopped = true
    clearTimeout(retry)
    void current?.end().catch(() => {})
    current = undefined
  }
}
