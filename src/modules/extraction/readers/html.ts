/**
 * HTML → page texts with a small tag walker: scripts, styles and other invisible parts are
 * dropped, block elements and <br> end lines, table cells are separated by tabs, entities are
 * decoded, and a CSS page break (`page-break-before: always`, `break-before: page`) starts a page.
 * Text is collected line by line, and markup is found by a scanner that never looks past the next
 * character that could end what it reads (D186), so the work stays linear in the size of the
 * document however its markup is left open.
 */
import { collectingGarbage } from './limits'
import { decodeUtf8, trimSpacesAndTabs } from './text'
import { decodeEntities } from './xml'

/** Elements whose content is never shown as text. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object', 'select'])

/** Elements that start and end a line of their own. */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
  'title',
  'legend',
  'option',
])

const BREAK_BEFORE = /(?:page-break-before|break-before)\s*:\s*(?:always|page)/i

/** Collects text into lines and pages. */
class TextBuilder {
  private pages: string[][] = []
  private lines: string[] = []
  private line = ''
  private cellOpen = false

  /** Adds text; outside <pre> runs of whitespace become one space, none at a line start. */
  text(value: string, preformatted: boolean): void {
    if (preformatted) {
      const parts = value.split('\n')
      parts.forEach((part, i) => {
        if (i > 0) this.endLine()
        this.line += part
      })
      return
    }
    let collapsed = value.replace(/[\s\u00a0]+/g, ' ')
    if (this.line === '' || this.line.endsWith(' ') || this.line.endsWith('\t')) collapsed = collapsed.replace(/^ /, '')
    this.line += collapsed
  }

  /** A table cell: cells of one row are separated by tabs. */
  cell(): void {
    if (this.line.endsWith(' ')) this.line = withoutTrailingSpaces(this.line)
    if (this.cellOpen) this.line += '\t'
    this.cellOpen = true
  }

  endLine(): void {
    if (this.line === '') {
      this.cellOpen = false
      return
    }
    const text = trimSpacesAndTabs(this.line).replace(/^ +/, '')
    // Block boundaries next to each other make one line break, not blank lines.
    if (text) this.lines.push(text)
    this.line = ''
    this.cellOpen = false
  }

  breakPage(): void {
    this.endLine()
    if (this.lines.some((line) => line.trim())) this.pages.push(this.lines)
    this.lines = []
  }

  finish(): string[] {
    this.breakPage()
    const pages = this.pages.map((lines) => lines.join('\n').trim())
    return pages.length ? pages : ['']
  }
}

/** Reads the visible text of an HTML document (UTF-8), split into pages at CSS page breaks. */
export function readHtml(bytes: Uint8Array): string[] {
  const html = decodeUtf8(bytes)
  const out = new TextBuilder()
  let hidden: string | null = null
  let preDepth = 0
  const pieceRead = collectingGarbage()
  for (const token of tokens(html)) {
    pieceRead()
    if (token.text !== undefined) {
      if (!hidden) out.text(decodeEntities(token.text), preDepth > 0)
      continue
    }
    const { closing, attrs } = token
    const name = token.name.toLowerCase()
    if (hidden) {
      if (closing && name === hidden) hidden = null
      continue
    }
    if (HIDDEN.has(name)) {
      if (!closing && !attrs.trimEnd().endsWith('/')) hidden = name
      continue
    }
    if (name === 'br') out.endLine()
    else if (name === 'pre') preDepth = Math.max(0, preDepth + (closing ? -1 : 1))
    else if ((name === 'td' || name === 'th') && !closing) out.cell()
    if (BLOCK.has(name)) {
      if (!closing && BREAK_BEFORE.test(attrs)) out.breakPage()
      out.endLine()
      if (!closing && name === 'li') out.text('- ', false)
    }
  }
  return out.finish()
}

type Token = { text: string; name?: undefined } | { text?: undefined; name: string; closing: boolean; attrs: string }

/**
 * The document as text runs and tags, in order: comments, CDATA, declarations and processing
 * instructions skipped; a `<` that opens nothing complete is text. Every search for what ends a
 * piece of markup goes through `Next`, which remembers where it found it: a document of a
 * million `<!--` or `<a "` is read in one pass, not one pass each.
 */
function* tokens(html: string): Generator<Token> {
  const next = new Next(html)
  let at = 0
  while (at < html.length) {
    const open = next.of('<', at)
    if (open === -1) {
      yield { text: html.slice(at) }
      return
    }
    if (open > at) yield { text: html.slice(at, open) }
    const end = markupEnd(html, open, next)
    if (end === undefined) {
      yield { text: '<' }
      at = open + 1
      continue
    }
    const nameEnd = tagNameEnd(html, open)
    if (nameEnd !== -1) {
      const closing = html[open + 1] === '/'
      yield { name: html.slice(open + (closing ? 2 : 1), nameEnd), closing, attrs: nameEnd < end - 1 ? html.slice(nameEnd, end - 1) : '' }
    }
    at = end
  }
}

