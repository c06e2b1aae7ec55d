/**
 * Prefixed, unguessable, creation-sortable identifiers (D6): a 48-bit millisecond timestamp
 * followed by 100 random bits, in lower-case Crockford base32. Within one millisecond the
 * random part grows by a random step, so IDs from one process sort exactly in creation order.
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'
const TIME_CHARS = 10
const RANDOM_CHARS = 20

/** `whk` webhook endpoints, `msg` webhook messages (one event for one endpoint), `att` delivery attempts, `rev` reviews, `lay` learned layouts. */
export type IdPrefix = 'acc' | 'key' | 'sch' | 'job' | 'whk' | 'msg' | 'att' | 'rev' | 'lay'

let lastTime = -1
let lastRandom: number[] = []

function randomDigits(): number[] {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_CHARS))
  return Array.from(bytes, (byte) => byte & 31)
}

/** Adds a random step to the base-32 digits, so IDs of one millisecond stay ordered but unguessable. */
function increment(digits: number[]): number[] {
  const next = [...digits]
  let carry = 1 + (crypto.getRandomValues(new Uint32Array(1))[0]! >>> 2) // 1 to 2^30 steps
  for (let i = next.length - 1; i >= 0 && carry > 0; i--) {
    const sum = next[i]! + carry
    next[i] = sum % 32
    carry = Math.floor(sum / 32)
  }
  return carry > 0 ? randomDigits() : next // overflowing 100 bits within one millisecond: practically unreachable
}

export function newId(prefix: IdPrefix, now = Date.now()): string {
  if (now <= lastTime) {
    lastRandom = increment(lastRandom)
  } else {
    lastTime = now
    lastRandom = randomDigits()
  }
  let time = ''
  let rest = lastTime
  for (let i = 0; i < TIME_CHARS; i++) {
    time = ALPHABET[rest % 32] + time
    rest = Math.floor(rest / 32)
  }
  return `${prefix}_${time}${lastRandom.map((digit) => ALPHABET[digit]).join('')}`
}

/** True when `value` has the shape of an ID with this prefix; anything else can never exist. */
export function isIdOf(prefix: IdPrefix, value: string): boolean {
  return (
    value.length === prefix.length + 1 + TIME_CHARS + RANDOM_CHARS &&
    value.startsWith(`${prefix}_`) &&
    /^[0-9a-hjkmnp-tv-z]+$/.test(value.slice(prefix.length + 1))
  )
}
