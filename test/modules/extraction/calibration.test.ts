/**
 * Calibrated confidence (D283, D310, D311): an engine's score becomes the share of such values
 * measured right, looked up by evidence kind (reading, the field's role, whether its sums agree),
 * falling back to the role's class (typed or free text) and the reading's pool, and capped for a
 * field no kind measures. Tables written here; the shipped table is checked for its form.
 */
import { describe, expect, test } from 'bun:test'
import { resolveField } from '../../../src/lib/fields/resolve'
import type { Answers } from '../../../src/modules/extraction/answers'
import { CALIBRATION, CLEAR_READING, type CalibrationTable, calibrate, readingOf, stepShare } from '../../../src/modules/extraction/calibration'
import type { DocumentText } from '../../../src/modules/extraction/readers/types'

const table: CalibrationTable = {
  fitted: {},
  kinds: {
    text: [[0, 0.5]],
    'text/total': [
      [0.5, 0.6],
      [0.9, 0.97],
    ],
    'text/total/agree': [[0.5, 0.995]],
    ocr: [[0, 0.4]],
  },
  measured: ['text/total', 'text/issuer', 'ocr/total', 'ocr/issuer'],
  unmeasuredCap: 0.9,
}

const text: DocumentText = { pages: ['Total 10.00'] }
const scanned: DocumentText = { pages: ['Total 10.00'], layout: [{ words: [{ line: 0, start: 0, end: 5, box: [0, 0, 0.1, 0.1], confidence: 0.93 }] }] }
const answer = (confidence: number, extra: object = {}): Answers[string] => ({
  value: '10.00',
  confidence,
  page: 1,
  snippet: 'Total 10.00',
  ...extra,
})
const field = (key: string) => resolveField({ key, label: key, description: '', type: 'amount' })

describe('calibrate', () => {
  test("a role's score maps through its kind's steps, and keeps the engine's score and kinds", () => {
    const out = calibrate([field('total')], { total: answer(0.92) }, text, table)
    expect(out.total!.confidence).toBe(0.97)
    expect(out.total!.score).toEqual({ confidence: 0.92, kinds: ['text/total', 'text/typed', 'text'] })
    expect(calibrate([field('total')], { total: answer(0.6) }, text, table).total!.confidence).toBe(0.6)
  })

  test('sums that agree are their own kind', () => {
    expect(calibrate([field('total')], { total: answer(0.6, { sums: 'agree' }) }, text, table).total!.confidence).toBe(0.995)
    // No kind for broken sums in this table: the role's steps answer.
    expect(calibrate([field('total')], { total: answer(0.6, { sums: 'broken' }) }, text, table).total!.confidence).toBe(0.6)
  })

  test("a scan is read by OCR: its role falls back to the OCR pool, not the text layer's steps", () => {
    expect(readingOf(scanned)).toBe('ocr')
    expect(readingOf(text)).toBe('text')
    expect(calibrate([field('total')], { total: answer(0.92) }, scanned, table).total!.confidence).toBe(0.4)
  })

  test('a free-text value read by OCR is looked up by how clearly its words were read, then by its role, its class and the OCR pool', () => {
    const issuer = resolveField({ key: 'company_name', label: 'Company', description: '', type: 'text' })
    const ocr: CalibrationTable = {
      ...table,
      kinds: { ocr: [[0, 0.4]], 'ocr/untyped': [[0, 0.5]], 'ocr/issuer': [[0, 0.6]], 'ocr/issuer/clear': [[0, 0.96]], 'ocr/issuer/unclear': [[0, 0.8]] },
    }
    const name = (read: number) => answer(0.85, { value: 'ACME SDN BHD', read })
    const clear = calibrate([issuer], { company_name: name(CLEAR_READING) }, scanned, ocr).company_name!
    expect(clear.confidence).toBe(0.96)
    expect(clear.score!.kinds).toEqual(['ocr/issuer/clear', 'ocr/issuer', 'ocr/untyped', 'ocr'])
    expect(calibrate([issuer], { company_name: name(0.9) }, scanned, ocr).company_name!.confidence).toBe(0.8)
    // Each kind missing from the table gives way to the next one.
    const { 'ocr/issuer/unclear': _, ...noUnclear } = ocr.kinds
    expect(calibrate([issuer], { company_name: name(0.9) }, scanned, { ...ocr, kinds: noUnclear }).company_name!.confidence).toBe(0.6)
    const { 'ocr/issuer': __, ...noRole } = noUnclear
    expect(calibrate([issuer], { company_name: name(0.9) }, scanned, { ...ocr, kinds: noRole }).company_name!.confidence).toBe(0.5)
    // Read from a text layer, the words' clarity is no evidence: the text kinds answer.
    expect(calibrate([issuer], { company_name: name(1) }, text, table).company_name!.score!.kinds).toEqual(['text/issuer', 'text/untyped', 'text'])
  })

  test("a typed value read by OCR falls back to the typed values' pool, whatever its words' clarity", () => {
    const ocr: CalibrationTable = {
      ...table,
      kinds: {
        ocr: [[0, 0.4]],
        'ocr/typed': [
          [0, 0.3],
          [0.9, 0.99],
        ],
        'ocr/untyped': [[0, 0.5]],
      },
    }
    const out = calibrate([field('total')], { total: answer(0.92, { read: 0.5 }) }, scanned, ocr).total!
    expect(out.score!.kinds).toEqual(['ocr/total', 'ocr/typed', 'ocr'])
    expect(out.confidence).toBe(0.99)
    expect(calibrate([field('total')], { total: answer(0.8, { read: 0.5 }) }, scanned, ocr).total!.confidence).toBe(0.3)
  })

  test("a field no kind measures gets its reading's pooled share, capped below the default threshold", () => {
    const fee = field('shipping_fee')
    expect(calibrate([fee], { shipping_fee: answer(0.99) }, text, table).shipping_fee!.confidence).toBe(0.5)
    const sure = { ...table, kinds: { ...table.kinds, text: [[0, 0.99]] as [number, number][] } }
    expect(calibrate([fee], { shipping_fee: answer(0.99) }, text, sure).shipping_fee!.confidence).toBe(0.9)
  })

  test('a role the fit saw no value of borrows no share from its class: it is capped as a field of no role is (D399)', () => {
    const title = resolveField({ key: 'title', label: 'Title', description: '', type: 'text' })
    const sureClass = { ...table, kinds: { ...table.kinds, text: [[0, 0.99]] as [number, number][], 'text/untyped': [[0, 0.996]] as [number, number][] } }
    const read = calibrate([title], { title: answer(0.95, { value: 'NON-DISCLOSURE AGREEMENT' }) }, text, sureClass).title!
    expect(read.score!.kinds).toEqual(['text/title', 'text/untyped', 'text'])
    expect(read.confidence).toBe(0.9)
    // Measured, though too rarely for steps of its own, the role takes its class's share.
    expect(calibrate([title], { title: answer(0.95, { value: 'NDA' }) }, text, { ...sureClass, measured: ['text/title'] }).title!.confidence).toBe(0.996)
  })

  test('a field without a value is left as it is', () => {
    const empty = { value: null, confidence: 0, page: null, snippet: null }
    expect(calibrate([field('total')], { total: empty }, text, table).total).toEqual(empty)
  })
})

