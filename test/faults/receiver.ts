import { createServer, type Server } from 'node:http';

export interface Acknowledged {
  eventId: string;
  event: string;
  paymentId?: string;
}

/**
 * The merchants' webhook endpoints, served by the suite over plain HTTP: one path per endpoint, a
 * share of the attempts answered 500 before anything is kept (the sender must retry them), and the
 * rest acknowledged and kept by event id, as a receiver that deduplicates on X-Service-Event-Id does.
 */
export const startFlakyReceiver = async (failureRate: number) => {
  /** Acknowledged deliveries per endpoint path, by event id (a redelivery of one id is one entry). */
  const acknowledged = new Map<string, Map<string, Acknowledged>>();
  let attempts = 0;
  let failed = 0;
  let redelivered = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      attempts++;
      if (Math.random() < failureRate) {
        failed++;
        res.writeHead(500).end('try again');
        return;
      }
      const eventId = String(req.headers['x-service-event-id'] ?? '');
      let body: { event?: string; data?: { payment_id?: string } } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end('not JSON');
        return;
      }
      const path = req.url ?? '/';
      const seen = acknowledged.get(path) ?? new Map<string, Acknowledged>();
      acknowledged.set(path, seen);
      if (seen.has(eventId)) redelivered++;
      else seen.set(eventId, { eventId, event: String(body.event), paymentId: body.data?.payment_id });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    urlOf: (path: string) => `http://127.0.0.1:${port}${path}`,
    acknowledged,
    stats: () => ({ attempts, failed, redelivered }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};
