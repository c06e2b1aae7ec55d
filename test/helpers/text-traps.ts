/**
 * Texts shaped to trap a regular expression (D186): long runs of one character, separators,
 * repeated label words, unclosed tags and comments, Markdown markup never closed, one huge line or
 * a flood of short ones. Each is made to a size, so the same shape runs at a kilobyte in a test
 * and at a megabyte in the benchmark (bench/text-traps.ts).
 */
import { resolveField } from '../../src/lib/fields/resolve'
import type { FieldInput, JobField } from '../../src/lib/fields/model'
import { loadCatalog } from '../../src/modules/catalog/service'

export type TrapKind = 'text' | 'html' | 'markdown'

export interface TextTrap {
  name: string
  kind: TrapKind
  /** The catalog type it is read as: the invoice unless it says otherwise. */
  type?: string
  /** About `size` characters of the shape. */
  make: (size: number) => string
}

/** `unit` repeated to about `size` characters, then `end`. */
function fill(unit: string, size: number, end = ''): string {
  return unit.repeat(Math.max(1, Math.floor((size - end.length) / unit.length))) + end
}

/** Runs of one character or of a short pattern, on one line or on many, as text. */
const RUNS: [name: string, unit: string, end?: string][] = [
  ['spaces then a letter', ' ', 'x'],
  ['tabs then a letter', '\t', 'x'],
  ['spaces and tabs', ' \t', 'x'],
  ['newlines', '\n', 'x'],
  ['blank lines of spaces', '   \n'],
  ['CR LF', '\r\n', 'x'],
  ['form feeds', '\f', 'x'],
  ['digits', '1'],
  ['digits then a letter', '9', 'x'],
  ['digit groups with spaces', '1 '],
  ['digit groups with commas', '12,'],
  ['digit groups with dots', '12.'],
  ['amount-like numbers', '1.234,56 '],
  ['decimal numbers', '0.5'],
  ['minus signs', '-'],
  ['dots', '.'],
  ['dot leaders on lines', `Total${'.'.repeat(60)}\n`],
  ['dashes on lines', `${'-'.repeat(80)}\n`],
  ['underscores', '_'],
  ['equals signs', '='],
  ['colons', ':'],
  ['semicolons', ';'],
  ['slashes', '/'],
  ['backslashes', '\\'],
  ['pipes', '|'],
  ['hashes', '#'],
  ['asterisks', '*'],
  ['plus signs', '+'],
  ['parentheses open', '('],
  ['brackets open', '['],
  ['quotes', '"'],
  ['apostrophes', "'"],
  ['at signs', '@'],
  ['percent signs', '%'],
  ['currency signs', '€'],
  ['euro amounts', '€ 1.234,56 '],
  ['dollar amounts', '$1,234.56 '],
  ['dates', '01.02.2023 '],
  ['ISO dates', '2023-02-01 '],
  ['slash dates', '1/2/2023 '],
  ['times', '12:30 '],
  ['percentages', '19% '],
  ['one letter words', 'a '],
  ['one long word', 'a'],
  ['capital words', 'ACME '],
  ['words on one line', 'word '],
  ['words on short lines', 'word\n'],
  ['label word repeated', 'Invoice '],
  ['label with colon repeated', 'Invoice number: '],
  ['label lines', 'Invoice number:\n'],
  ['total labels', 'Total '],
  ['total lines', 'Total: 1.234,56 EUR\n'],
  ['date labels', 'Date: '],
  ['due date labels', 'Due date '],
  ['IBAN labels', 'IBAN '],
  ['IBAN-like groups', 'DE89 3704 0044 0532 0130 00 '],
  ['VAT ids', 'DE123456789 '],
  ['VAT labels', 'VAT '],
  ['e-mail fragments', 'a@b.'],
  ['e-mail addresses', 'name@example.com '],
  ['URLs', 'http://example.com/'],
  ['phone numbers', '+49 30 123456 '],
  ['postcodes and towns', '10115 Berlin '],
  ['street lines', 'Main Street 1\n'],
  ['company forms', 'GmbH '],
  ['table-like rows', 'Item\t1\t12,00\t12,00\n'],
  ['subtotal and tax lines', 'Subtotal: 10,00\nVAT: 1,90\n'],
  ['subtotal, tax and total lines', 'Subtotal: 10,00\nVAT: 1,90\nTotal: 11,90\n'],
  ['total and rounding lines', 'Total: 10,00\nRounding: 0,01\n'],
  ['seller labels', 'Seller: Foo Ltd\n'],
  ['bill-to labels', 'Bill to: Foo Ltd\n'],
  ['due date lines', 'Due date: 01.03.2023\n'],
  ['amounts tendered', 'CASH      50.00\nVISA      12.40\n'],
  ['sender lines', 'Foo GmbH · Hafenweg 7 · 20457 Hamburg\n'],
  ['payment method labels', 'Payment method: Bank transfer\n'],
  ['statement headers and rows', 'Date  Description  Debit  Credit  Balance\n01.02.2023  Payment  10,00  90,00\n'],
  ['table headers', 'Description  Qty  Unit price  Total\n'],
  ['table headers between lines', 'ACME GmbH\nDescription  Qty  Unit price  Total\n'],
  ['tab-separated numbers', '1\t'],
  ['columns of spaces', 'a          b          c\n'],
  ['mixed separators', '-:./ '],
  ['letter digit mix', 'a1'],
  ['invoice numbers', 'INV-2023-0042 '],
  ['hyphenated words', 'a-'],
  ['ellipses', '…'],
  ['non-breaking spaces', '\u00a0'],
  ['zero-width spaces', '\u200b'],
  ['replacement characters', '\ufffd'],
  ['combining marks', 'e\u0301'],
]

