/** What each account may have waiting, and how long a synchronous extraction waits (D133, D134), unless the operator says. */

/** How much an account may have waiting (D133): jobs not yet ended, and the bytes of their documents. */
export interface QueueCaps {
  maxQueuedJobs: number
  maxQueuedBytes: number
}

export const DEFAULT_QUEUE_CAPS: QueueCaps = { maxQueuedJobs: 500, maxQueuedBytes: 512 * 1024 * 1024 }

/** A synchronous request waits this long for its job, then answers 202 with it (D134). */
export const DEFAULT_SYNC_WAIT_MS = 55_000