describe('the shipped table', () => {
  test('every kind has steps in order of score, each share between 0 and 1', () => {
    expect(Object.keys(CALIBRATION.kinds).length).toBeGreaterThan(0)
    for (const steps of Object.values(CALIBRATION.kinds)) {
      expect(steps.map(([score]) => score)).toEqual(steps.map(([score]) => score).sort((a, b) => a - b))
      for (const [, share] of steps) expect(share >= 0 && share <= 1).toBe(true)
    }
    expect(CALIBRATION.unmeasuredCap).toBeLessThan(0.95)
  })

  test("every role the shipped table has steps for is one the fit measured, and a contract's title is not", () => {
    for (const kind of Object.keys(CALIBRATION.kinds)) {
      const [reading, group] = kind.split('/')
      if (group && group !== 'typed' && group !== 'untyped') expect(CALIBRATION.measured).toContain(`${reading}/${group}`)
    }
    expect(CALIBRATION.measured).not.toContain('text/title')
  })

  test('every share is bounded: above 0, at most 0.998, so no value read from a document is certain', () => {
    for (const steps of Object.values(CALIBRATION.kinds)) for (const [, share] of steps) expect(share > 0 && share <= 0.998).toBe(true)
  })

  test('values read by OCR are measured: every catalog role read so has a kind, typed or free text', () => {
    for (const kind of ['ocr/typed', 'ocr/untyped', 'ocr']) expect(Object.hasOwn(CALIBRATION.kinds, kind)).toBe(true)
    const scannedTotal = calibrate([field('total')], { total: answer(0.99) }, scanned).total!
    expect(scannedTotal.score!.kinds.some((kind) => Object.hasOwn(CALIBRATION.kinds, kind))).toBe(true)
  })

  test('stepShare takes the last step at or below the score, the first below all', () => {
    const steps: [number, number][] = [
      [0.5, 0.7],
      [0.8, 0.9],
    ]
    expect([0.1, 0.5, 0.79, 0.8, 1].map((score) => stepShare(steps, score))).toEqual([0.7, 0.7, 0.7, 0.9, 0.9])
  })
})
