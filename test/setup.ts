/** Preloaded before every test file (bunfig.toml): what every test needs done after it. */
import { afterAll, afterEach } from 'bun:test'
import { closeTestDatabases } from './helpers/database'
import { killServers } from './helpers/process'

afterEach(closeTestDatabases)
afterAll(killServers)
