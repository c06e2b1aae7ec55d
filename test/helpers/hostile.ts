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

/**
 * A progressive JPEG of `width` × `height` whose one scan (the DC coefficients, every one zero)
 * takes a bit per block: 2 MB say 32000 × 32000 pixels, and a decoder that keeps every
 * coefficient of a progressive image holds 2 bytes per pixel and component. `components` 1 is
 * grey, 3 is YCbCr with its chroma sampled 2 × 2 (as cameras do).
 */
export function jpegProgressive(width: number, height: number, components: 1 | 3 = 1): Uint8Array {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body]
  const sampling = components === 1 ? [0x11] : [0x22, 0x11, 0x11]
  const frame = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, components, ...sampling.flatMap((factors, i) => [i + 1, factors, 0])]
  // One Huffman code, one bit long, for "no difference": every block's DC is that bit.
  const dcTable = [0x00, 1, ...new Array(15).fill(0), 0]
  const scan = [components, ...sampling.flatMap((_, i) => [i + 1, 0x00]), 0, 0, 0]
  const mcu = components === 1 ? 8 : 16
  const blocksPerMcu = components === 1 ? 1 : 6
  const bits = Math.ceil(width / mcu) * Math.ceil(height / mcu) * blocksPerMcu
  return concat([
    new Uint8Array([0xff, 0xd8, ...segment(0xdb, [0, ...new Array(64).fill(1)]), ...segment(0xc2, frame), ...segment(0xc4, dcTable), ...segment(0xda, scan)]),
    new Uint8Array(Math.ceil(bits / 8)),
    new Uint8Array([0xff, 0xd9]),
  ])
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

/** A black greyscale PNG (its samples all zero), its headers as given: `headers` [w, h] pairs, the image data made for the last. */
export function png(headers: [number, number][], imageBytes?: number): Uint8Array {
  const [width, height] = headers[headers.length - 1]!
  const rows = imageBytes ?? height * (width + 1)
  return concat([PNG_SIGNATURE, ...headers.map(([w, h]) => ihdr(w, h)), pngChunk('IDAT', zlibZeros(rows, 0)), pngChunk('IEND', new Uint8Array(0))])
}

// ---- PDF ----

/**
 * An object of a crafted PDF: its dictionary, maybe a stream, how the `stream` keyword's line ends
 * (`eol`, "\n" by default: PDF.js takes anything up to the next line break) and what its /Length
 * says (`length`, the true length by default: "9 0 R", or a wrong number).
 */
export interface PdfObject {
  dictionary: string
  stream?: Uint8Array
  eol?: string
  length?: string
}

/** A PDF of the given objects (1-based, 1 the catalog), with a cross-reference table. */
export function pdf(objects: PdfObject[]): Uint8Array {
  const parts: Uint8Array[] = [encoder.encode('%PDF-1.7\n%\xe2\xe3\n')]
  let at = parts[0]!.length
  const offsets: number[] = []
  objects.forEach((object, i) => {
    offsets.push(at)
    const body = pdfObjectBody(object)
    const head = encoder.encode(`${i + 1} 0 obj\n`)
    const tail = encoder.encode('endobj\n')
    parts.push(head, body, tail)
    at += head.length + body.length + tail.length
  })
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`
  parts.push(encoder.encode(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`))
  return concat(parts)
}

/** An object's dictionary and stream as written between `N 0 obj` and `endobj`. */
function pdfObjectBody({ dictionary, stream, eol = '\n', length }: PdfObject): Uint8Array {
  if (!stream) return encoder.encode(`${dictionary}\n`)
  const head = encoder.encode(`${dictionary.replace(/>>\s*$/, ` /Length ${length ?? stream.length} >>`)}\nstream${eol}`)
  return concat([head, stream, encoder.encode('\nendstream\n')])
}

/**
 * A PDF 1.5 whose objects `compressed` (1-based numbers) sit inside one object stream (Deflate),
 * found through a cross-reference stream; the others are written in the file as usual.
 */
