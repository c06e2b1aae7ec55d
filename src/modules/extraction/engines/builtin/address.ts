/**
 * Parts of a party's address (D113): the line with the postcode and the city ("80333 München",
 * "DE 12345 Musterstadt", "75008 Paris", "00-950 Warszawa", "Springfield, IL 62704"), the street on
 * the line above it in the same column, and the country on the line below or in the postcode's
 * prefix. Whose address it is: the block's heading ("Lieferant", "Bill to"), the sender line above
 * an envelope window (the seller's), or the name the issuer and recipient readers found above it.
 */
import { vocabularyLanguages, type FieldWords, type Party } from './vocabulary'
import { best, memo, type Answer, type Context, type Plan } from './context'
import type { Line } from './document'
import { issuerAnswer, recipientAnswer } from './names'
import { blockAt, type Heading } from './sides'
import { collapse, fold } from '../../../../lib/text'
import { type PostcodeCity, postcodeCity, SEPARATORS, STREET } from './address-lines'
import { ADDRESS } from './weights'

interface Address extends PostcodeCity {
  street?: string
  line: Line
  /** Column of the postcode's cell. */
  column: number
  party?: Party
}

/** Country names in every lexicon language (folded), for the line under the city. */
const COUNTRY_NAMES: Set<string> = (() => {
  const codes = 'AT BE BG CH CY CZ DE DK EE ES FI FR GB GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI SK US CA AU'.split(' ')
  const names = new Set<string>()
  for (const language of ['en', ...vocabularyLanguages()]) {
    // A runtime without the language's region names gives the codes only: no country is read then, nothing fails.
    try {
      const display = new Intl.DisplayNames([language], { type: 'region' })
      for (const code of codes) names.add(fold(display.of(code) ?? code))
    } catch {}
  }
  return names
})()

/** The answer for a part of an address, of the party the field names (else of the only address). */
export function addressAnswer(field: FieldWords, ctx: Context): Answer | undefined {
  const part = field.addressPart!
  const addresses = documentAddresses(ctx)
  let mine = addresses.filter((address) => (field.party ? address.party === field.party : true))
  let confidence: number = ADDRESS.ofParty
  if (!mine.length && field.party === 'seller') {
    // No heading says whose: an address the document repeats (letterhead and footer) and that is not the buyer's.
    mine = repeated(addresses.filter((address) => !address.party))
    confidence = ADDRESS.repeated
  }
  const values = new Map<string, { count: number; address: Address }>()
  for (const address of mine) {
    const value = address[part]
    if (!value) continue
    const seen = values.get(value)
    values.set(value, { count: (seen?.count ?? 0) + 1, address: seen?.address ?? address })
  }
  const ranked = [...values.entries()].sort((a, b) => b[1].count - a[1].count)
  if (!ranked.length) return undefined
  // Two addresses for one side, equally often: no sure answer.
  if (ranked.length > 1 && ranked[1]![1].count === ranked[0]![1].count) return undefined
  return { value: ranked[0]![0], confidence: ranked.length > 1 ? confidence * ADDRESS.outnumbered : confidence, line: ranked[0]![1].address.line }
}

function repeated(addresses: Address[]): Address[] {
  const key = (address: Address) => `${address.postcode} ${fold(address.city)}`
  const counts = new Map<string, number>()
  for (const address of addresses) counts.set(key(address), (counts.get(key(address)) ?? 0) + 1)
  return addresses.filter((address) => counts.get(key(address))! >= 2)
}

/** Every postcode-and-city line of the document, with its street, country and party. */
function documentAddresses(ctx: Context): Address[] {
  return memo(ctx, 'addresses', () => {
    const seller = sideLine(ctx, issuerAnswer)
    const buyer = sideLine(ctx, recipientAnswer)
    const out: Address[] = []
    // A party's block holds one address: a second under the same heading is someone else's.
    const headingsWithAddress = new Set<Heading>()
    for (const line of ctx.doc.lines) {
      for (const cell of line.cells) {
        const parts = cell.text.split(SEPARATORS)
        const oneLine = parts.length >= 3
        parts.forEach((part, index) => {
          const found = postcodeCity(collapse(part))
          if (!found) return
          const address: Address = { ...found, line, column: cell.start }
          if (oneLine) {
            const street = parts[index - 1] && STREET.test(parts[index - 1]!) ? parts[index - 1] : undefined
            if (street) address.street = collapse(street)
            // A sender line over the envelope window is the seller's.
            address.party = 'seller'
          } else {
            address.street ??= streetAbove(ctx, line, cell.start)
            address.country ??= countryBelow(ctx, line, cell.start)
            const block = blockAt(ctx, line, cell.start)
            const ownBlock = block && !headingsWithAddress.has(block)
            if (block) headingsWithAddress.add(block)
            address.party = ownBlock ? block.party : nearName(ctx, line, cell.start, seller, buyer)
          }
          out.push(address)
        })
      }
    }
    return out
  })
}

/** The cell in the column of `column` on a line. */
function cellAt(line: Line | undefined, column: number): string | undefined {
  return line?.cells.find((cell) => cell.start <= column + 3 && cell.end > column)?.text
}

/**
 * The lines above a line that have a cell in its column, nearest first, passing over lines that
 * print only in another column (an envelope window beside a letterhead's contact lines).
 */
function columnLinesAbove(ctx: Context, line: Line, column: number, count: number): { line: Line; text: string }[] {
  const found: { line: Line; text: string }[] = []
  for (let index = line.index - 1; index >= 0 && line.index - index <= count * 3 && found.length < count; index--) {
    const above = ctx.doc.lines[index]!
    if (above.page !== line.page) break
    const text = cellAt(above, column)
    if (text !== undefined) found.push({ line: above, text })
    else if (!above.cells.length) break
  }
  return found
}

function streetAbove(ctx: Context, line: Line, column: number): string | undefined {
  const street = columnLinesAbove(ctx, line, column, 2).find(({ text }) => STREET.test(collapse(text)))
  return street && collapse(street.text)
}

function countryBelow(ctx: Context, line: Line, column: number): string | undefined {
  const below = ctx.doc.lines[line.index + 1]
  const text = below && below.page === line.page ? cellAt(below, column) : undefined
  return text && COUNTRY_NAMES.has(fold(collapse(text))) ? collapse(text) : undefined
}

/** The line of the name a side's reader found. */
function sideLine(ctx: Context, reader: (plan: Plan, ctx: Context) => Answer | undefined): Line | undefined {
  const owner = reader === issuerAnswer ? 'issuer' : 'recipient'
  const plan: Plan = { spec: { key: owner, label: owner, description: '', type: 'text' }, kind: 'text', owners: new Set([owner]) }
  return best([reader(plan, ctx)])?.line
}

/** An address a few lines of its column under the name of the issuer or the recipient is theirs: the nearer name's. */
function nearName(ctx: Context, line: Line, column: number, seller: Line | undefined, buyer: Line | undefined): Party | undefined {
  const above = columnLinesAbove(ctx, line, column, 5)
  const distance = (name: Line | undefined) => {
    const at = above.findIndex((each) => each.line === name)
    return at < 0 ? Infinity : at
  }
  const [toSeller, toBuyer] = [distance(seller), distance(buyer)]
  if (toSeller === toBuyer) return undefined
  return toSeller < toBuyer ? 'seller' : 'buyer'
}
