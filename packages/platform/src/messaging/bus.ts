/** What travels on the bus: the integration-event envelope, as JSON. */
export interface BusMessage {
  id: string;
  type: string;
  /** RabbitMQ routing key; the type unless the event is addressed to one requester. */
  routingKey?: string;
  correlationId?: string;
  /** The whole envelope (id, type, version, occurredAt, producer, correlationId, merchantId, data). */
  body: Record<string, unknown>;
}

export interface Delivery {
  message: BusMessage;
  /** 1 on the first delivery, incremented by every delayed retry. */
  attempt: number;
  /** The broker redelivered it (a consumer died before acknowledging). */
  redelivered: boolean;
}

/** A handler error that no retry can fix (unknown event version, malformed payload). */
export class PermanentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentError';
  }
}

export interface Subscription {
  /** The consuming service's queue, e.g. `payments`; the bus adds its prefix. */
  queue: string;
  /** Routing keys (event types), with AMQP topic wildcards. */
  routingKeys: string[];
  handler: (delivery: Delivery) => Promise<void>;
  /** Delay before each retry; after the last one the message is dead-lettered. */
  retryDelaysMs?: number[];
  prefetch?: number;
}

export interface DeadLetter {
  message: BusMessage;
  error: string;
  attempts: number;
}

export interface EventBus {
  readonly kind: 'amqp' | 'in-process';
  /** Resolves once the broker has taken responsibility for the message (publisher confirm). */
  publish(message: BusMessage): Promise<void>;
  subscribe(subscription: Subscription): Promise<void>;
  /** Fails when the broker cannot be reached; used by /readyz. */
  check(): Promise<void>;
  /** Stops taking new deliveries and waits for handlers in flight. */
  stopConsuming(): Promise<void>;
  close(): Promise<void>;
  /** Reads (without removing) what a queue dead-lettered; for operators and tests. */
  peekDeadLetters(queue: string, max?: number): Promise<DeadLetter[]>;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/** AMQP topic matching: `*` is one word, `#` zero or more. */
export const topicMatches = (pattern: string, key: string): boolean => {
  const p = pattern.split('.');
  const k = key.split('.');
  const match = (i: number, j: number): boolean => {
    if (i === p.length) return j === k.length;
    if (p[i] === '#') return match(i + 1, j) || (j < k.length && match(i, j + 1));
    if (j === k.length) return false;
    return (p[i] === '*' || p[i] === k[j]) && match(i + 1, j + 1);
  };
  return match(0, 0);
};

export const errorText = (err: unknown): string =>
  err instanceof Error ? `${err.name}: ${err.message}` : String(err);
