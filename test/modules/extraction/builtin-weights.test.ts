/**
 * The built-in engine's weights keep the order its readers rely on: which reading wins when two
 * compete (`best()` keeps the higher, and the earlier line when two are within 1e-9), and which
 * readings stay under the floor and are answered as null. A tuning that breaks one of these
 * changes what users get, so it has to change the test too, on purpose.
 */
import { describe, expect, test } from 'bun:test'
import {
  CONTRACT,
  type DateWeight,
  dateWeight,
  INVOICE,
  FIT,
  ISSUER,
  LABELLED,
  LETTERHEAD,
  PARTIES,
  RECIPIENT,
  TOTALS,
} from '../../../src/modules/extraction/engines/builtin/weights'
import { MIN_ANSWER_CONFIDENCE as MIN_CONFIDENCE } from '../../../src/modules/extraction/confidence'

/** The tolerance of `best()` in context.ts: closer confidences are a tie, won by the earlier line. */
const TIE = 1e-9

/** `winner` is chosen over `loser` whatever their lines. */
function beats(winner: number, loser: number) {
  expect(winner - loser).toBeGreaterThan(TIE)
}

/** A reading with this confidence is answered. */
function answered(confidence: number) {
  expect(confidence).toBeGreaterThanOrEqual(MIN_CONFIDENCE)
}

/** A reading with this confidence alone is answered as null. */
function unanswered(confidence: number) {
  expect(confidence).toBeLessThan(MIN_CONFIDENCE)
}

const DATE_WEIGHTS: Record<string, DateWeight> = {
  'invoice title date': INVOICE.titleDate,
  'wrapped title date': INVOICE.wrappedTitleDate,
  'first unlabelled date': INVOICE.firstUnlabelledDate,
  'only date': INVOICE.onlyDate,
  'due date in a sentence': INVOICE.dueInSentence,
  'direct debit date': INVOICE.directDebitDate,
  'expiration date': CONTRACT.expiration,
  'letter date': CONTRACT.letterDate,
  'signature date': CONTRACT.signatureDate,
}

describe('every weight', () => {
  const all = [TOTALS, INVOICE, ISSUER, LETTERHEAD, RECIPIENT, PARTIES, CONTRACT, LABELLED, FIT].flatMap((group) =>
    Object.values(group).flatMap((weight) => (typeof weight === 'number' ? [weight] : [weight.sure, weight.guessed])),
  )

  test('lies between 0 and 1, and no cap makes a reading certain', () => {
    for (const weight of all) {
      expect(weight).toBeGreaterThan(0)
      expect(weight).toBeLessThan(1)
    }
  })

  test('a date read with its day/month order known beats the same reading with the order guessed', () => {
    for (const [name, weight] of Object.entries(DATE_WEIGHTS)) {
      expect({ name, sure: dateWeight(weight, { guessed: false }) }).toEqual({ name, sure: weight.sure })
      expect({ name, guessed: dateWeight(weight, { guessed: true }) }).toEqual({ name, guessed: weight.guessed })
      beats(weight.sure, weight.guessed)
    }
  })
})

