import { zodIssuesToDetails } from '../shared/envelope.js';
import { type EventData, eventDataSchema, isKnownEventType, knownVersions } from './catalog.js';
import { IntegrationEventEnvelope } from './envelope.js';
import type { EventType } from './event-types.js';

/** A validated integration event whose `data` type follows from `type`. */
export type IntegrationEvent<T extends EventType = EventType> = {
  [K in T]: Omit<IntegrationEventEnvelope, 'type' | 'data'> & { type: K; data: EventData<K> };
}[T];

export type ParseEventResult = { ok: true; event: IntegrationEvent } | { ok: false; reason: string };

/**
 * Validates the envelope, then `data` against the schema of that type and version. Anything unknown
 * or invalid yields `ok: false` with a reason fit for a dead-letter record; never throws.
 */
export function parseEvent(raw: unknown): ParseEventResult {
  const envelope = IntegrationEventEnvelope.safeParse(raw);
  if (!envelope.success) {
    return { ok: false, reason: `invalid envelope: ${describe(envelope.error.issues)}` };
  }
  const { type, version } = envelope.data;
  if (!isKnownEventType(type)) {
    return { ok: false, reason: `unknown event type "${type}"` };
  }
  const schema = eventDataSchema(type, version);
  if (!schema) {
    return {
      ok: false,
      reason: `unsupported version ${version} of "${type}" (known: ${knownVersions(type).join(', ')})`,
    };
  }
  const data = schema.safeParse(envelope.data.data);
  if (!data.success) {
    return { ok: false, reason: `invalid data for "${type}" v${version}: ${describe(data.error.issues)}` };
  }
  return { ok: true, event: { ...envelope.data, type, data: data.data } as IntegrationEvent };
}

/** Narrowing helper: `if (isEventOfType(e, EventTypes.PaymentCompleted)) e.data.payment_id`. */
export function isEventOfType<T extends EventType>(
  event: IntegrationEvent,
  type: T,
): event is Extract<IntegrationEvent, { type: T }> {
  return event.type === type;
}

function describe(issues: Parameters<typeof zodIssuesToDetails>[0]): string {
  return zodIssuesToDetails(issues)
    .map((d) => `${d.path || '(root)'}: ${d.message}`)
    .join('; ');
}
