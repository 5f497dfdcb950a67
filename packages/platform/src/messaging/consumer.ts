import type { Knex } from 'knex';
import {
  eventBinding,
  parseEvent,
  type EventType,
  type IntegrationEvent,
  type TransferPurpose,
} from '@stablepay/contracts';
import { runWithContext } from '../context.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { PermanentError, errorText, type EventBus } from './bus.js';
import { GroupCommit } from './group-commit.js';

/**
 * Applies one event's effect inside the transaction that also records it in the inbox. The event
 * arrives parsed against the contracts' catalogue: `data` is typed by `type`, never parsed again.
 */
export type EventHandler<T extends EventType = EventType> = (
  event: IntegrationEvent<T>,
  trx: Knex.Transaction,
) => Promise<void>;

/** A service's subscriptions: one typed handler per event type it consumes. */
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface EventConsumerOptions {
  bus: EventBus;
  db: Knex;
  /** The consuming service; names its queue and its inbox rows. */
  consumer: string;
  handlers: EventHandlers;
  /** The purpose this consumer requests transfers for; it receives only those outcomes. */
  addressedAs?: TransferPurpose;
  logger: Logger;
  metrics?: Metrics;
  retryDelaysMs?: number[];
  prefetch?: number;
  /** Runs after a handler's transaction commits, with its event (e.g. wake the outbox relay). */
  afterCommit?: (event: IntegrationEvent) => void;
}

/**
 * Subscribes a service's handlers: every message is parsed against the contracts (unknown types
 * and versions are dead-lettered with the reason), deduplicated through the inbox in the same
 * transaction as its effect, and measured. Deliveries handled at the same time share one
 * transaction (group-commit.ts); each is acknowledged only after its effect committed.
 */
export const subscribeEvents = async (opts: EventConsumerOptions): Promise<void> => {
  const { bus, db, consumer, logger, metrics } = opts;
  const handlers = opts.handlers as Record<string, EventHandler | undefined>;
  const types = Object.keys(handlers) as EventType[];
  const commits = new GroupCommit(db, opts.prefetch ?? 16);
  await bus.subscribe({
    queue: consumer,
    routingKeys: types.map((type) => eventBinding(type, opts.addressedAs)),
    retryDelaysMs: opts.retryDelaysMs,
    prefetch: opts.prefetch,
    handler: async ({ message, attempt }) => {
      const parsed = parseEvent(message.body);
      if (!parsed.ok) {
        metrics?.handlerOutcomes.inc({ queue: consumer, type: message.type, outcome: 'dead_letter' });
        throw new PermanentError(`unacceptable event ${message.type}: ${parsed.reason}`);
      }
      const event = parsed.event;
      const handle = handlers[event.type];
      if (!handle) throw new PermanentError(`no handler for ${event.type}`);
      const labels = { queue: consumer, type: event.type };
      metrics?.handlerWait.observe(labels, Math.max(0, (Date.now() - Date.parse(event.occurredAt)) / 1000));
      const started = process.hrtime.bigint();
      let outcome = 'ok';
      try {
        const ran = await commits.run(
          (trx) =>
            runWithContext({ correlationId: event.correlationId, requestId: event.id }, () =>
              handle(event, trx),
            ),
          { consumer, messageId: event.id, type: event.type },
        );
        if (!ran) outcome = 'duplicate';
        if (outcome === 'ok') opts.afterCommit?.(event);
      } catch (err) {
        outcome = 'retry';
        logger.warn('event handler failed', {
          type: event.type,
          eventId: event.id,
          attempt,
          err: errorText(err),
        });
        throw err;
      } finally {
        metrics?.handlerOutcomes.inc({ ...labels, outcome });
        metrics?.handlerDuration.observe(
          { ...labels, outcome },
          Number(process.hrtime.bigint() - started) / 1e9,
        );
      }
    },
  });
};
