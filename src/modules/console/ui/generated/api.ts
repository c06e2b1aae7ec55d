// Generated from /openapi.json by `bun run openapi:types`. Do not edit.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process is up */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers and can store */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List active schemas
         * @description Newest first. Soft-deleted schemas are left out.
         */
        get: operations["listSchemas"];
        put?: never;
        /**
         * Create a schema
         * @description At most 50 active schemas per account; the 51st is refused with 429. Fields come from `fields` or, from a JSON Schema written for another tool, `json_schema` (D97); both at once is 400. With `Idempotency-Key`, a retry gets the first answer again instead of a second schema; 409 when the key was used for another request or its first request is still running.
         */
        post: operations["createSchema"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schemas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a schema
         * @description Soft-deleted schemas stay readable, with `is_active: false`.
         */
        get: operations["getSchema"];
        put?: never;
        post?: never;
        /**
         * Soft-delete a schema
         * @description Jobs that used it keep their own copy of the fields.
         */
        delete: operations["deleteSchema"];
        options?: never;
        head?: never;
        /**
         * Update a schema
         * @description Partial update of an active schema. Answers the schema itself, not wrapped.
         */
        patch: operations["updateSchema"];
        trace?: never;
    };
    "/api/v1/schemas/{id}/json-schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JSON Schema of a job's result
         * @description A JSON Schema (2020-12) of the `result` object of a job with this schema: one property per field, typed as the job answers it, null allowed (not found), every key required (D96).
         */
        get: operations["getSchemaJsonSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schemas/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a soft-deleted schema
         * @description Takes `Idempotency-Key` like schema creation.
         */
        post: operations["restoreSchema"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schemas/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a schema's versions
         * @description Newest first, the current version included; page with `limit` and `starting_after`. Deleted schemas keep their history.
         */
        get: operations["listSchemaVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schemas/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one version of a schema */
        get: operations["getSchemaVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/document-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List document types */
        get: operations["listDocumentTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Suggested fields of a document type
         * @description `suggested_keys` are the keys of the fields marked `required`: a ready-made default selection.
         */
        get: operations["getSuggestedFields"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fields/json-schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JSON Schema of a document type's results
         * @description A JSON Schema (2020-12) of the `result` of a job of this type: every field of the type a property, typed as the job answers it, null allowed; the suggested keys required (a job without `fields` answers exactly those), others optional (D96).
         */
        get: operations["getDocumentTypeJsonSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/extract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extract fields from a document
         * @description Multipart form: `file` (PDF, scanned or with a text layer; JPEG, PNG, TIFF, WebP or HEIC image; DOCX, HTML, Markdown or plain text) and `extract` (JSON). Scans and photos are read by OCR. Fields come from `fields`, from `schema_id`, or else the document type's suggested fields. Waits for the job and answers 200 (a failed extraction is still 200 with `status: "failed"`); with `?async=true` answers 202 at once, and so does a job still queued or running after the server's synchronous wait (`--sync-wait`, 55 s by default): poll `GET /api/v1/jobs/{id}` then. An account with too many jobs queued or running, or too many bytes of documents in them, gets 429 `queue_limit_reached` with `Retry-After`. With `Idempotency-Key`, a retry (the same `extract` part and the same file) gets the first answer again instead of a second job.
         */
        post: operations["extract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/classify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Find a document's type
         * @description Multipart form: `file`, as for POST /api/v1/extract. Answers which catalog type the document is (the built-in types and the operator's own, `--catalog-dir`), reading no more than its first pages with text: `document_type` (null when none fits), `confidence`, the ranked `candidates`, and its page count. Makes no job and stores nothing. A document that cannot be read is 422 `unreadable_document`, its `reason` the code an extraction job would fail with.
         */
        post: operations["classify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List jobs
         * @description Newest first; page with `limit` and `starting_after`; filter by `status`, `schema_id` and `needs_review`.
         */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a job */
        get: operations["getJob"];
        put?: never;
        post?: never;
        /**
         * Delete a job
         * @description Deletes an ended job with its result and any kept document; a queued or running job is 409 `job_not_finished`.
         */
        delete: operations["deleteJob"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a job's document
         * @description While the job runs, and after it for as long as the server keeps documents (`--keep-files`); else 404.
         */
        get: operations["getJobFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description A queued or running job ends `canceled` at once and its extraction is stopped; an ended job is 409 `job_finished`.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Review a job's values
         * @description Sets the right values of a succeeded job: each key listed takes its value, each other key is confirmed as read. `result` holds the reviewed values; `fields_meta.<key>` keeps what the engine read (`read_value`) and says whether it was `corrected`; the job gets `reviewed_at`. A second review replaces the first (both are kept). The review teaches the account the layout of the document's sender: its next documents that match it are read with it first (`fields_meta.<key>.learned`). Webhooks get `job.reviewed`. 400 names the path of an unknown key or a value of the wrong type; 409 `job_not_succeeded` for a job that did not succeed. Takes `Idempotency-Key` like the other POSTs.
         */
        post: operations["reviewJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}/region": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Read the words under a box on a page
         * @description The words of a succeeded job's page whose middle lies in the box, and their text read as the value of one of the job's fields (a table's: of one of its columns), typed as an answer is: what a reviewer who draws a box on the page would correct the field to. Nothing is stored; send the value in a review. Read from the words and places the job keeps of its document (PDFs and images), also after the document itself is deleted. 400 for an unknown key or column, a page the document does not have, or a box off the page; 409 `job_not_succeeded`, or `words_not_kept` when the job has no word places (a text, Markdown, HTML or DOCX document, or one too large to keep).
         */
        post: operations["readRegion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/layouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List learned layouts
         * @description The layouts the account's reviews taught, one per sender, newest first; page with `limit` and `starting_after`.
         */
        get: operations["listLayouts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/layouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Forget a learned layout
         * @description 204: no later document is read with it. The reviews that taught it are kept; another review of the sender teaches it again.
         */
        delete: operations["deleteLayout"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/accuracy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's accuracy, from its reviews
         * @description Per field key, from the account's reviewed jobs (each as its latest review left it): values reviewed, right as read, corrected; the share right per confidence band; and what the review threshold would have let through unchecked, with how many of those were right. Filter with `schema_id`, `document_type` and `since`; ask with `threshold` what another threshold would do. 400 for a `since` or `threshold` that is no date or share; 404 for a schema not found or another account's, and `unknown_document_type`.
         */
        get: operations["getAccuracy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Newest first, without their secrets.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Events are POSTed to `url`, signed with the `secret` of this answer (Standard Webhooks). The secret is shown only here. At most 20 endpoints per account (409 `webhook_limit_reached`).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint
         * @description Without its secret.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Its pending deliveries stop and its delivery history goes with it.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook endpoint's delivery attempts
         * @description Every attempt, newest first: status code (null without an answer), duration and error (null when accepted). Page with `limit` and `starting_after`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's API keys
         * @description Oldest first, revoked ones included, each by its prefix: never the key itself. `current` marks the key of the request.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create an API key for the account
         * @description The new key is in this answer only (`key`); only its hash is stored. It works at once, with the same rights as the key that made it. No body is read. `Idempotency-Key` is not honoured here: a stored answer would keep the key.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one of the account’s API keys
         * @description It is refused from the next request on, on every instance (D64). Revoking a revoked key changes nothing (200). The key of the request itself may be revoked (`current: true` in the answer): that request is its last. Another account’s key is 404.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "job.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A job succeeded
         * @description Sent to each endpoint that listens for `job.succeeded`. Verify `webhook-signature` with the endpoint's secret before trusting the body (Standard Webhooks); `webhook-id` is the same on every attempt of one event.
         */
        post: operations["jobSucceeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A job failed
         * @description Sent to each endpoint that listens for `job.failed`. Verify `webhook-signature` with the endpoint's secret before trusting the body (Standard Webhooks); `webhook-id` is the same on every attempt of one event.
         */
        post: operations["jobFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.reviewed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A person reviewed a job's values (D272)
         * @description Sent to each endpoint that listens for `job.reviewed`. Verify `webhook-signature` with the endpoint's secret before trusting the body (Standard Webhooks); `webhook-id` is the same on every attempt of one event.
         */
        post: operations["jobReviewed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** Schema */
        Schema: {
            /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
            id: string;
            name: string;
            description: string;
            fields: {
                /**
                 * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                 * @example invoice_number
                 */
                key: string;
                /** @example Invoice Number */
                label: string;
                /** @example Identifier of the invoice as printed. */
                description: string;
                required: boolean;
                /**
                 * @description What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, `amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).
                 * @enum {string}
                 */
                type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list" | "table";
                /**
                 * @description Only with `type: "enum"`: the allowed answers, distinct.
                 * @example [
                 *       "paid",
                 *       "open",
                 *       "overdue"
                 *     ]
                 */
                values?: string[];
                columns?: {
                    /**
                     * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                     * @example invoice_number
                     */
                    key: string;
                    /** @example Invoice Number */
                    label: string;
                    /** @example Identifier of the invoice as printed. */
                    description: string;
                    /**
                     * @description Type of the column: any field type but `table`.
                     * @enum {string}
                     */
                    type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list";
                    /**
                     * @description Only with `type: "enum"`: the allowed answers, distinct.
                     * @example [
                     *       "paid",
                     *       "open",
                     *       "overdue"
                     *     ]
                     */
                    values?: string[];
                }[];
            }[];
            /**
             * @description 1 at creation, one more on each change of name, description or fields.
             * @example 3
             */
            version: string | number;
            /** @description false after soft delete. */
            is_active: boolean;
            /**
             * @description The confidence under which a value of this schema's jobs needs a person (`needs_review`); 0.95 by default. Not versioned.
             * @example 0.95
             */
            review_threshold: number;
            /**
             * Format: date-time
             * @example 2026-11-21T19:08:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T19:08:00.000Z
             */
            updated_at: string;
        };
        /** Error */
        Error: {
            /** @description Human-readable message. */
            error: string;
            /**
             * @description Stable snake_case error code.
             * @example validation_failed
             */
            code: string;
            /** @description Every offending location, for validation errors. */
            details?: {
                /** @example /fields/3/key */
                path: string;
                message: string;
            }[];
            /** @description All catalog slugs, for an unknown document type. */
            available_types?: string[];
            /** @description Accepted media types, for an unsupported upload. */
            accepted_types?: string[];
        };
        /** DocumentType */
        DocumentType: {
            /** @example invoice */
            slug: string;
            /** @example Invoice */
            label: string;
            description: string;
        };
        /** SuggestedFields */
        SuggestedFields: {
            /** @example invoice */
            type: string;
            /** @example Invoice */
            label: string;
            description: string;
            /** @description All available fields of the type. */
            fields: {
                /**
                 * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                 * @example invoice_number
                 */
                key: string;
                /** @example Invoice Number */
                label: string;
                /** @example Identifier of the invoice as printed. */
                description: string;
                required: boolean;
                /**
                 * @description What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, `amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).
                 * @enum {string}
                 */
                type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list" | "table";
                /**
                 * @description Only with `type: "enum"`: the allowed answers, distinct.
                 * @example [
                 *       "paid",
                 *       "open",
                 *       "overdue"
                 *     ]
                 */
                values?: string[];
                columns?: {
                    /**
                     * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                     * @example invoice_number
                     */
                    key: string;
                    /** @example Invoice Number */
                    label: string;
                    /** @example Identifier of the invoice as printed. */
                    description: string;
                    /**
                     * @description Type of the column: any field type but `table`.
                     * @enum {string}
                     */
                    type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list";
                    /**
                     * @description Only with `type: "enum"`: the allowed answers, distinct.
                     * @example [
                     *       "paid",
                     *       "open",
                     *       "overdue"
                     *     ]
                     */
                    values?: string[];
                }[];
            }[];
            /**
             * @description Keys of exactly the fields whose `required` is true, in field order: a default selection.
             * @example [
             *       "company_name",
             *       "invoice_number",
             *       "date",
             *       "client_name",
             *       "line_items",
             *       "total"
             *     ]
             */
            suggested_keys: string[];
        };
        /** Job */
        Job: {
            /** @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw */
            id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed" | "canceled";
            /** @example invoice */
            document_type: string;
            schema_id: string | null;
            schema_version: (string | number) | null;
            /** @description The job's own copy of its fields, each with the type it was read as (never `auto`). */
            fields: {
                key: string;
                label: string;
                description: string;
                /**
                 * @description What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, `amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).
                 * @enum {string}
                 */
                type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list" | "table";
                /**
                 * @description Only with `type: "enum"`: the allowed answers, distinct.
                 * @example [
                 *       "paid",
                 *       "open",
                 *       "overdue"
                 *     ]
                 */
                values?: string[];
                columns?: {
                    /**
                     * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                     * @example invoice_number
                     */
                    key: string;
                    /** @example Invoice Number */
                    label: string;
                    /** @example Identifier of the invoice as printed. */
                    description: string;
                    /**
                     * @description Type of the column: any field type but `table`.
                     * @enum {string}
                     */
                    type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list";
                    /**
                     * @description Only with `type: "enum"`: the allowed answers, distinct.
                     * @example [
                     *       "paid",
                     *       "open",
                     *       "overdue"
                     *     ]
                     */
                    values?: string[];
                }[];
            }[];
            file: {
                /** @example invoice.pdf */
                name: string;
                /** @example 48213 */
                size: string | number;
                /**
                 * @description Detected from the content.
                 * @example application/pdf
                 */
                media_type: string;
                /** @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 */
                sha256: string;
            };
            progress: {
                pages_done: string | number;
                pages_total: string | number;
            } | null;
            result: {
                [key: string]: unknown;
            } | null;
            fields_meta: {
                [key: string]: {
                    confidence: number;
                    page: (string | number) | null;
                    snippet: string | null;
                    bbox: {
                        left: number;
                        top: number;
                        width: number;
                        height: number;
                    } | null;
                    /** @description A table's rows in order, each where it is printed (its line on the page) with its cells (D338); null for a row not found in print. Only tables of documents with positions have it. */
                    rows?: ({
                        page: string | number;
                        /** @description Where the value is printed on its page, as fractions of the page's width and height from its top-left corner; null for documents without positions (text, Markdown, HTML, DOCX). */
                        bbox: {
                            left: number;
                            top: number;
                            width: number;
                            height: number;
                        };
                        /** @description Column key → where that cell is printed; null where its words were not found. */
                        cells: {
                            [key: string]: {
                                left: number;
                                top: number;
                                width: number;
                                height: number;
                            } | null;
                        };
                    } | null)[];
                    /** @description Only for a table field read by the built-in engine (D117): how its rows check out; its confidence says the same. */
                    table_check?: {
                        lines_sum: string | null;
                        /**
                         * @description Whether an amount printed right under the table (the net total, a subtotal) equals that sum.
                         * @enum {string}
                         */
                        total: "matches" | "differs" | "not_found" | "not_checked";
                        /**
                         * @description Whether quantity × unit price gives each line amount, where a row prints all three.
                         * @enum {string}
                         */
                        rows: "match" | "differ" | "not_checked";
                    };
                    /** @description The sums between answers that this value breaks (D282); absent when it breaks none. */
                    checks?: {
                        /** @enum {string} */
                        check: "subtotal_plus_tax" | "lines_sum" | "rate_times_base" | "tax_breakdown" | "cash_minus_change";
                        /** @description What the other answers imply this value is, as a decimal string. */
                        expected: string;
                        /** @description The value given, as a decimal string. */
                        found: string;
                    }[];
                    /** @description Whether a person should check the value: its confidence is under the review threshold, or it breaks a sum (D284). Absent in jobs stored before it. */
                    needs_review?: boolean;
                    /** @description Only when the value was read with a layout the account learned from a review of the sender's documents (D266). */
                    learned?: {
                        /**
                         * @description The learned layout (`GET /api/v1/layouts`).
                         * @example lay_01m7zvb9bb611cmatkr3ef5dhzw8cw
                         */
                        layout: string;
                        /**
                         * @description The reviewed job that taught it.
                         * @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw
                         */
                        job: string;
                        /**
                         * @description `printed`: read where the review found it printed; `constant`: the value the sender always has; `absent`: the sender's documents have none; `table`: rows read under the learned heading.
                         * @enum {string}
                         */
                        how: "printed" | "constant" | "absent" | "table";
                    };
                    /** @description Only after a review (D271): whether the reviewer changed the value the engine read. */
                    corrected?: boolean;
                    /** @description Only after a review (D271): the value the engine read, null when it read none. */
                    read_value?: unknown;
                };
            } | null;
            error: {
                /**
                 * @description Why the job failed (D58).
                 * @enum {string}
                 */
                code: "corrupt_document" | "encrypted_document" | "no_text_layer" | "empty_document" | "too_many_pages" | "image_too_large" | "document_too_large" | "engine_timeout" | "engine_unavailable" | "engine_rejected" | "engine_refused" | "engine_invalid_answer" | "extraction_timeout" | "extraction_failed" | "file_missing" | "unknown_document_type";
                message: string;
            } | null;
            /** @example builtin */
            engine: string;
            /** @description Only with `"document_type": "auto"`: how sure the type found is, and the others it might be. */
            classification?: {
                confidence: number;
                /** @description Every type with a chance worth telling, best first. */
                candidates: {
                    /** @example invoice */
                    document_type: string;
                    confidence: number;
                }[];
            };
            documents?: {
                first_page: string | number;
                last_page: string | number;
                document_type: string | null;
                /** @description The document's own job: its result, with pages counted from its first. */
                job_id: string;
            }[] | null;
            /** @description Only on a document found in a split file: the job that split it, and the document's pages in that file. */
            split_from?: {
                job_id: string;
                first_page: string | number;
                last_page: string | number;
            };
            /** @description The confidence under which a value needs a person: the schema's, the request's, or 0.95 (D284). */
            review_threshold: number;
            needs_review: boolean | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            completed_at: string | null;
            reviewed_at: string | null;
        };
        /** CreatedWebhook */
        CreatedWebhook: {
            /** @example whk_01m7zvb9bb611cmatkr3ef5dhzw8cw */
            id: string;
            /** @example https://example.com/hooks/extractd */
            url: string;
            events: ("job.succeeded" | "job.failed" | "job.reviewed")[];
            /**
             * Format: date-time
             * @example 2026-11-21T19:08:00.000Z
             */
            created_at: string;
            /**
             * @description Signing secret (Standard Webhooks form). Shown only in this answer; store it now.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        /** Webhook */
        Webhook: {
            /** @example whk_01m7zvb9bb611cmatkr3ef5dhzw8cw */
            id: string;
            /** @example https://example.com/hooks/extractd */
            url: string;
            events: ("job.succeeded" | "job.failed" | "job.reviewed")[];
            /**
             * Format: date-time
             * @example 2026-11-21T19:08:00.000Z
             */
            created_at: string;
        };
        /** WebhookDelivery */
        WebhookDelivery: {
            /**
             * @description ID of this attempt.
             * @example att_01m7zvb9bb611cmatkr3ef5dhzw8cw
             */
            id: string;
            /**
             * @description The event for this endpoint; sent as `webhook-id` and the same on every attempt.
             * @example msg_01m7zvb9bb611cmatkr3ef5dhzw8cw
             */
            message_id: string;
            /** @enum {string} */
            event: "job.succeeded" | "job.failed" | "job.reviewed";
            /** @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw */
            job_id: string;
            /** @description 1 for the first attempt of the message. */
            attempt: string | number;
            /** @description The receiver's HTTP status; null when it did not answer. */
            status_code: (string | number) | null;
            duration_ms: string | number;
            /**
             * @description Why the attempt failed (`timeout`, `connection refused`, `HTTP 500`, `redirect not followed`, …); null when accepted.
             * @example HTTP 500
             */
            error: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T19:08:00.000Z
             */
            created_at: string;
        };
        /** JobSucceededEvent */
        JobSucceededEvent: {
            /** @constant */
            type: "job.succeeded";
            /**
             * Format: date-time
             * @description When the job ended (its `completed_at`); for `job.reviewed`, when it was reviewed (its `reviewed_at`).
             * @example 2026-11-21T19:08:00.000Z
             */
            timestamp: string;
            data: {
                job: components["schemas"]["Job"];
            };
        };
        /** JobFailedEvent */
        JobFailedEvent: {
            /** @constant */
            type: "job.failed";
            /**
             * Format: date-time
             * @description When the job ended (its `completed_at`); for `job.reviewed`, when it was reviewed (its `reviewed_at`).
             * @example 2026-11-21T19:08:00.000Z
             */
            timestamp: string;
            data: {
                job: components["schemas"]["Job"];
            };
        };
        /** JobReviewedEvent */
        JobReviewedEvent: {
            /** @constant */
            type: "job.reviewed";
            /**
             * Format: date-time
             * @description When the job ended (its `completed_at`); for `job.reviewed`, when it was reviewed (its `reviewed_at`).
             * @example 2026-11-21T19:08:00.000Z
             */
            timestamp: string;
            data: {
                job: components["schemas"]["Job"];
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description Not ready */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "unavailable";
                        /**
                         * @description The database's storage is full: nothing new can be stored.
                         * @constant
                         */
                        reason?: "storage_full";
                    };
                };
            };
        };
    };
    listSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schemas: components["schemas"]["Schema"][];
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSchema: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A key of your choosing (1–255 printable ASCII characters). A retry with the same key and the same request gets the first answer again, with `Idempotent-Replayed: true`, for 24 hours.
                 * @example order-4711-upload
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example Supplier invoices */
                    name: string;
                    /** @example Fields we book from supplier invoices. */
                    description?: string;
                    /** @description Extraction fields; keys must be unique within the schema. */
                    fields?: {
                        /**
                         * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                         * @example invoice_number
                         */
                        key: string;
                        /** @example Invoice Number */
                        label: string;
                        /** @example Identifier of the invoice as printed. */
                        description?: string;
                        /** @description Hint only: whether such documents typically carry the field. */
                        required: boolean;
                        /**
                         * @description What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, `amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).
                         * @enum {string}
                         */
                        type?: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list" | "table";
                        /**
                         * @description Only with `type: "enum"`: the allowed answers, distinct.
                         * @example [
                         *       "paid",
                         *       "open",
                         *       "overdue"
                         *     ]
                         */
                        values?: string[];
                        /** @description Only with `type: "table"`: the columns of each row, keys distinct. */
                        columns?: {
                            /**
                             * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                             * @example invoice_number
                             */
                            key: string;
                            /** @example Invoice Number */
                            label?: string;
                            /** @example Identifier of the invoice as printed. */
                            description?: string;
                            /**
                             * @description Type of the column: any field type but `table`.
                             * @enum {string}
                             */
                            type?: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list";
                            /**
                             * @description Only with `type: "enum"`: the allowed answers, distinct.
                             * @example [
                             *       "paid",
                             *       "open",
                             *       "overdue"
                             *     ]
                             */
                            values?: string[];
                        }[];
                    }[];
                    /**
                     * @description Instead of `fields`: a JSON Schema of an object whose properties become the fields (string, `format: "date"`, number, integer, boolean, enum, arrays of strings, arrays of objects; `title` → label, `required` → required). Anything else is 400 naming its path.
                     * @example {
                     *       "type": "object",
                     *       "properties": {
                     *         "total": {
                     *           "type": "number",
                     *           "title": "Total"
                     *         },
                     *         "issued": {
                     *           "type": "string",
                     *           "format": "date"
                     *         }
                     *       },
                     *       "required": [
                     *         "total"
                     *       ]
                     *     }
                     */
                    json_schema?: {
                        [key: string]: unknown;
                    };
                    /**
                     * @description The confidence under which a value of this schema's jobs needs a person (`needs_review`); 0.95 by default. Not versioned.
                     * @example 0.95
                     */
                    review_threshold?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schema: components["schemas"]["Schema"];
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Schema limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schema: components["schemas"]["Schema"];
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        ok: true;
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example Supplier invoices */
                    name?: string;
                    /** @example Fields we book from supplier invoices. */
                    description?: string;
                    /** @description Extraction fields; keys must be unique within the schema. */
                    fields?: {
                        /**
                         * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                         * @example invoice_number
                         */
                        key: string;
                        /** @example Invoice Number */
                        label: string;
                        /** @example Identifier of the invoice as printed. */
                        description?: string;
                        /** @description Hint only: whether such documents typically carry the field. */
                        required: boolean;
                        /**
                         * @description What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, `amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).
                         * @enum {string}
                         */
                        type?: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list" | "table";
                        /**
                         * @description Only with `type: "enum"`: the allowed answers, distinct.
                         * @example [
                         *       "paid",
                         *       "open",
                         *       "overdue"
                         *     ]
                         */
                        values?: string[];
                        /** @description Only with `type: "table"`: the columns of each row, keys distinct. */
                        columns?: {
                            /**
                             * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                             * @example invoice_number
                             */
                            key: string;
                            /** @example Invoice Number */
                            label?: string;
                            /** @example Identifier of the invoice as printed. */
                            description?: string;
                            /**
                             * @description Type of the column: any field type but `table`.
                             * @enum {string}
                             */
                            type?: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list";
                            /**
                             * @description Only with `type: "enum"`: the allowed answers, distinct.
                             * @example [
                             *       "paid",
                             *       "open",
                             *       "overdue"
                             *     ]
                             */
                            values?: string[];
                        }[];
                    }[];
                    /**
                     * @description The confidence under which a value of this schema's jobs needs a person (`needs_review`); 0.95 by default. Not versioned.
                     * @example 0.95
                     */
                    review_threshold?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schema"];
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSchemaJsonSchema: {
        parameters: {
            query?: {
                /**
                 * @description Type `auto` fields as a job of this document type would (the catalog type of the same key).
                 * @example invoice
                 */
                document_type?: string;
            };
            header?: never;
            path: {
                /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A JSON Schema (2020-12) that every `result` of a succeeded job with these fields validates against. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreSchema: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A key of your choosing (1–255 printable ASCII characters). A retry with the same key and the same request gets the first answer again, with `Idempotent-Replayed: true`, for 24 hours.
                 * @example order-4711-upload
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schema: components["schemas"]["Schema"];
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Schema limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSchemaVersions: {
        parameters: {
            query?: {
                /**
                 * @description 1–100, default 20.
                 * @example 20
                 */
                limit?: string;
                /**
                 * @description A version number from the previous page: list the older versions.
                 * @example 21
                 */
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        versions: {
                            /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                            schema_id: string;
                            /** @example 3 */
                            version: string | number;
                            name: string;
                            description: string;
                            fields: {
                                /**
                                 * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                                 * @example invoice_number
                                 */
                                key: string;
                                /** @example Invoice Number */
                                label: string;
                                /** @example Identifier of the invoice as printed. */
                                description: string;
                                required: boolean;
                                /**
                                 * @description What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, `amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).
                                 * @enum {string}
                                 */
                                type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list" | "table";
                                /**
                                 * @description Only with `type: "enum"`: the allowed answers, distinct.
                                 * @example [
                                 *       "paid",
                                 *       "open",
                                 *       "overdue"
                                 *     ]
                                 */
                                values?: string[];
                                columns?: {
                                    /**
                                     * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                                     * @example invoice_number
                                     */
                                    key: string;
                                    /** @example Invoice Number */
                                    label: string;
                                    /** @example Identifier of the invoice as printed. */
                                    description: string;
                                    /**
                                     * @description Type of the column: any field type but `table`.
                                     * @enum {string}
                                     */
                                    type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list";
                                    /**
                                     * @description Only with `type: "enum"`: the allowed answers, distinct.
                                     * @example [
                                     *       "paid",
                                     *       "open",
                                     *       "overdue"
                                     *     ]
                                     */
                                    values?: string[];
                                }[];
                            }[];
                            /**
                             * Format: date-time
                             * @description When this version was made.
                             * @example 2026-11-21T19:08:00.000Z
                             */
                            created_at: string;
                        }[];
                        has_more: boolean;
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSchemaVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                id: string;
                /** @example 2 */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * SchemaVersion
                         * @description What a schema held from one change to the next.
                         */
                        version: {
                            /** @example sch_01jf6m8x9k3q7w2e4r5t6y7u8i9o0p */
                            schema_id: string;
                            /** @example 3 */
                            version: string | number;
                            name: string;
                            description: string;
                            fields: {
                                /**
                                 * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                                 * @example invoice_number
                                 */
                                key: string;
                                /** @example Invoice Number */
                                label: string;
                                /** @example Identifier of the invoice as printed. */
                                description: string;
                                required: boolean;
                                /**
                                 * @description What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, `amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).
                                 * @enum {string}
                                 */
                                type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list" | "table";
                                /**
                                 * @description Only with `type: "enum"`: the allowed answers, distinct.
                                 * @example [
                                 *       "paid",
                                 *       "open",
                                 *       "overdue"
                                 *     ]
                                 */
                                values?: string[];
                                columns?: {
                                    /**
                                     * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                                     * @example invoice_number
                                     */
                                    key: string;
                                    /** @example Invoice Number */
                                    label: string;
                                    /** @example Identifier of the invoice as printed. */
                                    description: string;
                                    /**
                                     * @description Type of the column: any field type but `table`.
                                     * @enum {string}
                                     */
                                    type: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list";
                                    /**
                                     * @description Only with `type: "enum"`: the allowed answers, distinct.
                                     * @example [
                                     *       "paid",
                                     *       "open",
                                     *       "overdue"
                                     *     ]
                                     */
                                    values?: string[];
                                }[];
                            }[];
                            /**
                             * Format: date-time
                             * @description When this version was made.
                             * @example 2026-11-21T19:08:00.000Z
                             */
                            created_at: string;
                        };
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDocumentTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        document_types: components["schemas"]["DocumentType"][];
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSuggestedFields: {
        parameters: {
            query?: {
                /**
                 * @description A document type slug from GET /api/v1/document-types.
                 * @example invoice
                 */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuggestedFields"];
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDocumentTypeJsonSchema: {
        parameters: {
            query?: {
                /**
                 * @description A document type slug from GET /api/v1/document-types.
                 * @example invoice
                 */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A JSON Schema (2020-12) that the `result` of a succeeded job validates against. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    extract: {
        parameters: {
            query?: {
                /** @description `true`: answer 202 at once. */
                async?: "true" | "false";
            };
            header?: {
                /**
                 * @description A key of your choosing (1–255 printable ASCII characters). A retry with the same key and the same request gets the first answer again, with `Idempotent-Replayed: true`, for 24 hours.
                 * @example order-4711-upload
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The document: application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, text/html, text/markdown, text/plain, image/jpeg, image/png, image/tiff, image/webp, image/heic (detected from its content).
                     */
                    file: Blob;
                    /**
                     * @description What to extract, as JSON: a text part, or a part of type application/json (the route reads both alike).
                     * @example {
                     *       "document_type": "invoice",
                     *       "fields": {
                     *         "invoice_number": "Invoice number as printed",
                     *         "total": "Total due"
                     *       }
                     *     }
                     */
                    extract: {
                        /** @description A slug from GET /api/v1/document-types, or `auto`: the type the document is found to be (as POST /api/v1/classify finds it); then the job records it and its `classification`, without fields reads that type's suggested fields, and fails `unknown_document_type` when no type fits. */
                        document_type: string;
                        /** @description Field key → what to look for: its description, or `{label?, description?, type?, values?, columns?}` to declare its type. Keys follow the Field rules; at most 50. */
                        fields?: {
                            [key: string]: string | {
                                /** @example Invoice Number */
                                label?: string;
                                /** @example Identifier of the invoice as printed. */
                                description?: string;
                                /**
                                 * @description What the field is (D87): `auto` (inferred from key, label and description when a job is created), `text`, `number`, `amount`, `date`, `currency`, `boolean`, `enum` (one of `values`), `list` (of strings), `table` (rows, with `columns`).
                                 * @enum {string}
                                 */
                                type?: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list" | "table";
                                /**
                                 * @description Only with `type: "enum"`: the allowed answers, distinct.
                                 * @example [
                                 *       "paid",
                                 *       "open",
                                 *       "overdue"
                                 *     ]
                                 */
                                values?: string[];
                                /** @description Only with `type: "table"`: the columns of each row, keys distinct. */
                                columns?: {
                                    /**
                                     * @description Name of the field in the result JSON: ASCII letters, digits and underscores, at most 64.
                                     * @example invoice_number
                                     */
                                    key: string;
                                    /** @example Invoice Number */
                                    label?: string;
                                    /** @example Identifier of the invoice as printed. */
                                    description?: string;
                                    /**
                                     * @description Type of the column: any field type but `table`.
                                     * @enum {string}
                                     */
                                    type?: "auto" | "text" | "number" | "amount" | "date" | "currency" | "boolean" | "enum" | "list";
                                    /**
                                     * @description Only with `type: "enum"`: the allowed answers, distinct.
                                     * @example [
                                     *       "paid",
                                     *       "open",
                                     *       "overdue"
                                     *     ]
                                     */
                                    values?: string[];
                                }[];
                            };
                        };
                        /** @description An active schema of the caller, instead of `fields`. */
                        schema_id?: string;
                        /** @description With `schema_id`: the version of the schema to use; its current version when left out. */
                        schema_version?: number;
                        /** @description Without `schema_id`: the confidence under which a value needs a person (`needs_review`, D284); 0.95 when left out. */
                        review_threshold?: number;
                        /** @description `true`: the file may hold several documents (a scanned stack, a bundle). The job lists those it found in `documents`, each a job of its own with its pages' result; the fields apply to each, and with `auto` each has its own type. */
                        split?: boolean;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Accepted: the job runs in the background */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Schema limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    classify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The document: application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, text/html, text/markdown, text/plain, image/jpeg, image/png, image/tiff, image/webp, image/heic (detected from its content).
                     */
                    file: Blob;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        document_type: string | null;
                        /** @description The chance the answer is right: that the document is of that type, or, for null, of none of them. */
                        confidence: number;
                        /** @description Every type with a chance worth telling, best first. */
                        candidates: {
                            /** @example invoice */
                            document_type: string;
                            confidence: number;
                        }[];
                        /** @description The document's page count. */
                        pages: string | number;
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Response */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /**
                 * @description 1–100, default 20.
                 * @example 20
                 */
                limit?: string;
                /** @description A job ID from the previous page: list the jobs after it. */
                starting_after?: string;
                /**
                 * @description Only jobs in this status: queued, running, succeeded, failed, canceled.
                 * @example failed
                 */
                status?: string;
                /**
                 * @description Only jobs created from this schema.
                 * @example sch_01m7zvb9bb611cmatkr3ef5dhzw8cw
                 */
                schema_id?: string;
                /**
                 * @description `true`: only succeeded jobs with a value that needs a person; `false`: only succeeded jobs without one (D284).
                 * @example true
                 */
                needs_review?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jobs: components["schemas"]["Job"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        ok: true;
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJobFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document as uploaded, with its detected media type and original name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": Blob;
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reviewJob: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A key of your choosing (1–255 printable ASCII characters). A retry with the same key and the same request gets the first answer again, with `Idempotent-Replayed: true`, for 24 hours.
                 * @example order-4711-upload
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The right value of each key listed, typed as the job's field: text as a string, dates as `YYYY-MM-DD`, amounts and numbers as numbers, currencies as ISO 4217 codes, an enum as one of its values, lists as arrays of strings, tables as arrays of rows keyed by column; null when the document has none. Keys not listed are confirmed as read.
                     * @example {
                     *       "total": 36.6,
                     *       "date": "2026-11-20",
                     *       "company_name": "SANYU STATIONERY SHOP"
                     *     }
                     */
                    fields: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    readRegion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The job's field the words are read as.
                     * @example total
                     */
                    key: string;
                    /**
                     * @description For a table field: the column the words are read as (a cell's value).
                     * @example amount
                     */
                    column?: string;
                    /**
                     * @description The page, from 1.
                     * @example 1
                     */
                    page: string | number;
                    /**
                     * @description Fractions of the page's width and height from its top-left corner, as a value's `bbox`; it must lie on the page.
                     * @example {
                     *       "left": 0.62,
                     *       "top": 0.61,
                     *       "width": 0.2,
                     *       "height": 0.03
                     *     }
                     */
                    box: {
                        left: number;
                        top: number;
                        width: number;
                        height: number;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Region */
                        region: {
                            /**
                             * @description The words whose middle lies in the box, as the job's reading holds them, line by line; empty when none.
                             * @example 1.234,50 €
                             */
                            text: string;
                            /**
                             * @description The text read as the field's (or column's) type, as an answer is typed: `1.234,50 €` in an amount field is `"1234.50"`; null when it holds no value of the type.
                             * @example 1234.50
                             */
                            value: unknown;
                            /** @description Where the words found are printed, around all of them; null when none. */
                            bbox: {
                                left: number;
                                top: number;
                                width: number;
                                height: number;
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLayouts: {
        parameters: {
            query?: {
                /**
                 * @description 1–100, default 20.
                 * @example 20
                 */
                limit?: string;
                /** @description A layout ID from the previous page: list the layouts after it. */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        layouts: {
                            /** @example lay_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                            id: string;
                            /**
                             * @description The reviewed job that last taught it.
                             * @example job_01m7zvb9bb611cmatkr3ef5dhzw8cw
                             */
                            job_id: string;
                            /**
                             * @description The words of the sender's name line as the layout compares them (folded to letters and digits).
                             * @example sanyu supply sdn bhd
                             */
                            sender: string;
                            /** @description What the layout knows of each field key. */
                            fields: {
                                [key: string]: {
                                    /**
                                     * @description `printed`: read where the review found it; `constant`: the value the sender always has; `absent`: none; `table`: rows under the learned heading.
                                     * @enum {string}
                                     */
                                    how: "printed" | "constant" | "absent" | "table";
                                    /** @description The reviewed job that taught this field. */
                                    job_id: string;
                                };
                            };
                            /**
                             * Format: date-time
                             * @example 2026-11-27T14:08:00.000Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-27T14:08:00.000Z
                             */
                            updated_at: string;
                        }[];
                        has_more: boolean;
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteLayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example lay_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Forgotten. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccuracy: {
        parameters: {
            query?: {
                /**
                 * @description Only jobs created from this schema (one of the account's, deleted or not).
                 * @example sch_01m7zvb9bb611cmatkr3ef5dhzw8cw
                 */
                schema_id?: string;
                /**
                 * @description Only jobs of this document type (a catalog slug).
                 * @example invoice
                 */
                document_type?: string;
                /**
                 * @description Only jobs created at or after this time: a date (`YYYY-MM-DD`, from midnight UTC) or a date-time with its zone.
                 * @example 2026-11-01
                 */
                since?: string;
                /**
                 * @description The review threshold to count unchecked values at, 0–1: what if it were this. Default: the schema's `review_threshold` with `schema_id`, else 0.95.
                 * @example 0.9
                 */
                threshold?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The review threshold `unchecked` is counted at. */
                        threshold: number;
                        /** @description Reviewed jobs counted. */
                        jobs: string | number;
                        /** @description Per field key, in the order the keys first appear, newest job first. */
                        fields: {
                            /** @example total */
                            key: string;
                            /** @description Values reviewed: one per reviewed job that has the field, as its latest review left it. */
                            reviewed: string | number;
                            /** @description Values the reviewer left as read, an empty reading left empty included. */
                            right: string | number;
                            /** @description Values the reviewer changed, filled or emptied. */
                            corrected: string | number;
                            /** @description Values the engine read (not null). */
                            answered: string | number;
                            /** @description Of the values read, the share left as read. To 4 decimals; null when nothing was counted. */
                            precision: number | null;
                            /** @description Values the engine read none of and the reviewer gave. */
                            missed: string | number;
                            /** @description The values read, by confidence: 0–0.5, 0.5–0.8, 0.8–0.9, 0.9–0.95, 0.95–0.99, 0.99–1 (D292). */
                            bands: {
                                /** @description The least confidence of the band. */
                                from: number;
                                /** @description The confidence the band ends before (the last band holds 1 too). */
                                to: number;
                                /** @description Values read at a confidence in the band. */
                                values: string | number;
                                /** @description Of them, the values the reviewer left as read. */
                                right: string | number;
                                /** @description The share of them left as read. To 4 decimals; null when nothing was counted. */
                                precision: number | null;
                            }[];
                            /** @description What the threshold would have let through unchecked (D293). */
                            unchecked: {
                                /** @description Values read at a confidence of at least the threshold that break no sum: those no person would have checked. */
                                values: string | number;
                                /** @description Of them, the values the reviewer left as read. */
                                right: string | number;
                                /** @description Their share of the values reviewed. To 4 decimals; null when nothing was counted. */
                                share: number | null;
                                /** @description The share of them left as read. To 4 decimals; null when nothing was counted. */
                                precision: number | null;
                            };
                        }[];
                        /** @description All fields together. */
                        total: {
                            /** @description Values reviewed: one per reviewed job that has the field, as its latest review left it. */
                            reviewed: string | number;
                            /** @description Values the reviewer left as read, an empty reading left empty included. */
                            right: string | number;
                            /** @description Values the reviewer changed, filled or emptied. */
                            corrected: string | number;
                            /** @description Values the engine read (not null). */
                            answered: string | number;
                            /** @description Of the values read, the share left as read. To 4 decimals; null when nothing was counted. */
                            precision: number | null;
                            /** @description Values the engine read none of and the reviewer gave. */
                            missed: string | number;
                            /** @description The values read, by confidence: 0–0.5, 0.5–0.8, 0.8–0.9, 0.9–0.95, 0.95–0.99, 0.99–1 (D292). */
                            bands: {
                                /** @description The least confidence of the band. */
                                from: number;
                                /** @description The confidence the band ends before (the last band holds 1 too). */
                                to: number;
                                /** @description Values read at a confidence in the band. */
                                values: string | number;
                                /** @description Of them, the values the reviewer left as read. */
                                right: string | number;
                                /** @description The share of them left as read. To 4 decimals; null when nothing was counted. */
                                precision: number | null;
                            }[];
                            /** @description What the threshold would have let through unchecked (D293). */
                            unchecked: {
                                /** @description Values read at a confidence of at least the threshold that break no sum: those no person would have checked. */
                                values: string | number;
                                /** @description Of them, the values the reviewer left as read. */
                                right: string | number;
                                /** @description Their share of the values reviewed. To 4 decimals; null when nothing was counted. */
                                share: number | null;
                                /** @description The share of them left as read. To 4 decimals; null when nothing was counted. */
                                precision: number | null;
                            };
                        };
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhooks: components["schemas"]["Webhook"][];
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description An http(s) URL without credentials. Private and loopback addresses only when the operator allows them.
                     * @example https://example.com/hooks/extractd
                     */
                    url: string;
                    /**
                     * @description The events to receive, each once: job.succeeded, job.failed, job.reviewed.
                     * @example [
                     *       "job.succeeded",
                     *       "job.failed"
                     *     ]
                     */
                    events: ("job.succeeded" | "job.failed" | "job.reviewed")[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: components["schemas"]["CreatedWebhook"];
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the state of the resource (a job, an Idempotency-Key, the webhook limit): see `code` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example whk_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example whk_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        ok: true;
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description 1–100, default 20.
                 * @example 20
                 */
                limit?: string;
                /** @description An attempt ID from the previous page: list the attempts after it. */
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @example whk_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: components["schemas"]["WebhookDelivery"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description Invalid request: validation_failed, invalid_json or missing_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: {
                            /** @example key_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                            id: string;
                            /**
                             * @description The first 10 characters of the key, to tell keys apart.
                             * @example exd_Zq3_-x
                             */
                            prefix: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T19:08:00.000Z
                             */
                            created_at: string;
                            /** @description When it was revoked; null while it works. */
                            revoked_at: string | null;
                            /** @description Whether this is the key the request was made with. */
                            current: boolean;
                        }[];
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** CreatedApiKey */
                        key: {
                            /** @example key_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                            id: string;
                            /**
                             * @description The first 10 characters of the key, to tell keys apart.
                             * @example exd_Zq3_-x
                             */
                            prefix: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T19:08:00.000Z
                             */
                            created_at: string;
                            /** @description When it was revoked; null while it works. */
                            revoked_at: string | null;
                            /** @description Whether this is the key the request was made with. */
                            current: boolean;
                            /**
                             * @description The key itself, shown only in this answer: store it now.
                             * @example exd_Zq3_-x9…
                             */
                            key: string;
                        };
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example key_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** ApiKey */
                        key: {
                            /** @example key_01m7zvb9bb611cmatkr3ef5dhzw8cw */
                            id: string;
                            /**
                             * @description The first 10 characters of the key, to tell keys apart.
                             * @example exd_Zq3_-x
                             */
                            prefix: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T19:08:00.000Z
                             */
                            created_at: string;
                            /** @description When it was revoked; null while it works. */
                            revoked_at: string | null;
                            /** @description Whether this is the key the request was made with. */
                            current: boolean;
                        };
                    };
                };
            };
            /** @description Invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or owned by another account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is not available right now (service_unavailable, with Retry-After): retry shortly; or its storage is full (storage_full, D196): retry once its operator has freed space */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    jobSucceeded: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The message's ID, the same on every attempt of one event: the receiver's idempotency key.
                 * @example msg_01m7zvb9bb611cmatkr3ef5dhzw8cw
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was sent, in Unix seconds. Refuse messages older than a few minutes.
                 * @example 1795374480
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`. Space-separated when there are several; accept the message when one matches.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /** @example extractd/0.1.0 */
                "user-agent": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobSucceededEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx within 10 s (its body is not read). Nothing more is sent for this event. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt: sent again later, the delay doubling from the first retry delay up to an hour, for 24 hours after the event (D84). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, retried as a 4xx is. So are a timeout, a refused connection and a redirect (never followed). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    jobFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The message's ID, the same on every attempt of one event: the receiver's idempotency key.
                 * @example msg_01m7zvb9bb611cmatkr3ef5dhzw8cw
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was sent, in Unix seconds. Refuse messages older than a few minutes.
                 * @example 1795374480
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`. Space-separated when there are several; accept the message when one matches.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /** @example extractd/0.1.0 */
                "user-agent": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobFailedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx within 10 s (its body is not read). Nothing more is sent for this event. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt: sent again later, the delay doubling from the first retry delay up to an hour, for 24 hours after the event (D84). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, retried as a 4xx is. So are a timeout, a refused connection and a redirect (never followed). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    jobReviewed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The message's ID, the same on every attempt of one event: the receiver's idempotency key.
                 * @example msg_01m7zvb9bb611cmatkr3ef5dhzw8cw
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was sent, in Unix seconds. Refuse messages older than a few minutes.
                 * @example 1795374480
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`. Space-separated when there are several; accept the message when one matches.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /** @example extractd/0.1.0 */
                "user-agent": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobReviewedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx within 10 s (its body is not read). Nothing more is sent for this event. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt: sent again later, the delay doubling from the first retry delay up to an hour, for 24 hours after the event (D84). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, retried as a 4xx is. So are a timeout, a refused connection and a redirect (never followed). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
