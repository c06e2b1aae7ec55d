/**
 * One worker for work kept in the database under leases (D130): the job runner and the webhook
 * delivery worker are both this, with their own claim and run. A worker holds only what it runs:
 * it claims as much work as it has free slots, claims again as soon as a slot frees, and looks
 * every `pollMs` (and whenever told of new work) for work no one holds, so work whose lease ran
 * out is taken over within a poll of it, whatever this worker has been doing.
 */
import type { Logger } from './log'
import { serialized } from './serialized'

export interface LeaseWorkerOptions<T> {
  /** How the worker is named in its logs ("job runner"). */
  name: string
  log: Logger
  /** Work run at the same time. */
  concurrency: number
  /** How often the worker looks for work no one holds. */
  pollMs: number
  /** How long a claim holds without renewal; renewed every third of it when `renew` is given. */
  leaseMs: number
  /** Claims up to `room` pieces of work for `owner`. */
  claim(owner: string, room: number): Promise<T[]>
  idOf(work: T): string
  /** Runs claimed work to its end; `signal` aborts when the lease is lost or the work is canceled. */
  run(work: T, signal: AbortSignal): Promise<void>
  /** Extends the leases of the work `owner` still holds; returns the IDs it holds. Work no longer held is aborted. */
  renew?(owner: string, ids: string[]): Promise<string[]>
  /** Gives back what `owner` still holds when it stops. */
  release(owner: string, ids: string[]): Promise<number>
  /**
   * With every slot taken: claims work that is to run in place of some of `running` (in the order
   * it started), and names what it displaces, already given back; that is aborted (D194).
   */
  displace?(owner: string, running: T[]): Promise<{ claimed: T; displaced: string[] } | undefined>
  /** Calls `wake` when work may have been queued; returns what stops it. */
  onQueued(wake: () => void): () => void
  /** Told of every failure the worker logs (readiness remembers a database whose storage is full, D196). */
  failed?(error: unknown): void
  /** Upkeep run at start and then every `everyMs` (purging what has expired). */
  purge?: { what: string; everyMs: number; run: () => Promise<unknown> }
}

export type LeaseWorker = ReturnType<typeof createLeaseWorker>

export function createLeaseWorker<T>(options: LeaseWorkerOptions<T>) {
  const { name, log, concurrency, pollMs, leaseMs } = options
  const owner = crypto.randomUUID()
  /** Work running here, by ID, in the order it started, to abort when its lease is lost. */
  const running = new Map<string, { work: T; controller: AbortController }>()
  const timers: ReturnType<typeof setInterval>[] = []
  let stopListening = () => {}
  let stopping = false
  let drained: (() => void) | undefined

  /** Runs a piece of upkeep; a database that cannot answer now is logged, not thrown into a timer. */
  async function upkeep<R>(what: string, work: () => Promise<R>): Promise<R | undefined> {
    try {
      return await work()
    } catch (error) {
      options.failed?.(error)
      log.error(`${name}: ${what} failed`, { error: error instanceof Error ? error.message : String(error) })
      return undefined
    }
  }

  function every(ms: number, task: () => unknown): void {
    const timer = setInterval(task, ms)
    timer.unref?.()
    timers.push(timer)
  }

  function launch(work: T): void {
    const id = options.idOf(work)
    const controller = new AbortController()
    running.set(id, { work, controller })
    options
      .run(work, controller.signal)
      .catch((error) => {
        options.failed?.(error)
        log.error(`${name}: unexpected error`, { id, error: error instanceof Error ? error.stack : String(error) })
      })
      .finally(() => {
        running.delete(id)
        if (stopping) {
          if (running.size === 0) drained?.()
        } else void poll() // a slot is free: the next piece of work starts now, not at the next poll
      })
  }

  /** Claims as much work as there are free slots; serialized, so two polls never count one slot twice. */
  const poll = serialized(async () => {
    const room = concurrency - running.size
    if (stopping) return
    if (room <= 0) return displace()
    const claimed = (await upkeep('looking for work', () => options.claim(owner, room))) ?? []
    if (stopping) {
      await upkeep('giving work back', () => options.release(owner, claimed.map(options.idOf)))
      return
    }
    for (const work of claimed) launch(work)
  })

  /** With every slot taken, runs what is to displace running work, if anything is (D194). */
  async function displace(): Promise<void> {
    if (!options.displace) return
    const found = await upkeep('making room', () =>
      options.displace!(
        owner,
        [...running.values()].map(({ work }) => work),
      ),
    )
    if (!found) return
    if (stopping) {
      await upkeep('giving work back', () => options.release(owner, [options.idOf(found.claimed)]))
      return
    }
    for (const id of found.displaced) running.get(id)?.controller.abort()
    launch(found.claimed)
  }

  // Before start too: work may be run by polls that `poll()` asks for without a start (tests).
  const renewTimer = options.renew
    ? setInterval(async () => {
        const ids = [...running.keys()]
        if (ids.length === 0) return
        const held = await upkeep('renewing leases', () => options.renew!(owner, ids))
        if (held === undefined) return
        for (const id of ids) if (!held.includes(id)) running.get(id)?.controller.abort()
      }, leaseMs / 3)
    : undefined
  renewTimer?.unref?.()

  return {
    /** This process run's name on the leases it takes. */
    owner,
    poll,
    upkeep,

    /** Whether work with this ID runs here. */
    runs: (id: string) => running.has(id),

    /** Stops work running here (canceled, say). */
    abort(id: string): void {
      running.get(id)?.controller.abort()
    },

    /** Takes up work now, every `pollMs` and whenever told of new work; starts the purge. */
    start(): void {
      stopping = false
      stopListening = options.onQueued(() => void poll())
      every(pollMs, () => void poll())
      const purge = options.purge
      if (purge) {
        const run = () => void upkeep(purge.what, purge.run)
        run()
        every(purge.everyMs, run)
      }
      void poll()
    },

    /** Takes no more work, waits up to `graceMs` for what runs, and gives back the rest, which is then aborted. */
    async stop(graceMs: number): Promise<number> {
      stopping = true
      stopListening()
      for (const timer of timers.splice(0)) clearInterval(timer)
      if (running.size > 0) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), Bun.sleep(graceMs)])
      clearInterval(renewTimer)
      const left = [...running.values()]
      // The database may already be closing; the leases then simply run out.
      const released =
        (await upkeep('giving work back', () =>
          options.release(
            owner,
            left.map(({ work }) => options.idOf(work)),
          ),
        )) ?? 0
      // Given back first, so that what is aborted is not recorded as having ended.
      for (const { controller } of left) controller.abort()
      return released
    },
  }
}
