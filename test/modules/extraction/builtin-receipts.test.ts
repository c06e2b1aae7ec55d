/**
 * Receipts as OCR reads them (D167–D169): a shop's name at the top with specks above it and its
 * legal form printed apart, totals checked against the rounding line, the subtotal and tax and
 * what was paid, and dates whose digits or order OCR gets wrong. Receipts are written by the
 * tests, with the misreadings OCR makes.
 */
import { describe, expect, test } from 'bun:test'
import type { JobField } from '../../../src/lib/fields/model'
import { resolveField } from '../../../src/lib/fields/resolve'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { findDates, parseDate } from '../../../src/modules/extraction/normalise/dates'
import { split } from '../../helpers/answers'

const fields: JobField[] = loadCatalog()
  .get('invoice')!
  .fields.filter((field) => ['company_name', 'date', 'total'].includes(field.key))
  .map((field) => ({ ...resolveField(field), ...(field.aliases ? { aliases: field.aliases } : {}) }))

async function read(text: string) {
  return split(await builtinEngine.extract({ document: { pages: [text] }, documentType: 'invoice', issuedBySeller: true, fields }))
}

const lines = (...rows: string[]) => rows.join('\n')

/** A receipt's address, phone and tax number, under the name. */
const ADDRESS = ['        NO. 12, JALAN CONTOH 3/1,', '        81100 JOHOR BAHRU, JOHOR', '      TEL: 07-123 4567', '      GST NO: 000123456789']

describe('receipt names', () => {
  test("a legal form printed apart on the name's line ends the name; alone it is no name", async () => {
    const { values } = await read(
      lines('          MR. T.O.Y.  (M) SDN BHD', '            (CO. REG: 123456-X)', ...ADDRESS, 'Date: 12/03/2018', 'TOTAL          12.00'),
    )
    expect(values.company_name).toBe('MR. T.O.Y. (M) SDN BHD')
  })

  test('a line of legal forms only, in cells, ends the name above it', async () => {
    const { values } = await read(
      lines('31803030', '       KEDAI BUKU RIANG', '     CO.     (M) SDN BHD', '      (Co. No. 113825-W)', ...ADDRESS, 'TOTAL   5.75'),
    )
    expect(values.company_name).toBe('KEDAI BUKU RIANG CO. (M) SDN BHD')
  })

  test('specks read above the letterhead do not push it down, and a name heading its address is surer', async () => {
    const name = '          Maju Jaya Tebrau City'
    const address = ['          S117, Second Floor,', '          1, Jalan Besar,', '          81100 Johor Bahru']
    const heading = await read(lines('                  AA', '                  “ie', name, ...address, 'Date: 11/03/2018', 'TOTAL    13.10'))
    expect(heading.values.company_name).toBe('Maju Jaya Tebrau City')
    // The same name with no address under it, or not first, is read as before: the letterhead's weakest guess.
    const alone = await read(lines(name, 'Thank you', 'Please come again', 'Date: 11/03/2018', 'TOTAL    13.10'))
    const second = await read(lines('Welcome to the mall', name, ...address, 'Date: 11/03/2018', 'TOTAL    13.10'))
    expect(alone.values.company_name).toBe('Maju Jaya Tebrau City')
    expect(heading.meta.company_name!.confidence).toBeGreaterThan(alone.meta.company_name!.confidence)
    expect(second.meta.company_name?.confidence ?? 0).toBeLessThan(heading.meta.company_name!.confidence)
  })

  test('a line that repeats the name above it with more words is a branch', async () => {
    const { values } = await read(
      lines(
        '         TAX INVOICE',
        '        PIZZA RIANG',
        '   GST REF NO : 001694261248',
        '   PIZZA RIANG HARDWARE PERMAS JAYA',
        '  No.12, Jalan Permas 10,',
        '  81750 Masai, Johor',
        'TOTAL   25.60',
      ),
    )
    expect(values.company_name).toBe('PIZZA RIANG')
  })

  test('the end of a wrapped name is no name by itself', async () => {
    const { values } = await read(lines('   LIAN HUAT VEGETARIAN', '     RESTAURANT SDN BHD', '        (1095514-X)', ...ADDRESS, 'TOTAL   53.55'))
    expect(values.company_name).toBe('LIAN HUAT VEGETARIAN RESTAURANT SDN BHD')
    // Read apart (OCR placed the wrapped line in another column), the legal form alone would outscore the name's start.
    const apart = await read(
      lines('LIAN HUAT VEGETARIAN', '                            RESTAURANT SDN BHD', '        (1095514-X)', ...ADDRESS, 'TOTAL   53.55'),
    )
    expect(apart.values.company_name).toBe('LIAN HUAT VEGETARIAN')
  })

  test('a registration number misread with a colon, and a speck after the legal form, are cut from the name', async () => {
    const first = await read(lines('    77 SPEED SHOP S/B (519837:X)', ...ADDRESS, 'TOTAL  141.50'))
    expect(first.values.company_name).toBe('77 SPEED SHOP S/B')
    const second = await read(lines('     SKCA HARDWARE & TIMBER SDN. BHD. Wo', '           CO. REG. NO.: 946207-U', ...ADDRESS, 'TOTAL  142.00'))
    expect(second.values.company_name).toBe('SKCA HARDWARE & TIMBER SDN. BHD.')
  })
})

