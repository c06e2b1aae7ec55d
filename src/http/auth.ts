/**
 * Bearer-key authentication as a named plugin (D26). Routes opt in with `auth: true` and get
 * `principal`. The same check also runs on every request under /api/ before its body is read,
 * so a bad key is a 401 even when the body is malformed too.
 */
import { Elysia } from 'elysia'
import type { Db } from '../db/client'
import { authenticateKey, type Principal } from '../modules/keys/service'
import { errors } from './errors'

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

export function authPlugin(db: Db) {
  const principals = new WeakMap<Request, Principal>()

  function authenticate(request: Request): Principal {
    const known = principals.get(request)
    if (known) return known
    const key = BEARER.exec(request.headers.get('authorization') ?? '')?.[1]
    const principal = key === undefined ? undefined : authenticateKey(db, key)
    if (!principal) throw errors.invalidApiKey()
    principals.set(request, principal)
    return principal
  }

  return new Elysia({ name: 'auth' })
    .onRequest(({ request }) => {
      if (new URL(request.url).pathname.startsWith('/api/')) authenticate(request)
    })
    .macro({
      auth: {
        resolve: ({ request }) => ({ principal: authenticate(request) }),
        detail: { security: [{ bearerAuth: [] }] },
      },
    })
}

export type AuthPlugin = ReturnType<typeof authPlugin>
