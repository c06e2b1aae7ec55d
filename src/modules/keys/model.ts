/** An account's API keys on the wire (D337): never the key itself, except in the answer that made it. */
import { t } from 'elysia'

const Timestamp = t.String({ format: 'date-time', examples: ['2026-11-21T19:08:00.000Z'] })
const KeyId = t.String({ examples: ['key_01m7zvb9bb611cmatkr3ef5dhzw8cw'] })

export const KeyParams = t.Object({ id: KeyId })

const keyProperties = {
  id: KeyId,
  prefix: t.String({ description: 'The first 10 characters of the key, to tell keys apart.', examples: ['exd_Zq3_-x'] }),
  created_at: Timestamp,
  revoked_at: t.Union([Timestamp, t.Null()], { description: 'When it was revoked; null while it works.' }),
  current: t.Boolean({ description: 'Whether this is the key the request was made with.' }),
}

export const ApiKey = t.Object(keyProperties, { title: 'ApiKey' })

/** The answer to a create: the only time the key is shown. */
export const CreatedApiKey = t.Object(
  { ...keyProperties, key: t.String({ description: 'The key itself, shown only in this answer: store it now.', examples: ['exd_Zq3_-x9…'] }) },
  { title: 'CreatedApiKey' },
)

export const KeyList = t.Object({ keys: t.Array(ApiKey) })
export const KeyEnvelope = t.Object({ key: ApiKey })
export const CreatedKeyEnvelope = t.Object({ key: CreatedApiKey })

export type ApiKey = typeof ApiKey.static
export type CreatedApiKey = typeof CreatedApiKey.static
