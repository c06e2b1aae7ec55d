/** The shared lease worker (D130), on a queue in memory: what it claims, when, and what it gives back. */
import { afterEach, expect, test } from 'bun:test'
import { createLeaseWorker, type LeaseWorker } from '../../src/lib/lease-worker'
import { type Logger, silentLogger } from '../../src/lib/log'
import { eventually } from '../helpers/eventually'

const workers: LeaseWorker[] = []
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop(0)
})

/** A queue of named pieces of work; each runs until released by name (or aborted). */
function queueOf(names: string[], options: { renew?: (ids: string[]) => string[]; log?: Logger; concurrency?: number; pollMs?: number } = {}) {
  const waiting = [...names]
  const claims: number[] = []
  const started: string[] = []
  const aborted: string[] = []
  const released: string[] = []
  const gates = new Map<string, () => void>()
  const worker = createLeaseWorker<string>({
    name: 'test worker',
    log: options.log ?? silentLogger,
    concurrency: options.concurrency ?? 2,
    pollMs: options.pollMs ?? 60_000,
    leaseMs: 90,
    claim: async (_owner, room) => {
      claims.push(room)
      return waiting.splice(0, room)
    },
    idOf: (name) => name,
    run: (name, signal) =>
      new Promise<void>((resolve) => {
        started.push(name)
        gates.set(name, resolve)
        signal.addEventListener('abort', () => {
          aborted.push(name)
          resolve()
        })
      }),
    renew: options.renew ? async (_owner, ids) => options.renew!(ids) : undefined,
    release: async (_owner, ids) => {
      released.push(...ids)
      return ids.length
    },
    onQueued: () => () => {},
  })
  workers.push(worker)
  const finish = (name: string) => gates.get(name)?.()
  return { worker, waiting, claims, started, aborted, released, finish }
}

test('claims only as many as it has free slots, and claims again the moment one frees', async () => {
  const q = queueOf(['a', 'b', 'c', 'd'])
  q.worker.start()
  await eventually(() => q.started.length === 2, 2000)
  expect(q.started).toEqual(['a', 'b'])
  expect(q.waiting).toEqual(['c', 'd']) // not taken: another instance may run them
  q.finish('a')
  await eventually(() => q.started.length === 3, 2000)
  expect(q.started).toEqual(['a', 'b', 'c'])
  expect(q.claims.every((room) => room >= 1 && room <= 2)).toBe(true)
})

test('stop waits up to its grace, then gives back what still runs', async () => {
  const q = queueOf(['a', 'b'])
  q.worker.start()
  await eventually(() => q.started.length === 2, 2000)
  q.finish('a')
  expect(await q.worker.stop(20)).toBe(1)
  expect(q.released).toEqual(['b'])
})

test('work whose lease another owner took is aborted at the next renewal', async () => {
  const q = queueOf(['a', 'b'], { renew: (ids) => ids.filter((id) => id !== 'b') })
  q.worker.start()
  await eventually(() => q.aborted.length === 1, 2000)
  expect(q.aborted).toEqual(['b'])
})

test('a failing claim is logged with the worker name, and the next poll tries again', async () => {
  const logged: string[] = []
  let fail = true
  const worker = createLeaseWorker<string>({
    name: 'test worker',
    log: { ...silentLogger, error: (message) => logged.push(message) },
    concurrency: 1,
    pollMs: 10,
    leaseMs: 1000,
    claim: async () => {
      if (fail) throw new Error('database is locked')
      return []
    },
    idOf: (name) => name,
    run: async () => {},
    release: async () => 0,
    onQueued: () => () => {},
  })
  workers.push(worker)
  worker.start()
  await eventually(() => logged.length > 0, 2000)
  expect(logged[0]).toBe('test worker: looking for work failed')
  fail = false
})
