import { CURRENT_EVENT_VERSION, type EventData, type EventDataInput, eventCatalog } from './catalog.js';
import type { EventType } from './event-types.js';
import type { IntegrationEvent } from './parse.js';

export interface CreateEventInput<T extends EventType> {
  type: T;
  data: EventDataInput<T>;
  producer: string;
  correlationId: string;
  /** internal merchant UUID */
  merchantId: string;
  id?: string;
  occurredAt?: string;
  version?: number;
}

/**
 * Builds an envelope and validates `data` against the catalogue, so a producer cannot publish a
 * message its consumers would reject. Throws on invalid data (a programming error).
 */
export function createEvent<T extends EventType>(input: CreateEventInput<T>): IntegrationEvent<T> {
  const version = input.version ?? CURRENT_EVENT_VERSION;
  const schema = (eventCatalog[input.type] as Record<number, { parse(v: unknown): unknown }>)[version];
  if (!schema) throw new Error(`unknown version ${version} of event "${input.type}"`);
  const data = schema.parse(input.data) as EventData<T>;
  return {
    id: input.id ?? randomUuid(),
    type: input.type,
    version,
    occurredAt: input.occurredAt ?? new Date().toISOString(),
    producer: input.producer,
    correlationId: input.correlationId,
    merchantId: input.merchantId,
    data,
  } as IntegrationEvent<T>;
}

/** Web Crypto is global in Node 20+ and in browsers. */
function randomUuid(): string {
  return (globalThis as unknown as { crypto: { randomUUID(): string } }).crypto.randomUUID();
}
