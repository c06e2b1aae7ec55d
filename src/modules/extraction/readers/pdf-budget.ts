/**
 * What a PDF will cost to decode, judged from its bytes before PDF.js opens it (D120, D182).
 * Every `stream` keyword in the file is taken for a stream, wherever it is and however its line
 * ends: its data starts where PDF.js starts it (the next line) and ends where PDF.js ends it (its
 * /Length when `endstream` follows there, direct or by reference, else the first `endstream`).
 * Its dictionary is parsed as PDF.js parses it, and its data is decoded through its filters as
 * PDF.js will decode it (a chain of them, names spelled any way, given by reference), each step
 * with a ceiling: a stream whose decoding would hold more than the budget is refused, having cost
 * at most that. Data that opens as Deflate is inflated so whatever its dictionary says, and what
 * decodes to more objects (an object stream, whose objects PDF.js parses streams and all) is
 * scanned likewise. Images are checked against the pixel limit and the budget from their
 * dictionary and, for JPEG, from the JPEG's own header. Decoded bytes are also counted across
 * the document: the time to decode them all is bounded too. PDF.js is also told the largest image
 * it may decode (`maxImageSize`), for what this reading cannot see.
 */
import { ExtractionError } from '../errors'
import { checkImageBytes, checkPixels, inflatesPastBudget, mebibytes } from './limits'
import { jpegFrame, jpegCoefficientBytes } from './ocr/jpeg-header'
import { jpegPhoto } from './ocr/images'
import { decodeFilter, type Filter, filterOf, PastLimit } from './pdf-filters'
import { PDF_FILE_COPIES, type PdfObjects, type PdfStream, type PhotoPage, photoPages } from './pdf-photos'
import {
  nextValue,
  type ObjectStarts,
  objectValue,
  type PdfDictionary,
  PdfName,
  PdfParser,
  PdfRef,
  PdfText,
  type PdfValue,
  streamDictionary,
  streamedObjects,
  writtenObjects,
} from './pdf-syntax'
import type { ReadLimits } from './types'

/**
 * PDF.js's memory for a stream that is not an image, per byte decoded: its buffer grows by
 * doubling (the old and the new at once), and a page's content stream is read twice (its text,
 * then its drawing operators) before the first is collected. Measured: a 100 MiB content stream
 * took 416 MiB (bench/decode-cost.ts).
 */
const STREAM_FACTOR = 4.5
/** An image's decoded samples as PDF.js holds them (the doubling buffer), per byte. */
const IMAGE_SAMPLES_FACTOR = 3
/** Per pixel of an image: the RGBA copy PDF.js makes, and the grey page (D123). */
const IMAGE_BYTES_PER_PIXEL = 5
/** `stream` keywords read in one document: a page, a font or an image each have one; more is no document. */
const MAX_STREAMS = 100_000
/** Object streams inside object streams: PDF.js follows them; a real file has none. */
const MAX_NESTING = 4
/** Components of the colour spaces named in an image's dictionary; others count as four. */
const COMPONENTS: Record<string, number> = { DeviceGray: 1, CalGray: 1, G: 1, DeviceRGB: 3, CalRGB: 3, RGB: 3, DeviceCMYK: 4, CMYK: 4 }

/** How a PDF that keeps to the budget is read (D350). */
export interface PdfPlan {
  /** Pages that are one JPEG, read by the photo path, by number. */
  photos: Map<number, PhotoPage>
  /**
   * The largest image PDF.js is let decode, in pixels (its `maxImageSize`): those pages' JPEGs past
   * its budget are larger, and PDF.js leaves out any image as large (another page drawing one).
   */
  maxImageSize: number
}

/**
 * Checks every stream of a PDF against the budget; throws ExtractionError for one past it. A page
 * that is one JPEG is budgeted as the photo path decodes it (D350); every other image as PDF.js does.
 */
export function checkPdfBudget(bytes: Uint8Array, limits: ReadLimits): PdfPlan {
  const file = new PdfText(bytes)
  const budget = new PdfBudget(limits, file)
  budget.scan(file, writtenObjects(file), 0)
  return budget.plan()
}

interface StreamRecord {
  source: PdfText
  keyword: number
  dictionary: PdfDictionary | undefined
}

/** A stream's place: the part of the file it is in, and its `stream` keyword there. */
interface StreamPlace {
  source: PdfText
  keyword: number
}

