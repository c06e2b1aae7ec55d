/**
 * For end-to-end tests of jobs: an OpenAI-compatible endpoint the test controls, an upload
 * form, and a call of a running server with its first key.
 */
import type { RunningServer } from './process'

export function upload(content: string | Uint8Array, name: string, extract: object): FormData {
  const form = new FormData()
  form.set('file', new File([content], name))
  form.set('extract', JSON.stringify(extract))
  return form
}

/**
 * An OpenAI-compatible endpoint that answers, for `invoice_number`, what `answer` makes of the
 * number in the document (it may hold its answer back), counting the requests.
 */
export function llmStub(answer: (invoiceNumber: string | null, attempt: number) => Promise<string | null>) {
  let requests = 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const attempt = ++requests
      const body = (await request.json()) as { messages: { content: string }[] }
      const number = /Invoice No\.: (\S+)/.exec(body.messages.map((m) => m.content).join('\n'))?.[1] ?? null
      const value = await answer(number, attempt)
      const content = JSON.stringify({ values: { invoice_number: value }, pages: { invoice_number: value ? 1 : null } })
      return Response.json({ choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] })
    },
  })
  return { server, requests: () => requests }
}

export async function api(server: RunningServer, path: string, init: RequestInit = {}) {
  const response = await fetch(server.url + path, {
    ...init,
    headers: { authorization: `Bearer ${server.firstKey ?? ''}`, ...(init.headers as Record<string, string>) },
  })
  return { status: response.status, body: (await response.json()) as any }
}
