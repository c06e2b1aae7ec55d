/**
 * The lines of a postal address as printed: a postcode and its city, a street with its number, and
 * the separators of an address on one line. The address reader reads them (address.ts), and the
 * name readers look for them (names.ts: an envelope window holds an address).
 */
import { lettersInARow } from './text'

export interface PostcodeCity {
  postcode: string
  city: string
  country?: string
}

/** Postcode first (most of Europe): an optional country prefix, the code, then the city. */
const POSTCODE_CITY =
  /^(?:([A-Z]{1,3})[- ])?(\d{5}|\d{4}(?: ?[A-Z]{2}(?![\p{L}]))?|\d{2}-\d{3}|\d{3} \d{2})\s+(\p{Lu}[\p{L}'’.-]*(?:[ -][\p{L}'’.()-]+){0,3})(?:,\s*(\p{L}[\p{L} ]+))?$/u

/** City first, then state and ZIP (the United States). */
const CITY_STATE_ZIP = /^(\p{Lu}[\p{L} .'-]{1,30}),\s*([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/u

/** A street line: words and a house number ("Hauptstr. 5", "12 Main Street", "ul. Długa 3/5"). */
export const STREET = /^(?=.*\p{L}{2})(?:\d+[a-z]?,?\s+\p{L}.*|.*\p{L}\.?\s+\d+(?:\s?[a-zA-Z])?(?:[/-]\d+[a-z]?)?)$/u

/** Separators of a one-line address ("ACME GmbH · Hauptstr. 1 · 12345 Berlin"). */
export const SEPARATORS = /\s*[·•●|]\s*|\s+[-–]\s+/

/** A postcode and its city ("12345 Berlin", "1012 AB Amsterdam", "Springfield, IL 62701"), when the text is one. */
export function postcodeCity(text: string): PostcodeCity | undefined {
  const european = POSTCODE_CITY.exec(text)
  if (european) {
    const written = european[3]!
    const city = written.endsWith(',') || written.endsWith('.') ? written.slice(0, -1) : written
    // "12 Stk", "2020 Total": a city is a word of three letters or more.
    if (!lettersInARow(city, 3)) return undefined
    const country = european[4] ?? european[1]
    return { postcode: european[2]!, city, ...(country ? { country } : {}) }
  }
  const american = CITY_STATE_ZIP.exec(text)
  if (american) return { postcode: american[3]!, city: american[1]!.trim() }
  return undefined
}
