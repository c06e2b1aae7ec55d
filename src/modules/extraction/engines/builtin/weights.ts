/**
 * The confidences of the built-in engine's readers, in one place. A reader gives each value it
 * finds one of these scores (or a product of them); `best()` in context.ts keeps the highest, the
 * earliest line among equals, and the engine answers null below `MIN_ANSWER_CONFIDENCE` (../../confidence.ts), because a wrong
 * value costs a user more than an empty one.
 *
 * How they were set: by hand, one reader at a time, on the development sets (dev, and dev-scans
 * read through OCR), each change measured with `bun run bench:extract` (fields right and wrong
 * before and after, quoted in its commit) and kept when more fields came out right with no new
 * wrong value. They are not probabilities; what counts is their order and where they stand
 * against the floor:
 * - a value after its own label beats one found by position (a letterhead, a title line, the first
 *   date of a receipt), and a value printed beats one the engine works out (a sum, a payment);
 * - a date whose day/month order is known beats the same reading with the order guessed, and the
 *   guessed reading of a weak clue falls under the floor;
 * - a weight under `MIN_ANSWER_CONFIDENCE` marks a reading too weak to answer: it is answered as null
 *   unless a bonus lifts it (a name printed twice), and it never displaces a surer reading.
 * The order that matters is held by test/modules/extraction/builtin-weights.test.ts.
 */
import type { Shape } from '../../normalise/shapes'

/** The weight of a date read with its day/month order known, and with the order guessed. */
export interface DateWeight {
  sure: number
  guessed: number
}

/** A reader's weights, by name. */
type Weights = Record<string, number | DateWeight>

/** The weight of a date by whether its day/month order was guessed. */
export function dateWeight(weight: DateWeight, date: { guessed: boolean }): number {
  return date.guessed ? weight.guessed : weight.sure
}

/** The general reader: a value next to a field's label (generic.ts). */
export const LABELLED = {
  /** After the label in its cell ("Date: 1 May"). */
  inline: 0.92,
  /** In the next cell of the label's line ("Date      1 May"). */
  right: 0.88,
  /** Under the label, in its column. */
  below: 0.8,
  /** Taken off for each line between the label and a value below it, after the first. */
  perLineBelow: 0.05,
  /** Factor for a concept's label rather than the field's own label or alias. */
  conceptLabel: 0.96,
  /** Factor for a label of four letters or fewer ("Date", "Tax"): often part of another phrase. */
  shortLabel: 0.94,
  /** Two values this close in confidence that disagree make neither sure … */
  rivalMargin: 0.05,
  /** … and the chosen one is worth this much of its confidence. */
  rivalFactor: 0.8,
  /** Added for every further label that points at the same value, up to `agreedCeiling`. */
  agreedBonus: 0.04,
  agreedCeiling: 0.99,
} as const satisfies Weights

/** How well a text fits the type it is read as (values.ts): a factor of the reader's weight. */
export const FIT = {
  /** A date whose day/month order is guessed. */
  guessedDate: 0.7,
  /** A plain integer read as an amount: no decimals, grouping or currency. */
  plainAmount: 0.6,
  /** A count written out in words ("twelve"). */
  spelledNumber: 0.8,
  /** Items of a list split from one text. */
  listItems: 0.8,
  /** A text of more than 120 characters: more likely a clause than a value. */
  longText: 0.6,
} as const satisfies Weights

