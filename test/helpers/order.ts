/**
 * A made-up sender's order confirmation as a one-page PDF with a text layer (pdf-lib), for the
 * review tests: its reference and deposit are printed without a label the engine knows, so that a
 * box drawn around them, and what a review teaches, can be seen.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib'

export interface Order {
  reference: string
  /** As printed: `03.04.2026`. */
  date: string
  /** As printed: `1.234,50 €`. */
  deposit: string
  total: string
}

export const PAGE = { width: 595, height: 842 }

/** Two of the sender's orders: the one reviewed, and the next one. */
export const FIRST_ORDER: Order = { reference: 'AX-7731', date: '03.04.2026', deposit: '1.234,50 €', total: '4.980,00 €' }
export const NEXT_ORDER: Order = { reference: 'BQ-1208', date: '17.05.2026', deposit: '310,00 €', total: '1.550,00 €' }

/** What is printed where: text, x and the baseline's distance from the top, in points; size; bold. */
export function orderLines(order: Order): { text: string; x: number; top: number; size: number; bold: boolean }[] {
  const line = (text: string, x: number, top: number, size = 11, bold = false) => ({ text, x, top, size, bold })
  return [
    line('Kontor Lindqvist GmbH', 50, 60, 16, true),
    line('Hafenstrasse 7, 20457 Hamburg', 50, 80),
    line('Auftragsbestaetigung', 380, 60, 14, true),
    line('Vorgang', 380, 110),
    line(order.reference, 470, 110),
    line('Datum', 380, 128),
    line(order.date, 470, 128),
    line('Artikel', 50, 180, 11, true),
    line('Betrag', 450, 180, 11, true),
    line('Regalsystem Eiche', 50, 200),
    line(order.total, 450, 200),
    line('Anzahlung erhalten', 300, 260),
    line(order.deposit, 450, 260),
    line('Gesamtbetrag', 300, 280, 11, true),
    line(order.total, 450, 280, 11, true),
  ]
}

export async function makeOrder(order: Order): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([PAGE.width, PAGE.height])
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  for (const line of orderLines(order)) page.drawText(line.text, { x: line.x, y: PAGE.height - line.top, size: line.size, font: line.bold ? bold : regular })
  return doc.save()
}

/**
 * A box around the `nth` printing of a text (and whatever else is printed beside it within
 * `width` points), as fractions of the page, with a few points to spare.
 */
export function boxAround(order: Order, text: string, width = 100, nth = 0) {
  const line = orderLines(order).filter((entry) => entry.text === text)[nth]
  if (!line) throw new Error(`${text} is not printed`)
  return {
    left: (line.x - 4) / PAGE.width,
    top: (line.top - line.size - 3) / PAGE.height,
    width: (width + 8) / PAGE.width,
    height: (line.size + 8) / PAGE.height,
  }
}
