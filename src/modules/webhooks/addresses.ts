/**
 * Which addresses a webhook may not reach unless the operator allows private ones (D83): loopback,
 * private, link-local (cloud metadata), shared (CGNAT), unspecified, multicast and reserved ranges,
 * in IPv4, in IPv6, and IPv4 inside IPv6 (mapped, compatible, NAT64).
 */

/** A dotted-quad IPv4 address, as the URL parser and DNS write them. */
function isIPv4(text: string): boolean {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(text)
}

/** An IPv6 address (node:net would say the same, but loading it costs the idle server several MiB). */
function isIPv6(text: string): boolean {
  return text.includes(':') && v6Groups(text) !== undefined
}

/** [first octets as a 32-bit prefix, prefix length] */
const PRIVATE_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
]

function v4ToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0)
}

function isPrivateV4(address: string): boolean {
  const value = v4ToNumber(address)
  return PRIVATE_V4.some(([base, bits]) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(v4ToNumber(base) / 2 ** (32 - bits)))
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function v6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase().split('%')[0]!
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const value = v4ToNumber(dotted[1]!)
    text = `${text.slice(0, -dotted[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const part = (s: string | undefined) => (s ? s.split(':').map((group) => Number.parseInt(group, 16)) : [])
  const first = part(head)
  const last = part(tail)
  const groups = tail === undefined ? first : [...first, ...Array(8 - first.length - last.length).fill(0), ...last]
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined
}

function isPrivateV6(address: string): boolean {
  const g = v6Groups(address)
  if (!g) return true // not understood: refuse
  const embeddedV4 = () => `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`
  const zeros = (n: number) => g.slice(0, n).every((group) => group === 0)
  if (zeros(8)) return true // ::
  if (zeros(7) && g[7] === 1) return true // ::1
  if (zeros(5) && g[5] === 0xffff) return isPrivateV4(embeddedV4()) // ::ffff:a.b.c.d
  if (zeros(6)) return isPrivateV4(embeddedV4()) // ::a.b.c.d (deprecated compatible form)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) return isPrivateV4(embeddedV4()) // NAT64
  if ((g[0]! & 0xfe00) === 0xfc00) return true // fc00::/7 unique local
  if ((g[0]! & 0xffc0) === 0xfe80) return true // fe80::/10 link-local
  if ((g[0]! & 0xffc0) === 0xfec0) return true // fec0::/10 site-local (deprecated)
  if ((g[0]! & 0xff00) === 0xff00) return true // multicast
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true // documentation
  return false
}

/** True for an IP address a webhook must not reach unless private addresses are allowed. */
export function isPrivateAddress(address: string): boolean {
  if (isIPv4(address)) return isPrivateV4(address)
  if (isIPv6(address)) return isPrivateV6(address)
  return true
}

/** A URL's hostname without IPv6 brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
}

/** `localhost` and its subdomains always resolve to loopback (RFC 6761). */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '')
  return name === 'localhost' || name.endsWith('.localhost')
}

/** Why a host may not be registered, judged from its text alone (no DNS); undefined when it may. */
export function refusedHost(hostname: string): string | undefined {
  const host = bareHost(hostname)
  if (isLocalhostName(host)) return 'localhost is not allowed: webhooks may not reach loopback addresses'
  if ((isIPv4(host) || isIPv6(host)) && isPrivateAddress(host)) return `${host} is a private, loopback or reserved address, which webhooks may not reach`
  return undefined
}

export type Resolution = { ok: true } | { ok: false; error: string; retry: boolean }

/**
 * Checks, just before a delivery, every address the host resolves to: one private address is
 * enough to refuse (D83). A lookup that fails is worth retrying; a private address is not.
 */
export async function checkDeliveryHost(hostname: string): Promise<Resolution> {
  const host = bareHost(hostname)
  if (refusedHost(host)) return { ok: false, error: 'private address refused', retry: false }
  if (isIPv4(host) || isIPv6(host)) return { ok: true }
  let addresses: { address: string }[]
  try {
    // Loaded at the first delivery to a name, not when the server starts.
    const { lookup } = await import('node:dns/promises')
    addresses = await lookup(host, { all: true })
  } catch {
    return { ok: false, error: 'dns lookup failed', retry: true }
  }
  if (addresses.length === 0) return { ok: false, error: 'dns lookup failed', retry: true }
  if (addresses.some(({ address }) => isPrivateAddress(address))) return { ok: false, error: 'private address refused', retry: false }
  return { ok: true }
}
