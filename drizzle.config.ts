import { defineConfig } from 'drizzle-kit'

/** The SQLite migrations; drizzle.pg.config.ts makes the PostgreSQL ones from the same tables (D212). */
process.env.EXTRACTD_DRIZZLE_DIALECT = 'sqlite'
export default defineConfig({
  dialect: 'sqlite',
  schema: './scripts/drizzle-schema.ts',
  out: './src/db/migrations',
})
