import { defineConfig } from 'drizzle-kit'

/** The PostgreSQL migrations; drizzle.config.ts makes the SQLite ones from the same tables (D212). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/tables/postgres.ts',
  out: './src/db/pg-migrations',
})
