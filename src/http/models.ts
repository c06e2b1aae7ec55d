/** Wire schemas shared by every module: the error envelope and the answer of a deletion (the Field is lib/fields/model.ts). */
import { t } from 'elysia'

export const ErrorEnvelope = t.Object(
  {
    error: t.String({ description: 'Human-readable message.' }),
    code: t.String({ description: 'Stable snake_case error code.', examples: ['validation_failed'] }),
    details: t.Optional(
      t.Array(t.Object({ path: t.String({ examples: ['/fields/3/key'] }), message: t.String() }), {
        description: 'Every offending location, for validation errors.',
      }),
    ),
    available_types: t.Optional(t.Array(t.String(), { description: 'All catalog slugs, for an unknown document type.' })),
    accepted_types: t.Optional(t.Array(t.String(), { description: 'Accepted media types, for an unsupported upload.' })),
  },
  { title: 'Error' },
)

/** What every DELETE answers. */
export const Deleted = t.Object({ ok: t.Literal(true) })

export function errorResponses<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelope])) as {
    [K in S[number]]: typeof ErrorEnvelope
  }
}
