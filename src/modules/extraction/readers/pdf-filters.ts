/**
 * PDF's stream filters that expand their input, decoded with a ceiling (D182): what the bytes of a
 * stream become through its filters, at most `limit` bytes at each step, so a chain of filters
 * (Deflate twice, hex then Deflate, LZW, run lengths, Brotli) is measured as PDF.js will decode
 * it, having cost at most the limit. Each decoder ends where PDF.js's ends (its end-of-data mark,
 * or the end of the data); data a decoder cannot read ends the chain as it ends PDF.js's.
 */
import type * as Zlib from 'node:zlib'
import { inflate } from './inflate'

/** Thrown when a step of the chain would produce more than its limit. */
export class PastLimit extends Error {}

let zlib: typeof Zlib | undefined

function nodeZlib(): typeof Zlib {
  zlib ??= process.getBuiltinModule('node:zlib') as typeof Zlib
  return zlib
}

/** The names PDF.js gives each filter it decodes (the short ones are inline-image abbreviations). */
const FILTERS: Record<string, Filter> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'runLength',
  RL: 'runLength',
  ASCIIHexDecode: 'hex',
  AHx: 'hex',
  ASCII85Decode: 'ascii85',
  A85: 'ascii85',
  BrotliDecode: 'brotli',
  DCTDecode: 'image',
  DCT: 'image',
  JPXDecode: 'image',
  JPX: 'image',
  JBIG2Decode: 'image',
  CCITTFaxDecode: 'image',
  CCF: 'image',
}

export type Filter = 'flate' | 'lzw' | 'runLength' | 'hex' | 'ascii85' | 'brotli' | 'image'

/** What PDF.js does with a filter of this name: decode it as one of the above, or pass the data on unchanged. */
export function filterOf(name: string): Filter | undefined {
  return Object.hasOwn(FILTERS, name) ? FILTERS[name] : undefined
}

/** `data` through one filter (not an image's), at most `limit` bytes; PastLimit beyond. */
export function decodeFilter(filter: Exclude<Filter, 'image'>, data: Uint8Array, limit: number, earlyChange = 1): Uint8Array {
  switch (filter) {
    case 'flate':
      return bounded(() => inflate(data, 'zlib', limit))
    case 'brotli':
      return bounded(() => nodeZlib().brotliDecompressSync(data, { maxOutputLength: Math.max(1, limit) }))
    case 'lzw':
      return lzw(data, limit, earlyChange)
    case 'runLength':
      return runLength(data, limit)
    case 'hex':
      return hex(data)
    case 'ascii85':
      return ascii85(data)
  }
}

/**
 * A native decoder's output: past the limit is PastLimit; data it cannot read gives what PDF.js
 * would have decoded of it, counted as nothing here (PDF.js stops at the error, having decoded
 * less than the limit, which the limit covers).
 */
function bounded(decode: () => Uint8Array): Uint8Array {
  try {
    return decode()
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new PastLimit()
    return new Uint8Array(0)
  }
}

/**
 * LZW as PDF.js decodes it, step for step (9–12-bit codes, 256 clears, 257 ends): a code past the
 * table repeats the sequence's first byte, and sequences grow to as long as PDF.js lets them.
 */
