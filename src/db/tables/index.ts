export * from './accounts'
export * from './schemas'
export * from './jobs'
export * from './webhooks'
