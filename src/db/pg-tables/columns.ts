/** Column types the PostgreSQL tables share. */
import { customType } from 'drizzle-orm/pg-core'

/**
 * JSON kept as text, as SQLite's `text({ mode: 'json' })` keeps it: a value is answered byte for
 * byte as it was stored (D65), where `jsonb` would reorder an object's keys.
 */
export const jsonText = <T>(name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => 'text',
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => JSON.parse(value) as T,
  })(name)

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })
