/** Extraction requests and jobs on the wire (interface.md 4.8, D19–D22). */
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { Field, FieldInput, FieldMeta } from '../../lib/fields/model'
import { MAX_FIELDS } from '../../lib/fields/types'
import { Text } from '../../lib/text-type'
import { JOB_STATUSES } from '../../db/tables/jobs'
import { JOB_ERROR_CODES } from './errors'
import { ACCEPTED_MEDIA_TYPES } from './readers/types'

export const DEFAULT_JOB_PAGE = 20
export const MAX_JOB_PAGE = 100

/** An inline field given as an object rather than its description (D92): keyed by its key, so without it, and without `required`; its label defaults to the key. */
export const InlineField = t.Partial(t.Omit(FieldInput, ['key', 'required']))

export type InlineField = typeof InlineField.static

/** The JSON inside the `extract` part. */
export const ExtractRequest = t.Object(
  {
    document_type: t.String({
      minLength: 1,
      description:
        'A slug from GET /api/v1/document-types, or `auto`: the type the document is found to be (as POST /api/v1/classify finds it); ' +
        "then the job records it and its `classification`, without fields reads that type's suggested fields, and fails " +
        '`unknown_document_type` when no type fits.',
    }),
    fields: t.Optional(
      t.Record(t.String({ pattern: `^[A-Za-z0-9_]{1,64}$` }), t.Union([Text({ maxLength: 300 }), InlineField]), {
        minProperties: 1,
        maxProperties: MAX_FIELDS,
        additionalProperties: false,
        description:
          'Field key → what to look for: its description, or `{label?, description?, type?, values?, columns?}` to declare its type. ' +
          'Keys follow the Field rules; at most 50.',
      }),
    ),
    schema_id: t.Optional(t.String({ description: 'An active schema of the caller, instead of `fields`.' })),
    // TypeBox's own Integer: Elysia's would also take the string "1".
    schema_version: t.Optional(
      Type.Integer({ minimum: 1, description: 'With `schema_id`: the version of the schema to use; its current version when left out.' }),
    ),
    review_threshold: t.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Without `schema_id`: the confidence under which a value needs a person (`needs_review`, D284); 0.95 when left out.',
      }),
    ),
    split: t.Optional(
      t.Boolean({
        description:
          '`true`: the file may hold several documents (a scanned stack, a bundle). The job lists those it found in `documents`, ' +
          "each a job of its own with its pages' result; the fields apply to each, and with `auto` each has its own type.",
      }),
    ),
  },
  { additionalProperties: false },
)

export type ExtractRequest = typeof ExtractRequest.static

/** The multipart form of POST /api/v1/extract. */
export const ExtractForm = t.Object(
  {
    file: t.File({ description: `The document: ${ACCEPTED_MEDIA_TYPES.join(', ')} (detected from its content).` }),
    // Parsed and checked by the route (errors at /extract/…); the document describes the JSON (D320).
    extract: t.String({
      description: 'What to extract, as JSON: a text part, or a part of type application/json (the route reads both alike).',
      contentMediaType: 'application/json',
      contentSchema: ExtractRequest,
      examples: ['{"document_type":"invoice","fields":{"invoice_number":"Invoice number as printed","total":"Total due"}}'],
    }),
  },
  { additionalProperties: false },
)

export const ExtractQuery = t.Object(
  { async: t.Optional(t.Union([t.Literal('true'), t.Literal('false')], { description: '`true`: answer 202 at once.' })) },
  { additionalProperties: true },
)

