/** Bun macro: the PostgreSQL migrations inlined into the bundle at build time, as embed-migrations.ts does for SQLite. */
import { readMigrationFiles } from 'drizzle-orm/migrator'

export function embeddedPgMigrations() {
  return readMigrationFiles({ migrationsFolder: `${import.meta.dir}/pg-migrations` })
}