class PdfBudget implements PdfObjects {
  /** Decoded bytes of the document's streams that are not image samples, and of image samples. */
  private otherBytes = 0
  private imageBytes = 0
  private streams = 0
  /** Every object written in the file or in an object stream, by number, for references. */
  private readonly objects = new Map<number, { source: PdfText; at: number }[]>()
  /** Where each stream's data ends, once found. */
  private readonly ends = new Map<PdfText, Map<number, { end: number; after: number }>>()
  /** Every image's size as its dictionary gives it, which PDF.js's `maxImageSize` is checked against. */
  private readonly images: (StreamPlace & { pixels: number })[] = []
  /** JPEGs past PDF.js's budget that a page may yet read by the photo path: refused unless one does (D350). */
  private readonly deferred: (StreamPlace & { pixels: number; error: ExtractionError })[] = []
  /** Cross-reference streams' dictionaries, which name the catalog as a trailer does. */
  private readonly xrefStreams: { at: number; dictionary: PdfDictionary }[] = []

  /** Image streams that are a JPEG under its one filter: only then may a page be one (D350). */
  private jpegs = 0

  constructor(
    private readonly limits: ReadLimits,
    /** The file itself: where its trailers are. */
    private readonly file: PdfText,
  ) {}

  /** Every stream of a part of the PDF (the file, or the content of an object stream), whose objects start at `objects`. */
  scan(source: PdfText, objects: ObjectStarts, nesting: number): void {
    this.index(source, objects)
    const records: StreamRecord[] = []
    for (const match of source.text.matchAll(/(?<!end)stream/g)) {
      if (++this.streams > MAX_STREAMS)
        throw new ExtractionError('document_too_large', `The PDF has more than ${MAX_STREAMS} streams; no document needs that many.`)
      const dictionary = streamDictionary(source, match.index, objects.starts, (found, at) => this.extent(source, found, at).after, 4)
      records.push({ source, keyword: match.index, dictionary })
    }
    // Object streams first: the objects inside them may be what other streams refer to.
    const isObjectStream = (record: StreamRecord) => this.name(record.dictionary?.get('Type')) === 'ObjStm'
    for (const record of records.filter(isObjectStream)) this.measure(record, nesting)
    for (const record of records.filter((record) => !isObjectStream(record))) this.measure(record, nesting)
  }

  /** The objects of a part of the PDF, for references to them. */
  private index(source: PdfText, objects: ObjectStarts): void {
    for (const [number, positions] of objects.byNumber) {
      const known = this.objects.get(number) ?? []
      known.push(...positions.map((at) => ({ source, at })))
      this.objects.set(number, known)
    }
  }

  /**
   * The pages read by the photo path, once every stream is measured (D350). A JPEG past PDF.js's
   * budget is let through only when a page is that JPEG, within the photo path's budget, and PDF.js
   * is then kept from decoding it: it leaves out any image of as many pixels (`maxImageSize`), which
   * must then be no other image of the file (else it is refused as before).
   */
  plan(): PdfPlan {
    const file = this.file
    // The page tree is walked only for a file that holds a JPEG: no other page can be one.
    const photos = this.jpegs ? photoPages(this, this.limits.maxPages) : new Map<number, PhotoPage>()
    const photoStreams = new Map<PdfText, Set<number>>()
    for (const { source, keyword } of photos.values()) photoStreams.set(source, (photoStreams.get(source) ?? new Set()).add(keyword))
    const isPhoto = (place: StreamPlace) => photoStreams.get(place.source)?.has(place.keyword) === true
    const refused = this.deferred.find((image) => !isPhoto(image))
    if (refused) throw refused.error
    // Each such page's JPEG is checked now as the photo path will check it, before PDF.js opens the file.
    for (const photo of photos.values()) jpegPhoto(photo.jpeg, this.limits, 0, PDF_FILE_COPIES * file.bytes.length)
    if (!this.deferred.length) return { photos, maxImageSize: this.limits.maxPagePixels }
    const smallest = this.deferred.reduce((least, image) => (image.pixels < least.pixels ? image : least))
    if (this.images.some((image) => !isPhoto(image) && image.pixels >= smallest.pixels)) throw smallest.error
    return { photos, maxImageSize: Math.min(this.limits.maxPagePixels, smallest.pixels - 1) }
  }