export const JobParams = t.Object({ id: t.String({ examples: ['job_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }) })

export const JobsQuery = t.Object(
  {
    limit: t.Optional(t.String({ pattern: '^[0-9]+$', description: '1–100, default 20.', examples: ['20'] })),
    starting_after: t.Optional(t.String({ description: 'A job ID from the previous page: list the jobs after it.' })),
    status: t.Optional(t.String({ description: `Only jobs in this status: ${JOB_STATUSES.join(', ')}.`, examples: ['failed'] })),
    schema_id: t.Optional(t.String({ description: 'Only jobs created from this schema.', examples: ['sch_01m7zvb9bb611cmatkr3ef5dhzw8cw'] })),
    needs_review: t.Optional(
      t.String({
        description: '`true`: only succeeded jobs with a value that needs a person; `false`: only succeeded jobs without one (D284).',
        examples: ['true'],
      }),
    ),
  },
  { additionalProperties: true },
)

/** A job's own copy of a field (D20): its texts answered as stored, not held again to the limits they met when they were sent. */
const JobField = t.Composite([t.Object({ key: t.String(), label: t.String(), description: t.String() }), t.Pick(Field, ['type', 'values', 'columns'])])
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()])

const Confidence = t.Number({ minimum: 0, maximum: 1 })

/** The types a document may be, best first, each with the chance that it is (D243). */
export const Candidates = t.Array(t.Object({ document_type: t.String({ examples: ['invoice'] }), confidence: Confidence }), {
  description: 'Every type with a chance worth telling, best first.',
})

/** The answer of POST /api/v1/classify (D252). */
export const ClassifyResult = t.Object(
  {
    document_type: Nullable(t.String({ examples: ['invoice'], description: 'The likeliest catalog type; null when none fits.' })),
    confidence: t.Number({
      minimum: 0,
      maximum: 1,
      description: 'The chance the answer is right: that the document is of that type, or, for null, of none of them.',
    }),
    candidates: Candidates,
    pages: t.Integer({ minimum: 1, description: "The document's page count." }),
  },
  { title: 'Classification' },
)

/** The multipart form of POST /api/v1/classify. */
export const ClassifyForm = t.Object(
  { file: t.File({ description: `The document: ${ACCEPTED_MEDIA_TYPES.join(', ')} (detected from its content).` }) },
  { additionalProperties: false },
)

export const Job = t.Object(
  {
    id: t.String({ examples: ['job_01m7zvb9bb611cmatkr3ef5dhzw8cw'] }),
    status: t.UnionEnum(JOB_STATUSES, { default: undefined }),
    document_type: t.String({ examples: ['invoice'] }),
    schema_id: Nullable(t.String()),
    schema_version: Nullable(t.Integer({ minimum: 1, description: 'The version of the schema the fields were copied from.' })),
    fields: t.Array(JobField, { description: "The job's own copy of its fields, each with the type it was read as (never `auto`)." }),
    file: t.Object({
      name: t.String({ examples: ['invoice.pdf'] }),
      size: t.Integer({ examples: [48213] }),
      media_type: t.String({ examples: ['application/pdf'], description: 'Detected from the content.' }),
      sha256: t.String({ examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'] }),
    }),
    progress: Nullable(
      t.Object(
        { pages_done: t.Integer({ minimum: 0 }), pages_total: t.Integer({ minimum: 1 }) },
        { description: 'Pages of the document read so far; null until the first page is read.' },
      ),
    ),
    result: Nullable(t.Record(t.String(), t.Unknown(), { description: 'Field key → value, null when not found.' })),
    fields_meta: Nullable(t.Record(t.String(), FieldMeta)),
    error: Nullable(
      t.Object({
        // No default: UnionEnum would otherwise name the first code as one.
        code: t.UnionEnum(JOB_ERROR_CODES, { description: 'Why the job failed (D58).', default: undefined }),
        message: t.String(),
      }),
    ),
    engine: t.String({ examples: ['builtin'] }),
    classification: t.Optional(
      t.Object(
        { confidence: Confidence, candidates: Candidates },
        { description: 'Only with `"document_type": "auto"`: how sure the type found is, and the others it might be.' },
      ),
    ),
    documents: t.Optional(
      Nullable(
        t.Array(
          t.Object({
            first_page: t.Integer({ minimum: 1 }),
            last_page: t.Integer({ minimum: 1 }),
            document_type: Nullable(t.String({ description: 'Null when, with `auto`, no type fits (its job failed `unknown_document_type`).' })),
            job_id: t.String({ description: "The document's own job: its result, with pages counted from its first." }),
          }),
          { description: 'Only with `"split": true`: the documents found in the file, in page order; null until the job ends.' },
        ),
      ),
    ),
    split_from: t.Optional(
      t.Object(
        { job_id: t.String(), first_page: t.Integer({ minimum: 1 }), last_page: t.Integer({ minimum: 1 }) },
        { description: "Only on a document found in a split file: the job that split it, and the document's pages in that file." },
      ),
    ),
    review_threshold: t.Number({
      minimum: 0,
      maximum: 1,
      description: "The confidence under which a value needs a person: the schema's, the request's, or 0.95 (D284).",
    }),
    needs_review: Nullable(t.Boolean({ description: 'Whether any value of the succeeded job needs a person (D284); null until the job succeeds.' })),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
    completed_at: Nullable(t.String({ format: 'date-time' })),
    reviewed_at: Nullable(
      t.String({ format: 'date-time', description: 'When a person last reviewed the values (`POST /api/v1/jobs/{id}/review`); null until then.' }),
    ),
  },
  { title: 'Job' },
)

export const JobEnvelope = t.Object({ job: Job })
export const JobList = t.Object({ jobs: t.Array(Job), has_more: t.Boolean() })

export type Job = typeof Job.static