/**
 * Lines of every catalog type's kind, for texts of two or three kinds of lines repeated
 * (bench/text-combos.ts, D392): labels with values, table headers and rows, names, addresses.
 */
export const TEXT_COMBO_LINES = [
  'Total: 10,00',
  'Subtotal: 10,00',
  'VAT 19%: 1,90',
  'Tax: 1,90',
  'Rounding: 0,01',
  'Cash: 20,00',
  'Change: 5,00',
  'Invoice number: INV-1',
  'Date: 01.02.2023',
  'Due date: 01.03.2023',
  'Bill to: ACME GmbH',
  'ACME GmbH',
  'Main Street 1',
  '10115 Berlin',
  'IBAN DE89 3704 0044 0532 0130 00',
  'Item\t1\t12,00\t12,00',
  'Description  Qty  Unit price  Total',
  'Widget  2  5,00  10,00',
  'GST Summary',
  'Amount paid: 10,00',
  'Balance due: 5,00',
  'Net Total 10,00',
  'Total incl. VAT 11,90',
  'Discount -1,00',
  'Seller: Foo Ltd',
  'Customer: Bar Inc',
  'Email: a@b.com',
  'Total 10.00 Tax 1.90',
  '1 x Coffee 3.50',
  'This Agreement is made between Foo Ltd and Bar Inc.',
  'Governing law: England and Wales',
  'Term: 2 years',
  'Effective date: 1 January 2023',
  'Date  Description  Debit  Credit  Balance',
  '01.02.2023  Payment  10,00  90,00',
  'Patient: John Doe',
  'Test  Result  Unit  Reference range',
  'Gross pay 3.000,00',
  'Passport No. X1234567',
  'Purchase order: PO-1',
]

