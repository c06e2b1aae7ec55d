/**
 * Tesseract 5 compiled to WebAssembly (tesseract.js-core), driven directly: its .wasm and the
 * language models are embedded files of the binary, written into the engine's in-memory file
 * system when first needed. Nothing is read from disk or the network. One engine per thread,
 * created on the first image, since it costs about a second to start.
 */
import TesseractCore from 'tesseract.js-core/tesseract-core-simd.js'
import wasmPath from 'tesseract.js-core/tesseract-core-simd.wasm' with { type: 'file' }
import osd from '@tesseract.js-data/osd/4.0.0_best_int/osd.traineddata.gz' with { type: 'file' }
import deu from '../../../../../data/ocr/deu.traineddata.gz' with { type: 'file' }
import eng from '../../../../../data/ocr/eng.traineddata.gz' with { type: 'file' }
import fra from '../../../../../data/ocr/fra.traineddata.gz' with { type: 'file' }
import nld from '../../../../../data/ocr/nld.traineddata.gz' with { type: 'file' }
import spa from '../../../../../data/ocr/spa.traineddata.gz' with { type: 'file' }
import { type Band, type Raster, rows, toPgm } from './raster'

/** The languages OCR reads, with their embedded models (gzipped traineddata). */
const MODELS = { eng, deu, fra, nld, spa, osd } as const

export type OcrLanguage = Exclude<keyof typeof MODELS, 'osd'>

/** OCR itself failed (not the document): the job fails as unexpected and the cause is logged. */
export class OcrError extends Error {
  override name = 'OcrError'
}

/** A recognised word; the box is in the raster's pixels. */
export interface OcrWord {
  text: string
  left: number
  top: number
  width: number
  height: number
  /** Tesseract's confidence, 0–100. */
  confidence: number
  /** The line Tesseract read the word in (block, paragraph, line). */
  line: string
}

export interface Orientation {
  /** Clockwise turn that makes the page upright. */
  degrees: 0 | 90 | 180 | 270
  confidence: number
}

const TESSDATA = '/tessdata'
/** Tesseract's LSTM engine (oem 1) for text; the legacy one (oem 0) is what orientation detection needs. */
const OEM_LSTM = 1
const OEM_LEGACY = 0
/** Page segmentation: fully automatic, no orientation detection (done separately, and only when needed). */
const PSM_AUTO = '3'
/** Page segmentation for an image holding one line of text. */
const PSM_LINE = '7'

interface TessApi {
  Init(path: string, languages: string, oem: number): number
  SetVariable(name: string, value: string): boolean
  SetImageFile(exifOrientation: number, angle: number): number
  Recognize(monitor: null): number
  GetTSVText(page: number): string
  DetectOS(results: unknown): boolean
  Clear(): void
}

interface TessModule {
  FS: { writeFile(path: string, data: Uint8Array): void; mkdir(path: string): void; unlink(path: string): void }
  TessBaseAPI: new () => TessApi
  OSResults: new () => { best_result: { orientation_id: number; oconfidence: number } }
}

let core: Promise<TessModule> | undefined
const written = new Set<string>()
const apis = new Map<string, TessApi>()

async function loadCore(): Promise<TessModule> {
  core ??= (async () => {
    const wasmBinary = await Bun.file(wasmPath).arrayBuffer()
    const module = (await TesseractCore({ wasmBinary, print: () => {}, printErr: () => {} })) as TessModule
    module.FS.mkdir(TESSDATA)
    return module
  })()
  return core
}

async function writeModel(module: TessModule, name: keyof typeof MODELS): Promise<void> {
  if (written.has(name)) return
  const gz = new Uint8Array(await Bun.file(MODELS[name]).arrayBuffer())
  module.FS.writeFile(`${TESSDATA}/${name}.traineddata`, Bun.gunzipSync(gz))
  written.add(name)
}

/** An engine for a set of languages ("deu+eng"), started once and kept for the thread's life. */
async function apiFor(languages: string, oem: number, segmentation = PSM_AUTO): Promise<{ module: TessModule; api: TessApi }> {
  const module = await loadCore()
  const id = `${languages}/${oem}/${segmentation}`
  let api = apis.get(id)
  if (!api) {
    for (const name of languages.split('+')) await writeModel(module, name as keyof typeof MODELS)
    api = new module.TessBaseAPI()
    if (api.Init(TESSDATA, languages, oem) !== 0) throw new Error(`Tesseract could not load ${languages}`)
    api.SetVariable('tessedit_pageseg_mode', segmentation)
    // Looking for white-on-black text costs a second recognition of doubtful lines; documents rarely have it.
    api.SetVariable('tessedit_do_invert', '0')
    apis.set(id, api)
  }
  return { module, api }
}

/**
 * Recognises the words of a page image with the given languages' models: all of it, or one band
 * of it (boxes still in the whole image's pixels).
 */
export async function recognise(raster: Raster, languages: OcrLanguage[], band?: Band): Promise<OcrWord[]> {
  return asOcrError(async () => {
    const { module, api } = await apiFor(languages.join('+'), OEM_LSTM)
    module.FS.writeFile('/input', toPgm(band ? rows(raster, band) : raster))
    try {
      if (api.SetImageFile(1, 0) !== 0) throw new Error('Tesseract could not read the page image')
      api.Recognize(null)
      const words = parseTsv(api.GetTSVText(0))
      return band ? words.map((word) => ({ ...word, top: word.top + band.top })) : words
    } finally {
      api.Clear()
      module.FS.unlink('/input')
    }
  })
}

/**
 * Recognises images of single lines (cut out by a line detector): each line's words, boxes in
 * that line image's pixels.
 */
export async function recogniseLines(lines: Raster[], languages: OcrLanguage[]): Promise<OcrWord[][]> {
  return asOcrError(async () => {
    const { module, api } = await apiFor(languages.join('+'), OEM_LSTM, PSM_LINE)
    const read: OcrWord[][] = []
    for (const line of lines) {
      module.FS.writeFile('/input', toPgm(line))
      try {
        if (api.SetImageFile(1, 0) !== 0) throw new Error('Tesseract could not read a line image')
        api.Recognize(null)
        read.push(parseTsv(api.GetTSVText(0)))
      } finally {
        api.Clear()
        module.FS.unlink('/input')
      }
    }
    return read
  })
}

async function asOcrError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw new OcrError(`OCR failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}

/** How the page is turned, from Tesseract's orientation and script detection. */
export async function detectOrientation(raster: Raster): Promise<Orientation | undefined> {
  return asOcrError(async () => {
    const { module, api } = await apiFor('osd', OEM_LEGACY)
    module.FS.writeFile('/input', toPgm(raster))
    try {
      if (api.SetImageFile(1, 0) !== 0) return undefined
      const results = new module.OSResults()
      if (!api.DetectOS(results)) return undefined
      const best = results.best_result
      const degrees = ([0, 270, 180, 90] as const)[best.orientation_id]
      return degrees === undefined ? undefined : { degrees, confidence: best.oconfidence }
    } finally {
      api.Clear()
      module.FS.unlink('/input')
    }
  })
}

/** Words from Tesseract's TSV output (level 5 rows). */
function parseTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = []
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t')
    if (cols[0] !== '5' || cols.length < 12) continue
    const text = cols.slice(11).join('\t').trim()
    if (!text) continue
    words.push({
      text,
      left: Number(cols[6]),
      top: Number(cols[7]),
      width: Number(cols[8]),
      height: Number(cols[9]),
      confidence: Math.max(0, Number(cols[10])),
      line: `${cols[2]}.${cols[3]}.${cols[4]}`,
    })
  }
  return words
}