export function pdfWithObjectStream(objects: PdfObject[], compressed: number[]): Uint8Array {
  const inside = new Set(compressed)
  const objectStream = objects.length + 1
  const xrefStream = objects.length + 2
  // The object stream: "number offset" pairs, then the objects one after another.
  const bodies = compressed.map((number) => pdfObjectBody(objects[number - 1]!))
  let offset = 0
  const pairs = compressed.map((number, i) => {
    const pair = `${number} ${offset}`
    offset += bodies[i]!.length + 1
    return pair
  })
  const header = encoder.encode(`${pairs.join(' ')}\n`)
  const content = concat([header, ...bodies.flatMap((body) => [body, encoder.encode('\n')])])
  const written: PdfObject[] = [
    ...objects,
    { dictionary: `<< /Type /ObjStm /N ${compressed.length} /First ${header.length} /Filter /FlateDecode >>`, stream: deflateSync(content) },
  ]
  const parts: Uint8Array[] = [encoder.encode('%PDF-1.7\n%\xe2\xe3\n')]
  let at = parts[0]!.length
  const offsets = new Map<number, number>()
  written.forEach((object, i) => {
    if (inside.has(i + 1)) return
    offsets.set(i + 1, at)
    const part = concat([encoder.encode(`${i + 1} 0 obj\n`), pdfObjectBody(object), encoder.encode('endobj\n')])
    parts.push(part)
    at += part.length
  })
  // Cross-reference stream entries: type (1 byte), offset or object stream (4), generation or index (2).
  const entries = new Uint8Array((xrefStream + 1) * 7)
  const view = new DataView(entries.buffer)
  for (let number = 0; number <= xrefStream; number++) {
    const entry = number * 7
    if (number === 0) view.setUint8(entry, 0)
    else if (inside.has(number)) {
      view.setUint8(entry, 2)
      view.setUint32(entry + 1, objectStream)
      view.setUint16(entry + 5, compressed.indexOf(number))
    } else {
      view.setUint8(entry, 1)
      view.setUint32(entry + 1, number === xrefStream ? at : offsets.get(number)!)
    }
  }
  const xref = pdfObjectBody({ dictionary: `<< /Type /XRef /Size ${xrefStream + 1} /W [1 4 2] /Root 1 0 R >>`, stream: entries })
  parts.push(encoder.encode(`${xrefStream} 0 obj\n`), xref, encoder.encode(`endobj\nstartxref\n${at}\n%%EOF\n`))
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

/** A page of `imagePagesPdf`: its content stream, its size in points, its /Rotate. */
export interface ImagePage {
  content: string
  size: [number, number]
  rotate?: number
}

/**
 * A PDF whose pages may draw the images given (`/Im0`, `/Im1`, … in that order) and write in
 * Courier (`/F1`): a JPEG made a PDF as img2pdf makes one, and the crafted variants of it (D350).
 */
export function imagePagesPdf(images: PdfObject[], pages: ImagePage[]): Uint8Array {
  const font = 3 + images.length
  const first = font + 1
  const names = images.map((_, i) => `/Im${i} ${3 + i} 0 R`).join(' ')
  return pdf([
    { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dictionary: `<< /Type /Pages /Kids [${pages.map((_, i) => `${first + 2 * i} 0 R`).join(' ')}] /Count ${pages.length} >>` },
    ...images,
    { dictionary: '<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>' },
    ...pages.flatMap(({ content, size: [width, height], rotate }, i) => [
      {
        dictionary: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}]${rotate ? ` /Rotate ${rotate}` : ''} /Resources << /XObject << ${names} >> /Font << /F1 ${font} 0 R >> >> /Contents ${first + 2 * i + 1} 0 R >>`,
      },
      { dictionary: '<< >>', stream: encoder.encode(content) },
    ]),
  ])
}

/** JPEG data whose frame header (baseline or progressive) claims `width` × `height`: what a decoder would allocate for. */
export function jpegClaiming(bytes: Uint8Array, width: number, height: number): Uint8Array {
  const copy = bytes.slice()
  for (let at = 2; at + 9 < copy.length; at += 2 + ((copy[at + 2]! << 8) | copy[at + 3]!)) {
    if (copy[at + 1] === 0xc0 || copy[at + 1] === 0xc2) {
      copy.set([height >> 8, height & 0xff, width >> 8, width & 0xff], at + 5)
      return copy
    }
  }
  throw new Error('no frame header')
}

/** A page that is one JPEG of `width` × `height` (its colour space `space`), as img2pdf makes it (D350). */
export function pdfOfJpeg(bytes: Uint8Array, width: number, height: number, space = 'DeviceRGB'): Uint8Array {
  const image = `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /${space} /BitsPerComponent 8 /Filter /DCTDecode >>`
  return imagePagesPdf([{ dictionary: image, stream: bytes }], [{ content: 'q 612 0 0 792 0 0 cm /Im0 Do Q', size: [612, 792] }])
}

/** A page that is one JPEG, of a 64 × 64 JPEG whose header claims `width` × `height`. */
export function pdfJpegClaiming(width: number, height: number): Uint8Array {
  const small = jpeg.encode({ data: new Uint8Array(64 * 64 * 4).fill(255), width: 64, height: 64 }, 80).data
  return pdfOfJpeg(jpegClaiming(small, width, height), width, height)
}

/**
 * How a crafted stream is written: every spelling PDF.js accepts of the `stream` keyword's line,
 * of the filter and of the length, a stream inside an object stream, and filter chains.
 */
export const STREAM_SPELLINGS = [
  'plain',
  'space-before-eol',
  'crlf',
  'cr',
  'words-before-eol',
  'abbreviated-filter',
  'escaped-filter',
  'indirect-filter',
  'hex-then-flate',
  'flate-twice',
  'wrong-length',
  'indirect-length',
  'decoy-endstream',
  'object-stream',
] as const
export type StreamSpelling = (typeof STREAM_SPELLINGS)[number]

/** One page whose content stream is Deflate of `size` bytes of spaces (a 1000:1 stream), written as `spelling` says. */
export function pdfContentBomb(size: number, spelling: StreamSpelling = 'plain'): Uint8Array {
  // A line of text first, so that a page whose stream is read whole shows it.
  const text = encoder.encode('BT /F1 12 Tf 72 720 Td (Invoice 42) Tj ET\n')
  const plain = () => {
    const bytes = new Uint8Array(Math.max(size, text.length)).fill(0x20)
    bytes.set(text)
    return bytes
  }
  const spaces = () => deflateSync(plain(), { level: 9 })
  const content: PdfObject = { dictionary: '<< /Filter /FlateDecode >>' }
  const extra: PdfObject[] = []
  switch (spelling) {
    case 'plain':
    case 'object-stream':
      content.stream = spaces()
      break
    case 'space-before-eol':
      Object.assign(content, { stream: spaces(), eol: ' \n' })
      break
    case 'crlf':
      Object.assign(content, { stream: spaces(), eol: '\r\n' })
      break
    case 'cr':
      Object.assign(content, { stream: spaces(), eol: '\r' })
      break
    case 'words-before-eol':
      Object.assign(content, { stream: spaces(), eol: '   % anything at all\r\n' })
      break
    case 'abbreviated-filter':
      Object.assign(content, { stream: spaces(), dictionary: '<</Filter/Fl>>' })
      break
    case 'escaped-filter':
      Object.assign(content, { stream: spaces(), dictionary: '<< /Filter /Fl#61teDecode >>' })
      break
    case 'indirect-filter':
      Object.assign(content, { stream: spaces(), dictionary: '<< /Filter 5 0 R >>' })
      extra.push({ dictionary: '/FlateDecode' })
      break
    case 'hex-then-flate':
      Object.assign(content, { stream: encoder.encode(`${Buffer.from(spaces()).toString('hex')}>`), dictionary: '<< /Filter [/AHx /Fl] >>' })
      break
    case 'flate-twice':
      Object.assign(content, { stream: deflateSync(spaces()), dictionary: '<< /Filter [/FlateDecode /FlateDecode] >>' })
      break
    case 'wrong-length':
      Object.assign(content, { stream: spaces(), length: '10' })
      break
    case 'indirect-length': {
      const stream = spaces()
      Object.assign(content, { stream, length: '5 0 R' })
      extra.push({ dictionary: String(stream.length) })
      break
    }
    case 'decoy-endstream': {
      // A stored block whose bytes read "endstream": the true /Length reaches past it, to the data after.
      const decoy = encoder.encode('\nendstream\nendobj\n')
      const stored = concat([new Uint8Array([0, decoy.length, 0, ~decoy.length & 0xff, 0xff]), decoy])
      const data = concat([new Uint8Array([0x78, 0x9c]), stored, deflateRawSync(plain(), { level: 9 })])
      content.stream = data
      break
    }
  }
  const objects: PdfObject[] = [
    { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dictionary: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    {
      dictionary:
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /Contents 4 0 R >>',
    },
    content,
    ...extra,
  ]
  return spelling === 'object-stream' ? pdfWithObjectStream(objects, [4]) : pdf(objects)
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

// ---- PNG ancillary chunks ----

/**
 * A white `width` × `height` PNG carrying an ancillary chunk whose compressed content inflates to
 * `inflated` bytes: an ICC profile (iCCP), compressed text (zTXt) or international text (iTXt).
 */
export function pngWithCompressedChunk(type: 'iCCP' | 'zTXt' | 'iTXt', inflated: number, width = 100, height = 100): Uint8Array {
  const content = zlibZeros(inflated, 0x20)
  const head = type === 'iTXt' ? encoder.encode('Comment\0\x01\x00en\0Comment\0') : encoder.encode(type === 'iCCP' ? 'ICC profile\0\x00' : 'Comment\0\x00')
  const image = png([[width, height]])
  // The chunk goes after IHDR (8 bytes of signature, 25 of IHDR), where both belong.
  return concat([image.subarray(0, 33), pngChunk(type, concat([head, content])), image.subarray(33)])
}

// ---- WebP ----

/** A white lossless WebP of `width` × `height` (a 6000 × 6000 one is about 1.4 KB). */
export async function webpLossless(width: number, height: number): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp')
  const image = sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
  return new Uint8Array(await image.webp({ lossless: true, effort: 0 }).toBuffer())
}

// ---- HEIC ----

/** An ISO media box: size, type, then its content. */
function box(type: string, ...content: Uint8Array[]): Uint8Array {
  const body = concat(content)
  const out = new Uint8Array(8 + body.length)
  new DataView(out.buffer).setUint32(0, out.length)
  out.set(encoder.encode(type), 4)
  out.set(body, 8)
  return out
}

/** A full box: a box whose content opens with a version and flags. */
function fullBox(type: string, version: number, flags: number, ...content: Uint8Array[]): Uint8Array {
  return box(type, new Uint8Array([version, flags >> 16, (flags >> 8) & 0xff, flags & 0xff]), ...content)
}

/** Big-endian unsigned integers, each `bytes` long. */
function be(bytes: 1 | 2 | 4, ...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * bytes)
  const view = new DataView(out.buffer)
  values.forEach((value, i) => (bytes === 1 ? view.setUint8(i, value) : bytes === 2 ? view.setUint16(i * 2, value) : view.setUint32(i * 4, value)))
  return out
}

/** The largest (or smallest) HEVC-coded image of a HEIF file: its configuration box, its size and its data. */
export function heifCodedImage(
  file: Uint8Array,
  which: 'largest' | 'smallest' = 'largest',
): { hvcC: Uint8Array; width: number; height: number; data: Uint8Array } {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const children = (start: number, end: number) => {
    const found: { type: string; start: number; end: number }[] = []
    for (let at = start; at + 8 <= end; ) {
      const size = view.getUint32(at)
      found.push({ type: String.fromCharCode(...file.subarray(at + 4, at + 8)), start: at + 8, end: at + size })
      at += size
    }
    return found
  }
  const meta = children(0, file.length).find((b) => b.type === 'meta')!
  const inMeta = children(meta.start + 4, meta.end)
  const find = (type: string) => inMeta.find((b) => b.type === type)!
  const iprp = children(find('iprp').start, find('iprp').end)
  const properties = children(iprp.find((b) => b.type === 'ipco')!.start, iprp.find((b) => b.type === 'ipco')!.end)
  // ipma (version 0, small indices): item → its properties, 1-based.
  const ipma = iprp.find((b) => b.type === 'ipma')!
  const associations = new Map<number, number[]>()
  for (let at = ipma.start + 8, n = view.getUint32(ipma.start + 4), i = 0; i < n; i++) {
    const item = view.getUint16(at)
    const count = file[at + 2]!
    associations.set(
      item,
      [...file.subarray(at + 3, at + 3 + count)].map((a) => a & 0x7f),
    )
    at += 3 + count
  }
  // iloc (version 0 or 1, 4-byte offsets and lengths, one extent each): item → its data.
  const iloc = find('iloc')
  const version = file[iloc.start]!
  const baseBytes = file[iloc.start + 5]! >> 4
  const items: { id: number; offset: number; length: number }[] = []
  for (let at = iloc.start + 8, n = view.getUint16(iloc.start + 6), i = 0; i < n; i++) {
    const id = view.getUint16(at)
    at += version === 1 ? 6 : 4
    const base = baseBytes === 4 ? view.getUint32(at) : 0
    at += baseBytes + 2
    items.push({ id, offset: base + view.getUint32(at), length: view.getUint32(at + 4) })
    at += 8
  }
  let best: ReturnType<typeof heifCodedImage> | undefined
  for (const item of items) {
    const props = (associations.get(item.id) ?? []).map((index) => properties[index - 1]!)
    const hvcC = props.find((p) => p.type === 'hvcC')
    const ispe = props.find((p) => p.type === 'ispe')
    if (!hvcC || !ispe) continue
    const [width, height] = [view.getUint32(ispe.start + 4), view.getUint32(ispe.start + 8)]
    if (best && (which === 'largest' ? best.width * best.height >= width * height : best.width * best.height <= width * height)) continue
    best = { hvcC: file.slice(hvcC.start - 8, hvcC.end), width, height, data: file.slice(item.offset, item.offset + item.length) }
  }
  return best!
}

/**
 * A HEIC whose primary image is a grid of `rows` × `columns` tiles, every tile the same coded
 * image (`tile`, from heifCodedImage) stored once; the grid's output is `width` × `height`
 * (by default what its tiles cover).
 */
export function heicGrid(
  tile: ReturnType<typeof heifCodedImage>,
  rows: number,
  columns: number,
  width = columns * tile.width,
  height = rows * tile.height,
): Uint8Array {
  const tiles = rows * columns
  const gridId = 1
  const tileId = (i: number) => i + 2
  const gridData = concat([new Uint8Array([0, 1, rows - 1, columns - 1]), be(4, width, height)])
  const ftyp = box('ftyp', encoder.encode('heic'), be(4, 0), encoder.encode('mif1heic'))
  const infe = (id: number, type: string) => fullBox('infe', 2, 0, be(2, id, 0), encoder.encode(`${type}\0`))
  const meta = (mdatData: number) => {
    const locations = [
      [gridId, mdatData, gridData.length],
      ...Array.from({ length: tiles }, (_, i) => [tileId(i), mdatData + gridData.length, tile.data.length]),
    ]
    return fullBox(
      'meta',
      0,
      0,
      fullBox('hdlr', 0, 0, be(4, 0), encoder.encode('pict'), be(4, 0, 0, 0), new Uint8Array(1)),
      fullBox('pitm', 0, 0, be(2, gridId)),
      fullBox('iinf', 0, 0, be(2, tiles + 1), infe(gridId, 'grid'), ...Array.from({ length: tiles }, (_, i) => infe(tileId(i), 'hvc1'))),
      fullBox(
        'iloc',
        0,
        0,
        new Uint8Array([0x44, 0x00]),
        be(2, locations.length),
        ...locations.map(([id, offset, length]) => concat([be(2, id!, 0, 1), be(4, offset!, length!)])),
      ),
      fullBox('iref', 0, 0, box('dimg', be(2, gridId, tiles), be(2, ...Array.from({ length: tiles }, (_, i) => tileId(i))))),
      box(
        'iprp',
        box('ipco', tile.hvcC, fullBox('ispe', 0, 0, be(4, tile.width, tile.height)), fullBox('ispe', 0, 0, be(4, width, height))),
        fullBox(
          'ipma',
          0,
          0,
          be(4, tiles + 1),
          concat([be(2, gridId), new Uint8Array([1, 3])]),
          ...Array.from({ length: tiles }, (_, i) => concat([be(2, tileId(i)), new Uint8Array([2, 0x81, 2])])),
        ),
      ),
    )
  }
  // The meta box's size does not depend on where the data is: lay it out once to know that offset.
  const mdatData = ftyp.length + meta(0).length + 8
  return concat([ftyp, meta(mdatData), box('mdat', gridData, tile.data)])
}
