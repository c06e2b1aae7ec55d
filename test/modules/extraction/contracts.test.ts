/**
 * Contracts in the lexicon languages (D222): the contract reader's clause words come from the
 * lexicons, so a German "Geheimhaltungsvereinbarung", a French "accord de confidentialité", a
 * Dutch "geheimhoudingsovereenkomst" and a Spanish "acuerdo de confidencialidad" are read like an
 * English NDA. The documents are written for these tests.
 */
import { describe, expect, test } from 'bun:test'
import type { JobField as Field } from '../../../src/lib/fields/model'
import { resolveField } from '../../../src/lib/fields/resolve'
import { lexicons } from '../../../src/lib/lexicon'
import { LexiconError, parseLexiconFile } from '../../../src/lib/lexicon/lexicon-file'
import { loadCatalog } from '../../../src/modules/catalog/service'
import { builtinEngine } from '../../../src/modules/extraction/engines/builtin'
import { split } from '../../helpers/answers'

const contract = loadCatalog().get('contract')!
const fields = (keys: string[]): Field[] =>
  contract.fields.filter((field) => keys.includes(field.key)).map((field) => ({ ...resolveField(field), ...(field.aliases ? { aliases: field.aliases } : {}) }))
const CLAUSES = fields(['effective_date', 'governing_law', 'term'])

async function read(text: string, wanted: Field[] = CLAUSES) {
  return split(await builtinEngine.extract({ document: { pages: [text] }, documentType: 'contract', issuedBySeller: false, fields: wanted })).values
}

const GERMAN = `GEHEIMHALTUNGSVEREINBARUNG

zwischen

Müller Maschinenbau GmbH
Industriestraße 12, 70565 Stuttgart
vertreten durch den Geschäftsführer Hans Müller
– nachfolgend „Müller“ genannt –

und

Beta Software AG
Leopoldstraße 5, 80802 München
vertreten durch den Vorstand
– nachfolgend „Beta“ genannt –

Präambel
Die Parteien beabsichtigen, über eine Zusammenarbeit bei der Entwicklung einer Steuerungssoftware zu verhandeln. Zu diesem Zweck werden sie einander vertrauliche Informationen zugänglich machen.

§ 1 Vertrauliche Informationen
Vertrauliche Informationen sind alle Informationen, die eine Partei der anderen schriftlich, mündlich oder in anderer Form zugänglich macht.

§ 2 Pflichten der Parteien
Die empfangende Partei wird die vertraulichen Informationen geheim halten und nur für den genannten Zweck verwenden.

§ 3 Laufzeit
Diese Vereinbarung tritt am 1. März 2024 in Kraft und hat eine Laufzeit von drei (3) Jahren. Die Pflichten aus § 2 bestehen nach Beendigung dieser Vereinbarung für weitere fünf Jahre fort.

§ 4 Anwendbares Recht und Gerichtsstand
Diese Vereinbarung unterliegt dem Recht der Bundesrepublik Deutschland unter Ausschluss des UN-Kaufrechts. Ausschließlicher Gerichtsstand ist Stuttgart.

Stuttgart, den 1. März 2024

Müller Maschinenbau GmbH                  Beta Software AG
Hans Müller, Geschäftsführer              Dr. Eva Schmidt, Vorstand`

const GERMAN_RUNNING = `Vertraulichkeitsvereinbarung

Diese Vereinbarung wird geschlossen zwischen der Nordlicht Energie GmbH, Hafenstraße 3, 20457 Hamburg (nachfolgend „Nordlicht“) und der Weber & Partner KG, Marktplatz 9, 04109 Leipzig (nachfolgend „Weber“).

1. Gegenstand
Die Parteien prüfen eine gemeinsame Ausschreibung. Dafür tauschen sie vertrauliche Unterlagen aus.

2. Geheimhaltung
Die Parteien verpflichten sich, alle erhaltenen Unterlagen vertraulich zu behandeln.

3. Inkrafttreten und Laufzeit
Diese Vereinbarung gilt mit Wirkung zum 15.04.2024. Die Laufzeit dieser Vereinbarung beträgt 24 Monate.

4. Schlussbestimmungen
Es gilt ausschließlich deutsches Recht. Gerichtsstand ist Hamburg.`

