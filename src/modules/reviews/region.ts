/**
 * The words under a box drawn on a job's page, read as one of its fields (D340): the console's
 * "draw a box" correction. The words and their places come from what the job kept of its reading
 * (D272), so a past job's page can be read after its document is gone; the text is typed by the
 * normalisation layer, as every answer is (D90).
 */
import { errors } from '../../http/errors'
import type { JobField } from '../../lib/fields/model'
import { normaliseValue } from '../extraction/normalise'
import { dateOrderOf, parseDate } from '../extraction/normalise/dates'
import type { PageLayout, PlacedWord } from '../extraction/readers/layout'
import type { DocumentText } from '../extraction/readers/types'
import { jobToReview } from '../extraction/service'
import type { Database } from '../../db/database'
import type { Region, RegionBody } from './model'

/** A box may end this far past the page's edge: fractions added up in a browser are not exact. */
const EDGE = 1e-6

export async function readRegion(database: Database, accountId: string, jobId: string, body: RegionBody): Promise<Region> {
  const target = await jobToReview(database, accountId, jobId)
  const type = typeOf(target.fields, body)
  const { box } = body
  if (box.left + box.width > 1 + EDGE || box.top + box.height > 1 + EDGE)
    throw errors.validation([{ path: '/box', message: 'Expected a box on the page: left + width and top + height at most 1' }])
  const reading = target.reading as DocumentText | undefined
  if (!reading?.layout?.some((page) => page?.words.length)) throw errors.wordsNotKept()
  if (body.page > reading.pages.length) throw errors.validation([{ path: '/page', message: `Expected a page of the document: it has ${reading.pages.length}` }])

  const lines = (reading.pages[body.page - 1] ?? '').split('\n')
  const under = wordsUnder(reading.layout[body.page - 1], box)
  const text = [...Map.groupBy(under, (word) => word.line).values()]
    .map((row) => row.map((word) => lines[word.line]!.slice(word.start, word.end)).join(' '))
    .join('\n')
  return { text, value: text ? typed(type, text, reading) : null, bbox: around(under) }
}

/** The field's (or, for a table, the column's) type; an unknown key or column is a 400 naming it. */
function typeOf(fields: JobField[], { key, column }: RegionBody): Pick<JobField, 'type' | 'values'> {
  const field = fields.find((entry) => entry.key === key)
  if (!field) throw errors.validation([{ path: '/key', message: `Unknown field: the job's fields are ${fields.map((entry) => entry.key).join(', ')}` }])
  if (field.type !== 'table') {
    if (column !== undefined) throw errors.validation([{ path: '/column', message: `Expected no column: ${key} is not a table` }])
    return field
  }
  const columns = field.columns ?? []
  const found = columns.find((entry) => entry.key === column)
  if (!found)
    throw errors.validation([
      {
        path: '/column',
        message: columns.length
          ? `Expected one of ${key}'s columns: ${columns.map((entry) => entry.key).join(', ')}`
          : `${key} has no columns to read a cell as`,
      },
    ])
  return found
}

/** The page's words whose middle lies in the box, in reading order. */
function wordsUnder(layout: PageLayout | undefined, box: RegionBody['box']): PlacedWord[] {
  return (layout?.words ?? [])
    .filter(({ box: [x0, y0, x1, y1] }) => {
      const x = (x0 + x1) / 2
      const y = (y0 + y1) / 2
      return x >= box.left && x <= box.left + box.width && y >= box.top && y <= box.top + box.height
    })
    .sort((a, b) => a.line - b.line || a.start - b.start)
}

/** A text as a value of the type, as the normalisation layer types an answer; a numeric date in the order the document prints its dates. */
function typed(type: Pick<JobField, 'type' | 'values'>, text: string, reading: DocumentText): unknown {
  if (type.type === 'date') return parseDate(text, dateOrderOf(reading.pages.join('\n')))
  return normaliseValue(type, text)
}

function around(words: PlacedWord[]): Region['bbox'] {
  if (!words.length) return null
  const left = Math.min(...words.map((word) => word.box[0]))
  const top = Math.min(...words.map((word) => word.box[1]))
  const right = Math.max(...words.map((word) => word.box[2]))
  const bottom = Math.max(...words.map((word) => word.box[3]))
  return { left, top, width: right - left, height: bottom - top }
}