/** Total, subtotal and tax (totals.ts). */
export const TOTALS = {
  /** An amount printed after its total, subtotal or tax label: the usual case. */
  afterLabel: 0.9,
  /** An amount of a total's row that its column header gives to another role ("Net | VAT | Gross"). */
  byColumnHeader: 0.8,
  /** The one amount under a label that heads a column. */
  underLabel: 0.72,
  /** The last of several amounts under a label, when it is the sum of those above it (a sum row). */
  sumRowUnderLabel: 0.7,
  /** The sum of amounts under a label, when the table breaks the amount down by tax rate: worked out. */
  sumByRate: 0.62,
  /** Factor for a label of four letters or fewer ("Total", "Tax"): as for any label. */
  shortLabel: LABELLED.shortLabel,
  /** Factor for a label after joining words ("GST included in total"): it may not be the line's label. */
  joinedLabel: 0.8,
  /** A labelled total that is exactly what the receipt was paid (cash less change): confirmed twice. */
  paidExactly: 0.95,
  /** Paid less change, printed on a line above the payment where no total label was read. */
  paidShown: 0.85,
  /** Paid less change, where the labelled total is a few cents off (rounded for cash). */
  paidRounded: 0.85,
  /** What was paid (less the change) with no total label read at all: worked out, not printed as a total. */
  paidOnly: 0.7,
  /** The total before a rounding line plus its adjustment, where the rounded total is misread: worked out. */
  roundedByAdjustment: 0.8,
  /** A labelled total that contradicts the one of the strongest label and is printed on more lines than it. */
  printedMoreOften: 0.8,
  /** Factor for a total another labelled total contradicts, printed as often: under the floor. */
  disputed: 0.5,
  /** A later line that prints subtotal plus tax, with no total label read (a misread "TOTAL"). */
  sumShown: 0.8,
  /** A subtotal label whose amount adds up the amounts right above it, with no total label read. */
  sumOfAbove: 0.75,
  /** Tax lines of several rates added up to the tax: worked out, so a printed tax that adds up is preferred. */
  taxesSummed: 0.75,
  /** Added when subtotal + tax = total holds: three values agree. */
  consistentBonus: 0.08,
  /** The most an agreeing total, subtotal or tax gets. */
  consistentCap: 0.98,
  /** Factor for a subtotal or tax that does not add up with the total. */
  inconsistentPart: 0.78,
  /** Factor for a total of something else ("Total 0% supplies"): alone it stays under the floor. */
  otherTotal: 0.5,
} as const satisfies Weights

/** Invoice number, dates and currency (invoice.ts). */
export const INVOICE = {
  /** A number after a title and a number mark ("Rechnung Nr. 12", "Invoice # 7"). */
  titleNumber: 0.8,
  /** A bare identifier after a title at the start of a line ("Invoice INV/2025/11/0031"). */
  titleThenId: 0.72,
  /** A date tied to the title line ("Rechnung Nr. 7 vom 05.03.2018"). */
  titleDate: { sure: 0.82, guessed: 0.6 },
  /** A title's date wrapped onto the next line ("… Nr. 123 vom" / "06.12.2018"). */
  wrappedTitleDate: { sure: 0.8, guessed: 0.6 },
  /** A receipt's first date that no other date label claims: found by position only. */
  firstUnlabelledDate: { sure: 0.6, guessed: 0.45 },
  /** The same, when the document prints no other date. */
  onlyDate: { sure: 0.7, guessed: 0.45 },
  /** A due date in a payment sentence ("zahlbar bis 04.07.2013", "payable by 1 May 2024"). */
  dueInSentence: { sure: 0.75, guessed: 0.55 },
  /** The day of a direct debit ("wird am 20.03.2014 … eingezogen"): a due date by implication. */
  directDebitDate: { sure: 0.68, guessed: 0.5 },
  /** Added when the labelled currency is also the one the amounts carry. */
  currencyAgreesBonus: 0.05,
  /** The most an agreeing currency gets. */
  currencyAgreesCap: 0.99,
} as const satisfies Weights

/** The issuer's name after a seller label, or in the sender line (names.ts). */
export const ISSUER = {
  /** A name after a seller label ("From:", "Lieferant"). */
  labelled: 0.85,
  /** Factor for a labelled name without a legal form. */
  labelledWithoutLegalForm: 0.9,
  /** The sender line above the address window, with a legal form ("ACME GmbH · Street · City"). */
  senderWithLegalForm: 0.85,
  /** The sender line without a legal form. */
  sender: 0.7,
} as const satisfies Weights

