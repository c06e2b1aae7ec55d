/** Reviews, learned layouts and the account's accuracy on the wire (issues 32 and 33, D271, D275, D295). */
import { t } from 'elysia'
import { BBox } from '../../lib/fields/model'

export const DEFAULT_LAYOUT_PAGE = 20
export const MAX_LAYOUT_PAGE = 100

const Timestamp = t.String({ format: 'date-time', examples: ['2026-11-27T14:08:00.000Z'] })

export const ReviewBody = t.Object(
  {
    fields: t.Record(t.String(), t.Unknown(), {
      description:
        "The right value of each key listed, typed as the job's field: text as a string, dates as `YYYY-MM-DD`, amounts and numbers as numbers, " +
        'currencies as ISO 4217 codes, an enum as one of its values, lists as arrays of strings, tables as arrays of rows keyed by column; ' +
        'null when the document has none. Keys not listed are confirmed as read.',
      examples: [{ total: 36.6, date: '2026-11-20', company_name: 'SANYU STATIONERY SHOP' }],
    }),
  },
  { additionalProperties: false },
)

export type ReviewBody = typeof ReviewBody.static

export const LayoutParams = t.Object({ id: t.String({ examples: ['lay_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }) })

export const LayoutsQuery = t.Object(
  {
    limit: t.Optional(t.String({ pattern: '^[0-9]+$', description: `1–${MAX_LAYOUT_PAGE}, default ${DEFAULT_LAYOUT_PAGE}.`, examples: ['20'] })),
    starting_after: t.Optional(t.String({ description: 'A layout ID from the previous page: list the layouts after it.' })),
  },
  { additionalProperties: true },
)

export const Layout = t.Object(
  {
    id: t.String({ examples: ['lay_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
    job_id: t.String({ description: 'The reviewed job that last taught it.', examples: ['job_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
    sender: t.String({
      description: "The words of the sender's name line as the layout compares them (folded to letters and digits).",
      examples: ['sanyu supply sdn bhd'],
    }),
    fields: t.Record(
      t.String(),
      t.Object({
        how: t.UnionEnum(['printed', 'constant', 'absent', 'table'], {
          description:
            '`printed`: read where the review found it; `constant`: the value the sender always has; `absent`: none; `table`: rows under the learned heading.',
          default: undefined,
        }),
        job_id: t.String({ description: 'The reviewed job that taught this field.' }),
      }),
      { description: 'What the layout knows of each field key.' },
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Layout' },
)

export type Layout = typeof Layout.static

export const LayoutList = t.Object({ layouts: t.Array(Layout), has_more: t.Boolean() })

/** A box drawn on a page, to read the words under it (D340). */
export const RegionBody = t.Object(
  {
    key: t.String({ description: "The job's field the words are read as.", examples: ['total'] }),
    column: t.Optional(t.String({ description: "For a table field: the column the words are read as (a cell's value).", examples: ['amount'] })),
    page: t.Integer({ minimum: 1, description: 'The page, from 1.', examples: [1] }),
    box: t.Object(
      {
        left: t.Number({ minimum: 0, maximum: 1 }),
        top: t.Number({ minimum: 0, maximum: 1 }),
        width: t.Number({ exclusiveMinimum: 0, maximum: 1 }),
        height: t.Number({ exclusiveMinimum: 0, maximum: 1 }),
      },
      {
        additionalProperties: false,
        description: "Fractions of the page's width and height from its top-left corner, as a value's `bbox`; it must lie on the page.",
        examples: [{ left: 0.62, top: 0.61, width: 0.2, height: 0.03 }],
      },
    ),
  },
  { additionalProperties: false },
)

export type RegionBody = typeof RegionBody.static

export const Region = t.Object(
  {
    text: t.String({
      description: "The words whose middle lies in the box, as the job's reading holds them, line by line; empty when none.",
      examples: ['1.234,50 €'],
    }),
    value: t.Unknown({
      description:
        'The text read as the field\'s (or column\'s) type, as an answer is typed: `1.234,50 €` in an amount field is `"1234.50"`; null when it holds no value of the type.',
      examples: ['1234.50'],
    }),
    bbox: t.Union([BBox, t.Null()], { description: 'Where the words found are printed, around all of them; null when none.' }),
  },
  { title: 'Region' },
)

export type Region = typeof Region.static
// ── An account's accuracy (issue 33, D290–D296) ─────────────────────────────────────────────────

export const AccuracyQuery = t.Object(
  {
    schema_id: t.Optional(
      t.String({ description: "Only jobs created from this schema (one of the account's, deleted or not).", examples: ['sch_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
    ),
    document_type: t.Optional(t.String({ description: 'Only jobs of this document type (a catalog slug).', examples: ['invoice'] })),
    since: t.Optional(
      t.String({
        description: 'Only jobs created at or after this time: a date (`YYYY-MM-DD`, from midnight UTC) or a date-time with its zone.',
        examples: ['2026-11-01', '2026-11-01T08:00:00Z'],
      }),
    ),
    threshold: t.Optional(
      t.String({
        description:
          "The review threshold to count unchecked values at, 0–1: what if it were this. Default: the schema's `review_threshold` with `schema_id`, else 0.95.",
        examples: ['0.9'],
      }),
    ),
  },
  { additionalProperties: true },
)

export type AccuracyQuery = typeof AccuracyQuery.static

/** A share 0–1 to 4 decimals, null when nothing was counted (D295). */
const Share = (description: string) =>
  t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()], { description: `${description} To 4 decimals; null when nothing was counted.` })

const Band = t.Object({
  from: t.Number({ description: 'The least confidence of the band.' }),
  to: t.Number({ description: 'The confidence the band ends before (the last band holds 1 too).' }),
  values: t.Integer({ description: 'Values read at a confidence in the band.' }),
  right: t.Integer({ description: 'Of them, the values the reviewer left as read.' }),
  precision: Share('The share of them left as read.'),
})

const Tally = {
  reviewed: t.Integer({ description: 'Values reviewed: one per reviewed job that has the field, as its latest review left it.' }),
  right: t.Integer({ description: 'Values the reviewer left as read, an empty reading left empty included.' }),
  corrected: t.Integer({ description: 'Values the reviewer changed, filled or emptied.' }),
  answered: t.Integer({ description: 'Values the engine read (not null).' }),
  precision: Share('Of the values read, the share left as read.'),
  missed: t.Integer({ description: 'Values the engine read none of and the reviewer gave.' }),
  bands: t.Array(Band, { description: 'The values read, by confidence: 0–0.5, 0.5–0.8, 0.8–0.9, 0.9–0.95, 0.95–0.99, 0.99–1 (D292).' }),
  unchecked: t.Object(
    {
      values: t.Integer({ description: 'Values read at a confidence of at least the threshold that break no sum: those no person would have checked.' }),
      right: t.Integer({ description: 'Of them, the values the reviewer left as read.' }),
      share: Share('Their share of the values reviewed.'),
      precision: Share('The share of them left as read.'),
    },
    { description: 'What the threshold would have let through unchecked (D293).' },
  ),
}

export const FieldAccuracy = t.Object({ key: t.String({ examples: ['total'] }), ...Tally }, { title: 'FieldAccuracy' })

export const Accuracy = t.Object(
  {
    threshold: t.Number({ minimum: 0, maximum: 1, description: 'The review threshold `unchecked` is counted at.' }),
    jobs: t.Integer({ description: 'Reviewed jobs counted.' }),
    fields: t.Array(FieldAccuracy, { description: 'Per field key, in the order the keys first appear, newest job first.' }),
    total: t.Object(Tally, { description: 'All fields together.' }),
  },
  { title: 'Accuracy' },
)

export type Accuracy = typeof Accuracy.static
export type FieldAccuracy = typeof FieldAccuracy.static