describe('totals', () => {
  /** "Total", "Tax": the weakest label an amount is printed after. */
  const afterShortLabel = TOTALS.afterLabel * TOTALS.shortLabel

  test('a total worked out from a rounding line, or printed more often than a contradicting one, is answered below a labelled total', () => {
    for (const derived of [TOTALS.roundedByAdjustment, TOTALS.printedMoreOften]) {
      answered(derived)
      beats(afterShortLabel, derived)
    }
  })

  test('a disputed total is not answered, however strong its label', () => {
    unanswered(TOTALS.afterLabel * TOTALS.disputed)
    unanswered(TOTALS.consistentCap * TOTALS.disputed)
  })

  test('a total printed after its label beats one the engine works out from other amounts', () => {
    for (const derived of [TOTALS.sumShown, TOTALS.sumOfAbove, TOTALS.paidOnly, TOTALS.sumByRate]) beats(afterShortLabel, derived)
  })

  test('a labelled total confirmed exactly by the payment beats any labelled total, and one a few cents off', () => {
    beats(TOTALS.paidExactly, TOTALS.afterLabel)
    beats(TOTALS.paidExactly, TOTALS.paidRounded)
  })

  test('the payment printed as a total beats a sum of subtotal and tax, which beats adding up the lines above', () => {
    beats(TOTALS.paidShown, TOTALS.sumShown)
    beats(TOTALS.sumShown, TOTALS.sumOfAbove)
    beats(TOTALS.sumOfAbove, TOTALS.paidOnly)
  })

  test('every total the engine works out is still answered', () => {
    for (const derived of [TOTALS.paidShown, TOTALS.paidRounded, TOTALS.paidOnly, TOTALS.sumShown, TOTALS.sumOfAbove]) answered(derived)
  })

  test('an amount after its label beats one under it, which beats a sum row, which beats a sum by tax rate', () => {
    beats(TOTALS.afterLabel, TOTALS.underLabel)
    beats(TOTALS.underLabel, TOTALS.sumRowUnderLabel)
    beats(TOTALS.sumRowUnderLabel, TOTALS.sumByRate)
  })

  test("an amount of the label's own role beats one its column header gives to another role", () => {
    beats(TOTALS.afterLabel, TOTALS.byColumnHeader)
  })

  test('a tax printed after its label is preferred to the tax lines added up, when both add up to the total', () => {
    beats(afterShortLabel, TOTALS.taxesSummed)
  })

  test('a long label beats a short one, a label opening its line beats one after joining words', () => {
    beats(TOTALS.afterLabel, afterShortLabel)
    beats(TOTALS.afterLabel, TOTALS.afterLabel * TOTALS.joinedLabel)
    answered(afterShortLabel * TOTALS.joinedLabel)
  })

  test('a total of something else ("Total 0% supplies") is never answered alone, even when the amounts add up', () => {
    unanswered(TOTALS.afterLabel * TOTALS.otherTotal)
    unanswered(Math.min(TOTALS.consistentCap, TOTALS.afterLabel + TOTALS.consistentBonus) * TOTALS.otherTotal)
  })

  test('a labelled subtotal or tax that does not add up with the total is answered with less confidence', () => {
    beats(afterShortLabel, afterShortLabel * TOTALS.inconsistentPart)
    answered(afterShortLabel * TOTALS.inconsistentPart)
    answered(TOTALS.underLabel * TOTALS.shortLabel * TOTALS.inconsistentPart)
  })

  test('three amounts that add up beat any one read alone', () => {
    beats(Math.min(TOTALS.consistentCap, afterShortLabel + TOTALS.consistentBonus), TOTALS.afterLabel)
  })
})

describe('invoice number and dates', () => {
  test('a number after a title and a number mark beats a bare identifier after a title', () => {
    beats(INVOICE.titleNumber, INVOICE.titleThenId)
  })

  test("the title line's date beats a wrapped one, which beats a receipt's first unlabelled date", () => {
    beats(INVOICE.titleDate.sure, INVOICE.wrappedTitleDate.sure)
    beats(INVOICE.wrappedTitleDate.sure, INVOICE.firstUnlabelledDate.sure)
  })

  test("a receipt's first unlabelled date is answered only with its day/month order known", () => {
    answered(INVOICE.firstUnlabelledDate.sure)
    unanswered(INVOICE.firstUnlabelledDate.guessed)
  })

  test("a receipt's only date beats the first of several, and still loses to a labelled or title date", () => {
    beats(INVOICE.onlyDate.sure, INVOICE.firstUnlabelledDate.sure)
    unanswered(INVOICE.onlyDate.guessed)
    beats(INVOICE.wrappedTitleDate.sure, INVOICE.onlyDate.sure)
    beats(LABELLED.inline * LABELLED.conceptLabel * LABELLED.shortLabel, INVOICE.onlyDate.sure)
  })

  test('a due date in a payment sentence beats the day of a direct debit', () => {
    beats(INVOICE.dueInSentence.sure, INVOICE.directDebitDate.sure)
    beats(INVOICE.dueInSentence.guessed, INVOICE.directDebitDate.guessed)
    answered(INVOICE.directDebitDate.guessed)
  })
})

