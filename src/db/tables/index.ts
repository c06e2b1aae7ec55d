export * from './accounts'
export * from './schemas'
