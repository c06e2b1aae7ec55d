import { expect, test } from 'bun:test'
import { serialized } from '../../src/lib/serialized'

/** A task that records how many runs overlap, and ends when the test lets it. */
function gatedTask() {
  const state = { runs: 0, running: 0, mostAtOnce: 0, release: [] as (() => void)[] }
  const task = async () => {
    state.runs++
    state.running++
    state.mostAtOnce = Math.max(state.mostAtOnce, state.running)
    await new Promise<void>((resolve) => state.release.push(resolve))
    state.running--
  }
  const releaseNext = async () => {
    while (!state.release.length) await Bun.sleep(1)
    state.release.shift()!()
  }
  return { state, task, releaseNext }
}

test('calls made while the task runs give one more run after it, never two at once', async () => {
  const { state, task, releaseNext } = gatedTask()
  const run = serialized(task)
  const first = run()
  const during = [run(), run(), run()]
  expect(state.runs).toBe(1)
  await releaseNext()
  await releaseNext()
  await Promise.all([first, ...during])
  expect(state.runs).toBe(2)
  expect(state.mostAtOnce).toBe(1)
})

test('a call after the task has ended runs it again', async () => {
  const { state, task, releaseNext } = gatedTask()
  const run = serialized(task)
  const first = run()
  await releaseNext()
  await first
  const second = run()
  await releaseNext()
  await second
  expect(state.runs).toBe(2)
})

test('a task that throws does not stop later calls', async () => {
  let calls = 0
  const run = serialized(async () => {
    calls++
    if (calls === 1) throw new Error('first run fails')
  })
  await expect(run()).rejects.toThrow('first run fails')
  await run()
  expect(calls).toBe(2)
})
