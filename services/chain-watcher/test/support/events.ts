import { randomBytes, randomUUID } from 'node:crypto';
import { AmqpBus } from '@stablepay/platform';
import { quietLogger } from '@stablepay/platform/testing';

import { waitFor } from '@stablepay/platform/testing';

export { waitFor };

export interface EventObserver {
  /** Every envelope received so far, in arrival order. */
  messages: Array<Record<string, any>>;
  waitFor(match: (e: Record<string, any>) => boolean, timeoutMs?: number): Promise<Record<string, any>>;
  /** Waits until everything published before this call has reached the observer (FIFO queue). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** A queue of its own bound to the run's exchange: sees what the service publishes, as any consumer would. */
export const observeEvents = async (
  amqpUrl: string,
  prefix: string,
  routingKeys: string[],
): Promise<EventObserver> => {
  const bus = new AmqpBus({ url: amqpUrl, prefix, logger: quietLogger('observer') });
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
    waitFor: (match, timeoutMs = 15_000) => waitFor(() => messages.find(match), timeoutMs, 'event'),
    drain: async () => {
      const id = randomUUID();
      await bus.publish({ id, type: 'test.sentinel', body: { id } });
      await waitFor(() => sentinels.has(id), 10_000, 'drain');
    },
    close: () => bus.close(),
  };
};

/** A real service logger at debug level whose formatted lines are kept in memory instead of printed. */
export const capturingLogger = async (service: string) => {
  const { createLogger } = await import('@stablepay/platform');
  const logger = createLogger({ service, level: 'debug' });
  const lines: string[] = [];
  for (const transport of logger.transports) {
    transport.log = (info: Record<string | symbol, unknown>, done: () => void) => {
      lines.push(String(info[Symbol.for('message')]));
      done();
    };
  }
  return { logger, lines };
};
