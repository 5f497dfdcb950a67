/**
 * The ceiling's client, on a thread of its own (webhook-delivery.ts starts it): plain HTTPS POSTs
 * of one body to one URL, `concurrency` in flight, for `ms`. The notifier, its own process, gets a
 * core apart from the receiver; on the receiver's thread the loop would share one core with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';

const { url, ca, body, concurrency, ms } = workerData;
const agent = new Agent({ connect: { ca } });
let done = 0;
const end = performance.now() + ms;
const lane = async () => {
  while (performance.now() < end) {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      dispatcher: agent,
    });
    await res.body.text();
    done++;
  }
};
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, lane));
const elapsedMs = performance.now() - started;
await agent.close();
parentPort.postMessage({ done, elapsedMs });
