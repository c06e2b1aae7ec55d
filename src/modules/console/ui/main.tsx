/** The console's entry: mounts the app into the page /console serves. */
import { render } from 'preact'
import { App } from './app.tsx'

render(<App />, document.getElementById('console')!)
