/**
 * Text that traps regular expressions (issue 30, D186): the text, HTML and Markdown readers, media
 * type detection and the built-in engine read every shape of test/helpers/text-traps.ts to an
 * answer, and the scanners that replaced backtracking expressions read what those read.
 * `bun run bench:text-traps` times the same shapes at a megabyte.
 */
import { describe, expect, test } from 'bun:test'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import { inProcessExtractor } from '../../../src/modules/extraction/extractor'
import { findShape } from '../../../src/modules/extraction/normalise/shapes'
import { detectMediaType } from '../../../src/modules/extraction/readers'
import { atEachEnd, READ_AT_EACH_END } from '../../../src/modules/extraction/engines/builtin/context'
import { boundHits, type LabelHit } from '../../../src/modules/extraction/engines/builtin/labels'
import { readHtml } from '../../../src/modules/extraction/readers/html'
import { readMarkdown, readText } from '../../../src/modules/extraction/readers/text'
import { DEFAULT_READ_LIMITS, MEDIA_TYPES } from '../../../src/modules/extraction/readers/types'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { TEXT_TRAPS, type TrapKind, trapFields } from '../../helpers/text-traps'
import { taskAnswers } from '../../helpers/answers'

const encode = (text: string) => new TextEncoder().encode(text)
const MEDIA: Record<TrapKind, (typeof MEDIA_TYPES)[keyof typeof MEDIA_TYPES]> = {
  text: MEDIA_TYPES.text,
  html: MEDIA_TYPES.html,
  markdown: MEDIA_TYPES.markdown,
}

describe('every trap is read to an answer: detection, reader and engine with the invoice fields and named ones', () => {
  const extract = inProcessExtractor(builtinEngine)
  const fields = trapFields()
  for (const kind of ['text', 'html', 'markdown'] as const) {
    test(`${kind}: each shape of 32 KiB`, async () => {
      for (const trap of TEXT_TRAPS.filter((each) => each.kind === kind)) {
        const content = encode(trap.make(32 * 1024))
        expect(detectMediaType(content)).toBeDefined()
        let outcome = 'succeeded'
        try {
          const answers = taskAnswers(
            await extract({ content, mediaType: MEDIA[kind], documentType: 'invoice', issuedBySeller: true, fields, limits: DEFAULT_READ_LIMITS }),
          )
          expect(Object.keys(answers)).toContain('invoice_number')
        } catch (error) {
          expect(error).toBeInstanceOf(ExtractionError)
          outcome = (error as ExtractionError).code
        }
        // A trap of nothing but markup or blank lines has no text; anything else is read.
        expect([trap.name, outcome]).toEqual([trap.name, expect.stringMatching(/^(?:succeeded|empty_document)$/)])
      }
    }, 300_000)
  }
})

/** A text read through the whole extraction, as a job of the type reads it (an invoice's fields and named ones). */
const extractText = async (text: string, type = 'invoice') =>
  taskAnswers(
    await inProcessExtractor(builtinEngine)({
      content: encode(text),
      mediaType: MEDIA_TYPES.text,
      documentType: type,
      issuedBySeller: loadCatalog().get(type)!.issued_by_seller === true,
      fields: trapFields(type),
      limits: DEFAULT_READ_LIMITS,
    }),
  )

test('one line of a title word repeated (256 KiB) is read to an answer, in linear time', async () => {
  // Each title looks for number marks at 30 places after it; when every look put the line in lower
  // case again (or hashed it to find it put so), this took about 50 s, and 1 MiB over 10 minutes.
  const answers = await extractText('Invoice '.repeat(32 * 1024))
  expect(answers.invoice_number!.value).toBeNull()
}, 20_000)