function lzw(data: Uint8Array, limit: number, earlyChange: number): Uint8Array {
  const out = new Growing(limit)
  const values = new Uint8Array(4096)
  const lengths = new Uint16Array(4096)
  const previousCodes = new Uint16Array(4096)
  const sequence = new Uint8Array(4096)
  for (let i = 0; i < 256; i++) {
    values[i] = i
    lengths[i] = 1
  }
  let nextCode = 258
  let codeLength = 9
  let previous = 0
  let sequenceLength = 0
  let cached = 0
  let bits = 0
  let at = 0
  for (;;) {
    while (bits < codeLength) {
      if (at >= data.length) return out.bytes()
      cached = ((cached << 8) | data[at++]!) >>> 0
      bits += 8
    }
    bits -= codeLength
    const code = (cached >>> bits) & ((1 << codeLength) - 1)
    cached &= (1 << bits) - 1
    const hadPrevious = sequenceLength > 0
    if (code < 256) {
      sequence[0] = code
      sequenceLength = 1
    } else if (code >= 258) {
      if (code < nextCode) {
        sequenceLength = lengths[code]!
        for (let j = sequenceLength - 1, q = code; j >= 0; j--) {
          if (j < 4096) sequence[j] = values[q]!
          q = previousCodes[q]!
        }
      } else {
        if (sequenceLength < 4096) sequence[sequenceLength] = sequence[0]!
        sequenceLength++
      }
    } else if (code === 256) {
      codeLength = 9
      nextCode = 258
      sequenceLength = 0
      continue
    } else return out.bytes()
    if (hadPrevious) {
      if (nextCode < 4096) {
        previousCodes[nextCode] = previous
        lengths[nextCode] = lengths[previous]! + 1
        values[nextCode] = sequence[0]!
      }
      nextCode++
      const n = nextCode + earlyChange
      if ((n & (n - 1)) === 0) codeLength = Math.min(Math.log2(n) + 1, 12) | 0
    }
    previous = code
    out.push(sequence.subarray(0, Math.min(sequenceLength, 4096)), sequenceLength)
  }
}

/** Run lengths: a byte n < 128 copies n + 1 bytes, n > 128 repeats the next byte 257 − n times, 128 ends. */
function runLength(data: Uint8Array, limit: number): Uint8Array {
  const out = new Growing(limit)
  for (let at = 0; at < data.length; ) {
    const n = data[at++]!
    if (n === 128) break
    if (n < 128) {
      out.push(data.subarray(at, at + n + 1))
      at += n + 1
    } else {
      out.repeat(data[at++] ?? 0, 257 - n)
    }
  }
  return out.bytes()
}

/** Hex digits to bytes, whitespace skipped, up to `>`. */
function hex(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / 2))
  let length = 0
  let high = -1
  for (const byte of data) {
    if (byte === 0x3e) break
    const digit = byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66 ? (byte | 0x20) - 0x57 : -1
    if (digit < 0) continue
    if (high < 0) high = digit
    else {
      out[length++] = (high << 4) | digit
      high = -1
    }
  }
  if (high >= 0) out[length++] = high << 4
  return out.subarray(0, length)
}

/** ASCII base-85 to bytes, up to `~`; `z` is four zero bytes. */
function ascii85(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length * 4))
  let length = 0
  let group = 0
  let count = 0
  for (const byte of data) {
    if (byte === 0x7e) break
    if (byte === 0x7a && count === 0) {
      length += 4
      continue
    }
    if (byte < 0x21 || byte > 0x75) continue
    group = group * 85 + (byte - 0x21)
    if (++count === 5) {
      for (let shift = 24; shift >= 0; shift -= 8) out[length++] = (group >>> shift) & 0xff
      group = 0
      count = 0
    }
  }
  if (count > 1) {
    for (let i = count; i < 5; i++) group = group * 85 + 84
    for (let i = 0, shift = 24; i < count - 1; i++, shift -= 8) out[length++] = (group >>> shift) & 0xff
  }
  return out.subarray(0, length)
}

/** Output that grows by doubling, up to a limit past which it is PastLimit. */
class Growing {
  private buffer = new Uint8Array(4096)
  private length = 0

  constructor(private readonly limit: number) {}

  private room(more: number): void {
    const needed = this.length + more
    if (needed > this.limit) throw new PastLimit()
    if (needed <= this.buffer.length) return
    let size = this.buffer.length
    while (size < needed) size *= 2
    const grown = new Uint8Array(Math.min(size, Math.max(needed, this.limit)))
    grown.set(this.buffer.subarray(0, this.length))
    this.buffer = grown
  }

  /** Adds `bytes`, counted as `count` bytes (zeros past them), as PDF.js writes a sequence longer than its buffer. */
  push(bytes: Uint8Array, count = bytes.length): void {
    this.room(count)
    this.buffer.set(bytes, this.length)
    this.length += count
  }

  repeat(byte: number, count: number): void {
    this.room(count)
    this.buffer.fill(byte, this.length, this.length + count)
    this.length += count
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length)
  }
}
