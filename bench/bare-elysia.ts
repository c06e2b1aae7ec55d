/**
 * A yardstick of `bun run bench:startup`: a bare Elysia app with extractd's routes (the same
 * methods and paths, so the router is as large) and nothing behind them, no schemas, no
 * database. Compiled as extractd is. Not part of extractd.
 *
 * Env: HOST, PORT, ROUTES (a JSON list of [method, path]).
 */
import { Elysia } from 'elysia'

const routes: [method: string, path: string][] = JSON.parse(process.env.ROUTES ?? '[["GET","/healthz"]]')
const app = new Elysia()
for (const [method, path] of routes) app.route(method, path, () => ({ status: 'ok' }))
app.listen({ hostname: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 8080), development: false, reusePort: false })

process.on('SIGTERM', () => {
  app.server?.stop()
  process.exit(0)
})
