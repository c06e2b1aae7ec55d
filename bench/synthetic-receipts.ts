/**
 * Receipts of made-up senders for bench/learn.ts's cost of 10,000 learned layouts: seeded, so
 * every run learns the same layouts. Neighbours (forty senders) share a street and a town, every
 * receipt prints "TAX INVOICE", "DATE", "TOTAL" and "THANK YOU", as real ones do.
 */
import { layOut, type PositionedWord } from '../src/modules/extraction/readers/layout'
import type { DocumentText } from '../src/modules/extraction/readers/types'

/** A generator of words that look like names and places, seeded: the same layouts every run. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

const SYLLABLES = 'ka ri mo ta se lu an be chi do fa ga hu in jo ke la mi na po qu ra so tu vi wa ya zu el or un'.split(' ')

function syntheticWord(next: () => number, parts = 2 + Math.floor(next() * 2)): string {
  let word = ''
  for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)]
  return word.toUpperCase()
}

/** A receipt of a made-up sender, as a laid-out page: letterhead, a few items, a total and a date. */
export function syntheticReceipt(sender: number, copy: number): { document: DocumentText; values: Record<string, unknown> } {
  const next = random(sender * 7919 + 17)
  const places = random(Math.floor(sender / 40)) // neighbours share a town and a street
  const name = `${syntheticWord(next)} ${syntheticWord(next)} TRADING`
  const street = `NO ${1 + Math.floor(next() * 90)}, JALAN ${syntheticWord(places)}`
  const town = `${String(10000 + Math.floor(places() * 89999))} ${syntheticWord(places)}`
  const registration = `(${String(100000 + Math.floor(next() * 899999))}-${'ABCDKMPTW'[Math.floor(next() * 9)]})`
  const items = random(sender * 31 + copy)
  const gst = `GST REG ${String(Math.floor(next() * 1e12)).padStart(12, '0')}`
  const phone = `TEL ${String(Math.floor(next() * 1e9)).padStart(9, '0')}`
  const footer = [0, 1].map(() => Array.from({ length: 4 }, () => syntheticWord(next)).join(' '))
  const rows = Array.from(
    { length: 2 + Math.floor(items() * 6) },
    () => [`${syntheticWord(items)} ${syntheticWord(items)}`, (1 + Math.floor(items() * 5000) / 100).toFixed(2)] as const,
  )
  const total = rows.reduce((sum, [, amount]) => sum + Number(amount), 0).toFixed(2)
  const date = `${String(1 + Math.floor(items() * 28)).padStart(2, '0')}/0${1 + Math.floor(items() * 9)}/2018`
  const lines: [number, string][][] = [
    [[20, name]],
    [[20, registration]],
    [[20, street]],
    [[20, town]],
    [[20, gst]],
    [[20, phone]],
    [[60, 'TAX INVOICE']],
    [
      [10, 'DATE:'],
      [80, date],
    ],
    ...rows.map(([item, amount]): [number, string][] => [
      [10, item],
      [200, amount],
    ]),
    [
      [120, 'TOTAL'],
      [200, total],
    ],
    [[40, 'THANK YOU']],
    ...footer.map((text): [number, string][] => [[20, text]]),
  ]
  const units: PositionedWord[][] = lines.map((line, row) =>
    line.map(([x, text]) => ({ text, x0: x, y0: 20 + row * 18, x1: x + text.length * 6, y1: 30 + row * 18, size: 10, confidence: 0.95 })),
  )
  const page = layOut(units, 240, 40 + lines.length * 18)
  return {
    document: { pages: [page.text], layout: [page.layout] },
    values: { company_name: name, date: `2018-0${date.slice(4, 5)}-${date.slice(0, 2)}`, total: Number(total) },
  }
}
