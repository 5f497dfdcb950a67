import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting connections and waits for in-flight requests, closing idle keep-alives. */
  close(): Promise<void>;
}

export const listen = (app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    server.once('error', reject);
    server.once('listening', () => {
      const addr = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      resolve({
        server,
        port: addr.port,
        url: `http://${shownHost}:${addr.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