/** The issuer read from the letterhead or the footer, by position and signs of a company name (names.ts). */
export const LETTERHEAD = {
  /** A name-like line at the very top of the main page, before its signs are added. */
  top: 0.5,
  /** Taken off per line further down: the name comes first. */
  perLineDown: 0.03,
  /** A footer cell with a legal form or the domain's name, before its signs are added: the letterhead names, the footer repeats. */
  footer: 0.3,
  /** Added for a legal form. */
  legalForm: 0.3,
  /** Added to a name with no legal form and no trade word on the first line, its address starting within three lines under it (past its registration number). */
  addressBelow: 0.1,
  /** Added for a trade word in a longer name ("… RESTAURANT", "… HARDWARE"). */
  tradeWord: 0.15,
  /** Added when the name matches the document's web or e-mail domain. */
  domain: 0.2,
  /** Added for a name in capitals, as letterheads print them. */
  capitals: 0.05,
  /** Taken off a one-word name with no legal form and no domain: often a brand or a heading. */
  oneWord: 0.1,
  /** The most a letterhead line gets from its signs. */
  cap: 0.9,
  /** The company named at the start of a legal footer, before its share capital ("Free SAS au capital de …"). */
  namedInFooter: 0.75,
  /** A name alone above a legal-footer line, with a legal form. */
  aboveFooterWithLegalForm: 0.8,
  /** A name alone above a legal-footer line, without a legal form. */
  aboveFooter: 0.68,
  /** Added when the same name is printed twice (letterhead and footer). */
  repeatedBonus: 0.1,
  /** The most a name printed twice gets. */
  repeatedCap: 0.92,
  /** Taken off a longer name under a shorter one it starts with ("PIZZA HUT" / "PIZZA HUT PERMAS JAYA"): the branch stays just under its brand. */
  branchUnderBrand: 0.01,
} as const satisfies Weights

/** The client's name (names.ts). */
export const RECIPIENT = {
  /** A name under a buyer label of more than five letters ("Bill to", "Rechnungsempfänger"). */
  labelled: 0.82,
  /** A name under a short label ("To", "Kunde"): short labels are often words of other phrases. */
  shortLabel: 0.72,
  /** The first name of the address window under the sender line. */
  window: 0.7,
  /** A person's name under a salutation near the top ("Herrn" / "Max Mustermann"). */
  addressedTo: 0.62,
} as const satisfies Weights

/** The parties of a contract (parties.ts). */
export const PARTIES = {
  /** Two or three parties listed after "between"/"among". */
  listed: 0.78,
  /** A list that names another agreement's parties, or four or more names (affiliates): under the floor. */
  doubtfulList: 0.45,
  /** One party listed and a blank slot for the other (a form). */
  listedWithBlank: 0.66,
  /** One party listed, the other "you": the letter's addressee or the individual who signs. */
  listedWithYou: 0.6,
  /** Two organisations defined together in the opening ("X (“A”) and Y (“B”) agree …"). */
  definedTogether: 0.72,
  /** The side defined as the company and the side defined as the other ("Company", "Recipient"). */
  definedSides: 0.7,
  /** The company defined in the opening and who stands across: an addressee or a signing individual. */
  companyAndAcross: 0.6,
  /** The company alone, in a first-person undertaking whose signer was not found: just answered. */
  companyAlone: 0.5,
} as const satisfies Weights

/** Title, dates, notice period, signatories, governing law and term of a contract (contract.ts). */
export const CONTRACT = {
  /** A heading at the top that names an agreement ("NON-DISCLOSURE AGREEMENT"). */
  titleHeading: 0.75,
  /** The name the preamble gives itself ("This Non-Disclosure Agreement …"). */
  titleInPreamble: 0.6,
  /** An effective date this sure stands as the agreement date; a weaker one competes with the signature date. */
  effectiveStandsAsAgreementDate: 0.7,
  /** The latest signature date, as the agreement date. */
  signedAsAgreementDate: 0.6,
  /** "This Agreement shall expire on …". */
  expiration: { sure: 0.7, guessed: 0.5 },
  /** "upon thirty (30) days' written notice" near a termination clause. */
  noticePeriod: 0.62,
  /** "/s/ Name" and "Name: …" lines of the signature blocks. */
  signatories: 0.62,
  /** A choice-of-law clause ("governed by the laws of the State of New York"). */
  lawClause: 0.85,
  /** "The law of the State of X … shall govern". */
  lawFirst: 0.8,
  /** A clause in German, French, Dutch or Spanish ("unterliegt deutschem Recht", "soumis au droit français"). */
  lawForeign: 0.8,
  /** "construed under Delaware law". */
  lawAdjective: 0.75,
  /** United States law named with no state and no word that it governs (export laws, patents): under the floor. */
  federalLaw: 0.45,
  /** Factor when another jurisdiction is named as often. */
  lawContested: 0.7,
  /** A date the text defines as the "Effective Date". */
  effectiveDefined: 0.9,
  /** "executed this Agreement as of …": the execution date. */
  effectiveExecuted: 0.7,
  /** "made and entered into as of …", "dated as of …" in the preamble of this agreement. */
  effectiveInPreamble: 0.8,
  /** Such a date after the preamble, with "effective" in its lead. */
  effectiveLater: 0.6,
  /** Such a date after the preamble, without "effective". */
  effectiveDeep: 0.45,
  /** Such a date not tied to this agreement ("this", "hereof"): under the floor. */
  effectiveNotOurs: 0.4,
  /** Factor for an effective date whose day/month order was guessed. */
  effectiveGuessed: 0.8,
  /** A letter's date: a line near the top holding nothing but a date. */
  letterDate: { sure: 0.6, guessed: 0.45 },
  /** The latest "Date: …" among the signature blocks. */
  signatureDate: { sure: 0.55, guessed: 0.4 },
  /** A duration of "this Agreement" ("This Agreement shall remain in effect for three (3) years"). */
  termOfThisAgreement: 0.8,
  /** A duration of the agreement named otherwise ("The term hereof shall be …"). */
  termOfAgreement: 0.7,
  /** "… Agreement shall be for two (2) years": the subject's own words when a layout splits the sentence. */
  termAgreementFor: 0.72,
  /** A heading or label that gives the term ("Term: 2 years"). */
  termLabelled: 0.72,
  /** The duration of the confidentiality obligations, running from the agreement's start. */
  termOfObligations: 0.64,
} as const satisfies Weights

