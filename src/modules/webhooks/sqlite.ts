/** Webhooks on SQLite. */
export { enqueueJobEvent as enqueueJobEventSqlite } from './service'
