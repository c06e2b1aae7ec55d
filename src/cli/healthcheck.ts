/** `extractd healthcheck`: a container health probe that needs no curl in the image. */
import type { Output } from './keys'

export async function healthcheck(url: string, io: Output): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) })
    if (response.status === 200) return 0
    io.err(`extractd: ${url} answered ${response.status}`)
  } catch (error) {
    io.err(`extractd: ${url}: ${(error as Error).message}`)
  }
  return 1
}
