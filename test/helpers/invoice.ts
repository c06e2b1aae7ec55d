/** An invoice made with pdf-lib, for the console's browser test and its screenshots. */
import { PDFDocument, StandardFonts } from 'pdf-lib'

/** A one-page invoice with a text layer: a letterhead, its number and date, two lines, a total. */
export async function makeInvoice(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([595, 842])
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const text = (value: string, x: number, y: number, size = 11, font = regular) => page.drawText(value, { x, y, size, font })
  text('Northwind Office Supply Ltd', 50, 780, 16, bold)
  text('12 Harbour Road, Leeds LS1 4AB', 50, 760)
  text('INVOICE', 430, 780, 18, bold)
  text('Invoice No.: NW-2026-0417', 50, 720)
  text('Invoice Date: 14 November 2026', 50, 702)
  text('Bill To: Contoso Trading GmbH', 50, 684)
  for (const [y, font, cells] of [
    [640, bold, ['Description', 'Qty', 'Amount']],
    [620, regular, ['Printer paper A4', '10', '45.00']],
    [602, regular, ['Toner cartridge', '2', '118.00']],
  ] as const) {
    text(cells[0], 50, y, 11, font)
    text(cells[1], 330, y, 11, font)
    text(cells[2], 470, y, 11, font)
  }
  text('Subtotal: 163.00', 400, 560)
  text('VAT 20%: 32.60', 400, 542)
  text('Total: 195.60 GBP', 400, 520, 12, bold)
  return doc.save()
}