describe('names as OCR misreads them (D381)', () => {
  test('a zero among the letters of a word is the letter O', async () => {
    const first = await read(lines('    0ld Mill Kopitiam Sdn Bhd', '        (716269-X)', ...ADDRESS, 'TOTAL   9.90'))
    expect(first.values.company_name).toBe('Old Mill Kopitiam Sdn Bhd')
    const second = await read(lines('       SIN-0 JAYA BHD', '        (123456-A)', ...ADDRESS, 'TOTAL   9.90'))
    expect(second.values.company_name).toBe('SIN-O JAYA BHD')
    // A number of its own, or digits beside the zero, are left as printed.
    const number = await read(lines('    7 0 MART SDN BHD', '        (123456-A)', ...ADDRESS, 'TOTAL   9.90'))
    expect(number.values.company_name).toBe('7 0 MART SDN BHD')
  })

  test('a trade word or legal form split by OCR is joined, words that are one already are not', async () => {
    const trade = await read(lines('      K&Y STAT IONERY', '       (002050590-H)', ...ADDRESS, 'TOTAL   9.90'))
    expect(trade.values.company_name).toBe('K&Y STATIONERY')
    const form = await read(lines('   MELATI BAKERIES (KL) SDN BH D (139386 X)', ...ADDRESS, 'TOTAL   9.90'))
    expect(form.values.company_name).toBe('MELATI BAKERIES (KL) SDN BHD')
    const two = await read(lines('    TANJUNG BOOK STORE SDN BHD', '        (123456-A)', ...ADDRESS, 'TOTAL   9.90'))
    expect(two.values.company_name).toBe('TANJUNG BOOK STORE SDN BHD')
  })

  test('a legal form of several parts misread by a letter in a part is written as the lexicon writes it', async () => {
    const upper = await read(lines('    TRI SHAAS SDN BHO (728515-H)', ...ADDRESS, 'TOTAL   9.90'))
    expect(upper.values.company_name).toBe('TRI SHAAS SDN BHD')
    const mixed = await read(lines('    Lee Wah Florist Son Bhd', '        (123456-A)', ...ADDRESS, 'TOTAL   9.90'))
    expect(mixed.values.company_name).toBe('Lee Wah Florist Sdn Bhd')
    const mark = await read(lines('    77 SPEED SHOP 5/B (519837-X)', ...ADDRESS, 'TOTAL   9.90'))
    expect(mark.values.company_name).toBe('77 SPEED SHOP S/B')
    // A form as written stays, though another is one letter off it; two letters off is another word.
    const written = await read(lines('    ORCHID TRADING PTE LTD', '        (123456-A)', ...ADDRESS, 'TOTAL   9.90'))
    expect(written.values.company_name).toBe('ORCHID TRADING PTE LTD')
    const words = await read(lines('    GOLDEN SUN BAR SDN BHD', '        (123456-A)', ...ADDRESS, 'TOTAL   9.90'))
    expect(words.values.company_name).toBe('GOLDEN SUN BAR SDN BHD')
  })

  test("a site's name that ends with a legal form is a company's name; a site alone is not", async () => {
    const named = await read(lines('  EXAMPLESHOP.COM SDN BHD (509213A)', ...ADDRESS, 'TOTAL   9.90'))
    expect(named.values.company_name).toBe('EXAMPLESHOP.COM SDN BHD')
    const site = await read(lines('  KEDAI MAJU SDN BHD', '  www.kedaimaju.com.my', ...ADDRESS, 'TOTAL   9.90'))
    expect(site.values.company_name).toBe('KEDAI MAJU SDN BHD')
  })

  test("a name split at a wide gap before its legal form is read whole; a title before it is not the name's", async () => {
    const split = await read(lines('    IKANU  HANDEL SDN BHD', '     (1074617K)', ...ADDRESS, 'TOTAL   9.90'))
    expect(split.values.company_name).toBe('IKANU HANDEL SDN BHD')
    const titled = await read(lines('    RECEIPT   HANDEL SDN BHD', '     (1074617K)', ...ADDRESS, 'TOTAL   9.90'))
    expect(titled.values.company_name).toBe('HANDEL SDN BHD')
  })
})

