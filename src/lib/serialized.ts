/**
 * Runs `task` one call at a time. A call made while it runs asks for one more run after it,
 * however many such calls come; each caller's promise settles when a run that started after its
 * call has ended. Polls need this: one that counts its room before an await would, run twice at
 * once, count the same room twice and take twice as much.
 */
export function serialized(task: () => Promise<void>): () => Promise<void> {
  let current: Promise<void> | undefined
  let again = false
  return function run(): Promise<void> {
    if (current) {
      again = true
      return current
    }
    current = (async () => {
      try {
        do {
          again = false
          await task()
        } while (again)
      } finally {
        current = undefined
      }
    })()
    return current
  }
}
