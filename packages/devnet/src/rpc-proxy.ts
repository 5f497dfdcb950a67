import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'up' | 'refuse' | 'http_502' | 'http_429' | 'hang';

/**
 * For tests of RPC outages: a JSON-RPC endpoint in front of a real node that a test can break and mend: it forwards requests
 * while `up`, and otherwise drops the connection, answers 502 or 429, or never answers.
 */
export class RpcProxy {
  mode: ProxyMode = 'up';
  requests = 0;
  private server?: Server;
  private readonly hanging = new Set<() => void>();
  /** The node requests are forwarded to; may be set after start (when the node starts later). */
  target = '';

  /** Listens on a free loopback port in front of `target`; returns the proxy's URL. */
  async start(target = ''): Promise<string> {
    this.target = target;
    this.server = createServer((req, res) => {
      this.requests++;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        switch (this.mode) {
          case 'refuse':
            req.socket.destroy();
            return;
          case 'http_502':
          case 'http_429':
            res.statusCode = this.mode === 'http_502' ? 502 : 429;
            res.end('unavailable');
            return;
          case 'hang':
            this.hanging.add(() => res.destroy());
            return;
          default:
            void fetch(this.target, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: Buffer.concat(chunks),
            })
              .then(async (upstream) => {
                res.statusCode = upstream.status;
                res.setHeader('content-type', 'application/json');
                res.end(Buffer.from(await upstream.arrayBuffer()));
              })
              .catch(() => res.destroy());
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const release of this.hanging) release();
    this.hanging.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A loopback port with nothing listening (bound, then released). */
export const deadUrl = async (): Promise<string> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
};