  /** One stream: its data decoded through its filters with a ceiling, its cost checked, its objects scanned. */
  private measure({ source, keyword, dictionary }: StreamRecord, nesting: number): void {
    const start = dataStart(source.bytes, keyword)
    const { end } = this.extent(source, dictionary, keyword)
    const image = this.name(dictionary?.get('Subtype')) === 'Image'
    const factor = image ? IMAGE_SAMPLES_FACTOR : STREAM_FACTOR
    const limit = Math.floor(this.limits.maxDecodeBytes / factor)
    const filters = dictionary ? this.filters(dictionary) : []
    if (this.name(dictionary?.get('Type')) === 'XRef') this.xrefStreams.push({ at: keyword, dictionary: dictionary! })
    if (image && this.jpegOnly(dictionary!, { source, keyword }, source.bytes.subarray(start, end))) return
    // An image's size is known from its dictionary before anything is decoded.
    if (image) this.checkImage(dictionary!, undefined, 0)
    let data = source.bytes.subarray(start, end)
    let decoded = 0
    let flateFirst = false
    try {
      for (const [index, { filter, params }] of filters.entries()) {
        if (filter === 'image') {
          this.checkImage(dictionary!, data, decoded)
          return
        }
        if (index === 0 && filter === 'flate') {
          flateFirst = true
          // Deflate ends itself: the data to the end of the part bounds any end PDF.js may take.
          data = source.bytes.subarray(start)
        }
        data = decodeFilter(filter, data, limit - decoded, this.number(params?.get('EarlyChange')) ?? 1)
        decoded += data.length
        this.checkPredictor(filter, params)
      }
      // Data that opens as Deflate is measured so whatever its dictionary says (or where none is found).
      if (!flateFirst && looksLikeZlib(source.bytes, start)) {
        const inflated = decodeFilter('flate', source.bytes.subarray(start), limit)
        if (!filters.length) {
          data = inflated
          decoded += inflated.length
        }
      }
    } catch (error) {
      if (error instanceof PastLimit) throw inflatesPastBudget(this.limits, 'A stream of the PDF, as PDF.js holds it while reading it, takes')
      throw error
    }
    if (image) {
      this.imageBytes += decoded
      if (dictionary) this.checkImage(dictionary, undefined, decoded)
    } else this.otherBytes += decoded
    // Streams other than images together are bounded by the time PDF.js takes to read them: twice the budget.
    if (this.otherBytes > this.limits.maxDecodeBytes * 2)
      throw new ExtractionError(
        'document_too_large',
        `The streams of the PDF other than images unpack to more than ${mebibytes(this.limits.maxDecodeBytes * 2)} MiB together; at most twice --max-decode-mb are read per document.`,
      )
    // Image samples together are bounded by the time it takes to decode them: as many bytes as the document's pixels in RGBA.
    if (this.imageBytes > this.limits.maxDocumentPixels * 4)
      throw new ExtractionError(
        'document_too_large',
        `The images of the PDF unpack to more than ${mebibytes(this.limits.maxDocumentPixels * 4)} MiB together; at most 4 bytes for each pixel of --max-document-megapixels are read per document.`,
      )
    // Objects decoded from a stream (an object stream) are parsed by PDF.js, streams and all; an
    // object stream's objects are what references to them name (a page, D350) in any case.
    const streams = decoded > 0 && containsStream(data)
    if (nesting < MAX_NESTING && data.length && (streams || this.name(dictionary?.get('Type')) === 'ObjStm')) {
      const content = new PdfText(data)
      const count = this.number(dictionary?.get('N')) ?? 0
      const first = this.number(dictionary?.get('First')) ?? 0
      const objects = streamedObjects(content, Math.min(count, MAX_STREAMS), first)
      if (streams) this.scan(content, objects, nesting + 1)
      else this.index(content, objects)
    }
  }

  /**
   * Where a stream's data ends, and where what follows `endstream` starts: its /Length (or any
   * value its reference may have) when `endstream` follows there, else the first `endstream`.
   */
  private extent(source: PdfText, dictionary: PdfDictionary | undefined, keyword: number): { end: number; after: number } {
    let known = this.ends.get(source)
    if (!known) this.ends.set(source, (known = new Map()))
    const cached = known.get(keyword)
    if (cached) return cached
    const { bytes, text } = source
    const start = dataStart(bytes, keyword)
    let found: { end: number; after: number } | undefined
    for (const length of this.numbers(dictionary?.get('Length'))) {
      if (!Number.isInteger(length) || length < 0 || start + length > bytes.length) continue
      const parser = new PdfParser(source, start + length)
      if (parser.peekWord() === 'endstream' && (!found || start + length > found.end)) found = { end: start + length, after: parser.at + 9 }
    }
    if (!found) {
      const end = text.indexOf('endstream', start)
      found = end === -1 ? { end: bytes.length, after: bytes.length } : { end, after: end + 9 }
    }
    known.set(keyword, found)
    return found
  }

