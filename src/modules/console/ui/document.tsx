/**
 * A document as the browser can show it (D330): PDF pages drawn by pdf.js, JPEG/PNG/WebP/GIF as
 * they are, text as text; zoom, and a strip of page thumbnails. The try screen shows it as soon as
 * a file is chosen; a result shows it with its boxes laid over the page.
 */
import type { ComponentChild } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'

/** What the console can draw of a file: its kind from its media type, or from its name when the browser gives none. */
export type Shown = 'pdf' | 'image' | 'text' | 'none'

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/html', 'text/csv'])
const BY_EXTENSION: Record<string, Shown> = {
  pdf: 'pdf',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  webp: 'image',
  gif: 'image',
  txt: 'text',
  md: 'text',
  markdown: 'text',
  html: 'text',
  htm: 'text',
  csv: 'text',
}

export function shownAs(mediaType: string, name: string): Shown {
  if (mediaType === 'application/pdf') return 'pdf'
  if (IMAGE_TYPES.has(mediaType)) return 'image'
  if (TEXT_TYPES.has(mediaType)) return 'text'
  if (mediaType) return 'none'
  return BY_EXTENSION[name.replace(/^.*\./, '').toLowerCase()] ?? 'none'
}

/** Zoom steps, as shares of the column's width. */
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const
/** A text file is shown up to this many characters: a preview, not an editor. */
const TEXT_PREVIEW_CHARS = 200_000
/** Thumbnails of the first pages only: a 500-page PDF need not draw 500 canvases to be previewed. */
const MAX_THUMBNAILS = 60

interface DocumentViewProps {
  file: File
  mediaType: string
  page: number
  setPage: (page: number) => void
  /** Drawn over the page, positioned in percent of it (a result's boxes). */
  overlay?: (page: number) => ComponentChild
  label?: string
}

export function DocumentView({ file, mediaType, page, setPage, overlay, label = 'Document page' }: DocumentViewProps) {
  const shown = shownAs(mediaType, file.name)
  const [zoom, setZoom] = useState(1)
  const pdf = useMemo(() => (shown === 'pdf' ? openPdf(file) : null), [file, shown])
  const [total, setTotal] = useState(1)
  useEffect(() => {
    setTotal(1)
    pdf?.then((document) => setTotal(document.numPages)).catch(() => {})
  }, [pdf])

  let picture: ComponentChild
  if (shown === 'pdf' && pdf) picture = <PdfPage pdf={pdf} name={file.name} page={page} zoom={zoom} />
  else if (shown === 'image') picture = <ImagePage file={file} />
  else if (shown === 'text') picture = <TextPage file={file} zoom={zoom} />
  else if (mediaType.startsWith('image/')) picture = <p class="note">This browser cannot show {mediaType} images; the boxes are listed by page only.</p>
  else picture = <p class="note">A {mediaType || 'file of this kind'} has no pages the browser can show; each value's snippet is in the JSON.</p>
  const at = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number])

  return (
    <figure class="page-view" aria-label={label}>
      <div class="row spread toolbar">
        <figcaption>
          Page {page} of {total}
        </figcaption>
        <div class="row">
          <button type="button" class="quiet" disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label="Previous page">
            ←
          </button>
          <button type="button" class="quiet" disabled={page >= total} onClick={() => setPage(page + 1)} aria-label="Next page">
            →
          </button>
          {shown !== 'none' && (
            <>
              <button type="button" class="quiet" disabled={at <= 0} onClick={() => setZoom(ZOOMS[at - 1]!)} aria-label="Zoom out">
                −
              </button>
              <output class="zoom" aria-label="Zoom">
                {Math.round(zoom * 100)} %
              </output>
              <button type="button" class="quiet" disabled={at >= ZOOMS.length - 1} onClick={() => setZoom(ZOOMS[at + 1]!)} aria-label="Zoom in">
                +
              </button>
              <button type="button" class="quiet" disabled={zoom === 1} onClick={() => setZoom(1)}>
                Fit
              </button>
            </>
          )}
        </div>
      </div>
      <div class="page-frame">
        <div
          class="page"
          ref={(element) => {
            if (element) sizePage(element, zoom)
          }}
        >
          {picture}
          {shown !== 'none' && overlay?.(page)}
        </div>
      </div>
      {shown === 'pdf' && pdf && total > 1 && <Thumbnails pdf={pdf} total={total} page={page} setPage={setPage} />}
      {shown === 'image' && <ImageThumbnail file={file} />}
    </figure>
  )
}

/** The zoomed page's width, through the DOM (the CSP allows no style attributes). */
function sizePage(element: HTMLElement, zoom: number) {
  element.style.width = `${zoom * 100}%`
}

function ImagePage({ file }: { file: File }) {
  const url = useObjectUrl(file)
  return <img src={url} alt={`Page of ${file.name}`} />
}

