/**
 * Page images made in the tests: text laid out with pdf-lib and rendered by PDFium (WebAssembly),
 * then encoded as JPEG, PNG, TIFF or WebP, or embedded in an image-only PDF. No fixture files.
 */
import { PDFiumLibrary } from '@hyzyla/pdfium'
import { encode as encodePngBytes } from 'fast-png'
import jpeg from 'jpeg-js'
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib'
import UTIF from 'utif2'
import { type Raster, rotate } from '../../src/modules/extraction/readers/ocr/raster'

let pdfium: Promise<PDFiumLibrary> | undefined

export interface TextPage {
  lines: string[]
  /** Points; defaults to a receipt-like 300 × (lines × 22 + 60). */
  width?: number
  fontSize?: number
}

/** A text PDF, one page per entry (what the scans below are rendered from). */
export async function textPdf(pages: TextPage[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Courier)
  for (const page of pages) addTextPage(pdf, font, page)
  return pdf.save()
}

function addTextPage(pdf: PDFDocument, font: PDFFont, page: TextPage): void {
  const size = page.fontSize ?? 12
  const height = page.lines.length * size * 1.8 + 60
  const sheet = pdf.addPage([page.width ?? 300, height])
  page.lines.forEach((text, i) => sheet.drawText(text, { x: 20, y: height - 40 - i * size * 1.8, size, font }))
}

/** Renders each page of a text PDF to greyscale pixels at `dpi`. */
export async function renderPages(pages: TextPage[], dpi = 150): Promise<Raster[]> {
  const library = await (pdfium ??= PDFiumLibrary.init())
  const document = await library.loadDocument(await textPdf(pages))
  const rasters: Raster[] = []
  for (const page of document.pages()) {
    const render = await page.render({ scale: dpi / 72, colorSpace: 'Gray', render: 'bitmap' })
    // PDFium's grey bitmaps are one byte per pixel, rows padded to four bytes.
    const stride = render.data.length / render.height
    const data = new Uint8Array(render.width * render.height)
    for (let y = 0; y < render.height; y++) data.set(render.data.subarray(y * stride, y * stride + render.width), y * render.width)
    rasters.push({ width: render.width, height: render.height, data })
  }
  document.destroy()
  return rasters
}

export async function renderPage(page: TextPage, dpi = 150): Promise<Raster> {
  return (await renderPages([page], dpi))[0]!
}

export { rotate }

function rgba(raster: Raster): Uint8Array {
  const out = new Uint8Array(raster.width * raster.height * 4)
  for (let i = 0; i < raster.data.length; i++) out.set([raster.data[i]!, raster.data[i]!, raster.data[i]!, 255], i * 4)
  return out
}

export function toJpeg(raster: Raster, quality = 90): Uint8Array {
  return new Uint8Array(jpeg.encode({ data: rgba(raster), width: raster.width, height: raster.height }, quality).data)
}

export function toPng(raster: Raster): Uint8Array {
  return encodePngBytes({ width: raster.width, height: raster.height, data: raster.data, channels: 1, depth: 8 })
}

/** A TIFF with one uncompressed RGBA frame per raster. */
export function toTiff(rasters: Raster[]): Uint8Array {
  // Only tags may be given to UTIF.encode (its type describes decoded directories).
  const directory = (raster: Raster, stripOffset: number) =>
    ({
      t256: [raster.width],
      t257: [raster.height],
      t258: [8, 8, 8, 8],
      t259: [1],
      t262: [2],
      t273: [stripOffset],
      t277: [4],
      t278: [raster.height],
      t279: [raster.width * raster.height * 4],
      t284: [1],
      t338: [1],
    }) as unknown as UTIF.IFD
  // Offsets are 4-byte values: a first pass with zeros gives the header's length.
  const headerLength = UTIF.encode(rasters.map((raster) => directory(raster, 0))).byteLength
  const offsets: number[] = []
  let end = headerLength
  for (const raster of rasters) {
    offsets.push(end)
    end += raster.width * raster.height * 4
  }
  const out = new Uint8Array(end)
  out.set(new Uint8Array(UTIF.encode(rasters.map((raster, i) => directory(raster, offsets[i]!)))))
  rasters.forEach((raster, i) => out.set(rgba(raster), offsets[i]!))
  return out
}

export async function toWebp(raster: Raster): Promise<Uint8Array> {
  const { default: encode, init } = await import('@jsquash/webp/encode.js')
  const wasm = await Bun.file(require.resolve('@jsquash/webp/codec/enc/webp_enc.wasm')).arrayBuffer()
  await init(new WebAssembly.Module(wasm))
  const data = new Uint8ClampedArray(rgba(raster))
  const image = { data, width: raster.width, height: raster.height, colorSpace: 'srgb' } as Parameters<typeof encode>[0]
  return new Uint8Array(await encode(image, { lossless: 1 }))
}

/** An image-only PDF: each page is one embedded image (JPEG or PNG bytes) filling the page, at 150 dpi. */
export async function imagePdf(pages: ({ jpeg: Uint8Array } | { png: Uint8Array } | { text: TextPage })[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Courier)
  for (const page of pages) {
    if ('text' in page) {
      addTextPage(pdf, font, page.text)
      continue
    }
    const image = 'jpeg' in page ? await pdf.embedJpg(page.jpeg) : await pdf.embedPng(page.png)
    const width = (image.width * 72) / 150
    const height = (image.height * 72) / 150
    pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height })
  }
  return pdf.save()
}

/**
 * A phone photo of a receipt: the receipt rendered at `dpi`, laid on a dark table of `width` ×
 * `height` pixels whose grain (±`grain` grey levels) makes the file as large as a camera's, saved
 * as a JPEG by libvips (sharp).
 */
export async function receiptPhoto(lines: string[], { width = 4000, height = 3000, dpi = 300, grain = 0 } = {}): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp')
  const receipt = await renderPage({ lines }, dpi)
  const photo = new Uint8Array(width * height).fill(60)
  for (let i = 0; grain > 0 && i < photo.length; i++) photo[i] = 60 + Math.floor((Math.random() * 2 - 1) * grain)
  const left = Math.max(0, Math.floor((width - receipt.width) / 2))
  const top = Math.max(0, Math.floor((height - receipt.height) / 2))
  for (let y = 0; y < Math.min(receipt.height, height - top); y++)
    photo.set(receipt.data.subarray(y * receipt.width, y * receipt.width + Math.min(receipt.width, width - left)), (top + y) * width + left)
  return new Uint8Array(
    await sharp(photo, { raw: { width, height, channels: 1 } })
      .jpeg({ quality: 85 })
      .toBuffer(),
  )
}
