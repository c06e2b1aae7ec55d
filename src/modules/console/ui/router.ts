/** Screens are chosen by the URL's hash, so the page itself is one route on the server. */
export const SCREENS = [
  { path: 'try', label: 'Try a document' },
  { path: 'schemas', label: 'Schemas' },
  { path: 'jobs', label: 'Jobs' },
  { path: 'accuracy', label: 'Accuracy' },
  { path: 'webhooks', label: 'Webhooks' },
  { path: 'keys', label: 'API keys' },
] as const

type ScreenPath = (typeof SCREENS)[number]['path']

/** `#/jobs/job_…` → screen `jobs`, argument `job_…`. */
export function route(): { screen: ScreenPath; argument: string | null } {
  const [, screen, argument] = location.hash.split('/')
  const known = SCREENS.find((entry) => entry.path === screen)
  return { screen: known?.path ?? 'try', argument: known && argument ? decodeURIComponent(argument) : null }
}

export function navigate(screen: ScreenPath, argument?: string) {
  location.hash = `#/${screen}${argument ? `/${encodeURIComponent(argument)}` : ''}`
}
