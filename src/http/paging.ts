/** Lists that page with `limit` and `starting_after` read their page size here, in one way. */
import { errors } from './errors'

/** `?limit=`: a whole number from 1 to `max`, `fallback` when absent; else 400 naming `query:/limit`. */
export function pageLimit(raw: string | undefined, fallback: number, max: number): number {
  const limit = raw === undefined ? fallback : Number(raw)
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw errors.validation([{ path: 'query:/limit', message: `Expected a whole number from 1 to ${max}` }])
  return limit
}
