import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting connections and waits for in-flight requests, closing idle keep-alives. */
  close(): Promise<void>;
}

/** Largest request line plus headers accepted (Node's default); more is a 431 in the envelope. */
export const MAX_HEADER_BYTES = 16 * 1024;

const rawEnvelope = (status: number, reason: string, message: string): string => {
  const body = JSON.stringify({ success: false, error: message, details: [] });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
};

/**
 * Requests the HTTP parser refuses before express sees them (oversized headers or URL, malformed
 * framing) still get the envelope, where the socket can take an answer.
 */
export const answerClientErrors = (server: Server): void => {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    socket.end(
      tooLarge
        ? rawEnvelope(
            431,
            'Request Header Fields Too Large',
            'Request line and headers too large (16 KiB at most)',
          )
        : rawEnvelope(400, 'Bad Request', 'Malformed HTTP request'),
    );
  });
};

export const listen = (app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    answerClientErrors(server);
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
