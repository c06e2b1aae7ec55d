/**
 * Just enough of PDF's object syntax to find what a stream will cost before PDF.js opens the file
 * (D182): objects are parsed as PDF.js's own parser takes them (names with #-escapes, strings
 * with nesting and escapes, comments, dictionaries and arrays nested anywhere, references), so
 * the dictionary of a stream, however it is written, is read as PDF.js reads it.
 */
import { upperBound } from '../../../lib/sorted'

/** A PDF value as parsed: numbers, names, strings, booleans and null as such, and the rest. */
export type PdfValue = number | PdfName | string | boolean | null | PdfValue[] | PdfDictionary | PdfRef

export class PdfName {
  constructor(readonly name: string) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

export type PdfDictionary = Map<string, PdfValue>

/** Deepest nesting of arrays and dictionaries parsed; PDF.js itself gives up far sooner on real files. */
const MAX_DEPTH = 256

/** The bytes of a part of a PDF (the file, or an object stream's content) as one character per byte. */
export class PdfText {
  readonly text: string

  constructor(readonly bytes: Uint8Array) {
    // ISO 8859-1, one byte a character (a string of one byte a character); TextDecoder's "latin1"
    // is windows-1252, whose characters past U+00FF made the string two bytes a character (D353).
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  }
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25])

export function isWhitespace(byte: number | undefined): boolean {
  return byte !== undefined && WHITESPACE.has(byte)
}

/** Thrown when the text at hand is not an object PDF.js would parse. */
class NotAnObject extends Error {}

/**
 * A parser at a position of a part of a PDF. `onStream` is told of every dictionary followed by
 * the `stream` keyword (its position): it answers where that stream's data ends (after
 * `endstream`), or undefined to stop there.
 */
export class PdfParser {
  at: number
  private depth = 0

  constructor(
    private readonly source: PdfText,
    at: number,
    private readonly onStream: (dictionary: PdfDictionary, keyword: number) => number | undefined = () => undefined,
  ) {
    this.at = at
  }

  private get bytes(): Uint8Array {
    return this.source.bytes
  }

  /** Skips whitespace and comments, as PDF.js's lexer does between tokens. */
  skipSpace(): void {
    const { bytes } = this
    while (this.at < bytes.length) {
      const byte = bytes[this.at]!
      if (WHITESPACE.has(byte)) this.at++
      else if (byte === 0x25) {
        while (this.at < bytes.length && bytes[this.at] !== 0x0a && bytes[this.at] !== 0x0d) this.at++
      } else break
    }
  }

  /** A keyword or number token (a run of regular characters) at the position, not consumed. */
  peekWord(): string {
    this.skipSpace()
    let end = this.at
    while (end < this.bytes.length && !WHITESPACE.has(this.bytes[end]!) && !DELIMITERS.has(this.bytes[end]!)) end++
    return this.source.text.slice(this.at, end)
  }

  /** The next value; throws NotAnObject where there is none. Stops (undefined) where `onStream` says so. */
  value(): PdfValue | undefined {
    this.skipSpace()
    const { bytes } = this
    const byte = bytes[this.at]
    if (byte === undefined) throw new NotAnObject('end of data')
    if (byte === 0x2f) return this.name()
    if (byte === 0x28) return this.literalString()
    if (byte === 0x5b) return this.nested(() => this.array())
    if (byte === 0x3c) return bytes[this.at + 1] === 0x3c ? this.nested(() => this.dictionaryOrStream()) : this.hexString()
    const word = this.peekWord()
    if (!word) throw new NotAnObject(`unexpected ${String.fromCharCode(byte)}`)
    this.at += word.length
    if (word === 'true' || word === 'false') return word === 'true'
    if (word === 'null') return null
    const number = Number(word)
    if (!Number.isFinite(number)) throw new NotAnObject(`unexpected ${word}`)
    // `num gen R` is a reference.
    const save = this.at
    if (Number.isInteger(number) && number >= 0) {
      const gen = this.peekWord()
      if (/^\d+$/.test(gen)) {
        this.at += gen.length
        if (this.peekWord() === 'R') {
          this.at += 1
          return new PdfRef(number, Number(gen))
        }
      }
    }
    this.at = save
    return number
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new NotAnObject('nested too deep')
    try {
      return parse()
    } finally {
      this.depth--
    }
  }

  private name(): PdfName {
    const { bytes } = this
    this.at++
    let name = ''
    while (this.at < bytes.length && !WHITESPACE.has(bytes[this.at]!) && !DELIMITERS.has(bytes[this.at]!)) {
      const byte = bytes[this.at]!
      // #xx is the character of that code, as PDF.js reads it.
      if (byte === 0x23 && /^[0-9a-fA-F]{2}$/.test(this.source.text.slice(this.at + 1, this.at + 3))) {
        name += String.fromCharCode(Number.parseInt(this.source.text.slice(this.at + 1, this.at + 3), 16))
        this.at += 3
      } else {
        name += String.fromCharCode(byte)
        this.at++
      }
    }
    return new PdfName(name)
  }

