/**
 * How the calibration table is fitted (D283, D310, D311): steps by score, never splitting one
 * score's values, shrunk and bounded; kinds per reading; and the band a person may leave
 * unchecked admitted only while its values are expected right 0.99 of the time. Values made up here.
 */
import { describe, expect, test } from 'bun:test'
import { stepShare } from '../../src/modules/extraction/calibration'
import { FIT, fitKinds, type Observation } from '../../scripts/calibration-fit'

/** `n` values of these kinds at this score, the first `wrong` of them wrong. */
function values(kinds: string[], score: number, n: number, wrong = 0): Observation[] {
  return Array.from({ length: n }, (_, index) => ({ kinds, score, right: index >= wrong }))
}

const total = ['ocr/total', 'ocr/typed', 'ocr']

describe('fitKinds', () => {
  test("one score's values are never split between two steps", () => {
    // 10 at 0.5 are too few for a step: the 12 at 0.6 join them whole, and 0.7 starts the next.
    const kinds = fitKinds([...values(total, 0.5, 10), ...values(total, 0.6, 12, 6), ...values(total, 0.7, 20)])
    expect(kinds['ocr/total']!.map(([from]) => from)).toEqual([0.5, 0.7])
  })

  test('shares are shrunk towards the kind, stay between 0 and the most any value is given, and a run of right answers is no certainty', () => {
    const kinds = fitKinds([...values(total, 0.5, 20, 20), ...values(total, 0.9, 200)])
    const steps = kinds['ocr/total']!
    for (const [, share] of steps) expect(share > 0 && share <= FIT.most).toBe(true)
    expect(steps[0]![1]).toBeGreaterThan(0) // 20 wrong of 20, shrunk towards the kind's 0.91
    expect(steps[1]![1]).toBeLessThan(1)
  })

  test("a kind with too few values is left out; every value counts for its reading's pool, and each reading is fitted apart", () => {
    const kinds = fitKinds([
      ...values(['ocr/currency', 'ocr/typed', 'ocr'], 0.8, 10),
      ...values(total, 0.8, 30, 15),
      ...values(['text/total', 'text/typed', 'text'], 0.8, 30),
    ])
    expect(kinds['ocr/currency']).toBeUndefined()
    expect(Object.keys(kinds).sort()).toEqual(['ocr', 'ocr/total', 'ocr/typed', 'text', 'text/total', 'text/typed'])
    expect(stepShare(kinds.ocr!, 0.8)).toBeLessThan(0.8)
    expect(stepShare(kinds.text!, 0.8)).toBeGreaterThan(0.95)
  })

  test('a step enters the unchecked band only while the band is expected right 0.99 of the time; the others answer just under the threshold', () => {
    const issuer = ['ocr/issuer', 'ocr/untyped', 'ocr']
    const kinds = fitKinds([
      ...values(['ocr/issue_date', 'ocr/typed', 'ocr'], 0.9, 100), // measured 0.998
      ...values(issuer, 0.85, 100, 3), // measured about 0.97: the two would be right 0.98 of the time
      ...values(issuer, 0.6, 40, 8), // measured about 0.8: under the threshold anyway
    ])
    expect(stepShare(kinds['ocr/issue_date']!, 0.9)).toBe(FIT.most)
    expect(stepShare(kinds['ocr/issuer']!, 0.85)).toBe(0.949)
    expect(stepShare(kinds['ocr/issuer']!, 0.6)).toBeLessThan(0.9)
    // Beside three times as many sure values the band is still right 0.99 of the time: admitted.
    const beside = fitKinds([...values(['ocr/issue_date', 'ocr/typed', 'ocr'], 0.9, 300), ...values(issuer, 0.85, 100, 3)])
    expect(stepShare(beside['ocr/issuer']!, 0.85)).toBeGreaterThan(0.95)
    // Alone, the same values at 0.85 are not enough to pass.
    expect(stepShare(fitKinds(values(issuer, 0.85, 100, 3))['ocr/issuer']!, 0.85)).toBe(0.949)
    // A step sure enough on its own is admitted.
    expect(stepShare(fitKinds(values(issuer, 0.85, 400, 1))['ocr/issuer']!, 0.85)).toBeGreaterThanOrEqual(0.99)
  })

  test('the band is admitted from the surest step down: no step kept out of it was measured surer than one let in', () => {
    const observations = [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9].flatMap((score, index) =>
      values(['ocr/total', 'ocr/typed', 'ocr'], score, 40 + 10 * index, [0, 2, 0, 4, 5, 0, 1][index]),
    )
    const steps = fitKinds(observations)['ocr/total']!
    const measured = fitKinds(observations, { ...FIT, threshold: 2 })['ocr/total']!
    const admitted = measured.filter((_, index) => steps[index]![1] >= FIT.threshold).map(([, share]) => share)
    const kept = measured.filter((_, index) => steps[index]![1] === 0.949).map(([, share]) => share)
    expect(admitted.length).toBeGreaterThan(0)
    expect(kept.length).toBeGreaterThan(0)
    expect(Math.max(...kept)).toBeLessThanOrEqual(Math.min(...admitted))
    // What is admitted keeps its measured share; the others under the threshold are untouched.
    for (const [index, [, share]] of steps.entries()) if (share !== 0.949) expect(share).toBe(measured[index]![1])
  })
})
