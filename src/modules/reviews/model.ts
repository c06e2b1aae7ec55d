/** Reviews and learned layouts on the wire (issue 32, D271, D275). */
import { t } from 'elysia'

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
