/**
 * A scan read twice (D67): the engines that read twice answer each field from the reading that
 * answers it more surely; the others answer from the first reading only. The documents' readings
 * are given here as text, as the readers would return them.
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test'
import type { Answers as EngineAnswers } from '../../../src/modules/extraction/answers'
import type { Engine, ExtractionInput } from '../../../src/modules/extraction/engines/types'
import { joined, split, taskAnswers } from '../../helpers/answers'
import { inProcessExtractor } from '../../../src/modules/extraction/extractor'
import * as readers from '../../../src/modules/extraction/readers'
import { DEFAULT_READ_LIMITS, type DocumentText, MEDIA_TYPES } from '../../../src/modules/extraction/readers/types'

const FIRST = 'first reading'
const SECOND = 'second reading'
const document: DocumentText = { pages: [FIRST], secondReading: { pages: [SECOND] } }

/** Answers, by reading, with the confidence of each answer. */
type Answers = Record<string, [value: string | null, confidence: number]>

function engine(byReading: Record<string, Answers>, readsTwice = true): Engine & { seen: string[] } {
  const seen: string[] = []
  return {
    name: 'fake',
    readsTwice,
    seen,
    async extract({ document: text }: ExtractionInput): Promise<EngineAnswers> {
      const reading = text.pages[0]!
      seen.push(reading)
      const answers = byReading[reading]!
      return joined({
        values: Object.fromEntries(Object.entries(answers).map(([key, [value]]) => [key, value])),
        meta: Object.fromEntries(
          Object.entries(answers).map(([key, [value, confidence]]) => [
            key,
            value === null ? { confidence: 0, page: null, snippet: null } : { confidence, page: 1, snippet: reading },
          ]),
        ),
      })
    },
  }
}

const fields = ['total', 'date', 'company_name', 'currency'].map((key) => ({ key, label: key, description: key, type: 'text' as const }))
const task = { content: new Uint8Array([1]), mediaType: MEDIA_TYPES.png, documentType: 'invoice', issuedBySeller: true, fields, limits: DEFAULT_READ_LIMITS }

let read: ReturnType<typeof spyOn<typeof readers, 'readDocument'>>
beforeEach(() => {
  read = spyOn(readers, 'readDocument').mockImplementation(async () => document)
})
afterEach(() => read.mockRestore())

describe('a scan read twice', () => {
  const answers = {
    [FIRST]: { total: ['9.60', 0.7], date: [null, 0], company_name: ['BOOK TA SDN BHD', 0.9], currency: [null, 0] },
    [SECOND]: { total: ['9.00', 0.85], date: ['2018-12-25', 0.8], company_name: ['BOOK TA SDN BHD', 0.8], currency: ['MYR', 0.5] },
  } satisfies Record<string, Answers>

  test('each field comes from the reading that answers it more surely, if at least 0.6 sure', async () => {
    const output = split(taskAnswers(await inProcessExtractor(engine(answers))(task)))
    expect(read.mock.calls[0]![2]!.readTwice).toBe(true)
    expect(output.values).toEqual({ total: '9.00', date: '2018-12-25', company_name: 'BOOK TA SDN BHD', currency: null })
    expect(output.meta.total).toEqual({ confidence: 0.85, page: 1, snippet: SECOND, bbox: null })
    expect(output.meta.company_name).toEqual({ confidence: 0.9, page: 1, snippet: FIRST, bbox: null })
    expect(output.meta.currency).toEqual({ confidence: 0, page: null, snippet: null, bbox: null })
  })

  test('an engine that does not read twice (a model call) answers from the first reading only', async () => {
    const once = engine(answers, false)
    const output = split(taskAnswers(await inProcessExtractor(once)(task)))
    // Its scans are not read a second time for nothing.
    expect(read.mock.calls[0]![2]!.readTwice).toBe(false)
    expect(once.seen).toEqual([FIRST])
    expect(output.values).toEqual({ total: '9.60', date: null, company_name: 'BOOK TA SDN BHD', currency: null })
  })

  test('a document read once is answered once', async () => {
    read.mockImplementationOnce(async () => ({ pages: [FIRST] }))
    const twice = engine(answers)
    await inProcessExtractor(twice)(task)
    expect(twice.seen).toEqual([FIRST])
  })
})
