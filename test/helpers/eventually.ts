/** Waiting for what another process, thread or timer does. */

/** Waits until `check` returns a truthy value, asking every 10 ms, for at most `ms`. */
export async function eventually<T>(check: () => T | Promise<T>, ms = 5000): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value as Exclude<T, false | null | undefined>
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`)
    await Bun.sleep(10)
  }
}
