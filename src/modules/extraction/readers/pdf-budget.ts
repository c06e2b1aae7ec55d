/**
 * What a PDF will cost to decode, judged from its bytes before PDF.js opens it (D120). Streams
 * cannot sit inside object streams, so every stream's dictionary is in the file as written: each
 * image's declared size is checked against the limits, and each Deflate stream is inflated once
 * with half the budget as its ceiling, so one that unpacks past it is refused before PDF.js, which
 * inflates a stream whole, gets to it. PDF.js is also told the largest image it may decode
 * (`maxImageSize`), for images whose size this reading cannot see.
 */
import { inflatesPast } from './inflate'
import { checkImageBytes, checkPixels, inflatesPastBudget } from './limits'
import type { ReadLimits } from './types'

/** A stream's keyword (not the end of `endstream`) and its end of line. */
const STREAM_START = /(?<!end)stream(?:\r\n|\n|\r)/g
/** How far back from `stream` its dictionary is looked for. */
const DICTIONARY_REACH = 64 * 1024
/** Components of the colour spaces named in an image's dictionary; others count as four. */
const COMPONENTS: Record<string, number> = { DeviceGray: 1, CalGray: 1, G: 1, DeviceRGB: 3, CalRGB: 3, RGB: 3, DeviceCMYK: 4, CMYK: 4 }

export function checkPdfBudget(bytes: Uint8Array, limits: ReadLimits): void {
  // One character per byte: positions in the text are positions in the file.
  const text = new TextDecoder('latin1').decode(bytes)
  for (const match of text.matchAll(STREAM_START)) {
    const start = match.index + match[0].length
    const reach = Math.max(0, match.index - DICTIONARY_REACH)
    const objectStart = text.lastIndexOf('obj', match.index)
    const dictionary = text.slice(Math.max(reach, objectStart), match.index)
    if (/\/Subtype\s*\/Image\b/.test(dictionary)) checkImage(dictionary, limits)
    if (/\/Filter\s*(?:\[\s*)?\/(?:FlateDecode|Fl)\b/.test(dictionary)) {
      const end = text.indexOf('endstream', start)
      const data = bytes.subarray(start, end === -1 ? bytes.length : end)
      // PDF.js grows a stream's buffer by doubling: half the budget is what one stream may hold.
      const limit = Math.floor(limits.maxDecodeBytes / 2)
      if (inflatesPast(data, 'zlib', limit)) throw inflatesPastBudget(limits, 'A stream of the PDF, counted twice as PDF.js holds it, inflates to')
    }
  }
}

/**
 * An image whose size is written in its dictionary: its pixels, and the memory of its samples, the
 * RGBA copy PDF.js makes of them and the grey page.
 */
function checkImage(dictionary: string, limits: ReadLimits): void {
  const number = (key: string) => Number(new RegExp(`/${key}\\s+(\\d+)(?!\\s+\\d+\\s+R)`).exec(dictionary)?.[1] ?? Number.NaN)
  const width = number('Width')
  const height = number('Height')
  if (!(width > 0 && height > 0)) return
  checkPixels(width, height, limits)
  const mask = /\/ImageMask\s+true/.test(dictionary)
  const bits = mask ? 1 : number('BitsPerComponent') || 8
  const space = /\/ColorSpace\s*\/(\w+)/.exec(dictionary)?.[1]
  const components = mask ? 1 : (COMPONENTS[space ?? ''] ?? 4)
  const pixels = width * height
  checkImageBytes(Math.ceil((pixels * components * bits) / 8) + pixels * 5, limits)
}