describe('amount checks and the table search are linear in the lines (D392)', () => {
  const read = (unit: string, size: number) => extractText(unit.repeat(Math.ceil(size / unit.length)))
  const values = (answers: Awaited<ReturnType<typeof read>>) => ({ subtotal: answers.subtotal!.value, tax: answers.tax!.value, total: answers.total!.value })

  // Each took over two minutes before (every subtotal and tax pair looked for on every line: 8 KiB took 100 s).
  test('subtotal and tax lines with no total (64 KiB), and with the sum printed after them', async () => {
    expect(values(await read('Subtotal: 10,00\nVAT: 1,90\n', 64 * 1024))).toEqual({ subtotal: '10.00', tax: '1.90', total: null })
    expect(values(await read('Subtotal: 10,00\nVAT: 1,90\nPaid: 11,90\n', 64 * 1024))).toEqual({ subtotal: '10.00', tax: '1.90', total: '11.90' })
  }, 30_000)

  // Each took a minute or more at this size before (every pair of candidates, or a table read from every header).
  test('subtotal, tax and total lines; totals with rounding lines; table headers with no rows (512 KiB each)', async () => {
    expect(values(await read('Subtotal: 10,00\nVAT: 1,90\nTotal: 11,90\n', 512 * 1024))).toEqual({ subtotal: '10.00', tax: '1.90', total: '11.90' })
    expect(values(await read('Total: 10,00\nRounding: 0,01\n', 512 * 1024))).toEqual({ subtotal: null, tax: null, total: '10.00' })
    expect((await read('ACME GmbH\nDescription  Qty  Unit price  Total\n', 512 * 1024)).line_items!.value).toBeNull()
  }, 30_000)
})

describe('a label or a duration printed thousands of times is read at the ends of the document (D393)', () => {
  test("of one owner's hits, the first and the last 500 are kept, in order; an owner with fewer keeps all", () => {
    const hit = (owner: string, index: number) => ({ line: { index }, entry: { owner, squashed: owner } }) as unknown as LabelHit
    const totals = Array.from({ length: 2 * READ_AT_EACH_END + 7 }, (_, index) => hit('total', 2 * index))
    const sellers = Array.from({ length: 30 }, (_, index) => hit('issuer', 2 * index + 1))
    const kept = boundHits(
      [...totals, ...sellers].sort((a, b) => a.line.index - b.line.index),
      READ_AT_EACH_END,
    )
    const indexes = (owner: string) => kept.filter((each) => each.entry.owner === owner).map((each) => each.line.index)
    expect(indexes('issuer')).toEqual(sellers.map((each) => each.line.index))
    expect(indexes('total')).toEqual([...totals.slice(0, READ_AT_EACH_END), ...totals.slice(-READ_AT_EACH_END)].map((each) => each.line.index))
    expect(kept.map((each) => each.line.index)).toEqual(kept.map((each) => each.line.index).sort((a, b) => a - b))
    expect(boundHits(sellers, READ_AT_EACH_END)).toBe(sellers)
    const numbers = Array.from({ length: 1005 }, (_, index) => index)
    expect(atEachEnd(numbers, 500)).toEqual([...numbers.slice(0, 500), ...numbers.slice(505)])
    expect(atEachEnd(numbers.slice(0, 1000), 500)).toEqual(numbers.slice(0, 1000))
  })

  test('a due date in a payment sentence is read among the first 500 lines that print a date, not among the middle ones of more', async () => {
    const dated = 'Date: 01.02.2023\n'.repeat(600)
    const sentence = 'Please pay by 20.03.2024.\n'
    expect((await extractText(`${sentence}${dated}${dated}`)).due_date!.value).toBe('2024-03-20')
    expect((await extractText(`${dated}${sentence}${dated}`)).due_date!.value).toBeNull()
  }, 30_000)

  test("60,000 seller labels: the seller is the first one's name, and a name printed only among the middle ones is not read", async () => {
    const middle = 'Seller: Foo\n'.repeat(30_000)
    expect((await extractText(`Seller: Alpha Handel GmbH\n${middle}${middle}`)).company_name!.value).toBe('Alpha Handel GmbH')
    // A name with a legal form outranks those without; printed 30,000 labels down, it is not read.
    expect((await extractText(`${middle}Seller: Beta Handel GmbH\n${middle}`)).company_name!.value).toBe('Foo')
  }, 30_000)

  test('a contract of 40,000 lines of its term: the term is read, and another printed only among the middle ones is not', async () => {
    // The sentence is surer than a label, but it is not read among the middle ones.
    const half = '1. Term: 3 years.\n'.repeat(20_000)
    const text = `${half}The term of this Agreement shall be two (2) years from the date hereof.\n${half}`
    expect((await extractText(text, 'contract')).term!.value).toBe('3 years')
  }, 30_000)
})

