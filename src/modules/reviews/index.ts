/** Routes of reviews, learned layouts and the accuracy they measure (issues 32, 33): POST /api/v1/jobs/{id}/review and /region, /api/v1/layouts, GET /api/v1/accuracy. */
import { Elysia, t } from 'elysia'
import type { Database } from '../../db/database'
import type { AuthPlugin } from '../../http/auth'
import { jsonBody } from '../../http/body'
import type { Idempotency } from '../../http/idempotency'
import { errorResponses } from '../../http/models'
import { pageLimit } from '../../http/paging'
import type { Catalog } from '../catalog/service'
import { JobEnvelope, JobParams } from '../extraction/model'
import { accountAccuracy } from './accuracy'
import { Accuracy, AccuracyQuery, DEFAULT_LAYOUT_PAGE, LayoutList, LayoutParams, LayoutsQuery, MAX_LAYOUT_PAGE, Region, RegionBody, ReviewBody } from './model'
import type * as RegionReader from './region'
import type * as Service from './service'

export interface ReviewsDeps {
  database: Database
  catalog: Catalog
  auth: AuthPlugin
  idempotency: Idempotency
  maxJsonBytes: number
}

// A review's, a region's and the layouts' code reads values with the normalisers and learns layouts
// with the lexicons: loaded with the first request that needs it, not at start (D150, D372).
const reviewJob: typeof Service.reviewJob = async (...args) => (await import('./service')).reviewJob(...args)
const listLayouts: typeof Service.listLayouts = async (...args) => (await import('./service')).listLayouts(...args)
const deleteLayout: typeof Service.deleteLayout = async (...args) => (await import('./service')).deleteLayout(...args)
const readRegion: typeof RegionReader.readRegion = async (...args) => (await import('./region')).readRegion(...args)

export function reviewsModule({ database, catalog, auth, idempotency, maxJsonBytes }: ReviewsDeps) {
  return new Elysia({ tags: ['Reviews'] })
    .use(auth)
    .post(
      '/jobs/:id/review',
      // async, so that Elysia awaits the answer and a refusal reaches the error handler
      async ({ principal, params, body, request }) =>
        idempotency.run(
          request,
          principal.accountId,
          () => `${params.id}\n${JSON.stringify(body)}`,
          async () => ({ status: 200, body: JSON.stringify({ job: await reviewJob(database, principal.accountId, params.id, body.fields) }) }),
        ),
      {
        auth: true,
        parse: jsonBody(maxJsonBytes),
        params: JobParams,
        body: ReviewBody,
        response: { 200: JobEnvelope, ...errorResponses(400, 401, 404, 409, 413, 415) },
        detail: {
          operationId: 'reviewJob',
          'x-idempotent': true,
          summary: "Review a job's values",
          description:
            'Sets the right values of a succeeded job: each key listed takes its value, each other key is confirmed as read. `result` holds the ' +
            'reviewed values; `fields_meta.<key>` keeps what the engine read (`read_value`) and says whether it was `corrected`; the job gets ' +
            '`reviewed_at`. A second review replaces the first (both are kept). The review teaches the account the layout of the ' +
            "document's sender: its next documents that match it are read with it first (`fields_meta.<key>.learned`). " +
            'Webhooks get `job.reviewed`. 400 names the path of an unknown key or a value of the wrong type; 409 `job_not_succeeded` ' +
            'for a job that did not succeed. Takes `Idempotency-Key` like the other POSTs.',
        },
      },
    )
    .post('/jobs/:id/region', async ({ principal, params, body }) => ({ region: await readRegion(database, principal.accountId, params.id, body) }), {
      auth: true,
      parse: jsonBody(maxJsonBytes),
      params: JobParams,
      body: RegionBody,
      response: { 200: t.Object({ region: Region }), ...errorResponses(400, 401, 404, 409, 413, 415) },
      detail: {
        operationId: 'readRegion',
        summary: 'Read the words under a box on a page',
        description:
          "The words of a succeeded job's page whose middle lies in the box, and their text read as the value of one of the job's fields (a " +
          "table's: of one of its columns), typed as an answer is: what a reviewer who draws a box on the page would correct the field to. " +
          'Nothing is stored; send the value in a review. Read from the words and places the job keeps of its document (PDFs and images), ' +
          'also after the document itself is deleted. 400 for an unknown key or column, a page the document does not have, or a box off ' +
          'the page; 409 `job_not_succeeded`, or `words_not_kept` when the job has no word places (a text, Markdown, HTML or DOCX ' +
          'document, or one too large to keep).',
      },
    })
    .get(
      '/layouts',
      async ({ principal, query }) =>
        listLayouts(database, principal.accountId, pageLimit(query.limit, DEFAULT_LAYOUT_PAGE, MAX_LAYOUT_PAGE), query.starting_after),
      {
        auth: true,
        query: LayoutsQuery,
        response: { 200: LayoutList, ...errorResponses(400, 401) },
        detail: {
          operationId: 'listLayouts',
          summary: 'List learned layouts',
          description: "The layouts the account's reviews taught, one per sender, newest first; page with `limit` and `starting_after`.",
        },
      },
    )
    .delete(
      '/layouts/:id',
      async ({ principal, params, set }) => {
        await deleteLayout(database, principal.accountId, params.id)
        set.status = 204
      },
      {
        auth: true,
        params: LayoutParams,
        response: { 204: t.Void({ description: 'Forgotten.' }), ...errorResponses(401, 404) },
        detail: {
          operationId: 'deleteLayout',
          summary: 'Forget a learned layout',
          description: '204: no later document is read with it. The reviews that taught it are kept; another review of the sender teaches it again.',
        },
      },
    )
    .get('/accuracy', async ({ principal, query }) => accountAccuracy(database, catalog, principal.accountId, query), {
      auth: true,
      query: AccuracyQuery,
      response: { 200: Accuracy, ...errorResponses(400, 401, 404) },
      detail: {
        operationId: 'getAccuracy',
        summary: "The account's accuracy, from its reviews",
        description:
          "Per field key, from the account's reviewed jobs (each as its latest review left it): values reviewed, right as read, corrected; " +
          'the share right per confidence band; and what the review threshold would have let through unchecked, with how many of those were right. ' +
          'Filter with `schema_id`, `document_type` and `since`; ask with `threshold` what another threshold would do. ' +
          "400 for a `since` or `threshold` that is no date or share; 404 for a schema not found or another account's, and `unknown_document_type`.",
      },
    })
}