describe('receipt totals', () => {
  test('the total before a rounding line plus the adjustment, when the rounded total is misread', async () => {
    const { values } = await read(
      lines(
        '2312475009906    3x10.49          31.47',
        '    Total Amount(incl. GST)         31.47',
        '                    Rounding        -0.02',
        '                       TOTAL        1.4)',
      ),
    )
    expect(values.total).toBe('31.45')
  })

  test('not when the sum is no amount cash can pay', async () => {
    const { values } = await read(lines('    Total Amount         31.47', '    Rounding             -0.03', '    TOTAL                1.4)'))
    // The labelled total before the rounding stands; the misread rounded one is passed over.
    expect(values.total).toBe('31.47')
  })

  test('a rounded total that the rounding line does not reconcile gives way to the total printed more often', async () => {
    const receipt = (item: string) =>
      lines(item, '                       Total :           9.00', '      Rounding Adjustment :           0.00', '      Rounded Total (RM):           9.60')
    expect((await read(receipt('     1 PC   *      9.000           9.00'))).values.total).toBe('9.00')
    // Printed as often: the two disagree and neither is answered.
    expect((await read(receipt('     1 PC   MODELLING CLAY'))).values.total).toBeNull()
  })

  test('a rounded total that the rounding line reconciles stands', async () => {
    const { values } = await read(lines('     Total :           9.02', '     Rounding Adjustment :  -0.02', '     Rounded Total (RM):    9.00'))
    expect(values.total).toBe('9.00')
  })

  test('a total one digit off what the subtotal and tax add up to is not answered', async () => {
    const receipt = (total: string) =>
      lines(
        '   SR: COFFEE (T AWAY)     2    2.40      4.80',
        '     (Excluded GST) Sub Total      10.94',
        '                  Total GST         0.66',
        `                      TOTAL         ${total}`,
      )
    expect((await read(receipt('11.66'))).values.total).toBeNull()
    expect((await read(receipt('11.60'))).values.total).toBe('11.60')
  })

  test('a "Net Total" one digit off the subtotal with no tax is not confirmed by its own line', async () => {
    const { values } = await read(lines('10 SubTotal          85.20', '   Net Total          35.20', '   GST @0%             0.00'))
    expect(values.total).toBeNull()
  })

  test('a total one digit off what was paid less the change is not answered', async () => {
    const receipt = (total: string) => lines('   TOTAL         28.70', '   CASH          50.00', '   CHANGE        21.30').replace('28.70', total)
    expect((await read(receipt('28.70'))).values.total).toBe('28.70')
    expect((await read(receipt('23.70'))).values.total).toBeNull()
  })

  test('the cash paid is never negative: a minus before it is a speck', async () => {
    const { values } = await read(lines('DOCUMENT WALLET A4       5.75', 'Cash                           -50.00', 'CHANGE                          44.25'))
    expect(values.total).toBe('5.75')
  })
})

describe('receipt dates', () => {
  test('a dotted date that reads only month-first is a time or a code, not a date', () => {
    expect(findDates('Time: 11.14.00', 'dmy', false)).toEqual([])
    expect(parseDate('11.14.2018')).toBeNull()
    expect(parseDate('14.11.2018')).toBe('2018-11-14')
    // Slashed dates keep both readings.
    expect(parseDate('11/14/2018')).toBe('2018-11-14')
  })

  test('a time printed with dots does not make the receipt month-first', async () => {
    const { values } = await read(lines('Doc No. CS00065374        Date  05/02/2018', 'Cashier  USER              Time:  11.14.00', 'TOTAL RM 63.60'))
    expect(values.date).toBe('2018-02-05')
  })

  test('RM and GST printed many times keep a receipt day-first though OCR reads one "$"', async () => {
    const { values } = await read(
      lines('GST No: 000542572544', 'SHF:1  POS:12  11/12/2017 21:42', 'ITEM  $5.57', 'Total Amount(incl. GST)  RM 31.45', 'GST 6%  RM 1.78', 'CASH  RM 50.00'),
    )
    expect(values.date).toBe('2017-12-11')
  })

  test('an issue date past next year is a misread year', async () => {
    const { values } = await read(lines('DocNo. CS00013125   Date: 26/05/2078', 'TOTAL RM 121.90'))
    expect(values.date).toBeNull()
    const next = new Date().getUTCFullYear() + 1
    expect((await read(lines(`DocNo. CS00013125   Date: 26/05/${next}`, 'TOTAL RM 121.90'))).values.date).toBe(`${next}-05-26`)
  })

  test('a date misread past next year leaves the receipt its other dates', async () => {
    const labelled = await read(lines('DocNo. CS00013125   Date: 26/05/2078', 'TOTAL RM 121.90', 'CASH RM 150.00', 'Date: 26/05/2018  10:12'))
    expect(labelled.values.date).toBe('2018-05-26')
    const unlabelled = await read(lines('KEDAI RIANG', '28-03-2078 18:05  R000246962', 'TOTAL RM 38.80', '28-03-2018'))
    expect(unlabelled.values.date).toBe('2018-03-28')
  })

  test('the only date a receipt prints is surer than the first of several', async () => {
    const only = await read(lines('KEDAI RIANG', '28-03-18 18:05  R000246962', 'TOTAL RM 38.80'))
    const several = await read(lines('KEDAI RIANG', '28-03-18 18:05  R000246962', 'Exchange by 04-04-18', 'TOTAL RM 38.80'))
    expect(only.values.date).toBe('2018-03-28')
    expect(several.values.date).toBe('2018-03-28')
    expect(only.meta.date!.confidence).toBeGreaterThan(several.meta.date!.confidence)
  })
})