/** Fields a user names, read by their words (pairs.ts, D110–D114). */
export const NAMED = {
  /** Factor for a label of broader words, without the field's general words, or of general words in its party's block (D110). */
  widerLabel: 0.9,
  /** How sure a field's own labels must be to answer before its role's reader ("amount due" before the total's reader, D114). */
  closerMin: 0.75,
  /** A means of payment printed as the label of an amount tendered ("CASH 50.00"), no label asking for it. */
  meansTendered: 0.7,
} as const satisfies Weights

/**
 * A value of an unmistakable shape found anywhere in the document, when it is the only one on the
 * field's side and no label names it (D111): the surer the shape, the surer the value.
 */
export const UNMISTAKABLE: Partial<Record<Shape, number>> = {
  /** An IBAN: its checksum holds. */
  iban: 0.78,
  bic: 0.72,
  vat_id: 0.7,
  email: 0.66,
  /** A web address written as one ("www.", "https://"). */
  url: 0.62,
}

/** Yes or no from the document's status words and boxes (pairs.ts, D111). */
export const STATUS = {
  /** A status word after a label ("Status: PAID", "Bezahlt: nein"). */
  labelled: 0.85,
  /** A status word alone, as a stamp ("BEZAHLT"). */
  stamp: 0.72,
  /** A ticked or an empty box before the field's word. */
  box: 0.8,
  /** The field's word negated after a label ("Status: not paid"). */
  negated: 0.8,
} as const satisfies Weights

/** A table, by its rows and its check against itself (tables.ts, D117). */
export const TABLE = {
  /** A table of several rows … */
  rows: 0.72,
  /** … or of one. */
  oneRow: 0.62,
  /** Added when its line amounts add up to an amount printed under it. */
  totalMatches: 0.2,
  /** Taken off when they do not add up to the amount that ends it. */
  totalDiffers: 0.08,
  /** Added when quantity × price gives each line amount. */
  rowsMatch: 0.05,
  /** Taken off when it does not. */
  rowsDiffer: 0.04,
  /** The most a table gets. */
  cap: 0.97,
} as const satisfies Weights

/** How a table is chosen among the header-like lines of the document (tables.ts): a score, not a confidence. */
export const TABLE_CHOICE = {
  /** For each declared column it answers (each printed column its words name, without declared columns). */
  perColumn: 2,
  /** When the field's own label is printed on or a few lines above its header. */
  labelled: 1.5,
  /** For each row, up to `rowsCounted` rows: more rows, more surely a table. */
  perRow: 0.2,
  rowsCounted: 10,
} as const satisfies Weights

/** A part of a party's address (address.ts, D113). */
export const ADDRESS = {
  /** The address of the field's party, by its block's heading or the name above it. */
  ofParty: 0.86,
  /** A seller's address that no heading assigns but the document prints twice (letterhead and footer). */
  repeated: 0.66,
  /** Factor when the party's addresses give other values too, though less often. */
  outnumbered: 0.85,
} as const satisfies Weights
