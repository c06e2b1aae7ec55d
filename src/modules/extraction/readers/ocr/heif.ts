/**
 * What a HEIC/HEIF file asks its decoder to do, read from its boxes before libheif sees it
 * (D184): the primary image, and the coded images (HEVC tiles) that decoding it decodes — one,
 * or the tiles of a grid, the images of an overlay, what a derived image (a rotation, a crop)
 * is made from, and the alpha planes that go with each — with their sizes.
 */
import { ExtractionError } from '../../errors'

/** The primary image and what decoding it costs in coded images. */
export interface HeifPlan {
  width: number
  height: number
  /** Coded images decoded, counted as often as they are used. */
  codedImages: number
  /** Their pixels together. */
  codedPixels: number
  /** Pixels of the images made from them (a grid's or an overlay's canvas). */
  derivedPixels: number
}

interface Box {
  type: string
  start: number
  end: number
}

/** Items, references and properties of a HEIF file, as far as the plan needs them. */
interface Meta {
  primary: number
  types: Map<number, string>
  /** Item → the items it is derived from ('dimg'), in order. */
  derivedFrom: Map<number, number[]>
  /** Item → its auxiliary images, such as alpha ('auxl' references point from the auxiliary to it). */
  auxiliaries: Map<number, number[]>
  sizes: Map<number, { width: number; height: number }>
}

/** Deepest chain of derived images followed: real files have a grid of tiles, maybe rotated. */
const MAX_DERIVATION = 8
/** Coded images counted before the count stops: far past any limit the reader keeps. */
const MAX_COUNTED = 100_000

/** The plan of a HEIF file's primary image; corrupt_document where its boxes cannot be read. */
export function heifPlan(bytes: Uint8Array): HeifPlan {
  const meta = readMeta(bytes)
  const size = meta.sizes.get(meta.primary)
  if (!size) throw corrupt('does not give the size of its image')
  const plan: HeifPlan = { ...size, codedImages: 0, codedPixels: 0, derivedPixels: 0 }
  const visit = (item: number, depth: number) => {
    if (plan.codedImages > MAX_COUNTED) return
    if (depth > MAX_DERIVATION) throw corrupt('has images derived from each other in a loop')
    const { width, height } = meta.sizes.get(item) ?? { width: 0, height: 0 }
    const sources = meta.derivedFrom.get(item)
    if (sources?.length) {
      plan.derivedPixels += width * height
      for (const source of sources) visit(source, depth + 1)
    } else {
      plan.codedImages++
      plan.codedPixels += width * height
    }
    for (const auxiliary of meta.auxiliaries.get(item) ?? []) visit(auxiliary, depth + 1)
  }
  visit(meta.primary, 0)
  return plan
}

function readMeta(bytes: Uint8Array): Meta {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const metaBox = children(view, 0, bytes.length).find((box) => box.type === 'meta')
  if (!metaBox) throw corrupt('has no meta box')
  // meta is a full box: its children follow its version and flags.
  const boxes = children(view, metaBox.start + 4, metaBox.end)
  const find = (type: string) => boxes.find((box) => box.type === type)
  const meta: Meta = { primary: 0, types: new Map(), derivedFrom: new Map(), auxiliaries: new Map(), sizes: new Map() }
  const pitm = find('pitm')
  if (!pitm) throw corrupt('names no primary image')
  meta.primary = view.getUint8(pitm.start) === 0 ? view.getUint16(pitm.start + 4) : view.getUint32(pitm.start + 4)
  const iinf = find('iinf')
  if (iinf) {
    const version = view.getUint8(iinf.start)
    for (const infe of children(view, iinf.start + (version === 0 ? 6 : 8), iinf.end)) {
      if (infe.type !== 'infe') continue
      const infeVersion = view.getUint8(infe.start)
      if (infeVersion < 2) continue
      const idBytes = infeVersion === 2 ? 2 : 4
      const id = idBytes === 2 ? view.getUint16(infe.start + 4) : view.getUint32(infe.start + 4)
      meta.types.set(id, fourcc(bytes, infe.start + 4 + idBytes + 2))
    }
  }
  const iref = find('iref')
  if (iref) {
    const wide = view.getUint8(iref.start) !== 0
    for (const reference of children(view, iref.start + 4, iref.end)) {
      const read = (at: number) => (wide ? view.getUint32(at) : view.getUint16(at))
      const idBytes = wide ? 4 : 2
      const from = read(reference.start)
      const count = view.getUint16(reference.start + idBytes)
      const to: number[] = []
      for (let i = 0; i < count && reference.start + idBytes + 2 + (i + 1) * idBytes <= reference.end; i++)
        to.push(read(reference.start + idBytes + 2 + i * idBytes))
      if (reference.type === 'dimg') meta.derivedFrom.set(from, [...(meta.derivedFrom.get(from) ?? []), ...to])
      else if (reference.type === 'auxl') for (const target of to) meta.auxiliaries.set(target, [...(meta.auxiliaries.get(target) ?? []), from])
    }
  }
  const iprp = find('iprp')
  if (iprp) {
    const inside = children(view, iprp.start, iprp.end)
    const ipco = inside.find((box) => box.type === 'ipco')
    const properties = ipco ? children(view, ipco.start, ipco.end) : []
    for (const ipma of inside.filter((box) => box.type === 'ipma')) {
      const version = view.getUint8(ipma.start)
      const wideIndex = (view.getUint8(ipma.start + 3) & 1) === 1
      let at = ipma.start + 4
      const entries = view.getUint32(at)
      at += 4
      for (let i = 0; i < entries && at < ipma.end; i++) {
        const item = version < 1 ? view.getUint16(at) : view.getUint32(at)
        at += version < 1 ? 2 : 4
        const count = view.getUint8(at++)
        for (let j = 0; j < count && at < ipma.end; j++) {
          const index = wideIndex ? view.getUint16(at) & 0x7fff : view.getUint8(at) & 0x7f
          at += wideIndex ? 2 : 1
          const property = properties[index - 1]
          if (property?.type === 'ispe' && property.start + 12 <= property.end)
            meta.sizes.set(item, { width: view.getUint32(property.start + 4), height: view.getUint32(property.start + 8) })
        }
      }
    }
  }
  return meta
}

/** The boxes between `start` and `end`; a box that runs past its parent is a corrupt file. */
function children(view: DataView, start: number, end: number): Box[] {
  const boxes: Box[] = []
  let at = start
  while (at + 8 <= end) {
    let size = view.getUint32(at)
    let header = 8
    if (size === 1) {
      if (at + 16 > end) throw corrupt('is truncated')
      size = Number(view.getBigUint64(at + 8))
      header = 16
    } else if (size === 0) size = end - at
    if (size < header || at + size > end) throw corrupt('has a box that runs past its end')
    boxes.push({ type: fourcc(new Uint8Array(view.buffer, view.byteOffset), at + 4), start: at + header, end: at + size })
    at += size
  }
  return boxes
}

function fourcc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4))
}

function corrupt(what: string): ExtractionError {
  return new ExtractionError('corrupt_document', `The HEIF image ${what}.`)
}
