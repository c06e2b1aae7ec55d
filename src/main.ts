/** Entry point of the `extractd` executable: reads the command line and runs one command. */
import { dbCopy } from './cli/db'
import { keysCreate, keysList, keysRevoke, type Output } from './cli/keys'
import { healthcheck } from './cli/healthcheck'
import { serve } from './cli/serve'
import { type Command, readCommand, UsageError } from './config'
import { CatalogError } from './modules/catalog/service'
import { VERSION } from './version'

const io: Output = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}

async function run(command: Command): Promise<number | undefined> {
  switch (command.name) {
    case 'help':
      io.out(command.text)
      return 0
    case 'version':
      io.out(`extractd ${VERSION}`)
      return 0
    case 'serve':
      await serve(command.config, io)
      return undefined // keeps running until a signal
    case 'keys-create':
      return keysCreate(command.db, command.account, io)
    case 'keys-list':
      return keysList(command.db, command.json, io)
    case 'keys-revoke':
      return keysRevoke(command.db, command.keyId, io)
    case 'healthcheck':
      return healthcheck(command.url, io)
    case 'db-copy':
      return dbCopy(command.from, command.to, io)
  }
}

try {
  const code = await run(readCommand())
  if (code !== undefined) process.exit(code)
} catch (error) {
  if (error instanceof UsageError) {
    io.err(`extractd: ${error.message}`)
    process.exit(2)
  }
  if (error instanceof CatalogError) {
    io.err(`extractd: invalid catalog: ${error.message}`)
    process.exit(2)
  }
  io.err(`extractd: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
