/** The signed-in account's API keys (D337): made here with the key shown once, revoked here, this console's own with a warning. */
import { useEffect, useState } from 'preact/hooks'
import { type ApiKey, api, type CreatedApiKey, call } from './api.ts'

export function KeysScreen({ onRevokedOwn }: { onRevokedOwn: () => void }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function reload() {
    try {
      setKeys((await call(api.GET('/api/v1/keys'))).keys)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  useEffect(() => {
    reload()
  }, [])

  async function create() {
    try {
      setCreated((await call(api.POST('/api/v1/keys'))).key)
      setError(null)
      await reload()
    } catch (failure) {
      setError((failure as Error).message)
    }
  }

  async function revoke(key: ApiKey) {
    const question = key.current
      ? `${key.prefix}… is the key this console is signed in with. Revoking it signs you out now, and every program using it stops working. Revoke it?`
      : `Revoke ${key.prefix}…? Every program using it stops working at once; this cannot be undone.`
    if (!confirm(question)) return
    try {
      await call(api.DELETE('/api/v1/keys/{id}', { params: { path: { id: key.id } } }))
      if (key.current) return onRevokedOwn()
      setError(null)
      await reload()
    } catch (failure) {
      setError((failure as Error).message)
    }
  }

  const active = keys?.filter((key) => !key.revoked_at) ?? []
  const revoked = keys?.filter((key) => key.revoked_at) ?? []
  return (
    <>
      <h1 tabIndex={-1}>API keys</h1>
      <p class="note">Keys of this account. Each works with the same rights; a key is shown only when it is made, and only its hash is kept.</p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="row">
        <button type="button" onClick={create}>
          Create a key
        </button>
      </div>
      {created && (
        <div role="status" class="notice created-key">
          <p>
            Key created. It is shown this once: <code class="secret">{created.key}</code>
          </p>
          <button type="button" class="quiet" onClick={() => setCreated(null)}>
            I have stored it
          </button>
        </div>
      )}
      {keys === null ? (
        <p>Loading…</p>
      ) : (
        <section aria-label="Keys" class="list">
          <div class="scroll">
            <table class="rows">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span class="hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...active, ...revoked].map((key) => (
                  <tr key={key.id} data-key-id={key.id}>
                    <td>
                      <code>{key.prefix}…</code>
                      {key.current && <span class="note"> (this console)</span>}
                    </td>
                    <td>{new Date(key.created_at).toLocaleString()}</td>
                    <td>{key.revoked_at ? `revoked ${new Date(key.revoked_at).toLocaleString()}` : 'active'}</td>
                    <td>
                      {!key.revoked_at && (
                        <button type="button" class="quiet danger" onClick={() => revoke(key)} aria-label={`Revoke ${key.prefix}`}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </>
  )
}
