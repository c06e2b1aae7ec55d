/** Sign-in, then six screens chosen by the URL's hash (#/try, #/schemas, #/jobs, #/accuracy, #/webhooks, #/keys). */
import { useEffect, useState } from 'preact/hooks'
import { documentTypes, session, whenUnauthorized } from './api.ts'
import { route, SCREENS } from './router.ts'
import { AccuracyScreen } from './accuracy.tsx'
import { JobsScreen } from './jobs.tsx'
import { KeysScreen } from './keys.tsx'
import { SchemasScreen } from './schemas.tsx'
import { TryScreen } from './try.tsx'
import { WebhooksScreen } from './webhooks.tsx'

export function App() {
  const [signedIn, setSignedIn] = useState(session.key() !== null)
  const [current, setCurrent] = useState(route)
  const [notice, setNotice] = useState<string | null>(null)

  useEffect(() => {
    const onHash = () => setCurrent(route())
    addEventListener('hashchange', onHash)
    whenUnauthorized(() => {
      session.signOut()
      setNotice('The API key was refused (revoked, or mistyped): sign in with an active key.')
      setSignedIn(false)
    })
    return () => removeEventListener('hashchange', onHash)
  }, [])

  // The screen's heading takes the focus, so a keyboard or screen-reader user lands on it; signed out, the key's field does.
  useEffect(() => {
    document.querySelector<HTMLElement>(signedIn ? 'main h1' : '#api-key')?.focus()
  }, [current.screen, signedIn])

  if (!signedIn)
    return (
      <SignIn
        notice={notice}
        onSignedIn={() => {
          setNotice(null)
          setSignedIn(true)
        }}
      />
    )

  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="bar">
        <span class="brand">extractd</span>
        <nav aria-label="Console">
          <ul>
            {SCREENS.map((entry) => (
              <li key={entry.path}>
                <a href={`#/${entry.path}`} aria-current={current.screen === entry.path ? 'page' : undefined}>
                  {entry.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <a href="/docs" target="_blank" rel="noopener">
          API docs
        </a>
        <button
          type="button"
          class="quiet"
          onClick={() => {
            session.signOut()
            setSignedIn(false)
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main">
        {current.screen === 'try' && <TryScreen schemaId={current.argument} />}
        {current.screen === 'schemas' && <SchemasScreen selected={current.argument} />}
        {current.screen === 'jobs' && <JobsScreen selected={current.argument} />}
        {current.screen === 'accuracy' && <AccuracyScreen />}
        {current.screen === 'webhooks' && <WebhooksScreen selected={current.argument} />}
        {current.screen === 'keys' && (
          <KeysScreen
            onRevokedOwn={() => {
              session.signOut()
              setNotice('You revoked the key this console was signed in with: sign in with another key.')
              setSignedIn(false)
            }}
          />
        )}
      </main>
    </div>
  )
}

function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: () => void }) {
  const [key, setKey] = useState('')
  const [error, setError] = useState<string | null>(notice)
  const [busy, setBusy] = useState(false)

  async function submit(event: Event) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    session.signIn(key.trim())
    try {
      // Any call with the key tells whether it is good; this one is cheap, reads nothing private, and the screens need it.
      await documentTypes()
      onSignedIn()
    } catch (failure) {
      session.signOut()
      setError(failure instanceof Error ? failure.message : 'Sign-in failed: try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <main id="main" class="sign-in">
      <form onSubmit={submit} aria-describedby="sign-in-help">
        <h1 tabIndex={-1}>extractd console</h1>
        <p id="sign-in-help">
          Sign in with an API key: the server printed one at its first start; issue another with <code>extractd keys create --account NAME</code> (from the
          sources: <code>npm run extractd -- keys create --account NAME</code>). It is kept in this tab only and sent to this server alone.
        </p>
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" spellcheck={false} required value={key} onInput={(event) => setKey(event.currentTarget.value)} />
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
