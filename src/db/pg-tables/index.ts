/**
 * The PostgreSQL tables: the same names, columns and constraints as the SQLite ones in
 * ../tables, which test/db/dialects.test.ts holds them to.
 */
export * from './accounts'
export * from './idempotency'
export * from './jobs'
export * from './schemas'
export * from './webhooks'
