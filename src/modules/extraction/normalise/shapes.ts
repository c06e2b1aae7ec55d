/**
 * Values recognised by their shape (D111): an IBAN (its checksum must hold), a BIC, an EU VAT
 * identification number, a tax number, a phone number, an e-mail address, a web address, a
 * percentage, an identifier and a means of payment (a word of the lexicons). Each finder returns
 * the first value of its shape in a text, as it is written compactly (an IBAN or VAT ID without
 * its spaces), with where it starts.
 */
import { lexiconWords, type Phrases, phrases } from '../../../lib/lexicon'

export type Shape = 'iban' | 'bic' | 'vat_id' | 'tax_number' | 'phone' | 'email' | 'url' | 'percent' | 'identifier' | 'payment_means'

export interface FoundShape {
  value: string | number
  /** Offset of the value in the text searched. */
  start: number
}

/**
 * The account part (BBAN) of each SEPA country's IBAN, as ISO 13616's registry writes it: so many
 * digits (n), capital letters (a) or either (c), in order. An IBAN is four characters longer.
 */
const BBAN_FORMATS: Record<string, string> = {
  AD: '4n4n12c',
  AT: '16n',
  BE: '12n',
  BG: '4a6n8c',
  CH: '5n12c',
  CY: '8n16c',
  CZ: '20n',
  DE: '18n',
  DK: '14n',
  EE: '16n',
  ES: '20n',
  FI: '14n',
  FO: '14n',
  FR: '10n11c2n',
  GB: '4a14n',
  GI: '4a15c',
  GL: '14n',
  GR: '7n16c',
  HR: '17n',
  HU: '24n',
  IE: '4a14n',
  IS: '22n',
  IT: '1a10n12c',
  LI: '5n12c',
  LT: '16n',
  LU: '3n13c',
  LV: '4a13c',
  MC: '10n11c2n',
  MT: '4a5n18c',
  NL: '4a10n',
  NO: '11n',
  PL: '24n',
  PT: '21n',
  RO: '4a16c',
  SE: '20n',
  SI: '15n',
  SK: '20n',
  SM: '1a10n12c',
  VA: '18n',
}

/** A BBAN format as the kind of each of its characters, in order. */
const BBAN_KINDS: Record<string, string> = Object.fromEntries(
  Object.entries(BBAN_FORMATS).map(([country, format]) => [
    country,
    [...format.matchAll(/(\d+)([nac])/g)].map(([, count, kind]) => kind!.repeat(Number(count))).join(''),
  ]),
)

/** The ISO 7064 mod 97-10 check of an IBAN. */
export function ibanChecksumHolds(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55)
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder === 1
}

/**
 * An IBAN as printed: country, check digits, then letters and digits in groups of any size. The
 * check digits may be misread as the letters OCR confuses with digits ("DEO8").
 */
const IBAN_START = /(?<![A-Z0-9])([A-Z]{2})([\dOILSBZG]{2})((?:\s?[A-Z0-9]){11,30})/gi

/** Letters OCR reads for digits. */
const DIGIT_FOR: Record<string, string> = { O: '0', I: '1', L: '1', S: '5', B: '8', Z: '2', G: '6' }
const asDigits = (text: string) => text.replace(/[OILSBZG]/g, (letter) => DIGIT_FOR[letter]!)

/**
 * The account part as its country writes it, or undefined: where a digit must stand, a letter OCR
 * reads for a digit is that digit, and any other letter is no account ("FOLLOW US ON FACEBOOK" is
 * no Faroese IBAN, whatever its checksum).
 */
function asAccount(printed: string, kinds: string): string | undefined {
  if (printed.length !== kinds.length) return undefined
  let account = ''
  for (let i = 0; i < kinds.length; i++) {
    const char = kinds[i] === 'n' ? (DIGIT_FOR[printed[i]!] ?? printed[i]!) : printed[i]!
    const fits = kinds[i] === 'n' ? char >= '0' && char <= '9' : kinds[i] === 'a' ? char >= 'A' && char <= 'Z' : true
    if (!fits) return undefined
    account += char
  }
  return account
}

