/**
 * Which addresses a webhook may not reach unless the operator allows private ones (D83): loopback,
 * private, link-local (cloud metadata), shared (CGNAT), unspecified, multicast and reserved ranges,
 * in IPv4, in IPv6, and IPv4 inside IPv6 (mapped, compatible, translated, NAT64, 6to4, Teredo).
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

/** The IPv4 address in two 16-bit groups. */
function v4Of(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
}

/**
 * IPv6 addresses that carry an IPv4 address are judged by it (D125): mapped (::ffff:0:0/96),
 * compatible (::/96), SIIT-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16,
 * the address in bits 16–47) and Teredo (2001::/32: its server, and its client stored inverted).
 * Ranges that are never a public host are refused whole: the local-use NAT64 prefix
 * (64:ff9b:1::/48, where the operator picks where the IPv4 address sits), discard-only 100::/64,
 * the rest of the IETF protocol block 2001::/23, documentation (2001:db8::/32, 3fff::/20),
 * SRv6 segment IDs (5f00::/16), unique-local, link-local, site-local and multicast.
 */
function isPrivateV6(address: string): boolean {
  const g = v6Groups(address)
  if (!g) return true // not understood: refuse
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0)
  if (zeros(0, 7) && (g[7] === 0 || g[7] === 1)) return true // :: and ::1
  if (zeros(0, 5) && g[5] === 0xffff) return isPrivateV4(v4Of(g[6]!, g[7]!)) // ::ffff:a.b.c.d mapped
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return isPrivateV4(v4Of(g[6]!, g[7]!)) // ::ffff:0:a.b.c.d translated
  if (zeros(0, 6)) return isPrivateV4(v4Of(g[6]!, g[7]!)) // ::a.b.c.d compatible
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return isPrivateV4(v4Of(g[6]!, g[7]!)) // NAT64
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return true // local-use NAT64
  if (g[0] === 0x100 && zeros(1, 4)) return true // discard-only
  if (g[0] === 0x2002) return isPrivateV4(v4Of(g[1]!, g[2]!)) // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return isPrivateV4(v4Of(g[2]!, g[3]!)) || isPrivateV4(v4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)) // Teredo
  if (g[0] === 0x2001 && g[1]! < 0x200) return true // IETF protocol assignments
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true // documentation
  if ((g[0]! & 0xfff0) === 0x3ff0) return true // documentation (3fff::/20)
  if (g[0] === 0x5f00) return true // SRv6 SIDs
  if ((g[0]! & 0xfe00) === 0xfc00) return true // fc00::/7 unique local
  if ((g[0]! & 0xffc0) === 0xfe80) return true // fe80::/10 link-local
  if ((g[0]! & 0xffc0) === 0xfec0) return true // fec0::/10 site-local (deprecated)
  if ((g[0]! & 0xff00) === 0xff00) return true // multicast
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

/** What to do about a refused host, said once (D336): the operator's flag. */
const UNLESS_ALLOWED = 'unless the server is started with --webhooks-allow-private'

/** Why a host may not be registered, judged from its text alone (no DNS); undefined when it may. */
export function refusedHost(hostname: string): string | undefined {
  const host = bareHost(hostname)
  if (isLocalhostName(host)) return `localhost is a loopback address, which webhooks may not reach ${UNLESS_ALLOWED}`
  if ((isIPv4(host) || isIPv6(host)) && isPrivateAddress(host))
    return `${host} is a private, loopback or reserved address, which webhooks may not reach ${UNLESS_ALLOWED}`
  return undefined
}

/** A host that may be reached, with the address checked for it (the one to connect to). */
export type Resolution = { ok: true; address: string } | { ok: false; error: string; retry: boolean }

type Lookup = (host: string) => Promise<{ address: string }[]>

async function lookupAll(host: string): Promise<{ address: string }[]> {
  // Loaded at the first delivery to a name, not when the server starts.
  const { lookup } = await import('node:dns/promises')
  return lookup(host, { all: true })
}

/**
 * Checks, just before a delivery, every address the host resolves to: one private address is
 * enough to refuse (D83). A lookup that fails is worth retrying; a private address is not. The
 * first address is the one the delivery connects to (D126).
 */
export async function checkDeliveryHost(hostname: string, lookup: Lookup = lookupAll): Promise<Resolution> {
  const host = bareHost(hostname)
  if (refusedHost(host)) return { ok: false, error: 'private address refused', retry: false }
  if (isIPv4(host) || isIPv6(host)) return { ok: true, address: host }
  let addresses: { address: string }[]
  try {
    addresses = await lookup(host)
  } catch {
    return { ok: false, error: 'dns lookup failed', retry: true }
  }
  if (addresses.length === 0) return { ok: false, error: 'dns lookup failed', retry: true }
  if (addresses.some(({ address }) => isPrivateAddress(address))) return { ok: false, error: 'private address refused', retry: false }
  return { ok: true, address: addresses[0]!.address }
}

/**
 * The request of a delivery pinned to the address that was checked (D126): the URL names the
 * address, so nothing resolves the name again; `Host` names the host, and over TLS the name is
 * sent as SNI and the certificate is verified against it (`serverName`), as they would be for
 * the name itself.
 */
export function pinnedRequest(url: string, address: string): { url: string; headers: Record<string, string>; tls?: { serverName: string } } {
  const target = new URL(url)
  const host = bareHost(target.hostname)
  if (host === address) return { url, headers: {} }
  const original = target.host
  target.hostname = isIPv6(address) ? `[${address}]` : address
  return { url: target.href, headers: { host: original }, ...(target.protocol === 'https:' && { tls: { serverName: host } }) }
}