/** HTML shapes: markup left open, floods of comments, entities and nesting. */
const HTML: [name: string, make: (size: number) => string][] = [
  ['comment openers', (size) => fill('<!--', size)],
  ['closed empty comments', (size) => `${fill('<!---->', size)}x`],
  ['comments then no tag', (size) => fill('<!-- a -->\n', size)],
  ['unclosed comment then text', (size) => `<html><body><!--${fill('a', size)}`],
  ['tag openers', (size) => fill('<a', size)],
  ['tag openers with space', (size) => fill('<a ', size)],
  ['lone less-than signs', (size) => fill('<', size)],
  ['declarations unclosed', (size) => fill('<!', size)],
  ['processing instructions unclosed', (size) => fill('<?', size)],
  ['CDATA openers', (size) => fill('<![CDATA[', size)],
  ['attribute quotes unclosed', (size) => fill('<a href="', size)],
  ['attribute single quotes unclosed', (size) => fill("<a title='", size)],
  ['many attributes', (size) => `<div ${fill('a="b" ', size)}>x</div>`],
  ['entities unterminated', (size) => fill('&amp', size)],
  ['ampersands', (size) => fill('&', size)],
  ['numeric entities', (size) => fill('&#', size)],
  ['deep divs', (size) => `<html><body>${fill('<div>', size / 2)}x${fill('</div>', size / 2)}</body></html>`],
  ['deep lists', (size) => `<html><body>${fill('<ul><li>', size / 2)}x</body></html>`],
  ['table cells', (size) => `<table><tr>${fill('<td>1</td>', size)}</tr></table>`],
  ['table rows', (size) => `<table>${fill('<tr><td>Total</td><td>1,00</td></tr>', size)}</table>`],
  ['breaks', (size) => fill('<br>', size)],
  ['paragraphs', (size) => fill('<p>Invoice</p>', size)],
  ['spaces in a paragraph', (size) => `<p>${fill(' ', size)}x</p>`],
  ['preformatted lines', (size) => `<pre>${fill('a\n', size)}</pre>`],
  ['scripts unclosed', (size) => `<script>${fill('a', size)}`],
  ['style attributes', (size) => fill('<div style="page-break-before: always">x</div>', size)],
  ['page breaks', (size) => fill('<div style="break-before:page">Invoice 1</div>', size)],
]