  private literalString(): string {
    const { bytes } = this
    const start = ++this.at
    let open = 1
    while (this.at < bytes.length) {
      const byte = bytes[this.at++]!
      if (byte === 0x5c) this.at++
      else if (byte === 0x28) open++
      else if (byte === 0x29 && --open === 0) return this.source.text.slice(start, this.at - 1)
    }
    throw new NotAnObject('unterminated string')
  }

  private hexString(): string {
    const end = this.source.text.indexOf('>', this.at)
    if (end === -1) throw new NotAnObject('unterminated hex string')
    const value = this.source.text.slice(this.at + 1, end)
    this.at = end + 1
    return value
  }

  private array(): PdfValue[] | undefined {
    this.at++
    const items: PdfValue[] = []
    for (;;) {
      this.skipSpace()
      if (this.bytes[this.at] === 0x5d) {
        this.at++
        return items
      }
      const item = this.value()
      if (item === undefined) return undefined
      items.push(item)
    }
  }

  private dictionaryOrStream(): PdfDictionary | undefined {
    this.at += 2
    const dictionary: PdfDictionary = new Map()
    for (;;) {
      this.skipSpace()
      if (this.bytes[this.at] === 0x3e && this.bytes[this.at + 1] === 0x3e) {
        this.at += 2
        break
      }
      const key = this.value()
      if (key === undefined) return undefined
      if (!(key instanceof PdfName)) throw new NotAnObject('a dictionary key that is not a name')
      const value = this.value()
      if (value === undefined) return undefined
      dictionary.set(key.name, value)
    }
    if (this.peekWord() !== 'stream') return dictionary
    const after = this.onStream(dictionary, this.at)
    if (after === undefined) return undefined
    this.at = after
    return dictionary
  }
}

/**
 * The dictionary PDF.js gives the stream whose `stream` keyword is at `keyword`: parsed from where
 * one of the objects before it starts (`starts`, sorted; the nearest first, as many as `tries`),
 * the dictionary after which the parse reaches that keyword. Streams met on the way are skipped
 * with `skip` (where their data ends). Undefined when no object parses to it.
 */
export function streamDictionary(
  source: PdfText,
  keyword: number,
  starts: number[],
  skip: (dictionary: PdfDictionary, keyword: number) => number | undefined,
  tries: number,
): PdfDictionary | undefined {
  let index = upperBound(starts, keyword) - 1
  for (let tried = 0; index >= 0 && tried < tries; index--, tried++) {
    let found: PdfDictionary | undefined
    const parser = new PdfParser(source, starts[index]!, (dictionary, at) => {
      if (at === keyword) {
        found = dictionary
        return undefined
      }
      // A stream of its own before ours: skip its data, unless it runs past ours.
      const end = at < keyword ? skip(dictionary, at) : undefined
      return end !== undefined && end <= keyword ? end : undefined
    })
    try {
      parser.value()
    } catch (error) {
      if (!(error instanceof NotAnObject)) throw error
    }
    if (found) return found
  }
  return undefined
}

/** The parser's next value, when one parses there. */
export function nextValue(parser: PdfParser): PdfValue | undefined {
  try {
    return parser.value()
  } catch (error) {
    if (error instanceof NotAnObject) return undefined
    throw error
  }
}

/** The value that starts at `at`, when it parses. */
export function objectValue(source: PdfText, at: number): PdfValue | undefined {
  return nextValue(new PdfParser(source, at))
}

/** Where objects start in a part of a PDF: after each `num gen obj` header, by object number. */
export interface ObjectStarts {
  /** Every object's start, sorted. */
  starts: number[]
  byNumber: Map<number, number[]>
}

/** The objects written `num gen obj …` in a part of a PDF. */
export function writtenObjects(source: PdfText): ObjectStarts {
  const found: ObjectStarts = { starts: [], byNumber: new Map() }
  for (const match of source.text.matchAll(/(\d{1,10})[\0\t\n\f\r ]+\d{1,5}[\0\t\n\f\r ]+obj(?![^\0\t\n\f\r ()<>[\]{}/%])/g)) {
    addObject(found, Number(match[1]), match.index + match[0].length)
  }
  return found
}

/**
 * The objects of an object stream's content: its first `count` pairs of numbers give each
 * object's number and where it starts, counted from `first`.
 */
export function streamedObjects(source: PdfText, count: number, first: number): ObjectStarts {
  const found: ObjectStarts = { starts: [], byNumber: new Map() }
  const parser = new PdfParser(source, 0)
  try {
    for (let i = 0; i < count; i++) {
      const [number, offset] = [parser.value(), parser.value()]
      if (typeof number !== 'number' || typeof offset !== 'number') break
      addObject(found, number, first + offset)
    }
  } catch (error) {
    if (!(error instanceof NotAnObject)) throw error
  }
  found.starts.sort((a, b) => a - b)
  return found
}

function addObject(found: ObjectStarts, number: number, at: number): void {
  found.starts.push(at)
  const list = found.byNumber.get(number) ?? []
  list.push(at)
  found.byNumber.set(number, list)
}
