/**
 * IDs (D6): prefixed, unique, unguessable (at least 96 random bits) and sortable by creation.
 * newId keeps per-process state (the last millisecond used), so tests that pass `now` use
 * instants after any earlier one, each test later than the one before.
 */
import { describe, expect, test } from 'bun:test'
import { type IdPrefix, isIdOf, newId } from '../../src/lib/ids'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'
const PREFIXES: IdPrefix[] = ['acc', 'key', 'sch', 'job']
const SHAPE = /^(acc|key|sch|job)_[0-9a-hjkmnp-tv-z]{30}$/

/** A fresh instant for each test: later than the real clock and 10 s after the previous one. */
let nextBase = Date.now() + 10_000
function freshInstant(): number {
  nextBase += 10_000
  return nextBase
}

function timePart(id: string): string {
  return id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11)
}

function randomPart(id: string): string {
  return id.slice(id.indexOf('_') + 11)
}

function decodeTime(part: string): number {
  let value = 0
  for (const char of part) value = value * 32 + ALPHABET.indexOf(char)
  return value
}

describe('newId', () => {
  test.each(PREFIXES)('gives a %s_ ID of 30 lower-case Crockford base32 characters after the prefix', (prefix) => {
    const id = newId(prefix)
    expect(id.startsWith(`${prefix}_`)).toBe(true)
    expect(id).toMatch(SHAPE)
    expect(id).toHaveLength(prefix.length + 1 + 30)
    expect(isIdOf(prefix, id)).toBe(true)
  })

  test('makes 10 000 unique IDs', () => {
    const ids = new Set<string>()
    for (let i = 0; i < 10_000; i++) ids.add(newId('sch'))
    expect(ids.size).toBe(10_000)
    for (const id of ids) expect(id).toMatch(SHAPE)
  })

  test('encodes the given millisecond in the first 10 characters', () => {
    const now = freshInstant()
    const id = newId('job', now)
    expect(decodeTime(timePart(id))).toBe(now)
  })

  test('sorts IDs made in one millisecond in creation order', () => {
    const now = freshInstant()
    const ids = Array.from({ length: 1000 }, () => newId('sch', now))
    expect(new Set(ids).size).toBe(1000)
    expect([...ids].sort()).toEqual(ids)
    for (const id of ids) expect(decodeTime(timePart(id))).toBe(now)
  })

  test('sorts IDs of later milliseconds after earlier ones', () => {
    const start = freshInstant()
    const ids: string[] = []
    for (let ms = 0; ms < 200; ms++) {
      ids.push(newId('job', start + ms))
      ids.push(newId('job', start + ms))
    }
    expect([...ids].sort()).toEqual(ids)
    expect(newId('job', start + 1000) > ids.at(-1)!).toBe(true)
  })

  test('sorts IDs far apart in time by time, whatever their random parts', () => {
    const early = newId('key', freshInstant())
    const late = newId('key', freshInstant())
    expect(early < late).toBe(true)
    expect(timePart(early) < timePart(late)).toBe(true)
  })

  test('never goes backwards when the clock does', () => {
    const now = freshInstant()
    const first = newId('sch', now)
    const second = newId('sch', now - 5000)
    expect(second > first).toBe(true)
  })

  test('carries a 20-character random part, at least 96 random bits', () => {
    const id = newId('acc', freshInstant())
    const random = randomPart(id)
    expect(random).toHaveLength(20)
    expect(random.length * Math.log2(ALPHABET.length)).toBeGreaterThanOrEqual(96)
    expect(random).toMatch(/^[0-9a-hjkmnp-tv-z]{20}$/)
  })

  test('draws a fresh random part each millisecond, using every base32 character in every position', () => {
    const start = freshInstant()
    const randoms = Array.from({ length: 2000 }, (_, i) => randomPart(newId('job', start + i)))
    expect(new Set(randoms).size).toBe(2000)
    for (let position = 0; position < 20; position++) {
      const seen = new Set(randoms.map((random) => random[position]))
      expect(seen.size).toBe(32)
    }
  })
})

describe('isIdOf', () => {
  const id = newId('sch')
  const body = id.slice(4)

  test('accepts an ID made with the same prefix', () => {
    expect(isIdOf('sch', id)).toBe(true)
    for (const prefix of PREFIXES) expect(isIdOf(prefix, newId(prefix))).toBe(true)
  })

  test('rejects an ID with another prefix', () => {
    expect(isIdOf('job', id)).toBe(false)
    expect(isIdOf('sch', `job_${body}`)).toBe(false)
    expect(isIdOf('sch', `SCH_${body}`)).toBe(false)
    expect(isIdOf('sch', `sch-${body}`)).toBe(false)
    expect(isIdOf('sch', `schx${body}`)).toBe(false)
    expect(isIdOf('sch', body.padStart(34, '0'))).toBe(false)
  })

  test('rejects an ID one character too short or too long', () => {
    expect(isIdOf('sch', id.slice(0, -1))).toBe(false)
    expect(isIdOf('sch', `${id}0`)).toBe(false)
    expect(isIdOf('sch', '')).toBe(false)
    expect(isIdOf('sch', 'sch_')).toBe(false)
  })

  test.each(['i', 'l', 'o', 'u', 'A', 'Z', '-', '_', ' ', 'é', '\u0000'])('rejects an ID containing %p', (char) => {
    const bad = `sch_${body.slice(0, 15)}${char}${body.slice(16)}`
    expect(bad).toHaveLength(id.length)
    expect(isIdOf('sch', bad)).toBe(false)
  })

  test('rejects upper-case letters, which IDs never contain', () => {
    expect(isIdOf('sch', `sch_${'a'.repeat(30)}`)).toBe(true)
    expect(isIdOf('sch', `sch_${'A'.repeat(30)}`)).toBe(false)
  })

  test('rejects values that are not IDs at all', () => {
    for (const value of ['1', 'sch', '../../etc/passwd', "sch_' OR 1=1 --", 'x'.repeat(10_000)]) expect(isIdOf('sch', value)).toBe(false)
  })
})