/** The first IBAN of a text, in any case: the pattern ignores case, each match is upper-cased (not the whole text, which findShapes gives again from each value on). */
function findIban(text: string): FoundShape | undefined {
  for (const m of text.matchAll(IBAN_START)) {
    const country = m[1]!.toUpperCase()
    const kinds = BBAN_KINDS[country]
    if (!kinds) continue
    // Groups of four may run into a following word: the country's length says where it ends.
    const printed = m[3]!.toUpperCase().replace(/\s/g, '').slice(0, kinds.length)
    const account = asAccount(printed, kinds)
    // The checksum then decides, as for any IBAN, so a misread that is not one of these still gives no answer.
    const iban = account && country + asDigits(m[2]!.toUpperCase()) + account
    if (iban && ibanChecksumHolds(iban)) return { value: iban, start: m.index }
  }
  return undefined
}

/** Country codes a BIC may carry (its fifth and sixth letters). */
const BIC = /(?<![A-Za-z0-9])([A-Z]{4})([A-Z]{2})([A-Z0-9]{2})((?:[A-Z0-9]{3})?)(?![A-Za-z0-9])/g
const COUNTRIES = new Set([...Object.keys(BBAN_FORMATS), 'US', 'CA', 'AU', 'NZ', 'JP', 'CN', 'HK', 'SG', 'MY', 'IN', 'ZA', 'BR', 'MX', 'TR', 'UA', 'RU', 'AE'])

function findBic(text: string): FoundShape | undefined {
  for (const m of text.matchAll(BIC)) {
    if (!COUNTRIES.has(m[2]!)) continue
    // A word of capitals ("RECHNUNG") is no BIC: one has a digit, the branch "XXX", or is the whole value.
    if (!/\d/.test(m[0]) && m[4] !== 'XXX' && m[0] !== text.trim()) continue
    return { value: m[0], start: m.index }
  }
  return undefined
}

/** The number after the country prefix of each EU VAT identification number (and GB, CH, NO). */
const VAT_NUMBERS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  GB: /^(?:\d{9}|\d{12})$/,
  XI: /^(?:\d{9}|\d{12})$/,
  CHE: /^\d{9}(?:MWST|TVA|IVA)?$/,
  NO: /^\d{9}(?:MVA)?$/,
}

/** A country prefix, then letters and digits with optional spaces, dots or hyphens between groups. */
const VAT_START = /(?<![A-Za-z0-9])(CHE|[A-Z]{2})[\s.-]?((?:[A-Z0-9+*][\s.-]?){7,14})(?<![\s.-])(?![A-Z0-9])/g

function findVatId(text: string): FoundShape | undefined {
  const upper = text.toUpperCase()
  VAT_START.lastIndex = 0
  for (let m = VAT_START.exec(upper); m; m = VAT_START.exec(upper)) {
    const pattern = VAT_NUMBERS[m[1]!]
    // The last groups may be the next word ("DE123456789 HRB"): drop them one by one.
    const groups = m[2]!.split(/\s+/)
    for (let count = groups.length; pattern && count >= 1; count--) {
      const body = groups.slice(0, count).join('').replace(/[.-]/g, '')
      if (pattern.test(body)) return { value: m[1]! + body, start: m.index }
    }
    // "NIP PL…", "VAT ATU…": a word before the number may look like a prefix; try from the next letter.
    VAT_START.lastIndex = m.index + 1
  }
  return undefined
}

/** A tax number as tax offices print it: groups of digits joined by slashes, spaces or dots ("201/113/40209"). */
const TAX_NUMBER = /(?<![\p{L}\d])(?:[A-Z]{2}\s?)?\d{2,5}(?:[/\s.-]\d{2,5}){1,4}(?![\p{L}\d])|(?<![\p{L}\d])\d{8,13}(?![\p{L}\d])/gu

function findTaxNumber(text: string): FoundShape | undefined {
  for (const m of text.matchAll(TAX_NUMBER)) {
    const digits = m[0].replace(/\D/g, '').length
    if (digits >= 8 && digits <= 13) return { value: m[0].trim(), start: m.index }
  }
  return undefined
}

