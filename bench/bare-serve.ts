/**
 * A yardstick of `bun run bench:startup`: bare Bun.serve answering /healthz, nothing else.
 * Compiled as extractd is. Not part of extractd.
 *
 * Env: HOST, PORT.
 */
const server = Bun.serve({
  hostname: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 8080),
  development: false,
  routes: { '/healthz': Response.json({ status: 'ok' }) },
  fetch: () => new Response('Not Found', { status: 404 }),
})

process.on('SIGTERM', () => {
  server.stop()
  process.exit(0)
})
