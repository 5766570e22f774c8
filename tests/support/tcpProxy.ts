import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server (a PostgreSQL database), which a test cuts and restores: cut, every connection
 * through it drops and new ones are refused (nothing listens on its port), as when the database stops; restored, it
 * listens on the same port again, as when the database is back. `url(of)` is `of` with the proxy's host and port.
 */
export type TcpProxy = {
  readonly port: number;
  /** Connections made through it so far. */
  accepted(): number;
  url(of: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
};

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  };
  let accepted = 0;
  const accept = (client: Socket) => {
    accepted += 1;
    track(client);
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((listening, fail) => {
      const next = createServer(accept);
      next.once('error', fail);
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        port = typeof address === 'object' && address ? address.port : port;
        server = next;
        listening();
      });
    });
  const cut = async () => {
    const open = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (open) await new Promise((closed) => open.close(closed));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    accepted: () => accepted,
    url(of) {
      const url = new URL(of);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut,
    restore: async () => {
      if (!server) await listen();
    },
    close: cut,
  };
}
