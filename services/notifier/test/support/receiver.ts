import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { waitFor } from '@stablepay/platform/testing';
import { testCertificate } from './tls.js';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** the raw body, exactly as received (what the signature covers) */
  raw: string;
  body: any;
  eventId: string;
  at: number;
}

/** What the receiver does with a request: answer (after a delay), hang, or cut the connection. */
export type Reply =
  { status?: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang' | 'destroy';
export type Behaviour = (req: ReceivedRequest, nth: number) => Reply;

/**
 * A merchant's endpoint: a real HTTPS server on loopback (self-signed certificate) that records
 * every request with its raw body and answers as each path's behaviour says.
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Receiver> {
    const cert = await testCertificate();
    const server = createServer({ key: cert.keyPem, cert: cert.certPem });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new Receiver(server, (server.address() as AddressInfo).port);
    server.on('connection', (s: Socket) => {
      receiver.sockets.add(s);
      s.on('close', () => receiver.sockets.delete(s));
    });
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        receiver.handle(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res),
      );
    });
    return receiver;
  }

  /** `https://127.0.0.1:<port><path>`, or with another host name that the certificate names. */
  url(path = '/hook', host = '127.0.0.1'): string {
    return `https://${host}:${this.port}${path}`;
  }

  on(path: string, behaviour: Behaviour): this {
    this.behaviours.set(path, behaviour);
    return this;
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  byEvent(eventId: string, path?: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.eventId === eventId && (path === undefined || r.path === path));
  }

  waitForRequests(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    return waitFor(
      () => this.at(path).length >= count && this.at(path),
      timeoutMs,
      `${count} requests at ${path}`,
    );
  }

  private handle(path: string, headers: IncomingHttpHeaders, raw: string, res: ServerResponse): void {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const req: ReceivedRequest = {
      path,
      headers,
      raw,
      body,
      eventId: String(headers['x-service-event-id'] ?? ''),
      at: Date.now(),
    };
    this.requests.push(req);
    const behaviour: Behaviour = this.behaviours.get(path) ?? (() => ({ status: 200, body: 'ok' }));
    const reply = behaviour(req, this.at(path).length);
    if (reply === 'hang') {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (reply === 'destroy') {
      res.socket?.destroy();
      return;
    }
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...(reply.headers ?? {}) });
      res.end(reply.body ?? '');
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  }

  /** Answers every request that is being held, with `status`. */
  release(status = 200): void {
    for (const res of this.hanging) {
      res.writeHead(status).end('released');
    }
    this.hanging.clear();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The receiver's side of the spec's rule, written independently: HMAC over `${ts}.${rawBody}`. */
export const signatureMatches = (secret: string, req: ReceivedRequest): boolean => {
  const ts = String(req.headers['x-service-timestamp']);
  const got = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
  const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${ts}.${req.raw}`).digest('hex')}`);
  return got.length === want.length && timingSafeEqual(got, want);
};
