import { randomBytes, randomUUID } from 'node:crypto';
import { AmqpBus } from '../messaging/amqp-bus.js';
import { quietLogger } from './backends.js';

/**
 * Polls until `check` returns a truthy value; no fixed sleeps. A check that throws is tried again,
 * and its last error is reported on time-out. The second and third arguments are the time-out (ms)
 * and what is awaited, in either order.
 */
export const waitFor = async <T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutOrWhat: number | string = 20_000,
  whatOrTimeout: string | number = 'condition',
  intervalMs = 25,
): Promise<T> => {
  const timeoutMs =
    typeof timeoutOrWhat === 'number'
      ? timeoutOrWhat
      : typeof whatOrTimeout === 'number'
        ? whatOrTimeout
        : 20_000;
  const what =
    typeof timeoutOrWhat === 'string'
      ? timeoutOrWhat
      : typeof whatOrTimeout === 'string'
        ? whatOrTimeout
        : 'condition';
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what} not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
};

/** Sum of one metric's series in Prometheus text that carry the given labels; 0 when absent. */
export const metricValue = (text: string, name: string, labels: Record<string, string> = {}): number => {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    total += Number(line.split(' ').pop());
  }
  return total;
};

export interface EventObserver {
  /** Bodies (integration-event envelopes) of every matching message, in arrival order. */
  messages: Array<Record<string, any>>;
  /** Waits until everything published before this call has reached the observer (FIFO queue). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Collects every message published on a run's exchange for the given routing keys. */
export const observeEvents = async (
  run: { amqpUrl: string; prefix: string },
  routingKeys: string[],
): Promise<EventObserver> => {
  const bus = new AmqpBus({ url: run.amqpUrl, prefix: run.prefix, logger: quietLogger('observer') });
  await bus.connect();
  const messages: Array<Record<string, any>> = [];
  const sentinels = new Set<string>();
  await bus.subscribe({
    queue: `observer-${randomBytes(4).toString('hex')}`,
    routingKeys: [...routingKeys, 'test.sentinel'],
    retryDelaysMs: [],
    handler: async ({ message }) => {
      if (message.type === 'test.sentinel') sentinels.add(message.id);
      else messages.push(message.body);
    },
  });
  return {
    messages,
    drain: async () => {
      const id = randomUUID();
      await bus.publish({ id, type: 'test.sentinel', body: { id } });
      await waitFor(async () => sentinels.has(id));
    },
    close: () => bus.close(),
  };
};
