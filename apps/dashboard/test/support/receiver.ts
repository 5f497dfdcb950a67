import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: any;
}

/**
 * A merchant's webhook receiver on loopback (the local stack allows plain http:// to loopback):
 * records every request and answers with the status its path is set to (200 unless told).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, { status: number; body: string }>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const rx = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        rx.received.push({ path: req.url ?? '/', headers: req.headers, body, json });
        const answer = rx.answers.get(req.url ?? '/') ?? { status: 200, body: 'ok' };
        res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return rx;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  answer(path: string, status: number, body = status < 300 ? 'ok' : 'down'): void {
    this.answers.set(path, { status, body });
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Whether a request carries the spec's signature made with this secret. */
export const signedWith = (r: Received, secret: string): boolean =>
  r.headers['x-service-signature'] ===
  `sha256=${createHmac('sha256', secret)
    .update(`${String(r.headers['x-service-timestamp'])}.${r.body}`)
    .digest('hex')}`;
