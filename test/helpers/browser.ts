/**
 * Debian's Chromium, headless, for the browser tests of the binary's pages. CI installs it; where
 * it is missing (and not in CI) those tests are skipped. The flags keep it from reaching for
 * networks the machine does not have.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Whether the browser tests run here. */
export const browserRuns = existsSync(CHROMIUM) || process.env.CI === 'true'

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Only the servers under test, on this machine, resolve: a page cannot reach another host.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
    ],
  })
}