/** A phone number: an optional +, then digits with spaces, dots, slashes, hyphens or brackets; 6 to 15 digits. */
const PHONE = /(?<![\p{L}\d])(?:\+|00)?\(?\d[\d\s()./-]{4,22}\d(?![\p{L}\d])/gu

function findPhone(text: string): FoundShape | undefined {
  for (const m of text.matchAll(PHONE)) {
    const value = m[0].trim()
    const digits = value.replace(/\D/g, '').length
    // A date ("05.03.2026") or an amount ("1.234,56") is no phone number.
    if (digits < 6 || digits > 15 || /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(value) || /\d,\d{2}$/.test(value)) continue
    return { value: value.replace(/\s+/g, ' '), start: m.index }
  }
  return undefined
}

/**
 * An e-mail address: starts where its local part starts, and each part no longer than a real one
 * (64 characters, a domain's labels 63; D186), so a long run of letters is not scanned again
 * from each of them.
 */
const EMAIL = /(?<![\p{L}\d._%+-])[\p{L}\d._%+-]{1,64}@[\p{L}\d-]{1,63}(?:\.[\p{L}\d-]{1,63}){0,8}\.\p{L}{2,63}/u

function findEmail(text: string): FoundShape | undefined {
  const m = EMAIL.exec(text)
  return m ? { value: m[0], start: m.index } : undefined
}

const URL_PATTERN =
  /(?<![@\p{L}\d.:/])(?:https?:\/\/[^\s,;]+|www\.[\p{L}\d-]+(?:\.[\p{L}\d-]+)+(?:\/[^\s,;]*)?|[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.(?:com|org|net|de|fr|nl|es|pl|dk|eu|be|at|ch|it|uk|io|info|biz)(?:\/[^\s,;]*)?(?=$|[\s,;)]))/u

function findUrl(text: string): FoundShape | undefined {
  const m = URL_PATTERN.exec(text)
  return m ? { value: m[0].replace(/[.)]+$/, ''), start: m.index } : undefined
}

/** A percentage: a number followed by "%" ("19 %", "7,5%"); its value is the number. */
const PERCENT = /(?<![\d.,])(-?\d{1,3}(?:[.,]\d{1,4})?)\s?%/

/** A rate printed without its sign under a "%" heading ("19", "7,0"). */
const BARE_RATE = /^(-?\d{1,3}(?:[.,]\d{1,4})?)$/

function findPercent(text: string): FoundShape | undefined {
  const m = PERCENT.exec(text) ?? BARE_RATE.exec(text.trim())
  if (!m) return undefined
  const value = Number(m[1]!.replace(',', '.'))
  if (!Number.isFinite(value) || value < 0 || value > 100) return undefined
  // Without its sign, a fraction below one ("0,08") is an amount, not a rate; zero is a rate.
  if (m[0].trim() === text.trim() && !m[0].includes('%') && value > 0 && value < 1) return undefined
  return { value, start: m.index }
}

/**
 * An identifier: one token of letters and digits with at least one digit, joined by hyphens,
 * slashes, dots or underscores ("RE-2014/502", "GE2020211", "B123456789"), at the start of the
 * text; a register's letters may stand before it ("HRB 372876").
 */
const IDENTIFIER = /^[#:\s]*((?:[A-Z]{1,4} )?[\p{L}\d](?:[\p{L}\d]|[-/._](?=[\p{L}\d])){0,39})(?![\p{L}\d])/u

function findIdentifier(text: string): FoundShape | undefined {
  const m = IDENTIFIER.exec(text)
  if (!m || !/\d/.test(m[1]!)) return undefined
  // A date or an amount is not an identifier.
  if (/^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(m[1]!) || /^\d{1,3}(?:[.,]\d{3})*,\d{2}$/.test(m[1]!)) return undefined
  return { value: m[1]!, start: m.index + m[0].length - m[1]!.length }
}

/** The lexicons' means of payment, made into a matcher at the first field that asks for one. */
let paymentMeans: Phrases | undefined

/** A means of payment ("Bank transfer", "CASH", "Überweisung"), as printed: a payment method's value names one. */
function findPaymentMeans(text: string): FoundShape | undefined {
  paymentMeans ??= phrases(lexiconWords('payment_means'))
  const found = paymentMeans.find(text)
  return found && { value: text.slice(found.start, found.end), start: found.start }
}

const FINDERS: Record<Shape, (text: string) => FoundShape | undefined> = {
  iban: findIban,
  bic: findBic,
  vat_id: findVatId,
  tax_number: findTaxNumber,
  phone: findPhone,
  email: findEmail,
  url: findUrl,
  percent: findPercent,
  identifier: findIdentifier,
  payment_means: findPaymentMeans,
}

/** The first value of a shape in a text, or undefined. */
export function findShape(shape: Shape, text: string): FoundShape | undefined {
  return FINDERS[shape](text)
}

/** Every value of a shape in a text, in order. */
export function findShapes(shape: Shape, text: string): FoundShape[] {
  const found: FoundShape[] = []
  let offset = 0
  for (let next = FINDERS[shape](text); next; next = FINDERS[shape](text.slice(offset))) {
    found.push({ value: next.value, start: offset + next.start })
    offset += next.start + Math.max(1, String(next.value).length)
  }
  return found
}
