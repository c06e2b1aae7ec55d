/**
 * HTML → page texts with a small tag walker: scripts, styles and other invisible parts are
 * dropped, block elements and <br> end lines, table cells are separated by tabs, entities are
 * decoded, and a CSS page break (`page-break-before: always`, `break-before: page`) starts a page.
 * Text is collected line by line, so the work stays linear in the size of the document.
 */
import { decodeUtf8 } from './text'
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

const TAG = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[!?][^>]*>|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+|<)/g

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
    this.line = this.line.replace(/ +$/, '')
    if (this.cellOpen) this.line += '\t'
    this.cellOpen = true
  }

  endLine(): void {
    const text = this.line.replace(/[ \t]+$/, '').replace(/^ +/, '')
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
  for (const match of html.matchAll(TAG)) {
    const [, closing, rawName, attrs = '', text] = match
    if (text !== undefined) {
      if (!hidden) out.text(decodeEntities(text), preDepth > 0)
      continue
    }
    if (!rawName) continue
    const name = rawName.toLowerCase()
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
