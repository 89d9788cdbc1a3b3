import net from 'node:net';

/**
 * A TCP relay in front of the test database, so a test can make the server unreachable (stop:
 * open connections are cut and new ones refused) and reachable again (start, on the same port)
 * without touching the shared server.
 */
export class TcpProxy {
  readonly #target: { host: string; port: number };
  readonly #sockets = new Set<net.Socket>();
  #server: net.Server | null = null;
  #port = 0;

  constructor(targetUrl: string) {
    const url = new URL(targetUrl);
    this.#target = { host: url.hostname, port: Number(url.port || 5432) };
  }

  /** `targetUrl` with its host and port replaced by the proxy's. */
  urlFor(targetUrl: string): string {
    const url = new URL(targetUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.#port);
    return url.toString();
  }

  /** Accepts connections (on the port of the previous start, if any). */
  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.#target.port, this.#target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  /** Cuts every relayed connection and refuses new ones. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
