/**
 * The shown jobs' results as files (D333): CSV with one row per job and a second CSV with one row
 * per table row, and JSON as the API answers them; and the curl command of a request.
 */
// The API's types straight from their generated file: this file is tested in Bun, without the DOM api.ts needs.
import type { components } from './generated/api.ts'

type Job = components['schemas']['Job']

const JOB_COLUMNS = ['job_id', 'file_name', 'status', 'document_type', 'schema_id', 'schema_version', 'created_at'] as const

/** One line per job: its facts, then every non-table field any of them has, in the order first met. */
export function jobsCsv(jobs: Job[]): string {
  const keys = unionOf(jobs.flatMap((job) => job.fields.filter((field) => field.type !== 'table').map((field) => field.key)))
  const rows = jobs.map((job) => [...facts(job), ...keys.map((key) => job.result?.[key])])
  return csv([[...JOB_COLUMNS, ...keys], ...rows])
}

/** One line per row of every table field: the job, the field, the row's number from 1, then its cells. */
export function tableRowsCsv(jobs: Job[]): string {
  const lines: { job: Job; field: string; index: number; row: Record<string, unknown> }[] = []
  for (const job of jobs)
    for (const field of job.fields) {
      const rows = field.type === 'table' ? job.result?.[field.key] : undefined
      if (Array.isArray(rows))
        rows.forEach((row, index) => lines.push({ job, field: field.key, index: index + 1, row: (row ?? {}) as Record<string, unknown> }))
    }
  const columns = unionOf(lines.flatMap((line) => Object.keys(line.row)))
  return csv([
    ['job_id', 'file_name', 'field', 'row', ...columns],
    ...lines.map((line) => [line.job.id, line.job.file.name, line.field, line.index, ...columns.map((column) => line.row[column])]),
  ])
}

function facts(job: Job): unknown[] {
  return [job.id, job.file.name, job.status, job.document_type, job.schema_id, job.schema_version, job.created_at]
}

function unionOf(keys: string[]): string[] {
  return [...new Set(keys)]
}

/** RFC 4180: CRLF lines, quoted where needed. */
function csv(rows: unknown[][]): string {
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`
}

/** A cell that starts like a formula is prefixed with `'` so a spreadsheet shows it as text; numbers stay numbers. */
const FORMULA_START = /^[=+\-@\t\r]/
const NUMBER = /^-?\d+(\.\d+)?$/

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = Array.isArray(value)
    ? value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join('; ')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value)
  if (FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A word for a POSIX shell: single-quoted unless it is plain. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** curl reads `;` and `,` after a file name as its options: such a name goes in double quotes. */
function curlFileName(name: string): string {
  return /[";,\\]/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : name
}

/**
 * The extraction just made, as curl (D333): the same file and `extract` part, the key left in
 * `$EXTRACTD_KEY` (never copied), and synchronous, so the command prints the job with its result.
 */
export function curlOfExtract(origin: string, fileName: string, extractPart: Record<string, unknown>): string {
  return [
    `curl -sS ${shellWord(`${origin}/api/v1/extract`)}`,
    `  -H "Authorization: Bearer $EXTRACTD_KEY"`,
    `  -F ${shellWord(`file=@${curlFileName(fileName)}`)}`,
    `  --form-string ${shellWord(`extract=${JSON.stringify(extractPart)}`)}`,
  ].join(' \\\n')
}