const FRENCH = `ACCORD DE CONFIDENTIALITÉ

ENTRE LES SOUSSIGNÉS :

La société Dupont Industrie SAS, au capital de 50 000 euros, dont le siège social est situé 12 rue de la Paix, 75002 Paris, immatriculée au RCS de Paris sous le numéro 123 456 789, représentée par M. Jean Dupont, Président,
ci-après dénommée « Dupont »,

ET

La société Lumière Conseil SARL, dont le siège social est situé 4 place Bellecour, 69002 Lyon, représentée par Mme Claire Martin, Gérante,
ci-après dénommée « Lumière »,

ci-après ensemble les « Parties ».

IL A ÉTÉ CONVENU CE QUI SUIT :

Article 1 – Objet
Le présent accord a pour objet de définir les conditions dans lesquelles les Parties échangent des informations confidentielles dans le cadre d'un projet commun.

Article 2 – Obligations
Chaque Partie s'engage à ne pas divulguer les informations confidentielles reçues de l'autre Partie.

Article 3 – Durée
Le présent accord entre en vigueur le 1er juin 2024 et est conclu pour une durée de deux (2) ans.

Article 4 – Droit applicable
Le présent accord est régi par le droit français. Tout litige relève de la compétence exclusive des tribunaux de Paris.

Fait à Paris, le 28 mai 2024, en deux exemplaires originaux.`

const DUTCH = `GEHEIMHOUDINGSOVEREENKOMST

De ondergetekenden:
Van Dijk Logistiek B.V., gevestigd te Rotterdam, hierna te noemen „Van Dijk”, en
Jansen Software B.V., gevestigd te Utrecht, hierna te noemen „Jansen”,

komen het volgende overeen:

1. Deze overeenkomst treedt in werking op 1 september 2024 en heeft een looptijd van twee (2) jaar.
2. Op deze overeenkomst is Nederlands recht van toepassing.`

const SPANISH = `ACUERDO DE CONFIDENCIALIDAD

Este acuerdo se celebra entre Soluciones Ibéricas S.L., con domicilio en Madrid, y Datos del Sur S.A., con domicilio en Sevilla.

Primera. El presente acuerdo entrará en vigor el 1 de octubre de 2024 y tendrá una duración de tres (3) años.
Segunda. El presente acuerdo se regirá por la legislación española.`

describe('a German NDA (Geheimhaltungsvereinbarung)', () => {
  test('the date it comes into force, German law and its term, not the survival period', async () => {
    expect(await read(GERMAN)).toEqual({
      effective_date: '2024-03-01',
      governing_law: 'Germany',
      term: '3 years',
    })
  })

  test('"mit Wirkung zum", "deutsches Recht" and "Die Laufzeit dieser Vereinbarung beträgt 24 Monate"', async () => {
    expect(await read(GERMAN_RUNNING)).toEqual({
      effective_date: '2024-04-15',
      governing_law: 'Germany',
      term: '24 months',
    })
  })

  test('its title is the heading that names the agreement', async () => {
    expect(await read(GERMAN, fields(['title']))).toEqual({ title: 'GEHEIMHALTUNGSVEREINBARUNG' })
  })
})

describe('a French NDA (accord de confidentialité)', () => {
  test('the date it enters into force, French law and its term', async () => {
    expect(await read(FRENCH)).toEqual({
      effective_date: '2024-06-01',
      governing_law: 'France',
      term: '2 years',
    })
  })

  test('its title is the heading that names the agreement', async () => {
    expect(await read(FRENCH, fields(['title']))).toEqual({ title: 'ACCORD DE CONFIDENTIALITÉ' })
  })
})

