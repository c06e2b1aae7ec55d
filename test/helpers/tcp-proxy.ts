/**
 * A TCP proxy in front of a server, for tests of a lost database: `cut()` drops every connection
 * and refuses new ones, as a server that went away; `restore()` lets them through again.
 */
import type { Socket, TCPSocketListener } from 'bun'

export async function tcpProxy(target: { hostname: string; port: number }) {
  type Side = { peer?: Socket<Side>; pending: Uint8Array[] }
  const open = new Set<Socket<Side>>()
  let listener: TCPSocketListener<Side> | undefined
  let port = 0

  const forward = (to: Socket<Side> | undefined, data: Uint8Array, side: Side) => {
    if (to) to.write(data)
    else side.pending.push(new Uint8Array(data))
  }

  function listen() {
    listener = Bun.listen<Side>({
      hostname: '127.0.0.1',
      port,
      socket: {
        async open(client) {
          client.data = { pending: [] }
          open.add(client)
          const upstream = await Bun.connect<Side>({
            ...target,
            socket: {
              open(server) {
                server.data = { peer: client, pending: [] }
                open.add(server)
              },
              data: (server, data) => forward(server.data.peer, data, server.data),
              close(server) {
                open.delete(server)
                server.data.peer?.end()
              },
              error(server) {
                server.data.peer?.end()
              },
            },
          }).catch(() => undefined)
          if (!upstream) return void client.end()
          client.data.peer = upstream
          for (const chunk of client.data.pending.splice(0)) upstream.write(chunk)
        },
        data: (client, data) => forward(client.data.peer, data, client.data),
        close(client) {
          open.delete(client)
          client.data.peer?.end()
        },
        error(client) {
          client.data.peer?.end()
        },
      },
    })
    port = listener.port
  }

  listen()
  return {
    get port() {
      return port
    },
    cut() {
      listener?.stop(true)
      listener = undefined
      for (const socket of open) socket.terminate()
      open.clear()
    },
    restore() {
      if (!listener) listen()
    },
    close() {
      this.cut()
    },
  }
}