describe('text and Markdown: trims and markup found without backtracking', () => {
  test('trailing spaces and tabs go from every line, however long the run before the last letter', () => {
    expect(readText(encode(`${' '.repeat(100_000)}x \t \ny\t\t\nz`))).toEqual([`${' '.repeat(100_000)}x\ny\nz`])
  })

  test("a heading's closing hashes go; a pipe then a line of spaces is a row, not a separator; links and emphasis are stripped", () => {
    const page = readMarkdown(encode(`# Title ##\n|${' '.repeat(50_000)}x\n| a | b |\n|---|:---:|\n| 1 | 2 |\n[link](http://x.y) **bold** ~~gone~~`))[0]!
    expect(page.split('\n')).toEqual(['Title', 'x', 'a\tb', '1\t2', 'link bold gone'])
  })

  test('emphasis never closed and links never closed are left as written', () => {
    const line = `${'**a '.repeat(5_000)}${'[a]('.repeat(5_000)}`
    expect(readMarkdown(encode(`# T\n${line}`))[0]).toBe(`T\n${line.trimEnd()}`)
  })
})

describe('HTML: markup left open is text, as it was', () => {
  test('a comment never closed, a tag whose quote never closes, and tags never closed', () => {
    expect(readHtml(encode(`<p>Total 12,00</p><!-- ${'x'.repeat(20)}`))).toEqual([`Total 12,00\n<!-- ${'x'.repeat(20)}`])
    expect(readHtml(encode('<p>Total</p><a href="x>Invoice</a><p>Due</p>'))).toEqual(['Total\n<a href="x>Invoice\nDue'])
    expect(readHtml(encode(`<p>Total</p>${'<a '.repeat(5)}<p>Due</p>`))).toEqual(['Total\nDue'])
  })

  test('a row of many cells is one line of tab-separated cells', () => {
    expect(readHtml(encode(`<table><tr>${'<td>1 </td>'.repeat(10_000)}</tr></table>`))).toEqual([Array(10_000).fill('1').join('\t')])
  })

  test('detection passes leading comments one by one: sixty empty comments then a tag are HTML, then a word are text', () => {
    expect(detectMediaType(encode(`${'<!---->'.repeat(60)}<html><body>x</body></html>`))).toBe(MEDIA_TYPES.html)
    expect(detectMediaType(encode(`${'<!---->'.repeat(60)}x`))).toBe(MEDIA_TYPES.text)
    expect(detectMediaType(encode(`${'\n'.repeat(60_000)}x`))).toBe(MEDIA_TYPES.text)
  })
})

describe('the engine: bounded shapes', () => {
  test('an e-mail address is found where its local part starts; one longer than any real one (64) is none', () => {
    expect(findShape('email', 'Contact: billing.team@example.co.uk, thanks')).toEqual({ value: 'billing.team@example.co.uk', start: 9 })
    expect(findShape('email', `${'a'.repeat(65)}@example.com`)).toBeUndefined()
    expect(findShape('email', 'a'.repeat(100_000))).toBeUndefined()
  })

  test('an IBAN is found in any case, upper-cased', () => {
    expect(findShape('iban', 'iban: de89 3704 0044 0532 0130 00')).toMatchObject({ value: 'DE89370400440532013000' })
  })
})

describe('labels along one line, each in its own cell, are read in linear time (D411)', () => {
  // Each label asked about its whole line (is it a header row, which labels open its cells, is its
  // cell a letterhead's name), and each law word was read with the text after it: at 256 KiB an
  // invoice's line of "Invoice No" took 33 s and a contract's line of "Governing Law" 21 s.
  const along = (unit: string, size = 512 * 1024) => `${unit.repeat(Math.ceil(size / unit.length))}1.00`
  const values = (answers: Awaited<ReturnType<typeof extractText>>, keys: string[]) => Object.fromEntries(keys.map((key) => [key, answers[key]!.value]))

  test('invoice numbers (512 KiB)', async () => {
    expect(values(await extractText(along('Invoice No  ')), ['invoice_number', 'company_name'])).toEqual({ invoice_number: null, company_name: null })
  }, 15_000)

  test('dates (1 MiB)', async () => {
    expect(values(await extractText(along('Date  ', 1024 * 1024)), ['date', 'due_date'])).toEqual({ date: null, due_date: null })
  }, 15_000)

  test('discounts, each read as a name of the letterhead (512 KiB)', async () => {
    expect(values(await extractText(along('Discount  ')), ['company_name', 'total'])).toEqual({ company_name: null, total: null })
  }, 15_000)

  test("a contract's governing laws (512 KiB)", async () => {
    expect(values(await extractText(along('Governing Law  '), 'contract'), ['governing_law'])).toEqual({ governing_law: null })
  }, 15_000)
})
