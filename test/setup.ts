/** Preloaded before every test file (bunfig.toml): what every test needs done after it. */
import { afterEach } from 'bun:test'
import { closeTestDatabases } from './helpers/database'

afterEach(closeTestDatabases)
