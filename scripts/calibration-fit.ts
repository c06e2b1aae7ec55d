/**
 * How data/calibration.json is fitted (D283, D310, D311), apart from the command that reads the
 * benchmark's values and writes the table (scripts/calibrate.ts), so that tests can hold it.
 */
import { type Steps, stepAt } from '../src/modules/extraction/calibration'
import { DEFAULT_REVIEW_THRESHOLD } from '../src/lib/fields/types'

/** One value with truth from the fitting half: the kinds calibration.ts looks it up by, the engine's score, whether it was right. */
export interface Observation {
  kinds: readonly string[]
  score: number
  right: boolean
}

export const FIT = {
  /** Least values a kind needs to get a step function of its own. */
  minValues: 25,
  /** Least values of a step. */
  minStep: 15,
  /** Values of the kind's mean added to every step: a step of 10 right of 10 is 0.98 or so, not 1. */
  prior: 8,
  /** The most any value is given: nothing read from a document is certain. */
  most: 0.998,
  /** The confidence from which a person may leave a value unchecked: the default review threshold (D284). */
  threshold: DEFAULT_REVIEW_THRESHOLD,
  /** What the values of that band must be right on average (issue 33's precision, D311). */
  bandPrecision: 0.99,
}

export type FitOptions = typeof FIT

interface Step {
  from: number
  n: number
  right: number
  share: number
}

const thousandths = (value: number) => Math.round(value * 1000) / 1000

/** How the value's document was read: the first part of its kinds. */
const readingOf = (observation: Observation) => observation.kinds[0]!.split('/')[0]!

/**
 * Steps by score: every distinct score is a step (a reader's weight names its evidence: "after its
 * label", "the letterhead's top line"); a step with fewer than `minStep` values is joined by the
 * next scores up, whole (the values of one score are never split between two steps, D311), and the
 * last one is joined to the one below while it is short; each step's share is shrunk towards the
 * kind's mean by `prior` values, at most `most`.
 */
function fitSteps(points: readonly Observation[], options: FitOptions): Step[] {
  const sorted = [...points].sort((a, b) => a.score - b.score)
  const mean = sorted.filter((point) => point.right).length / sorted.length
  const steps: Step[] = []
  for (const [index, point] of sorted.entries()) {
    const last = steps[steps.length - 1]
    if (last && (sorted[index - 1]!.score === point.score || last.n < options.minStep)) {
      last.n++
      last.right += point.right ? 1 : 0
    } else steps.push({ from: point.score, n: 1, right: point.right ? 1 : 0, share: 0 })
  }
  while (steps.length > 1 && steps[steps.length - 1]!.n < options.minStep) {
    const top = steps.pop()!
    steps[steps.length - 1]!.n += top.n
    steps[steps.length - 1]!.right += top.right
  }
  for (const step of steps) step.share = thousandths(Math.min(options.most, (step.right + options.prior * mean) / (step.n + options.prior)))
  return steps
}

/**
 * The step functions of every kind with `minValues` values or more. Each value counts for the kinds
 * it is looked up by and for its reading's pool (the fallback of fields of no role). Then the band
 * a person may leave unchecked (D311): per reading, the steps whose share reaches the threshold
 * are admitted from the surest down while the shares of the values admitted average at least
 * `bandPrecision`; a step left out answers just under the threshold, so that a value of a kind
 * measured right 0.97 of the time is checked by a person.
 */
export function fitKinds(observations: readonly Observation[], options: FitOptions = FIT): Record<string, Steps> {
  const byKind = new Map<string, Observation[]>()
  for (const observation of observations) {
    const reading = readingOf(observation)
    for (const kind of new Set([...observation.kinds, reading])) {
      const points = byKind.get(kind)
      if (points) points.push(observation)
      else byKind.set(kind, [observation])
    }
  }
  const fitted = new Map<string, Step[]>()
  for (const [kind, points] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) if (points.length >= options.minValues) fitted.set(kind, fitSteps(points, options))

  /** The step a value falls in, as calibration.ts looks it up; undefined when no kind measures it. */
  const stepOf = (observation: Observation) => {
    const kind = observation.kinds.find((candidate) => fitted.has(candidate))
    return stepAt(kind ? fitted.get(kind)! : [], observation.score, (step) => step.from)
  }
  for (const reading of new Set(observations.map(readingOf))) {
    const candidates = new Map<Step, number>()
    for (const observation of observations.filter((candidate) => readingOf(candidate) === reading)) {
      const step = stepOf(observation)
      if (step && step.share >= options.threshold) candidates.set(step, (candidates.get(step) ?? 0) + 1)
    }
    let values = 0
    let expected = 0
    const admitted = new Set<Step>()
    for (const [step, n] of [...candidates].sort(([a], [b]) => b.share - a.share)) {
      if ((expected + step.share * n) / (values + n) < options.bandPrecision) break
      values += n
      expected += step.share * n
      admitted.add(step)
    }
    for (const step of candidates.keys()) if (!admitted.has(step)) step.share = thousandths(options.threshold - 0.001)
  }
  return Object.fromEntries([...fitted].map(([kind, steps]) => [kind, steps.map((step): [number, number] => [step.from, step.share])]))
}