/** Markdown shapes: emphasis, links, tables and blocks opened and never closed. */
const MARKDOWN: [name: string, make: (size: number) => string][] = [
  ['double asterisks', (size) => `# Invoice\n\n${fill('**a', size)}`],
  ['single asterisks', (size) => `# Invoice\n\n${fill('*a', size)}`],
  ['underscores', (size) => `# Invoice\n\n${fill('_a', size)}`],
  ['double underscores', (size) => `# Invoice\n\n${fill('__a', size)}`],
  ['tildes', (size) => `# Invoice\n\n${fill('~~a', size)}`],
  ['backticks', (size) => `# Invoice\n\n${fill('`a', size)}`],
  ['brackets', (size) => `# Invoice\n\n${fill('[', size)}`],
  ['bracket words', (size) => `# Invoice\n\n${fill('[a', size)}`],
  ['links unclosed', (size) => `# Invoice\n\n${fill('[a](', size)}`],
  ['images unclosed', (size) => `# Invoice\n\n${fill('![a](', size)}`],
  ['links', (size) => `# Invoice\n\n${fill('[a](b) ', size)}`],
  ['table pipes', (size) => `# Invoice\n\n${fill('|', size)}`],
  ['table row of cells', (size) => `# Invoice\n\n${fill('| a ', size)}|`],
  ['table separator cells', (size) => `# Invoice\n\n${fill('|---', size)}|`],
  ['table separator spaces', (size) => `# Invoice\n\n|${fill(' ', size)}x`],
  ['table rows', (size) => `# Invoice\n\n| a | b |\n|---|---|\n${fill('| 1 | 2 |\n', size)}`],
  ['escaped pipes', (size) => `# Invoice\n\n|${fill('\\|', size)}`],
  ['heading hashes', (size) => fill('# ', size)],
  ['heading trailing hashes', (size) => `# a${fill(' #', size)} x`],
  ['heading spaces', (size) => `#${fill(' ', size)}x`],
  ['blockquote marks', (size) => `# Invoice\n\n${fill('> ', size)}`],
  ['rule-like lines', (size) => `# Invoice\n\n${fill('- ', size)}x`],
  ['rule-like spaces', (size) => `# Invoice\n\n-${fill(' ', size)}x`],
  ['deep lists', (size) => `# Invoice\n\n${Array.from({ length: Math.max(1, Math.floor(Math.sqrt(size))) }, (_, i) => `${' '.repeat(i)}- item`).join('\n')}`],
  ['list markers', (size) => `# Invoice\n\n${fill('- a\n', size)}`],
  ['numbered list markers', (size) => `# Invoice\n\n${fill('1. a\n', size)}`],
  ['fences', (size) => `# Invoice\n\n${fill('```\n', size)}`],
  ['line breaks in html', (size) => `# Invoice\n\n${fill('<br', size)}`],
  ['emphasis floods on lines', (size) => `# Invoice\n\n${fill('**Total** 1,00 _EUR_\n', size)}`],
]

/**
 * Lines whose amounts are each their own, then a total: one amount repeated is one candidate, but
 * different ones may each meet the others (D392, D405, D408, D410).
 */
const NUMBERED: [name: string, lines: (i: number) => string][] = [
  [
    'subtotals, zero-rated totals and charges, each amount its own',
    (i) => `Subtotal ${i + 1}.00\nTotal 0% supplies ${i * 7 + 3}.00\nService charge ${(i % 5) + 1}.50\n`,
  ],
  [
    'discounts and charges above each net amount, each amount its own',
    (i) => `Discount -${(i % 7) + 1}.25\nShipping Cost ${i % 3}.10\nNet amount ${i + 10}.00\n`,
  ],
]

/** Lines `lines(0)`, `lines(1)` … to about `size` characters, then a rounding, a tax and a total. */
function numbered(lines: (i: number) => string, size: number): string {
  const parts: string[] = []
  for (let length = 0, i = 0; length < size; i++) {
    parts.push(lines(i))
    length += parts[i]!.length
  }
  return `${parts.join('')}Rounding adj -0.02\nGST 1.23\nTOTAL PAYABLE 99999.99\n`
}

/**
 * Labels along one line, each in a cell of its own: every label asks about its line, and what it
 * asked cost the square of their number (D411). Read as the type whose readers they call.
 */
const LABELS_ALONG: [name: string, type: string, unit: string][] = [
  ['invoice numbers along one line', 'invoice', 'Invoice No  '],
  ['dates along one line', 'invoice', 'Date  '],
  ['discounts along one line', 'invoice', 'Discount  '],
  ['governing laws along one line', 'contract', 'Governing Law  '],
]

/** Every trap: the runs as plain text, labels along a line, the lines of amounts, and the HTML and Markdown shapes. */
export const TEXT_TRAPS: TextTrap[] = [
  ...RUNS.map(([name, unit, end]): TextTrap => ({ name: `text: ${name}`, kind: 'text', make: (size) => fill(unit, size, end) })),
  ...LABELS_ALONG.map(([name, type, unit]): TextTrap => ({ name: `text: ${name}`, kind: 'text', type, make: (size) => fill(unit, size, '1.00') })),
  ...NUMBERED.map(([name, lines]): TextTrap => ({ name: `text: ${name}`, kind: 'text', make: (size) => numbered(lines, size) })),
  ...HTML.map(([name, make]): TextTrap => ({ name: `html: ${name}`, kind: 'html', make })),
  ...MARKDOWN.map(([name, make]): TextTrap => ({ name: `markdown: ${name}`, kind: 'markdown', make })),
]

/**
 * The fields a trap is read for: a catalog type's, as a job of that type asks for them, and for an
 * invoice a few a user names too (so the engine's readers for named fields run).
 */
export function trapFields(type = 'invoice'): JobField[] {
  const catalogType = loadCatalog().get(type)!
  const catalogFields = catalogType.fields.map((field) => resolveField(field, field))
  if (type !== 'invoice') return catalogFields
  const named: Omit<FieldInput, 'required'>[] = [
    { key: 'po_reference', label: 'PO reference', description: '', type: 'auto' },
    { key: 'delivery_date', label: 'Delivery date', description: '', type: 'auto' },
    { key: 'contact_email', label: 'Contact e-mail', description: '', type: 'auto' },
    { key: 'shipping_cost', label: 'Shipping cost', description: '', type: 'auto' },
  ]
  return [...catalogFields, ...named.map((field) => resolveField(field))]
}
