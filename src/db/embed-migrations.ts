/**
 * Bun macro: runs at build time and inlines drizzle's migration files into the bundle, so the
 * compiled binary carries its migrations (drizzle's own `migrate()` would read them from disk).
 */
import { readMigrationFiles } from 'drizzle-orm/migrator'

export function embeddedMigrations() {
  return readMigrationFiles({ migrationsFolder: `${import.meta.dir}/migrations` })
}
