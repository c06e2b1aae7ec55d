/**
 * Bearer-key authentication as a named plugin (D26). Routes opt in with `auth: true` and get
 * `principal`. The same check also runs on every request under /api/ before its body is read,
 * so a bad key is a 401 even when the body is malformed too.
 */
import { Elysia } from 'elysia'
import { errors } from './errors'

/** Who a request acts as: the account of the key it carries, and that key. */
export interface Principal {
  accountId: string
  keyId: string
}

/** The principal of an API key, or undefined for a key that is unknown or revoked (the keys module's). */
export type KeyAuthenticator = (key: string) => Principal | undefined | Promise<Principal | undefined>

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

/** Whether the path of an absolute URL starts with /api/, found without parsing the whole URL. */
function isApiPath(url: string): boolean {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2)
  return pathStart !== -1 && url.startsWith('/api/', pathStart)
}

export function createAuth(authenticateKey: KeyAuthenticator) {
  const principals = new WeakMap<Request, Principal>()

  async function authenticate(request: Request): Promise<Principal> {
    const known = principals.get(request)
    if (known) return known
    const key = BEARER.exec(request.headers.get('authorization') ?? '')?.[1]
    const principal = key === undefined ? undefined : await authenticateKey(key)
    if (!principal) throw errors.invalidApiKey()
    principals.set(request, principal)
    return principal
  }

  const plugin = new Elysia({ name: 'auth' })
    .onRequest(async ({ request }) => {
      if (isApiPath(request.url)) await authenticate(request)
    })
    .macro({
      auth: {
        resolve: async ({ request }) => ({ principal: await authenticate(request) }),
        detail: { security: [{ bearerAuth: [] }] },
      },
    })

  /** The account a request was authenticated as, if it was. */
  const accountOf = (request: Request) => principals.get(request)?.accountId

  return { plugin, accountOf }
}

export type AuthPlugin = ReturnType<typeof createAuth>['plugin']