  /**
   * An image stream that is a JPEG under its one filter: checked as PDF.js holds it (its dictionary
   * and the JPEG's header), and when past that budget, kept until the pages show whether one of
   * them is that JPEG (D350). Every image's size as its dictionary gives it is noted for `maxImageSize`.
   */
  private jpegOnly(dictionary: PdfDictionary, place: StreamPlace, data: Uint8Array): boolean {
    const width = this.number(dictionary.get('Width') ?? dictionary.get('W'))
    const height = this.number(dictionary.get('Height') ?? dictionary.get('H'))
    const pixels = width && height && width > 0 && height > 0 ? width * height : 0
    this.images.push({ ...place, pixels })
    const filters = this.filters(dictionary)
    if (filters.length !== 1 || filters[0]!.filter !== 'image' || !jpegFrame(data)) return false
    this.jpegs++
    try {
      // As any image: its dictionary first, then with the JPEG's header.
      this.checkImage(dictionary, undefined, 0)
      this.checkImage(dictionary, data, 0)
    } catch (error) {
      if (!(error instanceof ExtractionError) || error.code !== 'image_too_large' || !pixels) throw error
      this.deferred.push({ ...place, pixels, error })
    }
    return true
  }

  /** The document's catalog: the /Root its last trailer (or cross-reference stream) names. */
  root(): PdfDictionary | undefined {
    const file = this.file
    const trailers = [...file.text.matchAll(/trailer/g)].map((match) => ({ at: match.index, dictionary: objectValue(file, match.index + 'trailer'.length) }))
    const named = [...trailers, ...this.xrefStreams]
      .filter(({ dictionary }) => dictionary instanceof Map && dictionary.has('Root'))
      .sort((a, b) => a.at - b.at)
      .pop()
    const root = this.resolve((named?.dictionary as PdfDictionary | undefined)?.get('Root'))
    return root instanceof Map ? root : undefined
  }

  /** The stream a reference names (the last object of that number written): its dictionary and its data. */
  streamOf(value: PdfValue | undefined): PdfStream | undefined {
    if (!(value instanceof PdfRef)) return undefined
    const written = this.objects.get(value.num)
    const last = written?.[written.length - 1]
    if (!last) return undefined
    let found: { dictionary: PdfDictionary; keyword: number } | undefined
    nextValue(
      new PdfParser(last.source, last.at, (dictionary, keyword) => {
        found = { dictionary, keyword }
        return undefined
      }),
    )
    if (!found) return undefined
    const { source } = last
    const data = source.bytes.subarray(dataStart(source.bytes, found.keyword), this.extent(source, found.dictionary, found.keyword).end)
    return { source, keyword: found.keyword, dictionary: found.dictionary, data }
  }

  /** A stream's filters in order, with their parameters (PDF.js decodes those it knows, passes the others by). */
  filters(dictionary: PdfDictionary): { filter: Exclude<Filter, 'image'> | 'image'; params: PdfDictionary | undefined }[] {
    const filter = this.resolve(dictionary.get('Filter') ?? dictionary.get('F'))
    const params = this.resolve(dictionary.get('DecodeParms') ?? dictionary.get('DP'))
    const names = Array.isArray(filter) ? filter.map((each) => this.resolve(each)) : [filter]
    return names.flatMap((name, i) => {
      const decoded = name instanceof PdfName ? filterOf(name.name) : undefined
      if (!decoded) return []
      const param = this.resolve(Array.isArray(params) ? params[i] : params)
      return [{ filter: decoded, params: param instanceof Map ? param : undefined }]
    })
  }

  /** A predictor allocates a row at once, however little data there is: its row is counted. */
  private checkPredictor(filter: Filter, params: PdfDictionary | undefined): void {
    if ((filter !== 'flate' && filter !== 'lzw') || !params || (this.number(params.get('Predictor')) ?? 1) <= 1) return
    const columns = this.number(params.get('Columns')) ?? 1
    const colours = this.number(params.get('Colors')) ?? 1
    const bits = this.number(params.get('BitsPerComponent')) ?? 8
    const row = Math.ceil((columns * colours * bits) / 8)
    if (!(row * STREAM_FACTOR <= this.limits.maxDecodeBytes)) throw inflatesPastBudget(this.limits, 'A row of a stream of the PDF takes')
  }

