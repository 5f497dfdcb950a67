import { Worker } from 'node:worker_threads';
import { once } from 'node:events';

export interface Acknowledged {
  eventId: string;
  event: string;
  paymentId?: string;
}

export interface ReceiverSnapshot {
  /** Acknowledged deliveries per endpoint path, by event id (a redelivery of one id is one entry). */
  acknowledged: Map<string, Map<string, Acknowledged>>;
  attempts: number;
  failed: number;
  redelivered: number;
}

/**
 * The server, run in a thread of its own: the suite's main thread also drives the load (signing,
 * sending, checking), and a receiver sharing its event loop would answer late whenever the load
 * is busy, so the sender's timeouts would be the test's, not the notifier's. Plain JavaScript, so
 * the thread needs no TypeScript loader.
 */
const SERVER = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const acknowledged = new Map();
let attempts = 0, failed = 0, redelivered = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    attempts++;
    if (Math.random() < workerData.failureRate) {
      failed++;
      res.writeHead(500).end('try again');
      return;
    }
    const eventId = String(req.headers['x-service-event-id'] ?? '');
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end('not JSON');
      return;
    }
    const path = req.url ?? '/';
    const seen = acknowledged.get(path) ?? new Map();
    acknowledged.set(path, seen);
    if (seen.has(eventId)) redelivered++;
    else seen.set(eventId, { eventId, event: String(body?.event), paymentId: body?.data?.payment_id });
    res.writeHead(200).end('ok');
  });
});
parentPort.on('message', (m) => {
  if (m === 'snapshot') parentPort.postMessage({ acknowledged, attempts, failed, redelivered });
  if (m === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.close());
  }
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

/**
 * The merchants' webhook endpoints, served by the suite over plain HTTP: one path per endpoint, a
 * share of the attempts answered 500 before anything is kept (the sender must retry them), and the
 * rest acknowledged and kept by event id, as a receiver that deduplicates on X-Service-Event-Id does.
 */
export const startFlakyReceiver = async (failureRate: number) => {
  const worker = new Worker(SERVER, { eval: true, workerData: { failureRate } });
  const [{ port }] = (await once(worker, 'message')) as [{ port: number }];
  // One request at a time: each 'snapshot' is answered by the next message, in order.
  let last: Promise<unknown> = Promise.resolve();
  const snapshot = (): Promise<ReceiverSnapshot> => {
    const next = last.then(async () => {
      worker.postMessage('snapshot');
      const [s] = (await once(worker, 'message')) as [ReceiverSnapshot];
      return s;
    });
    last = next.catch(() => undefined);
    return next;
  };
  return {
    urlOf: (path: string) => `http://127.0.0.1:${port}${path}`,
    snapshot,
    close: async () => {
      worker.postMessage('close');
      await once(worker, 'exit');
    },
  };
};
