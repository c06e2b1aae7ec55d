/**
 * D10 across processes: two handles on one database (two connections to a SQLite file, or two
 * PostgreSQL pools, as two instances have) creating and restoring at once never pass the limit.
 */
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ApiError } from '../../src/http/errors'
import { createKey } from '../../src/modules/keys/service'
import { MAX_SCHEMAS_PER_ACCOUNT } from '../../src/modules/schemas/model'
import { createSchema, deleteSchema, listSchemasJson, restoreSchema } from '../../src/modules/schemas/service'
import { anotherHandle, openTestDatabase } from '../helpers/database'
import { tempDir } from '../helpers/process'

const dir = tempDir('extractd-limit-')
afterAll(() => dir.remove())

async function twoInstances(file: string) {
  const first = await openTestDatabase(join(dir.path, file))
  const second = await anotherHandle(first)
  const { accountId } = await createKey(first, 'acme')
  return { first, second, accountId }
}

/** How many of the calls succeeded; every failure must be the limit's 429. */
async function succeeded(calls: Promise<unknown>[]): Promise<number> {
  const outcomes = await Promise.allSettled(calls)
  for (const outcome of outcomes)
    if (outcome.status === 'rejected') expect(outcome.reason instanceof ApiError && outcome.reason.code === 'schema_limit_reached').toBe(true)
  return outcomes.filter((outcome) => outcome.status === 'fulfilled').length
}

async function activeCount(database: Parameters<typeof listSchemasJson>[0], accountId: string): Promise<number> {
  return JSON.parse(await listSchemasJson(database, accountId)).schemas.length
}

test('70 creates split over two instances at once: exactly 50 are accepted', async () => {
  const { first, second, accountId } = await twoInstances('create.sqlite')
  const calls = Array.from({ length: 70 }, (_, i) => createSchema(i % 2 ? first : second, accountId, { name: `s${i}` }))
  expect(await succeeded(calls)).toBe(MAX_SCHEMAS_PER_ACCOUNT)
  expect(await activeCount(second, accountId)).toBe(MAX_SCHEMAS_PER_ACCOUNT)
})

test('restores racing with creates on two instances never pass the limit', async () => {
  const { first, second, accountId } = await twoInstances('restore.sqlite')
  const ids: string[] = []
  for (let i = 0; i < 20; i++) ids.push(JSON.parse(await createSchema(first, accountId, { name: `old${i}` })).id)
  for (const id of ids) await deleteSchema(first, accountId, id)
  for (let i = 0; i < 40; i++) await createSchema(second, accountId, { name: `new${i}` })
  const calls = [
    ...ids.map((id, i) => restoreSchema(i % 2 ? first : second, accountId, id)),
    ...Array.from({ length: 10 }, (_, i) => createSchema(i % 2 ? second : first, accountId, { name: `late${i}` })),
  ]
  expect(await succeeded(calls)).toBe(MAX_SCHEMAS_PER_ACCOUNT - 40)
  expect(await activeCount(first, accountId)).toBe(MAX_SCHEMAS_PER_ACCOUNT)
})
