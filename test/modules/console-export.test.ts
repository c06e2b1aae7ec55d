/** The console's exports (D333): CSV a spreadsheet reads as the values, and a curl command a shell runs as written. */
import { describe, expect, test } from 'bun:test'
import type { components } from '../../src/modules/console/ui/generated/api'
import { curlOfExtract, jobsCsv, tableRowsCsv } from '../../src/modules/console/ui/export'

type Job = components['schemas']['Job']

function job(id: string, result: Record<string, unknown>, fields: Job['fields']): Job {
  return {
    id,
    status: 'succeeded',
    document_type: 'invoice',
    schema_id: null,
    schema_version: null,
    fields,
    file: { name: `${id}.pdf`, size: 1, media_type: 'application/pdf', sha256: '' },
    progress: null,
    result,
    fields_meta: null,
    review_threshold: 0.95,
    needs_review: false,
    reviewed_at: null,
    error: null,
    engine: 'builtin',
    created_at: '2026-11-27T10:00:00.000Z',
    updated_at: '2026-11-27T10:00:00.000Z',
    completed_at: '2026-11-27T10:00:01.000Z',
  }
}

const field = (key: string, type: Job['fields'][number]['type']) => ({ key, label: key, description: '', type })

describe('CSV of jobs', () => {
  test('one line per job, each field a column in the order first met, tables left to the rows file', () => {
    const a = job('job_a', { total: '12.50', vendor: 'Acme, "Ltd"', lines: [{ item: 'x' }] }, [
      field('total', 'amount'),
      field('vendor', 'text'),
      field('lines', 'table'),
    ])
    const b = job('job_b', { iban: 'DE89', total: null }, [field('iban', 'text'), field('total', 'amount')])
    expect(jobsCsv([a, b])).toBe(
      'job_id,file_name,status,document_type,schema_id,schema_version,created_at,total,vendor,iban\r\n' +
        'job_a,job_a.pdf,succeeded,invoice,,,2026-11-27T10:00:00.000Z,12.50,"Acme, ""Ltd""",\r\n' +
        'job_b,job_b.pdf,succeeded,invoice,,,2026-11-27T10:00:00.000Z,,,DE89\r\n',
    )
  })

  test('a value that would start a formula is text; a negative number stays a number', () => {
    const a = job('job_a', { note: '=HYPERLINK("x")', refund: '-12.50', tags: ['a', 'b'] }, [
      field('note', 'text'),
      field('refund', 'amount'),
      field('tags', 'list'),
    ])
    expect(jobsCsv([a]).split('\r\n')[1]).toBe(`job_a,job_a.pdf,succeeded,invoice,,,2026-11-27T10:00:00.000Z,"'=HYPERLINK(""x"")",-12.50,a; b`)
  })

  test('table rows: one line per row, numbered from 1, with every column any row has', () => {
    const a = job(
      'job_a',
      {
        lines: [
          { item: 'Paper', qty: 10 },
          { item: 'Toner', amount: '118.00' },
        ],
      },
      [field('lines', 'table')],
    )
    expect(tableRowsCsv([a])).toBe(
      'job_id,file_name,field,row,item,qty,amount\r\njob_a,job_a.pdf,lines,1,Paper,10,\r\njob_a,job_a.pdf,lines,2,Toner,,118.00\r\n',
    )
  })
})

describe('copy as curl', () => {
  test('quotes the file name and the extract part for the shell and for curl, and leaves the key in $EXTRACTD_KEY', () => {
    expect(curlOfExtract('http://127.0.0.1:3000', "Bob's invoice, 2.pdf", { document_type: 'invoice', fields: { note: { description: "it's; here" } } })).toBe(
      [
        'curl -sS http://127.0.0.1:3000/api/v1/extract',
        '  -H "Authorization: Bearer $EXTRACTD_KEY"',
        `  -F 'file=@"Bob'\\''s invoice, 2.pdf"'`,
        `  --form-string 'extract={"document_type":"invoice","fields":{"note":{"description":"it'\\''s; here"}}}'`,
      ].join(' \\\n'),
    )
  })
})
