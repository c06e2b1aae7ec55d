/** Applies the migrations compiled into the binary, with drizzle's own bookkeeping. */
import type { MigrationConfig, MigrationMeta } from 'drizzle-orm/migrator'
import type { Db } from './client'
import { embeddedMigrations } from './embed-migrations' with { type: 'macro' }

/** What drizzle's own bun-sqlite `migrate()` calls, fed with migrations that are already in memory. */
interface DrizzleInternals {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: Partial<MigrationConfig>): void }
  session: unknown
}

export const migrations: MigrationMeta[] = embeddedMigrations()

/** Drizzle's record of the migrations applied: a SQLite file without it was not made by extractd. */
export const MIGRATIONS_TABLE = '__drizzle_migrations'

export function migrate(db: Db, list: MigrationMeta[] = migrations): void {
  // Two processes starting on a new file may race; the loser's transaction fails, and
  // running again then finds the winner's migrations recorded and has nothing left to do.
  for (let attempt = 1; ; attempt++) {
    try {
      const { dialect, session } = db as unknown as DrizzleInternals
      dialect.migrate(list, session, {})
      return
    } catch (error) {
      if (attempt >= 3) throw error
      Bun.sleepSync(50 * attempt)
    }
  }
}
