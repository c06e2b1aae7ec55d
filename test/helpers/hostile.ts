/**
 * Hostile documents, made on the spot (none is stored): the files of the hostile-files benchmark,
 * and the small versions the readers' tests hold each guard with. Sizes are parameters, so a test
 * can make the same attack a thousand times smaller against a smaller limit.
 */
import { deflateRawSync, deflateSync } from 'node:zlib'
import { strToU8 } from 'fflate'
import jpeg from 'jpeg-js'

const crc32 = (data: Uint8Array) => Bun.hash.crc32(data)

const encoder = new TextEncoder()

/** `size` bytes of `fill` compressed with zlib (native zlib: a gigabyte takes a second or two). */
export function zlibZeros(size: number, fill = 0): Uint8Array {
  return deflateSync(new Uint8Array(size).fill(fill), { level: 9 })
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

// ---- TIFF ----

interface TiffField {
  tag: number
  /** 3 SHORT, 4 LONG */
  type: 3 | 4
  values: number[]
}

/**
 * A little-endian TIFF of the given directories, each `{fields, next?}`; `strips` are appended
 * after the directories and referred to by offset with `stripAt(i)`. Values of more than one LONG
 * are written after the directories as well.
 */
export function tiff(
  directories: { fields: (strip: (index: number) => number) => TiffField[]; next?: 'self' | 'first' }[],
  strips: Uint8Array[] = [],
): Uint8Array {
  const entryBytes = (fields: TiffField[]) => 2 + fields.length * 12 + 4
  // First pass to lay out: directories, then out-of-line values, then strips.
  const probe = directories.map((directory) => directory.fields(() => 0))
  const directoryAt: number[] = []
  let at = 8
  for (const fields of probe) {
    directoryAt.push(at)
    at += entryBytes(fields)
  }
  const outOfLine = probe.flat().filter((field) => field.values.length * (field.type === 3 ? 2 : 4) > 4)
  const valuesBytes = outOfLine.reduce((sum, field) => sum + field.values.length * (field.type === 3 ? 2 : 4), 0)
  const stripStart = at + valuesBytes
  const stripAt: number[] = []
  let s = stripStart
  for (const strip of strips) {
    stripAt.push(s)
    s += strip.length
  }
  const out = new Uint8Array(s)
  const view = new DataView(out.buffer)
  out.set([0x49, 0x49, 42, 0])
  view.setUint32(4, 8, true)
  let valueAt = at
  directories.forEach((directory, d) => {
    const fields = directory.fields((index) => stripAt[index]!).sort((a, b) => a.tag - b.tag)
    let p = directoryAt[d]!
    view.setUint16(p, fields.length, true)
    p += 2
    for (const field of fields) {
      const size = field.type === 3 ? 2 : 4
      view.setUint16(p, field.tag, true)
      view.setUint16(p + 2, field.type, true)
      view.setUint32(p + 4, field.values.length, true)
      let target = p + 8
      if (field.values.length * size > 4) {
        view.setUint32(p + 8, valueAt, true)
        target = valueAt
        valueAt += field.values.length * size
      }
      field.values.forEach((value, i) => (size === 2 ? view.setUint16(target + i * 2, value, true) : view.setUint32(target + i * 4, value, true)))
      p += 12
    }
    const next = directory.next === 'self' ? directoryAt[d]! : directory.next === 'first' ? directoryAt[0]! : (directoryAt[d + 1] ?? 0)
    view.setUint32(p, next, true)
  })
  strips.forEach((strip, i) => out.set(strip, stripAt[i]!))
  return out
}

/** Fields of a greyscale 8-bit page of one strip. */
export function greyPage(width: number, height: number, strip: number, stripBytes: number, compression = 1): TiffField[] {
  return [
    { tag: 256, type: 4, values: [width] },
    { tag: 257, type: 4, values: [height] },
    { tag: 258, type: 3, values: [8] },
    { tag: 259, type: 3, values: [compression] },
    { tag: 262, type: 3, values: [1] },
    { tag: 273, type: 4, values: [strip] },
    { tag: 277, type: 3, values: [1] },
    { tag: 278, type: 4, values: [height] },
    { tag: 279, type: 4, values: [stripBytes] },
  ]
}

/** The issue's 38-byte TIFF: one directory whose next-directory offset points back at itself. */
export function tiffLoop(): Uint8Array {
  return tiff([
    {
      fields: () => [
        { tag: 256, type: 4, values: [1] },
        { tag: 257, type: 4, values: [1] },
      ],
      next: 'self',
    },
  ])
}

/** `pages` pages of `width` × `height` that all share one Deflate strip of zeros. */
export function tiffSharedStrip(pages: number, width: number, height: number): Uint8Array {
  const strip = zlibZeros(width * height)
  return tiff(
    Array.from({ length: pages }, () => ({ fields: (at: (i: number) => number) => greyPage(width, height, at(0), strip.length, 8) })),
    [strip],
  )
}

// ---- JPEG ----

/** A white JPEG of `width` × `height` whose one scan is repeated `scans` times. */
export function jpegManyScans(width: number, height: number, scans: number): Uint8Array {
  const photo = new Uint8Array(jpeg.encode({ data: new Uint8Array(width * height * 4).fill(255), width, height }, 50).data)
  const sos = photo.findIndex((byte, i) => byte === 0xff && photo[i + 1] === 0xda)
  const scan = photo.subarray(sos, photo.length - 2)
  return concat([photo.subarray(0, sos), ...Array.from({ length: scans }, () => scan), new Uint8Array([0xff, 0xd9])])
}

// ---- PNG ----

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(encoder.encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

function ihdr(width: number, height: number): Uint8Array {
  const data = new Uint8Array(13)
  const view = new DataView(data.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  data.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale, not interlaced
  return pngChunk('IHDR', data)
}

const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A white greyscale PNG, its headers as given: `headers` [w, h] pairs, the image data made for the last. */
export function png(headers: [number, number][], imageBytes?: number): Uint8Array {
  const [width, height] = headers[headers.length - 1]!
  const rows = imageBytes ?? height * (width + 1)
  return concat([PNG_SIGNATURE, ...headers.map(([w, h]) => ihdr(w, h)), pngChunk('IDAT', zlibZeros(rows, 0)), pngChunk('IEND', new Uint8Array(0))])
}

// ---- PDF ----

/** A PDF of the given objects (1-based, 1 the catalog), each a dictionary text and maybe a stream. */
export function pdf(objects: { dictionary: string; stream?: Uint8Array }[]): Uint8Array {
  const parts: Uint8Array[] = [encoder.encode('%PDF-1.7\n%\xe2\xe3\n')]
  let at = parts[0]!.length
  const offsets: number[] = []
  objects.forEach((object, i) => {
    offsets.push(at)
    const head = encoder.encode(
      `${i + 1} 0 obj\n${object.stream ? object.dictionary.replace(/>>\s*$/, ` /Length ${object.stream.length} >>`) : object.dictionary}\n${object.stream ? 'stream\n' : ''}`,
    )
    const tail = encoder.encode(object.stream ? '\nendstream\nendobj\n' : 'endobj\n')
    parts.push(head, ...(object.stream ? [object.stream] : []), tail)
    at += head.length + (object.stream?.length ?? 0) + tail.length
  })
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`
  parts.push(encoder.encode(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`))
  return concat(parts)
}

/** One page showing `images` grey Deflate images of `width` × `height`, each covering the page. */
export function pdfWithImages(width: number, height: number, images = 1): Uint8Array {
  const data = zlibZeros(width * height, 255)
  const names = Array.from({ length: images }, (_, i) => `/Im${i} ${4 + i} 0 R`).join(' ')
  const content = encoder.encode(Array.from({ length: images }, (_, i) => `q 612 0 0 792 0 0 cm /Im${i} Do Q`).join('\n'))
  return pdf([
    { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dictionary: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { dictionary: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << ${names} >> >> /Contents ${4 + images} 0 R >>` },
    ...Array.from({ length: images }, () => ({
      dictionary: `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode >>`,
      stream: data,
    })),
    { dictionary: '<< >>', stream: content },
  ])
}

/** One page whose content stream is Deflate of `size` bytes of spaces (a 1000:1 stream). */
export function pdfContentBomb(size: number): Uint8Array {
  return pdf([
    { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dictionary: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { dictionary: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>' },
    { dictionary: '<< /Filter /FlateDecode >>', stream: zlibZeros(size, 0x20) },
  ])
}

/** A page tree that claims `count` pages. */
export function pdfPageCount(count: number): Uint8Array {
  return pdf([
    { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dictionary: `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>` },
    { dictionary: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>' },
  ])
}

/** Two form XObjects that each draw the other four times: nesting that loops and multiplies. */
export function pdfNestedForms(): Uint8Array {
  return pdf([
    { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dictionary: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { dictionary: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /F 4 0 R >> >> /Contents 6 0 R >>' },
    {
      dictionary: '<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /G 5 0 R >> >> >>',
      stream: encoder.encode('/G Do /G Do /G Do /G Do'),
    },
    {
      dictionary: '<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /F 4 0 R >> >> >>',
      stream: encoder.encode('/F Do /F Do /F Do /F Do'),
    },
    { dictionary: '<< >>', stream: encoder.encode('/F Do') },
  ])
}

/** A page whose content stream opens `depth` nested arrays. */
export function pdfDeepNesting(depth: number): Uint8Array {
  const content = encoder.encode(`BT /F1 12 Tf 72 720 Td ${'['.repeat(depth)}(deep)${']'.repeat(depth)} TJ ET`)
  return pdf([
    { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dictionary: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    {
      dictionary: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${'['.repeat(depth)}${']'.repeat(depth)} >> >> /Contents 4 0 R >>`,
    },
    { dictionary: '<< >>', stream: content },
  ])
}

// ---- DOCX ----

interface ZipPart {
  name: string
  /** Raw Deflate data. */
  deflated: Uint8Array
  crc: number
  /** Size as declared in the archive. */
  size: number
}

/** A part of `text`, compressed; `declared` overrides the size written in the archive. */
export function zipPart(name: string, content: Uint8Array, declared?: number): ZipPart {
  return { name, deflated: deflateRawSync(content, { level: 9 }), crc: crc32(content), size: declared ?? content.length }
}

/** A ZIP of the given parts, a part's data written once even when several entries share it. */
export function zip(parts: ZipPart[]): Uint8Array {
  const chunks: Uint8Array[] = []
  const central: Uint8Array[] = []
  let at = 0
  for (const part of parts) {
    const name = encoder.encode(part.name)
    const local = new Uint8Array(30 + name.length)
    const view = new DataView(local.buffer)
    view.setUint32(0, 0x04034b50, true)
    view.setUint16(4, 20, true)
    view.setUint16(8, 8, true)
    view.setUint32(14, part.crc, true)
    view.setUint32(18, part.deflated.length, true)
    view.setUint32(22, part.size, true)
    view.setUint16(26, name.length, true)
    local.set(name, 30)
    const entry = new Uint8Array(46 + name.length)
    const c = new DataView(entry.buffer)
    c.setUint32(0, 0x02014b50, true)
    c.setUint16(4, 20, true)
    c.setUint16(6, 20, true)
    c.setUint16(10, 8, true)
    c.setUint32(16, part.crc, true)
    c.setUint32(20, part.deflated.length, true)
    c.setUint32(24, part.size, true)
    c.setUint16(28, name.length, true)
    c.setUint32(42, at, true)
    entry.set(name, 46)
    central.push(entry)
    chunks.push(local, part.deflated)
    at += local.length + part.deflated.length
  }
  const directory = concat(central)
  const end = new Uint8Array(22)
  const e = new DataView(end.buffer)
  e.setUint32(0, 0x06054b50, true)
  e.setUint16(8, parts.length, true)
  e.setUint16(10, parts.length, true)
  e.setUint32(12, directory.length, true)
  e.setUint32(16, at, true)
  return concat([...chunks, directory, end])
}

const DOCUMENT_XML = strToU8(
  '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Invoice No.: 42</w:t></w:r></w:p></w:body></w:document>',
)

/** A WordprocessingML header part of about `size` bytes of paragraphs. */
export function headerXml(size: number): Uint8Array {
  const paragraph = '<w:p><w:r><w:t>ACME Trading Ltd</w:t></w:r></w:p>'
  return strToU8(
    `<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${paragraph.repeat(Math.max(1, Math.floor(size / paragraph.length)))}</w:hdr>`,
  )
}

/** The issue's DOCX: `headers` page-header parts of `size` bytes each (one compressed part, shared). */
export function docxHeaders(headers: number, size: number): Uint8Array {
  const header = zipPart('', headerXml(size))
  return zip([zipPart('word/document.xml', DOCUMENT_XML), ...Array.from({ length: headers }, (_, i) => ({ ...header, name: `word/header${i + 1}.xml` }))])
}

/** A DOCX whose document part is about `size` bytes of paragraphs, declared as such (a zip bomb). */
export function docxLargeDocument(size: number): Uint8Array {
  const paragraph = '<w:p><w:r><w:t>Invoice No.: 42</w:t></w:r></w:p>'
  const xml = `<w:document xmlns:w="x"><w:body>${paragraph.repeat(Math.max(1, Math.floor(size / paragraph.length)))}</w:body></w:document>`
  return zip([zipPart('word/document.xml', strToU8(xml))])
}

/** A DOCX whose document part declares `declared` bytes but inflates to `size`. */
export function docxLyingSize(size: number, declared: number): Uint8Array {
  const body = headerXml(size)
  return zip([zipPart('word/document.xml', body, declared)])
}

/** A DOCX whose document part is `depth` nested elements deep. */
export function docxDeepNesting(depth: number): Uint8Array {
  const xml = `<w:document xmlns:w="x"><w:body>${'<w:sdt><w:sdtContent>'.repeat(depth)}<w:p><w:r><w:t>deep</w:t></w:r></w:p>${'</w:sdtContent></w:sdt>'.repeat(depth)}</w:body></w:document>`
  return zip([zipPart('word/document.xml', strToU8(xml))])
}