describe('issuer and recipient', () => {
  const topWithLegalForm = LETTERHEAD.top + LETTERHEAD.legalForm

  test('a name with a legal form at the top of the letterhead beats the same name in the footer', () => {
    beats(LETTERHEAD.top, LETTERHEAD.footer)
    beats(topWithLegalForm, LETTERHEAD.footer + LETTERHEAD.legalForm)
    beats(topWithLegalForm, LETTERHEAD.namedInFooter)
  })

  test('a name above the legal footer at most ties with the letterhead, so the letterhead, printed first, wins', () => {
    expect(LETTERHEAD.aboveFooterWithLegalForm).toBeLessThanOrEqual(topWithLegalForm + TIE)
    beats(LETTERHEAD.aboveFooterWithLegalForm, LETTERHEAD.aboveFooter)
  })

  test('a bare name heading its address is surer than one at the top alone, and less than one with a trade word or legal form', () => {
    beats(LETTERHEAD.top + LETTERHEAD.addressBelow, LETTERHEAD.top)
    beats(LETTERHEAD.tradeWord, LETTERHEAD.addressBelow)
    beats(LETTERHEAD.legalForm, LETTERHEAD.addressBelow)
  })

  test('a name-like line is answered from its position alone only on the first line', () => {
    answered(LETTERHEAD.top)
    unanswered(LETTERHEAD.top - LETTERHEAD.perLineDown)
    unanswered(LETTERHEAD.top - LETTERHEAD.oneWord)
  })

  test('signs of a company rank as legal form, domain, trade word, capitals', () => {
    beats(LETTERHEAD.legalForm, LETTERHEAD.domain)
    beats(LETTERHEAD.domain, LETTERHEAD.tradeWord)
    beats(LETTERHEAD.tradeWord, LETTERHEAD.capitals)
  })

  test('a name printed twice may rise above what its signs alone can give', () => {
    beats(LETTERHEAD.repeatedCap, LETTERHEAD.cap)
  })

  test('the sender line with a legal form beats the letterhead with one; without, a labelled issuer beats it', () => {
    beats(ISSUER.senderWithLegalForm, topWithLegalForm)
    beats(ISSUER.labelled * ISSUER.labelledWithoutLegalForm, ISSUER.sender)
    answered(ISSUER.sender)
  })

  test('a name under a long buyer label beats a short label, the address window, then a salutation', () => {
    beats(RECIPIENT.labelled, RECIPIENT.shortLabel)
    beats(RECIPIENT.shortLabel, RECIPIENT.window)
    beats(RECIPIENT.window, RECIPIENT.addressedTo)
    answered(RECIPIENT.addressedTo)
  })
})

describe('contract parties', () => {
  test('parties listed after "between" are surer than parties found from definitions or a letter', () => {
    for (const other of [PARTIES.definedTogether, PARTIES.definedSides, PARTIES.listedWithBlank, PARTIES.listedWithYou, PARTIES.companyAndAcross])
      beats(PARTIES.listed, other)
    beats(PARTIES.definedTogether, PARTIES.definedSides)
  })

  test("another agreement's parties, or a list of affiliates, are not answered; every other reading is", () => {
    unanswered(PARTIES.doubtfulList)
    for (const reading of [PARTIES.listedWithBlank, PARTIES.listedWithYou, PARTIES.definedSides, PARTIES.companyAndAcross, PARTIES.companyAlone])
      answered(reading)
  })
})

