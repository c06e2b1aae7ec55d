import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/tables/sqlite.ts',
  out: './src/db/migrations',
})
