/**
 * The lexicons' phrase matcher (D221): words and phrases found at word edges, case and accents
 * ignored, dots and spaces optional between parts, `*` joining letters — as the patterns generated
 * from the same words found them, without generating one.
 */
import { describe, expect, test } from 'bun:test'
import { legalForms, legalFormsSource, lexiconWords, phrases } from '../../src/lib/lexicon'
import { longestFirst, wordPattern } from '../../src/lib/lexicon/phrases'
import { fold } from '../../src/lib/text'

/** The pattern the lexicons once built of their words (D95): what the matcher must find alike. */
const wholeWords = (words: string[]) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${[...new Set(words.flatMap((word) => [word.toLowerCase(), fold(word)]).map(wordPattern))].sort(longestFirst).join('|')})(?![\\p{L}\\p{N}])`,
    'iu',
  )

describe('phrases', () => {
  test('whole words, ignoring case and accents, dots and spaces optional between parts, * joining a compound', () => {
    const list = phrases(['Qté', 'Reg. No.', '*steuer*', 'Str.', 'à payer'])
    for (const text of ['QTE', 'qté 2', 'Reg.No: 12', 'reg no', 'Umsatzsteuer', 'Steuerbetrag', 'Steuer', 'Haupt Str. 5', 'Net a payer'])
      expect(list.test(text)).toBe(true)
    for (const text of ['Qtés', 'Registry', 'Str 5', 'payer']) expect(list.test(text)).toBe(false)
  })

  test('at one place the longest phrase wins, and a match gives its place and the word as the list writes it', () => {
    const list = phrases(['Total', 'Grand Total', 'Total due'])
    expect(list.find('Invoice Grand Total: 5')).toEqual({ start: 8, end: 19, word: 'Grand Total' })
    expect(list.all('Total due 5, Total 6').map((match) => match.word)).toEqual(['Total due', 'Total'])
    expect(list.ends('… the grand total :', ':')).toEqual({ start: 6, end: 17, word: 'Grand Total' })
    expect(list.at('Total due', 0, (match) => match.word === 'Total')).toEqual({ start: 0, end: 5, word: 'Total' })
  })

  test('a word elided before the next joins it ("l\'État", "d\'effet")', () => {
    const list = phrases(["l'État de", "date d'effet"])
    expect(list.find("régi par le droit de l'État de New York")?.start).toBe(21)
    expect(list.test("la date d'effet du contrat")).toBe(true)
  })

  test('a * joins at most 40 letters, as the bounded pattern does (D186): a longer run is no compound', () => {
    const list = phrases(['*steuer*'])
    const pattern = wholeWords(['*steuer*'])
    for (const [text, found] of [
      [`${'a'.repeat(40)}steuer`, true],
      [`${'a'.repeat(41)}steuer`, false],
      [`steuer${'a'.repeat(40)}`, true],
      [`steuer${'a'.repeat(41)}`, false],
      [`${'steuer'.repeat(20_000)} Steuer`, true],
    ] as const) {
      expect([text.length, list.test(text)]).toEqual([text.length, found])
      expect([text.length, pattern.test(text)]).toEqual([text.length, found])
    }
  })

  test('after a run of hyphens, a compound is found where the bounded pattern finds it, however long the run', () => {
    const list = phrases(['*steuer'])
    const pattern = wholeWords(['*steuer'])
    for (const run of [0, 1, 39, 40, 41, 100, 100_000]) {
      const text = `${'-'.repeat(run)}Umsatzsteuer 5`
      const match = pattern.exec(text)
      expect([run, list.find(text)?.start, list.find(text)?.end]).toEqual([run, match?.index, match ? match.index + match[0].length : undefined])
    }
    expect(list.test('-'.repeat(100_000))).toBe(false)
  })

  test("finds what the lexicons' generated patterns find, at the same places, in every phrase list and the legal forms", () => {
    const lines = [
      'Rechnung Nr. 2024-117 vom 05.03.2024',
      'Facture n°80321 du 2 juillet 2015, à payer avant le 30',
      'TOTAL INCL. VAT 12.00   Umsatzsteuer-Betrag 1,90',
      'ACME SDN. BHD. (Co. Reg. No: 12345-X)',
      'Herrn Max Mustermann, z. Hd. Frau Müller',
      'Zwischensumme netto; Summe der Positionen',
      'by and between Alpha Widgets, Inc. and Beta S.A.R.L.',
      'Bäckerei Schmidt GmbH & Co. KG · Hauptstr. 5 · 10115 Berlin',
    ]
    const lists = [
      'excluding_tax',
      'including_tax',
      'document_titles',
      'number_marks',
      'date_leads',
      'registration_labels',
      'salutations',
      'addressee_marks',
      'between_parties',
      'trade_words',
    ] as const
    for (const list of lists) {
      const pattern = wholeWords(lexiconWords(list))
      const matcher = phrases(lexiconWords(list))
      for (const line of lines) {
        const m = pattern.exec(line)
        expect([list, matcher.find(line)?.start, matcher.find(line)?.end]).toEqual([list, m?.index, m ? m.index + m[0].length : undefined])
      }
    }
    for (const asWritten of [false, true]) {
      const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${legalFormsSource(asWritten)})(?![\\p{L}\\p{N}])`, asWritten ? 'u' : 'iu')
      for (const line of lines) {
        const m = pattern.exec(line)
        const found = legalForms(asWritten).find(line)
        expect([found?.start, found?.end]).toEqual([m?.index, m ? m.index + m[0].length : undefined])
      }
    }
  })
})
