import { defineConfig } from 'drizzle-kit'

/** The PostgreSQL migrations; drizzle.config.ts makes the SQLite ones from the same tables (D212). */
process.env.EXTRACTD_DRIZZLE_DIALECT = 'postgres'
export default defineConfig({
  dialect: 'postgresql',
  schema: './scripts/drizzle-schema.ts',
  out: './src/db/pg-migrations',
})