describe('a Dutch and a Spanish NDA', () => {
  test('Dutch: "treedt in werking op", "looptijd van twee (2) jaar", "Nederlands recht"', async () => {
    expect(await read(DUTCH)).toEqual({
      effective_date: '2024-09-01',
      governing_law: 'Netherlands',
      term: '2 years',
    })
  })

  test('Spanish: "entrará en vigor el", "duración de tres (3) años", "legislación española"', async () => {
    expect(await read(SPANISH)).toEqual({
      effective_date: '2024-10-01',
      governing_law: 'Spain',
      term: '3 years',
    })
  })
})

describe('the parties in the lexicon languages', () => {
  const PARTIES = fields(['parties'])

  test('German: listed under "zwischen", one block each, up to the preamble', async () => {
    expect(await read(GERMAN, PARTIES)).toEqual({ parties: ['Müller Maschinenbau GmbH', 'Beta Software AG'] })
  })

  test('German: in running text, each after its article ("der Nordlicht Energie GmbH … und der Weber & Partner KG")', async () => {
    expect(await read(GERMAN_RUNNING, PARTIES)).toEqual({ parties: ['Nordlicht Energie GmbH', 'Weber & Partner KG'] })
  })

  test('French: after "entre les soussignés :", each after "La société", joined by "ET" on a line of its own', async () => {
    expect(await read(FRENCH, PARTIES)).toEqual({ parties: ['Dupont Industrie SAS', 'Lumière Conseil SARL'] })
  })

  test('Dutch: after the label "De ondergetekenden:", joined by "en"', async () => {
    expect(await read(DUTCH, PARTIES)).toEqual({ parties: ['Van Dijk Logistiek B.V.', 'Jansen Software B.V.'] })
  })

  test('Spanish: after "entre", joined by "y", with "del" inside a name', async () => {
    expect(await read(SPANISH, PARTIES)).toEqual({ parties: ['Soluciones Ibéricas S.L.', 'Datos del Sur S.A.'] })
  })

  test('English: "AND" in capitals inside a heading joins no parties; the list after "by and between" gives them', async () => {
    const text = [
      'CONSULTING AGREEMENT BETWEEN NORTHWIND SOLAR, INC. AND JANE ROE.',
      'This Agreement is made by and between Northwind Solar, Inc. and Jane Roe.',
    ].join('\n')
    expect(await read(text, PARTIES)).toEqual({ parties: ['Northwind Solar Inc.', 'Jane Roe'] })
  })
})

describe("a clause's words are its own language's", () => {
  test('an English clause is not read with another language\'s words: "a" is no verb joining the agreement to its duration', async () => {
    const text = 'This Agreement, a binding contract between the parties, remains a contract for three (3) years.'
    expect(await read(text, fields(['term']))).toEqual({ term: null })
  })
})

