/** Webhook endpoints (the secret shown once, when made) and each endpoint's delivery attempts. */
import { useEffect, useState } from 'preact/hooks'
import { api, type CreatedWebhook, call, type Delivery, type Webhook } from './api.ts'
import { navigate } from './router.ts'
import { Labeled } from './labeled.tsx'

const EVENTS = ['job.succeeded', 'job.failed'] as const

export function WebhooksScreen({ selected }: { selected: string | null }) {
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null)
  const [created, setCreated] = useState<CreatedWebhook | null>(null)
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>([...EVENTS])
  const [error, setError] = useState<string | null>(null)

  async function reload() {
    try {
      setWebhooks((await call(api.GET('/api/v1/webhooks'))).webhooks)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  useEffect(() => {
    reload()
  }, [])

  async function create(event: Event) {
    event.preventDefault()
    try {
      const { webhook } = await call(api.POST('/api/v1/webhooks', { body: { url: url.trim(), events } as never }))
      setCreated(webhook)
      setUrl('')
      setError(null)
      await reload()
    } catch (failure) {
      setError((failure as Error).message)
    }
  }

  async function remove(webhook: Webhook) {
    if (!confirm(`Delete the endpoint ${webhook.url} and its delivery history?`)) return
    try {
      await call(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } } }))
      await reload()
      navigate('webhooks')
    } catch (failure) {
      setError((failure as Error).message)
    }
  }

  return (
    <>
      <h1 tabIndex={-1}>Webhooks</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <form class="row" onSubmit={create}>
        <Labeled label="Endpoint URL" class="wide">
          {(id) => (
            <input
              id={id}
              type="url"
              required
              maxLength={2048}
              value={url}
              placeholder="https://example.com/hooks/extractd"
              onInput={(event) => setUrl(event.currentTarget.value)}
            />
          )}
        </Labeled>
        <fieldset class="choices">
          <legend>Events</legend>
          {EVENTS.map((name) => (
            <label class="check" key={name}>
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(event) => setEvents(event.currentTarget.checked ? [...events, name] : events.filter((entry) => entry !== name))}
              />
              {name}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={events.length === 0}>
          Add endpoint
        </button>
      </form>
      {created && (
        <div role="status" class="notice">
          <p>
            Endpoint added. Its signing secret is shown this once: <code class="secret">{created.secret}</code>
          </p>
          <button type="button" class="quiet" onClick={() => setCreated(null)}>
            I have stored it
          </button>
        </div>
      )}
      <div class="split">
        <section aria-label="Endpoints" class="list">
          {webhooks === null ? (
            <p>Loading…</p>
          ) : webhooks.length === 0 ? (
            <p class="note">No endpoints yet.</p>
          ) : (
            <ul class="plain items">
              {webhooks.map((webhook) => (
                <li key={webhook.id}>
                  <a href={`#/webhooks/${webhook.id}`} aria-current={webhook.id === selected ? 'true' : undefined}>
                    <strong>{webhook.url}</strong>
                    <span class="note">{webhook.events.join(', ')}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
        {selected && webhooks?.find((webhook) => webhook.id === selected) ? (
          <Deliveries key={selected} webhook={webhooks.find((webhook) => webhook.id === selected)!} onDelete={remove} />
        ) : (
          <p class="note">Choose an endpoint to see its deliveries.</p>
        )}
      </div>
    </>
  )
}

/** A delivery's error with what to do, where the attempt will not be retried (D336). */
function deliveryError(error: string): string {
  return error === 'private address refused'
    ? `${error}: the endpoint's host resolves to a private address; start the server with --webhooks-allow-private to allow it`
    : error
}

function Deliveries({ webhook, onDelete }: { webhook: Webhook; onDelete: (webhook: Webhook) => void }) {
  const [deliveries, setDeliveries] = useState<Delivery[]>([])
  const [hasMore, setHasMore] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function load(after?: string) {
    try {
      const query = { limit: '20', ...(after ? { starting_after: after } : {}) }
      const data = await call(api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: webhook.id }, query } }))
      setDeliveries((earlier) => (after ? [...earlier, ...data.deliveries] : data.deliveries))
      setHasMore(data.has_more)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  useEffect(() => {
    load()
  }, [webhook.id])

  return (
    <section aria-label={`Deliveries to ${webhook.url}`} class="job">
      <div class="row spread">
        <h2>Deliveries</h2>
        <div class="row">
          <button type="button" class="quiet" onClick={() => load()}>
            Refresh
          </button>
          <button type="button" class="quiet danger" onClick={() => onDelete(webhook)}>
            Delete endpoint
          </button>
        </div>
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {deliveries.length === 0 ? (
        <p class="note">No delivery attempts yet.</p>
      ) : (
        <div class="scroll">
          <table class="rows">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Job</th>
                <th scope="col">Attempt</th>
                <th scope="col">Answer</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>{new Date(delivery.created_at).toLocaleString()}</td>
                  <td>{delivery.event}</td>
                  <td>
                    <a href={`#/jobs/${delivery.job_id}`}>{delivery.job_id}</a>
                  </td>
                  <td>{delivery.attempt}</td>
                  <td class={delivery.error ? 'error' : ''}>{delivery.error ? deliveryError(delivery.error) : delivery.status_code}</td>
                  <td>{delivery.duration_ms} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hasMore && (
        <button type="button" class="quiet" onClick={() => load(deliveries.at(-1)?.id)}>
          Load more
        </button>
      )}
    </section>
  )
}
