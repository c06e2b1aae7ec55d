/** Entry point of the `extractd` executable: reads the command line and runs one command. */
import type { Output } from './cli/keys'
import { type Command, readCommand, UsageError } from './config'
import { VERSION } from './version'

const io: Output = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}

// Each command loads only its own code: a health probe or `--version` does not load the server (D150).
async function run(command: Command): Promise<number | undefined> {
  switch (command.name) {
    case 'help':
      io.out(command.text)
      return 0
    case 'version':
      io.out(`extractd ${VERSION}`)
      return 0
    case 'serve':
      await (await import('./cli/serve')).serve(command.config, io)
      return undefined // keeps running until a signal
    case 'keys-create':
      return (await import('./cli/keys')).keysCreate(command.db, command.account, io)
    case 'keys-list':
      return (await import('./cli/keys')).keysList(command.db, command.json, io)
    case 'keys-revoke':
      return (await import('./cli/keys')).keysRevoke(command.db, command.keyId, io)
    case 'healthcheck':
      return (await import('./cli/healthcheck')).healthcheck(command.url, io)
    case 'db-copy':
      return (await import('./cli/db')).dbCopy(command.from, command.to, io)
    case 'extract-worker':
      if ((await import('./modules/extraction/extract-process')).runExtractionProcess()) return undefined // runs until the server ends it
      io.err('extractd: extract-worker is started by extractd serve, not by hand')
      return 2
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
  // By name: the catalog's module is loaded by `serve` only.
  if (error instanceof Error && error.name === 'CatalogError') {
    io.err(`extractd: invalid catalog: ${error.message}`)
    process.exit(2)
  }
  io.err(`extractd: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