/** The most characters of a tag's name that are read: longer than any element's. */
const MAX_TAG_NAME = 64

/**
 * Where the name of a tag opening at `open` ends: after its `<` and `/`, a letter, then letters,
 * digits, `_`, `:` or `-`, at most 64 in all (a longer run is cut there); -1 when no letter
 * follows. Read in place: a page of a million tags allocates nothing here.
 */
function tagNameEnd(html: string, open: number): number {
  const start = open + (html.charCodeAt(open + 1) === 0x2f ? 2 : 1)
  if (!isLetter(html.charCodeAt(start))) return -1
  let end = start + 1
  while (end - start < MAX_TAG_NAME && isNameChar(html.charCodeAt(end))) end++
  return end
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
}

function isNameChar(code: number): boolean {
  return isLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x3a || code === 0x2d
}

/**
 * Where the markup that opens at `open` ends (after its last character), as the old expression
 * read it: a comment at `-->`, CDATA at `]]>`, a declaration or instruction at `>`, a tag at the
 * first `>` outside its quoted attribute values; undefined when nothing closes it.
 */
function markupEnd(html: string, open: number, next: Next): number | undefined {
  if (html.startsWith('<!--', open)) {
    const close = next.of('-->', open + 4)
    if (close !== -1) return close + 3
  }
  if (html.startsWith('<![CDATA[', open)) {
    const close = next.of(']]>', open + 9)
    if (close !== -1) return close + 3
  }
  if (html[open + 1] === '!' || html[open + 1] === '?') {
    const close = next.of('>', open + 2)
    return close === -1 ? undefined : close + 1
  }
  const nameEnd = tagNameEnd(html, open)
  if (nameEnd === -1) return undefined
  const close = next.tagEnd(nameEnd)
  return close === -1 ? undefined : close + 1
}

/**
 * Where a string is next found, from a position on: every position of each string asked for is
 * listed once (one pass over the document), then found by bisection. A tag's end (its first `>`
 * outside quotes) is remembered for every quoted value it passes over.
 */
class Next {
  private readonly positions = new Map<string, Int32Array>()
  private readonly tagEnds = new Map<number, number>()

  constructor(private readonly html: string) {}

  /** The first position of `what` at or after `from`, or -1. */
  of(what: string, from: number): number {
    let list = this.positions.get(what)
    if (!list) {
      // Counted first, then listed: a million positions held as numbers in an array would cost ten times the bytes.
      let count = 0
      for (let at = this.html.indexOf(what); at !== -1; at = this.html.indexOf(what, at + 1)) count++
      list = new Int32Array(count)
      for (let at = this.html.indexOf(what), i = 0; at !== -1; at = this.html.indexOf(what, at + 1)) list[i++] = at
      this.positions.set(what, list)
    }
    let [low, high] = [0, list.length]
    while (low < high) {
      const middle = (low + high) >> 1
      if (list[middle]! < from) low = middle + 1
      else high = middle
    }
    return low < list.length ? list[low]! : -1
  }

  /** The first `>` at or after `from` outside "…" or '…', or -1 (a quote never closed ends nothing). */
  tagEnd(from: number): number {
    // Allocated only for a tag with a quoted value: a plain tag's end is one lookup.
    let passed: number[] | undefined
    let at = from
    let end: number | undefined
    while (end === undefined) {
      const remembered = this.tagEnds.get(at)
      if (remembered !== undefined) {
        end = remembered
        break
      }
      if (at !== from) (passed ??= [from]).push(at)
      const close = this.of('>', at)
      const double = this.of('"', at)
      const single = this.of("'", at)
      const quote = double === -1 ? single : single === -1 ? double : Math.min(double, single)
      if (close === -1) end = -1
      else if (quote === -1 || close < quote) end = close
      else {
        const closing = this.of(this.html[quote]!, quote + 1)
        if (closing === -1) end = -1
        else at = closing + 1
      }
    }
    // Only a tag with quoted values is worth remembering.
    if (passed) for (const position of passed) this.tagEnds.set(position, end)
    return end
  }
}

/** A line without its trailing spaces (a loop, for lines of long runs). */
function withoutTrailingSpaces(line: string): string {
  let end = line.length
  while (end > 0 && line.charCodeAt(end - 1) === 0x20) end--
  return line.slice(0, end)
}
