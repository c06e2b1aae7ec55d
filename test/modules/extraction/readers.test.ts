/**
 * Readers (D21, D22): media types detected from content alone, and every accepted format read
 * into page texts — PDFs page by page with their columns kept apart, DOCX paragraphs, tables and
 * page breaks, HTML without its markup, text and Markdown. Documents are built by the tests.
 */
import { describe, expect, test } from 'bun:test'
import { strToU8, zipSync } from 'fflate'
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'
import { ExtractionError } from '../../../src/modules/extraction/errors'
import { detectMediaType, readDocument } from '../../../src/modules/extraction/readers'
import { MEDIA_TYPES } from '../../../src/modules/extraction/readers/types'

const utf8 = (text: string) => new TextEncoder().encode(text)

async function pdfWith(pages: { text: string; x: number; y: number }[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (const runs of pages) {
    const page = pdf.addPage([595, 842])
    for (const run of runs) page.drawText(run.text, { x: run.x, y: run.y, size: 11, font })
  }
  return pdf.save()
}

function docx(bodyXml: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${bodyXml}</w:body></w:document>`
  return zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    'word/document.xml': strToU8(document),
    ...extra,
  })
}

const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`

/** A minimal PDF whose trailer names a standard security handler: opening it needs a password. */
function encryptedPdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
    '<< /Length 0 >>\nstream\n\nendstream',
    `<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`,
  ]
  let body = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((object, i) => {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${object}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 5 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>] >>\nstartxref\n${xref}\n%%EOF\n`
  return utf8(body)
}

async function readError(bytes: Uint8Array, mediaType: Parameters<typeof readDocument>[1]): Promise<ExtractionError> {
  try {
    await readDocument(bytes, mediaType)
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return error as ExtractionError
  }
  throw new Error('expected the document to be rejected')
}

describe('detectMediaType', () => {
  test('recognises a PDF by its %PDF- header', async () => {
    expect(detectMediaType(await pdfWith([[{ text: 'Hello', x: 50, y: 700 }]]))).toBe(MEDIA_TYPES.pdf)
  })

  test('recognises a DOCX as a ZIP holding word/document.xml', () => {
    expect(detectMediaType(docx(paragraph('Hello')))).toBe(MEDIA_TYPES.docx)
  })

  test('recognises HTML after a BOM, whitespace or a comment, by doctype or a common tag', () => {
    expect(detectMediaType(utf8('\uFEFF  \n<!DOCTYPE html><html><body>x</body></html>'))).toBe(MEDIA_TYPES.html)
    expect(detectMediaType(utf8('<html lang="en"><p>x</p></html>'))).toBe(MEDIA_TYPES.html)
    expect(detectMediaType(utf8('<!-- generated -->\n<div class="invoice">Total</div>'))).toBe(MEDIA_TYPES.html)
    expect(detectMediaType(utf8('<table><tr><td>1</td></tr></table>'))).toBe(MEDIA_TYPES.html)
  })

  test('tells Markdown from plain text by its structure', () => {
    expect(detectMediaType(utf8('# Invoice\n\n| Item | Price |\n|---|---|\n| Tea | 3.00 |\n'))).toBe(MEDIA_TYPES.markdown)
    expect(detectMediaType(utf8('Notes\n\n- first\n- second\n\nSee [the site](https://example.com).'))).toBe(MEDIA_TYPES.markdown)
    expect(detectMediaType(utf8('```\ncode\n```\n'))).toBe(MEDIA_TYPES.markdown)
    expect(detectMediaType(utf8('Invoice No: 42\nTotal: 10.00 EUR\n'))).toBe(MEDIA_TYPES.text)
    expect(detectMediaType(utf8('Price #1 is 5 - cheap\f page two\twith a tab\r\n'))).toBe(MEDIA_TYPES.text)
  })

  test('rejects images of other formats, archives, executables and binary data', () => {
    const gif = utf8('GIF89a\u0001\u0000\u0001\u0000')
    const zip = zipSync({ 'readme.txt': strToU8('not a word document') })
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    const utf16 = new Uint8Array([0xff, 0xfe, 0x48, 0x00, 0x69, 0x00, 0x21, 0x00])
    const controls = utf8('abc\u0001\u0002\u0003\u0004\u0005def')
    for (const bytes of [gif, zip, elf, utf16, controls, new Uint8Array(0)]) expect(detectMediaType(bytes)).toBeUndefined()
  })

  test('rejects invalid UTF-8', () => {
    expect(detectMediaType(new Uint8Array([0x48, 0x69, 0xc3, 0x28, 0x20, 0xa0, 0xa1]))).toBeUndefined()
  })
})

describe('PDF', () => {
  test('returns one text per page, in order', async () => {
    const bytes = await pdfWith([[{ text: 'First page text', x: 50, y: 700 }], [{ text: 'Second page text', x: 50, y: 700 }]])
    const { pages } = await readDocument(bytes, MEDIA_TYPES.pdf)
    expect(pages).toEqual(['First page text', 'Second page text'])
  })

  test('rebuilds lines from positions and keeps label and value columns apart', async () => {
    const bytes = await pdfWith([
      [
        { text: 'Total:', x: 300, y: 600 },
        { text: 'Invoice No:', x: 50, y: 700 },
        { text: 'INV-7', x: 300, y: 700 },
        { text: '12.50', x: 400, y: 600 },
      ],
    ])
    const [page] = (await readDocument(bytes, MEDIA_TYPES.pdf)).pages
    const lines = page!.split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^Invoice No:\s{2,}INV-7$/)
    // Columns stay aligned: "Total:" starts under "INV-7".
    expect(lines[1]!.indexOf('Total:')).toBe(lines[0]!.indexOf('INV-7'))
    expect(lines[1]).toMatch(/Total:\s{2,}12\.50$/)
  })

  test('rejects a corrupt PDF as corrupt_document', async () => {
    const error = await readError(utf8('%PDF-1.7\nthis is not a PDF at all'), MEDIA_TYPES.pdf)
    expect(error.code).toBe('corrupt_document')
    expect(error.message).toMatch(/PDF/)
  })

  test('rejects a password-protected PDF as encrypted_document', async () => {
    const error = await readError(encryptedPdf(), MEDIA_TYPES.pdf)
    expect(error.code).toBe('encrypted_document')
    expect(error.message).toMatch(/password/)
  })

  test('rejects a PDF without a text layer as no_text_layer', async () => {
    const pdf = await PDFDocument.create()
    pdf.addPage([595, 842]).drawRectangle({ x: 50, y: 50, width: 200, height: 100, color: rgb(0.2, 0.2, 0.2) })
    const error = await readError(await pdf.save(), MEDIA_TYPES.pdf)
    expect(error.code).toBe('no_text_layer')
    expect(error.message).toMatch(/OCR|text layer/)
  })
})

describe('DOCX', () => {
  test('reads paragraphs, table rows with tab-separated cells and splits pages at page breaks', async () => {
    const body =
      paragraph('ACME &amp; Sons GmbH') +
      '<w:tbl><w:tr><w:tc>' +
      paragraph('Item') +
      '</w:tc><w:tc>' +
      paragraph('Price') +
      '</w:tc></w:tr>' +
      '<w:tr><w:tc>' +
      paragraph('Tea') +
      '</w:tc><w:tc>' +
      paragraph('3,00') +
      '</w:tc></w:tr></w:tbl>' +
      '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' +
      paragraph('Second page') +
      '<w:p><w:r><w:lastRenderedPageBreak/><w:t>Third page</w:t></w:r></w:p>'
    const { pages } = await readDocument(docx(body), MEDIA_TYPES.docx)
    expect(pages).toEqual(['ACME & Sons GmbH\nItem\tPrice\nTea\t3,00', 'Second page', 'Third page'])
  })

  test('rejects a broken archive as corrupt_document', async () => {
    const bytes = docx(paragraph('x')).slice(0, 60)
    expect((await readError(bytes, MEDIA_TYPES.docx)).code).toBe('corrupt_document')
  })
})

describe('HTML', () => {
  test('drops scripts and styles, breaks lines at blocks and <br>, separates cells with tabs, decodes entities', async () => {
    const html = `<!doctype html><html><head><title>t</title><style>p{color:red}</style></head><body>
      <script>var total = 999;</script>
      <h1>Invoice&nbsp;#42</h1><p>Caf&eacute; &amp; Co<br>Main St&#46; 1</p>
      <table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>&euro; 3,00</td></tr></table>
    </body></html>`
    const { pages } = await readDocument(utf8(html), MEDIA_TYPES.html)
    expect(pages).toEqual(['Invoice #42\nCafé & Co\nMain St. 1\nItem\tPrice\nTea\t€ 3,00'])
  })

  test('names of object members are not entities: &constructor; and &toString; stay as written', async () => {
    const { pages } = await readDocument(utf8('<p>A &constructor; B &toString; C &hasOwnProperty; &amp;</p>'), MEDIA_TYPES.html)
    expect(pages).toEqual(['A &constructor; B &toString; C &hasOwnProperty; &'])
  })
})

describe('text and Markdown', () => {
  test('text: strips the BOM, normalises line ends, splits pages at form feeds', async () => {
    const { pages } = await readDocument(utf8('\uFEFFPage one\r\nline two\fPage two'), MEDIA_TYPES.text)
    expect(pages).toEqual(['Page one\nline two', 'Page two'])
  })

  test('Markdown: removes heading marks and emphasis, keeps tables as tab-separated rows', async () => {
    const markdown = '# Invoice **42**\n\nSee [terms](https://x.test) and *notes*.\n\n| Item | Price |\n|------|------:|\n| Tea | 3.00 |\n'
    const { pages } = await readDocument(utf8(markdown), MEDIA_TYPES.markdown)
    expect(pages).toEqual(['Invoice 42\n\nSee terms and notes.\n\nItem\tPrice\nTea\t3.00\n'])
  })

  test('an empty document is rejected', async () => {
    expect((await readError(utf8('  \n \f '), MEDIA_TYPES.text)).code).toBe('empty_document')
  })
})