/** An image has one page: its thumbnail says so, as a PDF's strip does. */
function ImageThumbnail({ file }: { file: File }) {
  const url = useObjectUrl(file)
  return (
    <ol class="plain thumbnails" aria-label="Pages">
      <li>
        <button type="button" class="thumbnail" aria-current="page" aria-label="Page 1">
          <img src={url} alt="" />
        </button>
      </li>
    </ol>
  )
}

function useObjectUrl(file: File): string {
  const url = useMemo(() => URL.createObjectURL(file), [file])
  useEffect(() => () => URL.revokeObjectURL(url), [url])
  return url
}

function TextPage({ file, zoom }: { file: File; zoom: number }) {
  const [text, setText] = useState<string | null>(null)
  useEffect(() => {
    file.text().then((content) => setText(content.length > TEXT_PREVIEW_CHARS ? `${content.slice(0, TEXT_PREVIEW_CHARS)}\n…` : content))
  }, [file])
  return (
    <section aria-label={`Text of ${file.name}`}>
      <pre
        class="text-page"
        ref={(element) => {
          if (element) element.style.fontSize = `${zoom * 0.85}rem`
        }}
      >
        {text ?? 'Reading…'}
      </pre>
    </section>
  )
}

type PdfJs = typeof import('pdfjs-dist')
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>
let pdfjs: Promise<PdfJs> | undefined

/** pdf.js (1.7 MB with its worker) loads the first time a PDF is shown, from beside this script. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (import(new URL('pdf.mjs', import.meta.url).href) as Promise<PdfJs>).then((module) => {
    module.GlobalWorkerOptions.workerSrc = new URL('pdf.worker.mjs', import.meta.url).href
    return module
  })
  return pdfjs
}

async function openPdf(file: File): Promise<PdfDocument> {
  const { getDocument } = await loadPdfJs()
  return getDocument({ data: new Uint8Array(await file.arrayBuffer()), isEvalSupported: false, useSystemFonts: true }).promise
}

/** Draws one page of the PDF onto the canvas, as wide as the canvas's box, sharp on this screen. */
async function drawPage(pdf: PdfDocument, page: number, target: HTMLCanvasElement, cssWidth: number): Promise<void> {
  const pdfPage = await pdf.getPage(page)
  const base = pdfPage.getViewport({ scale: 1 })
  const viewport = pdfPage.getViewport({ scale: (cssWidth / base.width) * (globalThis.devicePixelRatio || 1) })
  target.width = Math.round(viewport.width)
  target.height = Math.round(viewport.height)
  await pdfPage.render({ canvas: target, canvasContext: target.getContext('2d')!, viewport }).promise
}

function PdfPage({ pdf, name, page, zoom }: { pdf: Promise<PdfDocument>; name: string; page: number; zoom: number }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let stale = false
    ;(async () => {
      const document = await pdf
      const target = canvas.current
      if (stale || !target) return
      await drawPage(document, page, target, Math.max(target.parentElement?.clientWidth ?? 800, 320))
      if (!stale) target.dataset.rendered = String(page)
    })().catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)))
    return () => {
      stale = true
    }
  }, [pdf, page, zoom])
  return (
    <>
      <canvas ref={canvas} role="img" aria-label={`Page ${page} of ${name}`} />
      {error && <p class="error">The page could not be drawn ({error}): download the document and open it in a PDF reader.</p>}
    </>
  )
}

function Thumbnails({ pdf, total, page, setPage }: { pdf: Promise<PdfDocument>; total: number; page: number; setPage: (page: number) => void }) {
  const shown = Math.min(total, MAX_THUMBNAILS)
  return (
    <ol class="plain thumbnails" aria-label="Pages">
      {Array.from({ length: shown }, (_, index) => index + 1).map((number) => (
        <li key={number}>
          <button
            type="button"
            class="thumbnail"
            aria-current={number === page ? 'page' : undefined}
            aria-label={`Page ${number}`}
            onClick={() => setPage(number)}
          >
            <PdfThumbnail pdf={pdf} page={number} />
          </button>
        </li>
      ))}
      {total > shown && <li class="note">and {total - shown} more: turn to them with →</li>}
    </ol>
  )
}

function PdfThumbnail({ pdf, page }: { pdf: Promise<PdfDocument>; page: number }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    pdf
      .then(async (document) => {
        if (canvas.current) await drawPage(document, page, canvas.current, 72)
        canvas.current?.setAttribute('data-rendered', String(page))
      })
      .catch(() => {})
  }, [pdf, page])
  return <canvas ref={canvas} />
}

/** Fractions of the page, as the API gives them, become percentages of the drawn page (set through the DOM: the CSP has no inline styles). */
export function placeBox(element: HTMLElement, bbox: { left: number; top: number; width: number; height: number }) {
  element.style.left = `${bbox.left * 100}%`
  element.style.top = `${bbox.top * 100}%`
  element.style.width = `${bbox.width * 100}%`
  element.style.height = `${bbox.height * 100}%`
}