describe('contract clauses', () => {
  test('a choice-of-law clause beats "the law of X shall govern", which beats "under X law"; contested, each is still answered', () => {
    beats(CONTRACT.lawClause, CONTRACT.lawFirst)
    beats(CONTRACT.lawFirst, CONTRACT.lawAdjective)
    answered(CONTRACT.lawAdjective * CONTRACT.lawContested)
  })

  test('United States law with no state and no word that it governs is not a choice of law', () => {
    unanswered(CONTRACT.federalLaw)
    beats(CONTRACT.lawAdjective, CONTRACT.federalLaw)
  })

  test('the effective date: a definition, then the preamble, then the execution, then a date deeper in the text, a letter, the signatures', () => {
    const order = [CONTRACT.effectiveDefined, CONTRACT.effectiveInPreamble, CONTRACT.effectiveExecuted, CONTRACT.effectiveLater, CONTRACT.signatureDate.sure]
    for (let i = 1; i < order.length; i++) beats(order[i - 1]!, order[i]!)
    beats(CONTRACT.letterDate.sure, CONTRACT.signatureDate.sure)
    answered(CONTRACT.signatureDate.sure)
  })

  test('a defined effective date with its day/month order guessed still beats an execution date', () => {
    beats(CONTRACT.effectiveDefined * CONTRACT.effectiveGuessed, CONTRACT.effectiveExecuted)
  })

  test('a date not tied to this agreement, or deep in the text without "effective", is not answered', () => {
    unanswered(CONTRACT.effectiveNotOurs)
    unanswered(CONTRACT.effectiveDeep)
    unanswered(CONTRACT.signatureDate.guessed)
  })

  test('an execution date stands as the agreement date; a letter date competes with the signature date', () => {
    expect(CONTRACT.effectiveExecuted).toBeGreaterThanOrEqual(CONTRACT.effectiveStandsAsAgreementDate)
    expect(CONTRACT.letterDate.sure).toBeLessThan(CONTRACT.effectiveStandsAsAgreementDate)
    answered(CONTRACT.signedAsAgreementDate)
  })

  test('a term of "this Agreement" beats a stated or labelled term, which beats the term of the agreement named otherwise, then its obligations', () => {
    beats(CONTRACT.termOfThisAgreement, CONTRACT.termAgreementFor)
    beats(CONTRACT.termOfThisAgreement, CONTRACT.termLabelled)
    beats(CONTRACT.termLabelled, CONTRACT.termOfAgreement)
    beats(CONTRACT.termOfAgreement, CONTRACT.termOfObligations)
    answered(CONTRACT.termOfObligations)
  })

  test('a heading that names the agreement beats the name in its preamble', () => {
    beats(CONTRACT.titleHeading, CONTRACT.titleInPreamble)
    answered(CONTRACT.titleInPreamble)
  })
})

describe('a value next to its label', () => {
  test('after the label beats beside it, which beats under it, and each line further down costs', () => {
    beats(LABELLED.inline, LABELLED.right)
    beats(LABELLED.right, LABELLED.below)
    beats(LABELLED.below, LABELLED.below - LABELLED.perLineBelow)
  })

  test("the field's own label beats a concept's, and a short label counts less", () => {
    beats(1, LABELLED.conceptLabel)
    beats(LABELLED.conceptLabel, LABELLED.shortLabel * LABELLED.conceptLabel)
  })

  test("under a concept's short label, two lines down, a clean value is still answered; a disputed or ill-fitting one is not", () => {
    const weakest = (LABELLED.below - LABELLED.perLineBelow * 2) * LABELLED.conceptLabel * LABELLED.shortLabel
    answered(weakest)
    unanswered(weakest * LABELLED.rivalFactor * FIT.plainAmount)
    unanswered(LABELLED.below * FIT.plainAmount)
  })
})
