import { defineConfig } from 'drizzle-kit'

/** The PostgreSQL migrations; drizzle.config.ts makes the SQLite ones from the same model. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/pg-tables/index.ts',
  out: './src/db/pg-migrations',
})