describe("a filed exhibit's title, and a notice period that states one (D400)", () => {
  const title = fields(['title'])
  const body = 'This agreement is made between Acme Corp and Jane Roe.\n1. Confidential Information. Jane Roe shall keep it secret.'

  test("the heading under a filing's exhibit line that wraps it is no title; the heading printed after it is", async () => {
    const wrapped = ['EX-10.5 6 dex105.htm CONFIDENTIALITY, NON-SOLICITATION AND NON-COMPETITION', 'AGREEMENT', 'Exhibit 10.5']
    const text = [...wrapped, 'CONFIDENTIALITY, NON-SOLICITATION AND NON-COMPETITION AGREEMENT', body].join('\n')
    expect(await read(text, title)).toEqual({ title: 'CONFIDENTIALITY, NON-SOLICITATION AND NON-COMPETITION AGREEMENT' })
  })

  test('with no heading, the exhibit line says what the exhibit is, up to the agreement it names', async () => {
    const wrapped = ['EX-10.17 9 dex1017.htm AT-WILL EMPLOYMENT, PROPRIETARY RIGHTS & NO', 'CONFLICTS AGREEMENT', 'Exhibit 10.17', body]
    expect(await read(wrapped.join('\n'), title)).toEqual({ title: 'AT-WILL EMPLOYMENT, PROPRIETARY RIGHTS & NO CONFLICTS AGREEMENT' })
    const runOn = ['EX-10.26 26 ex10-26.txt NON-CIRCUMVENTION AGREEMENT 1 NON-CIRCUMVENTION AGREEMENT This agreement is made', body]
    expect(await read(runOn.join('\n'), title)).toEqual({ title: 'NON-CIRCUMVENTION AGREEMENT' })
    const joined = ['EX-10.01 2 dex1001.htm LETTER AGREEMENT, AND CONFIDENTIALITY AGREEMENT', 'Exhibit 10.01', body]
    expect(await read(joined.join('\n'), title)).toEqual({ title: 'LETTER AGREEMENT, AND CONFIDENTIALITY AGREEMENT' })
  })

  test('a heading that only says "Agreement" or "Contract" labels no title', async () => {
    const text = ['Recitals', 'Agreement', 'NOW THEREFORE, in consideration of the mutual promises, the parties agree as follows:', body].join('\n')
    expect(await read(text, title)).toEqual({ title: null })
  })

  test('a notice period after its label is the duration it states; a heading over another clause states none', async () => {
    const notice = fields(['termination_notice_period'])
    expect(await read(['NON-DISCLOSURE AGREEMENT', body, 'Notice Period: thirty (30) days'].join('\n'), notice)).toEqual({
      termination_notice_period: '30 days',
    })
    const heading = ['NON-DISCLOSURE AGREEMENT', body, 'Termination', '15. WAIVER OF TRIAL BY JURY. EACH OF THE PARTIES WAIVES A JURY.']
    expect(await read(heading.join('\n'), notice)).toEqual({ termination_notice_period: null })
  })
})

describe('the contract section of a lexicon file (D222)', () => {
  const german = lexicons().find((lexicon) => lexicon.language === 'de')!

  test.each([
    [{ contract: { colour: {} } }, '/contract/colour: unknown property'],
    [{ contract: { law: { verb: ['unterliegt'] } } }, '/contract/law/verb: unknown property'],
    [{ contract: { law: { verbs: 'unterliegt' } } }, '/contract/law/verbs: expected an array of words'],
    [{ contract: { term: { leads: ['fü*r'] } } }, '/contract/term/leads/0: a * may only stand'],
    [{ contract: { units: { decade: ['Jahrzehnt'] } } }, '/contract/units/decade: unknown property'],
    [{ contract: { jurisdictions: { Germany: [] } } }, '/contract/jurisdictions/Germany: expected a non-empty array'],
    [{ contract: ['Recht'] }, '/contract: expected an object'],
    [{ larger_numbers: { elf: 11 } }, '/larger_numbers/elf: expected a whole number over 12'],
    [{ larger_numbers: undefined }, '/larger_numbers: missing'],
  ])('a lexicon file with %j fails the build, naming the path', (change, message) => {
    const text = JSON.stringify({ ...german, ...change })
    expect(() => parseLexiconFile({ file: 'data/lexicon/de.json', text })).toThrow(LexiconError)
    expect(() => parseLexiconFile({ file: 'data/lexicon/de.json', text })).toThrow(message)
  })

  test('a group or list left out is read as empty: the language has no such words', () => {
    const text = JSON.stringify({ ...german, contract: { law: { words: ['Recht'] } } })
    const { contract } = parseLexiconFile({ file: 'data/lexicon/de.json', text })
    expect(contract.law.words).toEqual(['Recht'])
    expect(contract.law.verbs).toEqual([])
    expect(contract.term.leads).toEqual([])
    expect(contract.units.year).toEqual([])
    expect(contract.jurisdictions).toEqual({})
  })
})