  /**
   * An image: its pixels (from its dictionary, and from a JPEG's own header, which PDF.js decodes
   * by) against the page limit, and its samples as held, the RGBA copy and the grey page, with a
   * JPEG's coefficients, against the budget. `encoded` is a JPEG's data where the chain reached it.
   */
  private checkImage(dictionary: PdfDictionary, encoded: Uint8Array | undefined, decoded: number): void {
    let width = this.number(dictionary.get('Width') ?? dictionary.get('W'))
    let height = this.number(dictionary.get('Height') ?? dictionary.get('H'))
    let extra = 0
    const frame = encoded && jpegFrame(encoded)
    if (frame) {
      width = Math.max(width ?? 0, frame.width)
      height = Math.max(height ?? 0, frame.height)
      extra = jpegCoefficientBytes(frame) + frame.width * frame.height * frame.components.length
    }
    if (!(width && height && width > 0 && height > 0)) return
    checkPixels(width, height, this.limits)
    const mask = this.resolve(dictionary.get('ImageMask') ?? dictionary.get('IM')) === true
    const bits = mask ? 1 : (this.number(dictionary.get('BitsPerComponent') ?? dictionary.get('BPC')) ?? 8)
    const space = this.name(dictionary.get('ColorSpace') ?? dictionary.get('CS'))
    const components = mask ? 1 : (COMPONENTS[space ?? ''] ?? 4)
    const pixels = width * height
    const samples = Math.max(Math.ceil((pixels * components * bits) / 8), decoded)
    checkImageBytes(samples * IMAGE_SAMPLES_FACTOR + extra + pixels * IMAGE_BYTES_PER_PIXEL, this.limits)
  }

  /** A value with a reference followed (the last object of that number written, as a rebuilt cross-reference takes it). */
  resolve(value: PdfValue | undefined, depth = 0): PdfValue | undefined {
    if (!(value instanceof PdfRef) || depth > 8) return value
    const written = this.objects.get(value.num)
    const last = written?.[written.length - 1]
    return last ? this.resolve(objectValue(last.source, last.at), depth + 1) : undefined
  }

  /** Every value a number may have: a reference may name an object written more than once. */
  private numbers(value: PdfValue | undefined): number[] {
    if (typeof value === 'number') return [value]
    if (!(value instanceof PdfRef)) return []
    return (this.objects.get(value.num) ?? []).map(({ source, at }) => objectValue(source, at)).filter((each) => typeof each === 'number')
  }

  private number(value: PdfValue | undefined): number | undefined {
    const resolved = this.resolve(value)
    return typeof resolved === 'number' ? resolved : undefined
  }

  private name(value: PdfValue | undefined): string | undefined {
    const resolved = this.resolve(value)
    if (resolved instanceof PdfName) return resolved.name
    // A colour space given as an array names its family first ([/ICCBased …], [/Indexed …]).
    if (Array.isArray(resolved)) return this.name(resolved[0])
    return undefined
  }
}

/** Where PDF.js starts a stream's data: after the end of the line that holds `stream`, whatever else is on it. */
function dataStart(bytes: Uint8Array, keyword: number): number {
  let at = keyword + 'stream'.length
  while (at < bytes.length) {
    const byte = bytes[at++]!
    if (byte === 0x0a) break
    if (byte === 0x0d) {
      if (bytes[at] === 0x0a) at++
      break
    }
  }
  return at
}

/** A zlib header: Deflate, a window PDF.js accepts, and the check bits right. */
function looksLikeZlib(bytes: Uint8Array, at: number): boolean {
  const cmf = bytes[at]
  const flg = bytes[at + 1]
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0
}

/** Whether decoded bytes hold a `stream` keyword (then they are parsed as objects). */
function containsStream(data: Uint8Array): boolean {
  for (let at = data.indexOf(0x73); at !== -1; at = data.indexOf(0x73, at + 1)) {
    if (data[at + 1] === 0x74 && data[at + 2] === 0x72 && data[at + 3] === 0x65 && data[at + 4] === 0x61 && data[at + 5] === 0x6d) return true
  }
  return false
}
